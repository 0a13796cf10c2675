/**
 * Target wait: the queue holds the wait an operator names (queue option `targetWait`: the mean, or
 * a percentile, of the time players spend waiting) by turning its policy's patience online; within
 * that wait the policy's own rule makes the closest games it can.
 *
 * Patience is one number a policy exposes ({@link Policy.setPatience}): 1 is its configured
 * behaviour, 2 waits about twice as long for a closer game (an expanding window grows half as
 * fast, a density window is half as wide), 0.5 half as long.
 *
 * The controller is stochastic approximation (Robbins and Monro) on u = log(patience), run on the
 * queue's own flow, so it reacts to a pool that grows before anyone in it is matched:
 * - mean target T: u falls by `gain` × (players waiting) × dt / T while time passes and rises by
 *   `gain` for each player who stops waiting (matched or gone). Its drift is zero when the
 *   waiting count L equals the departure rate times T, that is (Little's law) when the mean
 *   time in the queue is T;
 * - percentile q: u rises by `gain`·(1 − q) / s for each player who stops waiting and falls by
 *   `gain` / s when a waiting player's wait passes T (s = max(q, 1 − q)), so its drift is zero when
 *   a share 1 − q of the players waits longer than T.
 * A larger gain tracks traffic faster and is noisier; the default (0.01) settles within a few
 * hundred players (docs/simulator.md has the measured settling). Patience is clamped to
 * [1/1000, 1000] and applied to the policy once it moved by 2% (a policy may recompute its pool
 * when patience changes).
 *
 * {@link withTargetWait} wraps a policy: it forwards everything, counts the players the policy
 * holds, and turns the policy's patience. Pure and clock-injected, like the engine.
 */
import { Heap } from "heap-js";
import { MatchmakerError } from "./errors.js";
import type { AcceptanceWindow, Policy } from "./policy.js";
import type { PlayerWindow, Ticket } from "./types.js";

/** The queue option: the wait players accept. */
export interface TargetWaitOptions {
  /** The wait (ms) to hold. */
  readonly waitMs: number;
  /** Hold this percentile of the waits (e.g. 90) instead of the mean. */
  readonly percentile?: number;
  /** Step size per player on log-patience (default 0.01). */
  readonly gain?: number;
}

/** Default controller step per player. */
export const DEFAULT_TARGET_WAIT_GAIN = 0.01;
const MAX_LOG_PATIENCE = Math.log(1000);
/** Patience is re-applied to the policy once it moved by this much (log scale). */
const APPLY_STEP = 0.02;

/** Turns patience so that the waits meet the target. */
export class TargetWaitController {
  readonly waitMs: number;
  readonly percentile: number | undefined;
  readonly gain: number;
  /** log(patience). */
  private u = 0;
  private last: number | undefined;
  private departures = 0;

  constructor(options: TargetWaitOptions) {
    if (!(options.waitMs > 0) || !Number.isFinite(options.waitMs))
      throw new MatchmakerError(
        "invalid_config",
        "targetWait: waitMs: must be a positive number of milliseconds",
        "targetWait.waitMs",
      );
    if (options.percentile !== undefined && !(options.percentile > 0 && options.percentile < 100))
      throw new MatchmakerError(
        "invalid_config",
        "targetWait: percentile: must be between 0 and 100",
        "targetWait.percentile",
      );
    if (options.gain !== undefined && !(options.gain > 0 && options.gain <= 1))
      throw new MatchmakerError("invalid_config", "targetWait: gain: must be above 0 and at most 1", "targetWait.gain");
    this.waitMs = options.waitMs;
    this.percentile = options.percentile;
    this.gain = options.gain ?? DEFAULT_TARGET_WAIT_GAIN;
  }

  /** The patience to apply now (1: the policy as configured). */
  get patience(): number {
    return Math.exp(this.u);
  }

  /** True when patience is as low as it goes (waking up to lower it further is pointless). */
  get atLeastPatience(): boolean {
    return this.u <= -MAX_LOG_PATIENCE;
  }

  /** Players who stopped waiting so far. */
  get players(): number {
    return this.departures;
  }

  /** Time passes to `now` with `waiting` players waiting (mean target: each one's wait counts against patience). */
  advance(now: number, waiting: number): void {
    const dt = this.last === undefined ? 0 : Math.max(0, now - this.last);
    this.last = this.last === undefined ? now : Math.max(this.last, now);
    if (this.percentile === undefined && dt > 0 && waiting > 0) this.move((-this.gain * waiting * dt) / this.waitMs);
  }

  /** `players` stopped waiting (matched, or gone). */
  departed(players: number): void {
    this.departures += players;
    this.move(this.gain * players * (this.percentile === undefined ? 1 : (1 - this.q()) / this.scale()));
  }

  /** Percentile target: `players` have now waited longer than the target. */
  overdue(players: number): void {
    if (this.percentile !== undefined) this.move((-this.gain * players) / this.scale());
  }

  private q(): number {
    return this.percentile! / 100;
  }

  private scale(): number {
    return Math.max(this.q(), 1 - this.q());
  }

