/**
 * What waiting players are told about their wait, and what operators see of the waiting pool.
 * Once per heartbeat (`tickMs`) at most, the room takes one pass over the waiting tickets: it counts players by
 * party size, side and zone (the figures), and computes each waiting player's `status`, sent
 * only when it differs from the last one that player received. A matched player's ticket no
 * longer waits, so its statuses stop with its match.
 */
import type { AcceptanceWindow, Policy } from "../core/policy.js";
import type { Ticket } from "../core/types.js";
import type { WaitEstimator } from "../core/wait-estimate.js";

/** The `status` message: sent to each waiting client at most once per heartbeat (`tickMs`), only on change. */
export interface StatusMessage {
  /** Players waiting in this queue (every zone). */
  readonly waiting: number;
  /** For a ticket that names zones: players waiting in each of its zones. */
  readonly waitingByZone?: Readonly<Record<string, number>>;
  /** How long this player has waited so far (ms, whole seconds: it changes once a second). */
  readonly waitedMs: number;
  /**
   * The estimated total wait (ms, whole seconds) of a ticket like this one: the median recent
   * wait of tickets of the same party size, side, zone and rating band, falling back to coarser
   * classes when that class has too little data; null before anyone was matched.
   */
  readonly estimatedWaitMs: number | null;
  /** The ratings this player may currently be matched with, when the queue's policy has such a window. */
  readonly window?: AcceptanceWindow;
  /** The player's ticket (its party's id: the leader's session id). */
  readonly ticketId?: string;
  /**
   * Epoch ms when the ticket entered the queue, and the server's clock when this status was sent:
   * waited so far = `serverTime - waitingSince + (your clock now - your clock when this arrived)`.
   * Statuses are sent only when something moved, so derive the waited time; do not wait for it.
   */
  readonly waitingSince?: number;
  readonly serverTime?: number;
}

/** Waiting players counted by party size, side (`"A"`, `"B"`, `"any"`) and zone. */
export interface WaitingBreakdown {
  readonly players: number;
  readonly tickets: number;
  readonly byPartySize: Readonly<Record<string, number>>;
  readonly bySide: Readonly<Record<string, number>>;
  readonly byZone: Readonly<Record<string, number>>;
}

/** The zones a waiting ticket waits in (by default its own `zones`; the engine knows a choice-free ticket's). */
export type ZonesOf = (ticket: Ticket) => readonly string[] | undefined;

const ownZones: ZonesOf = (ticket) => ticket.zones;

/** Count waiting players by party size, side and zone (a ticket in several zones counts in each). */
export function breakdown(tickets: Iterable<Ticket>, zonesOf: ZonesOf = ownZones): WaitingBreakdown {
  const byPartySize: Record<string, number> = {};
  const bySide: Record<string, number> = {};
  const byZone: Record<string, number> = {};
  let players = 0;
  let count = 0;
  for (const t of tickets) {
    const n = t.players.length;
    players += n;
    count++;
    byPartySize[n] = (byPartySize[n] ?? 0) + n;
    const side = t.side ?? "any";
    bySide[side] = (bySide[side] ?? 0) + n;
    for (const zone of new Set(zonesOf(t) ?? [])) byZone[zone] = (byZone[zone] ?? 0) + n;
  }
  return { players, tickets: count, byPartySize, bySide, byZone };
}

const SECOND = 1000;

/** A waiting ticket's status at `now`. */
export function statusOf(
  ticket: Ticket,
  now: number,
  counts: WaitingBreakdown,
  estimator: WaitEstimator,
  policy: Pick<Policy, "acceptanceWindow">,
  zonesOf: ZonesOf = ownZones,
): StatusMessage {
  const zones = zonesOf(ticket) ?? [];
  const estimate = estimator.estimate(zones === ticket.zones ? ticket : { ...ticket, zones });
  const window = policy.acceptanceWindow?.(ticket.id, now);
  return {
    waiting: counts.players,
    ...(zones.length > 0 ? { waitingByZone: Object.fromEntries(zones.map((z) => [z, counts.byZone[z] ?? 0])) } : {}),
    waitedMs: Math.floor(Math.max(0, now - ticket.enqueuedAt) / SECOND) * SECOND,
    estimatedWaitMs: estimate ? Math.round(estimate.waitMs / SECOND) * SECOND : null,
    ...(window ? { window: { min: window.min, max: window.max } } : {}),
  };
}

