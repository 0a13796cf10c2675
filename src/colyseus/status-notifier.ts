/**
 * A quiet `status`: a waiting player hears from the queue when something it cares about moved,
 * not on a clock.
 *
 * - On entering the queue (a join, or a re-queue at the original place) the player is sent its
 *   status (the room holds it until its next run of the policy, and a player that run matches
 *   hears its seat instead): its ticket, `waitingSince` and the server's time, from which the
 *   client derives "waited so far" by itself from then on.
 * - Afterwards a status goes out only on a meaningful change: the estimate moved by a step (5 s,
 *   or a fifth of itself), the acceptance window moved by a step (a rating band), the number
 *   waiting (queue or one of its zones) changed bucket (exact below 10, then 10, 20, 50, 100,
 *   200, 500, ...), and never twice within `minIntervalMs`.
 * - The room calls {@link StatusNotifier.sweep} on its timer: it checks a bounded slice of the
 *   waiting tickets (each ticket once per `minIntervalMs`), and only while something may have
 *   moved: a count changed bucket or an estimate changed since the last complete pass, or the
 *   policy's windows move with time. An idle queue's sweep is O(1); the work per join, leave or
 *   match is O(1).
 * - The waiting breakdown (players by party size, side and zone) is kept up to date on every
 *   entry and exit, never recounted.
 */
import type { AcceptanceWindow } from "../core/policy.js";
import type { Ticket } from "../core/types.js";
import type { WaitEstimator } from "../core/wait-estimate.js";
import { PacedTask, type PaceClock } from "./paced-task.js";
import type { StatusMessage, WaitingBreakdown, ZonesOf } from "./status.js";

/** What a waiting ticket looks like to its players and to operators (a plain copy; no schema). */
export interface WaitingTicket {
  readonly id: string;
  /** The party's mean rating. */
  readonly rating: number;
  readonly partySize: number;
  /** "A", "B", or "" for choice-free. */
  readonly side: string;
  /** The zones it waits in ([] in a queue without zones). */
  readonly zones: readonly string[];
  /** Epoch milliseconds when the ticket first entered the queue (kept through re-queues). */
  readonly waitingSince: number;
}

export interface StatusNotifierOptions {
  readonly estimator: WaitEstimator;
  readonly acceptanceWindow: (ticketId: string, now: number) => AcceptanceWindow | undefined;
  readonly zonesOf: ZonesOf;
  /** false when the player has no connected client. */
  readonly send: (playerId: string, type: "status" | "clients", payload: unknown) => boolean;
  /** The smallest move of the acceptance window worth a message (rating units). */
  readonly windowStep: number;
  /** Whether a ticket's acceptance window may move with time alone (a policy with `acceptanceWindow`). */
  readonly timeDrivenWindows: boolean;
  /** At most one status per player in this interval (ms), except the first. */
  readonly minIntervalMs: number;
}

/** What a ticket's players were last told. */
interface Told {
  at: number;
  estimate: number | null;
  window: AcceptanceWindow | undefined;
  /** The buckets of the queue's and the ticket's zones' counts, as one string. */
  buckets: string;
}

const SECOND = 1000;
/** The smallest move of the estimate worth a message: 5 s, or a fifth of the estimate. */
const ESTIMATE_STEP_MS = 5 * SECOND;

/** A count's bucket: exact below 10, then 1-2-5 steps (10, 20, 50, 100, ...). */
export function countBucket(n: number): number {
  if (n < 10) return Math.max(0, n);
  const e = Math.floor(Math.log10(n));
  const m = n / 10 ** e;
  return 10 + 3 * e + (m >= 5 ? 2 : m >= 2 ? 1 : 0);
}

function estimateMoved(before: number | null, after: number | null): boolean {
  if (before === null || after === null) return before !== after;
  return Math.abs(after - before) >= Math.max(ESTIMATE_STEP_MS, before / 5);
}

export class StatusNotifier {
  /** Waiting tickets in the order they (re-)entered; the sweep walks it round-robin. */
  private readonly tickets = new Map<string, Ticket>();
  private readonly told = new Map<string, Told>();
  private cursor: MapIterator<Ticket> | undefined;
  private players = 0;
  private readonly byPartySize = new Map<string, number>();
  private readonly bySide = new Map<string, number>();
  private readonly byZone = new Map<string, number>();
  /** Each ticket's zones when it entered (what its exit must uncount). */
  private readonly zonesAtEntry = new Map<string, readonly string[]>();
  /** Tickets whose first status waits for `flushEntering`. */
  private readonly held = new Set<string>();
  /** The `clients` count each player was last told (QueueRoom sends it at least once to everyone). */
  private readonly toldClients = new Map<string, number>();
  /** Messages sent, by type (for tests and the load harness). */
  readonly sent = { status: 0, clients: 0 };
  /** Bumped when a status may have moved for many tickets: a count changed bucket, or the estimates changed. */
  private epoch = 0;
  /** The epoch the current pass of the sweep started at, and whether it deferred a ticket (interval not over). */
  private passEpoch = 0;
  private passDeferred = false;
  /** The epoch of the last complete pass that deferred nothing: no ticket can have moved since. */
  private settledEpoch = -1;