  private move(du: number): void {
    this.u = Math.max(-MAX_LOG_PATIENCE, Math.min(MAX_LOG_PATIENCE, this.u + du));
  }
}

/**
 * `policy` with its patience turned by a {@link TargetWaitController}. Throws
 * `MatchmakerError("invalid_config")` when the policy has no patience to turn.
 */
export function withTargetWait(policy: Policy, options: TargetWaitOptions, seats = 2): Policy {
  if (!policy.setPatience)
    throw new MatchmakerError(
      "invalid_config",
      `targetWait: policy "${policy.name}" has no patience to tune (use density-window, expanding-window or difference-wait)`,
      "targetWait",
    );
  return new TargetWaitPolicy(policy, new TargetWaitController(options), seats);
}

interface Waiting {
  readonly players: number;
  readonly overdueAt: number;
  overdue: boolean;
}

/** The wrapper {@link withTargetWait} returns. */
export class TargetWaitPolicy implements Policy {
  readonly name: string;
  private applied = 0;
  private lastNow = -Infinity;
  private waitingPlayers = 0;
  private readonly waiting = new Map<string, Waiting>();
  /** Percentile target: when each waiting ticket passes the target (lazily pruned). */
  private readonly overdue = new Heap<{ id: string; at: number; entry: Waiting }>((a, b) => a.at - b.at);

  constructor(
    readonly inner: Policy,
    readonly controller: TargetWaitController,
    /** Players a game seats: fewer waiting can never play, and the controller then needs no wake-up. */
    private readonly seats = 2,
  ) {
    this.name = inner.name;
    if (inner.acceptanceWindow) this.acceptanceWindow = (id, now) => inner.acceptanceWindow!(id, now);
    if (inner.windowOf) this.windowOf = (ticket, now) => inner.windowOf!(ticket, now);
  }

  acceptanceWindow?: (ticketId: string, now: number) => AcceptanceWindow | undefined;
  windowOf?: (ticket: Ticket, now: number) => PlayerWindow | undefined;

  add(ticket: Ticket, now: number): void {
    this.advance(now);
    this.inner.add(ticket, now);
    this.forget(ticket.id, false);
    const entry: Waiting = {
      players: ticket.players.length,
      overdueAt: ticket.enqueuedAt + this.controller.waitMs,
      overdue: false,
    };
    this.waiting.set(ticket.id, entry);
    this.waitingPlayers += entry.players;
    if (this.controller.percentile !== undefined) this.overdue.push({ id: ticket.id, at: entry.overdueAt, entry });
    this.apply(now);
  }

  remove(ticketId: string): void {
    this.inner.remove(ticketId);
    this.advance(this.lastNow);
    this.forget(ticketId, true);
  }

  poll(now: number): Ticket[][] {
    this.advance(now);
    const games = this.inner.poll(now);
    for (const game of games) for (const t of game) this.forget(t.id, true);
    this.apply(now);
    return games;
  }

  nextWakeup(now: number): number | undefined {
    const inner = this.inner.nextWakeup(now);
    if (this.waitingPlayers < this.seats || this.controller.atLeastPatience) return inner;
    // While players wait, the controller looks again at least once per target wait.
    const own = Math.max(now, this.lastNow) + this.controller.waitMs;
    return inner === undefined ? own : Math.min(inner, own);
  }

  setPatience(patience: number, now: number): void {
    this.inner.setPatience!(patience, now);
  }

  status(): Readonly<Record<string, string | number | boolean>> {
    return {
      ...(this.inner.status?.() ?? {}),
      targetWaitMs: this.controller.waitMs,
      ...(this.controller.percentile !== undefined ? { targetPercentile: this.controller.percentile } : {}),
      patience: Number(this.controller.patience.toPrecision(4)),
    };
  }

  /** Let time pass to `now` for the controller (and mark tickets that passed the target, for a percentile). */
  private advance(now: number): void {
    if (!(now >= this.lastNow)) now = this.lastNow;
    this.lastNow = now;
    this.controller.advance(now, this.waitingPlayers);
    for (let top = this.overdue.peek(); top && top.at <= now; top = this.overdue.peek()) {
      this.overdue.pop();
      if (this.waiting.get(top.id) !== top.entry || top.entry.overdue) continue;
      top.entry.overdue = true;
      this.controller.overdue(top.entry.players);
    }
    if (this.overdue.length > 2 * this.waiting.size + 64)
      this.overdue.init(this.overdue.toArray().filter((o) => this.waiting.get(o.id) === o.entry && !o.entry.overdue));
  }

  /** A ticket stops waiting here; `departed`: it counts as a player who stopped waiting. */
  private forget(ticketId: string, departed: boolean): void {
    const entry = this.waiting.get(ticketId);
    if (!entry) return;
    this.waiting.delete(ticketId);
    this.waitingPlayers -= entry.players;
    if (departed) this.controller.departed(entry.players);
  }

  /** Hand the controller's patience to the policy once it moved enough. */
  private apply(now: number): void {
    const u = Math.log(this.controller.patience);
    if (Math.abs(u - this.applied) <= APPLY_STEP) return;
    this.applied = u;
    this.inner.setPatience!(this.controller.patience, now);
  }
}