/** Where the publisher sends: false when the player has no connected client. */
export type SendToPlayer = (playerId: string, type: "status" | "clients", payload: unknown) => boolean;

/**
 * Sends `status` (and QueueRoom's `clients`: the number of players waiting in the queue) to
 * waiting players, each only when it changed since the last one that player received.
 */
export class StatusPublisher {
  private lastStatus = new Map<string, string>();
  private lastClients = new Map<string, number>();

  constructor(
    private readonly estimator: WaitEstimator,
    private readonly policy: Pick<Policy, "acceptanceWindow">,
    private readonly send: SendToPlayer,
    private readonly zonesOf: ZonesOf = ownZones,
  ) {}

  /** One pass over the waiting tickets: returns the breakdown and sends what changed. */
  publish(waiting: readonly Ticket[], now: number): WaitingBreakdown {
    const counts = breakdown(waiting, this.zonesOf);
    const status = new Map<string, string>();
    const clients = new Map<string, number>();
    for (const ticket of waiting) {
      const message = statusOf(ticket, now, counts, this.estimator, this.policy, this.zonesOf);
      const json = JSON.stringify(message);
      // QueueRoom's `clients`: the players this client may be grouped with (its zones', or the queue's).
      const zones = this.zonesOf(ticket) ?? [];
      const group = zones.length > 0 ? Math.max(...zones.map((z) => counts.byZone[z] ?? 0)) : counts.players;
      for (const p of ticket.players) {
        let connected = true;
        if (this.lastStatus.get(p.sessionId) !== json) connected = this.send(p.sessionId, "status", message);
        if (!connected) continue; // not connected (any more): remember nothing for it
        status.set(p.sessionId, json);
        if (this.lastClients.get(p.sessionId) !== group && !this.send(p.sessionId, "clients", group)) continue;
        clients.set(p.sessionId, group);
      }
    }
    // Players no longer waiting (matched, or gone) are forgotten: nothing more is sent to them.
    this.lastStatus = status;
    this.lastClients = clients;
    return counts;
  }

  /**
   * Players just matched: like QueueRoom, every queued client hears `clients` at least once, so
   * one matched before any status went out is told the size of its group (the match's players).
   */
  matched(playerIds: readonly string[]): void {
    for (const id of playerIds) {
      if (!this.lastClients.has(id) && this.send(id, "clients", playerIds.length))
        this.lastClients.set(id, playerIds.length);
    }
  }

  /** Forget what a player was sent (e.g. it was matched outside the engine's tick). */
  forget(playerId: string): void {
    this.lastStatus.delete(playerId);
    this.lastClients.delete(playerId);
  }
}

/**
 * Runs `task` at most once per `intervalMs`: a request within the interval after the last run
 * is deferred to the interval's end (several such requests make one run).
 */
export class Throttle {
  private lastRun = -Infinity;
  private pending: { clear(): void } | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly task: () => void,
    private readonly clock: { now(): number; setTimeout(fn: () => void, ms: number): { clear(): void } },
  ) {}

  request(): void {
    if (this.pending) return;
    const wait = this.lastRun + this.intervalMs - this.clock.now();
    if (wait <= 0) return this.run();
    this.pending = this.clock.setTimeout(() => {
      this.pending = undefined;
      this.run();
    }, wait);
  }

  cancel(): void {
    this.pending?.clear();
    this.pending = undefined;
  }

  private run(): void {
    this.lastRun = this.clock.now();
    this.task();
  }
}