  constructor(private readonly options: StatusNotifierOptions) {}

  /** Waiting players, by party size, side (`A`, `B`, `any`) and zone; O(classes). */
  breakdown(): WaitingBreakdown {
    return {
      players: this.players,
      tickets: this.tickets.size,
      byPartySize: Object.fromEntries(this.byPartySize),
      bySide: Object.fromEntries(this.bySide),
      byZone: Object.fromEntries(this.byZone),
    };
  }

  /** A ticket entered the queue (joined, or came back to its place): count it and tell its players at once. */
  waiting(ticket: Ticket, now: number): void {
    this.register(ticket);
    this.check(ticket, now, true);
  }

  /**
   * Like {@link waiting}, but the first status waits for {@link flushEntering} (the room calls it
   * after its next run of the policy): a player that run matches hears `seat`, not a status first.
   */
  entering(ticket: Ticket): void {
    this.register(ticket);
    this.held.add(ticket.id);
  }

  /** Send the first status of every ticket {@link entering} held that is still waiting and not told yet. */
  flushEntering(now: number): void {
    for (const id of this.held) {
      const ticket = this.tickets.get(id);
      if (ticket && !this.told.has(id)) this.check(ticket, now, true);
    }
    this.held.clear();
  }

  /** Whether a first status waits for {@link flushEntering}. */
  get holding(): boolean {
    return this.held.size > 0;
  }

  private register(ticket: Ticket): void {
    if (this.tickets.has(ticket.id)) this.notWaiting(ticket.id);
    this.tickets.set(ticket.id, ticket);
    const zones = [...new Set(this.options.zonesOf(ticket) ?? [])];
    this.zonesAtEntry.set(ticket.id, zones);
    this.count(ticket, zones, +1);
  }

  /** A ticket left the queue (matched, withdrawn, or gone): uncount it; its players hear no more status. */
  notWaiting(ticketId: string): void {
    const ticket = this.tickets.get(ticketId);
    if (!ticket) return;
    this.tickets.delete(ticketId);
    this.held.delete(ticketId);
    this.count(ticket, this.zonesAtEntry.get(ticketId) ?? [], -1);
    this.zonesAtEntry.delete(ticketId);
    this.told.delete(ticketId);
  }

  /** A player is gone for good: forget that it was told `clients`. */
  forget(playerId: string): void {
    this.toldClients.delete(playerId);
  }

  /**
   * Players just matched (the match's humans): like QueueRoom's group, each hears `clients` with
   * the size of its group, the match's human players (whatever the shape: two teams, more, or a
   * free-for-all), unless that is the count it was last told.
   */
  matched(playerIds: readonly string[]): void {
    for (const id of playerIds) {
      if (this.toldClients.get(id) !== playerIds.length && this.options.send(id, "clients", playerIds.length))
        this.sent.clients++;
      this.toldClients.delete(id);
    }
  }

  /**
   * Check the next slice of waiting tickets: `elapsedMs / minIntervalMs` of them (at least one),
   * so that each is looked at about once per interval. Returns how many were checked.
   */
  sweep(now: number, elapsedMs: number): number {
    const n = this.tickets.size;
    if (n === 0) return 0;
    // Nothing moved since a complete pass: an idle queue costs nothing here.
    if (!this.options.timeDrivenWindows && this.settledEpoch === this.epoch && this.cursor === undefined) return 0;
    const interval = Math.max(1, this.options.minIntervalMs);
    let budget = Math.min(n, Math.max(1, Math.ceil((n * elapsedMs) / interval)));
    let checked = 0;
    let wrapped = false;
    while (budget > 0) {
      if (!this.cursor) {
        if (wrapped) break; // at most one new pass per sweep
        this.cursor = this.tickets.values();
        this.passEpoch = this.epoch;
        this.passDeferred = false;
      }
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = undefined;
        wrapped = true;
        if (!this.passDeferred) this.settledEpoch = this.passEpoch;
        if (!this.options.timeDrivenWindows && this.settledEpoch === this.epoch) break;
        continue;
      }
      this.check(next.value, now, false);
      checked++;
      budget--;
    }
    return checked;
  }

  /** The estimates changed (a match recorded its waits): every ticket is looked at again. */
  estimatesMoved(): void {
    this.epoch++;
  }

  /** Look at one ticket: send its status if it is new, or if something moved and the interval has passed. */
  private check(ticket: Ticket, now: number, entering: boolean): void {
    const before = this.told.get(ticket.id);
    if (!entering && before && now - before.at < this.options.minIntervalMs) {
      this.passDeferred = true;
      return;
    }
    const zones = this.zonesAtEntry.get(ticket.id) ?? [];
    const estimate = this.options.estimator.estimate(zones === ticket.zones ? ticket : { ...ticket, zones });
    const estimateMs = estimate ? Math.round(estimate.waitMs / SECOND) * SECOND : null;
    const window = this.options.acceptanceWindow(ticket.id, now);
    const buckets = [countBucket(this.players), ...zones.map((z) => countBucket(this.byZone.get(z) ?? 0))].join(",");
    if (!entering && before) {
      const step = this.options.windowStep;
      const windowMoved =
        (window === undefined) !== (before.window === undefined) ||
        (window !== undefined &&
          before.window !== undefined &&
          (Math.abs(window.min - before.window.min) >= step || Math.abs(window.max - before.window.max) >= step));
      if (!windowMoved && !estimateMoved(before.estimate, estimateMs) && buckets === before.buckets) return;
    }
    const message: StatusMessage = {
      waiting: this.players,
      ...(zones.length > 0
        ? { waitingByZone: Object.fromEntries(zones.map((z) => [z, this.byZone.get(z) ?? 0])) }
        : {}),
      waitedMs: Math.floor(Math.max(0, now - ticket.enqueuedAt) / SECOND) * SECOND,
      estimatedWaitMs: estimateMs,
      ...(window ? { window: { min: window.min, max: window.max } } : {}),
      ticketId: ticket.id,
      waitingSince: ticket.enqueuedAt,
      serverTime: now,
    };
    // QueueRoom's `clients`: the players this client may be grouped with (its busiest zone's, or the queue's).
    const group = zones.length > 0 ? Math.max(...zones.map((z) => this.byZone.get(z) ?? 0)) : this.players;
    let delivered = false;
    for (const p of ticket.players) {
      if (!this.options.send(p.sessionId, "status", message)) continue;
      this.sent.status++;
      delivered = true;
      if (this.toldClients.get(p.sessionId) !== group) {
        if (this.options.send(p.sessionId, "clients", group)) this.sent.clients++;
        this.toldClients.set(p.sessionId, group);
      }
    }
    // A ticket whose players are all disconnected is looked at again on the next sweep.
    if (delivered) this.told.set(ticket.id, { at: now, estimate: estimateMs, window, buckets });
  }

  private count(ticket: Ticket, zones: readonly string[], sign: 1 | -1): void {
    const n = ticket.players.length * sign;
    const bucket = countBucket(this.players);
    this.players += n;
    if (countBucket(this.players) !== bucket) this.epoch++;
    add(this.byPartySize, String(ticket.players.length), n);
    add(this.bySide, ticket.side ?? "any", n);
    for (const z of zones) {
      const before = countBucket(this.byZone.get(z) ?? 0);
      add(this.byZone, z, n);
      if (countBucket(this.byZone.get(z) ?? 0) !== before) this.epoch++;
    }
  }
}

function add(map: Map<string, number>, key: string, n: number): void {
  const value = (map.get(key) ?? 0) + n;
  if (value === 0) map.delete(key);
  else map.set(key, value);
}

/**
 * The shared figures' refresh: at most once per `intervalMs`, and with a large audience less
 * often, so that the frames it costs (one per connected client) stay under `framesPerSecond`
 * whatever the number of clients: a change of the figures is one frame to every client.
 */
export class FiguresRefresh extends PacedTask {
  constructor(
    private readonly intervalMs: number,
    private readonly framesPerSecond: number,
    private readonly audience: () => number,
    task: () => void,
    clock: PaceClock,
  ) {
    super(() => this.interval(), task, clock);
  }

  /** The interval now: `intervalMs`, stretched so that audience / interval ≤ framesPerSecond. */
  interval(): number {
    return Math.max(this.intervalMs, (1000 * this.audience()) / Math.max(1, this.framesPerSecond));
  }
}
