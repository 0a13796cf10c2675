/**
 * Rolling figures over the most recent matches: waits per player and imbalance per game.
 * Fixed memory (ring buffers); percentiles are computed only when asked for.
 */
import type { SideMixFigures } from "./side-mix.js";

/** A fixed-size window over the most recent values. */
export class RecentWindow {
  private readonly values: Float64Array;
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.values = new Float64Array(capacity);
  }

  push(value: number): void {
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  get size(): number {
    return this.count;
  }

  mean(): number {
    if (this.count === 0) return 0;
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.values[i];
    return sum / this.count;
  }

  /** Nearest-rank percentile, `p` in [0, 100]; 0 when empty. */
  percentile(p: number): number {
    return this.percentiles([p])[0];
  }

  /** Several nearest-rank percentiles from one sort of the window. */
  percentiles(ps: readonly number[]): number[] {
    const sorted = this.values.slice(0, this.count).sort();
    return ps.map((p) => nearestRank(sorted, p));
  }
}

/**
 * Nearest-rank percentile of ascending `sorted` values, `p` in [0, 100]; 0 when empty.
 * The rank is `ceil(p * n / 100)`: computing `p / 100` first is inexact (7 / 100 * 100 > 7).
 */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(1, Math.ceil((p * sorted.length) / 100)) - 1];
}

/** Figures for one class of tickets (a side, or a zone). */
export interface ClassFigures {
  readonly waitingTickets: number;
  readonly waitingPlayers: number;
  /** Mean wait (ms) of this class's tickets in recent matches; 0 before any. */
  readonly meanWaitMs: number;
  /** How many recent matched tickets that mean covers. */
  readonly recentMatches: number;
}

/** What the engine reports about its queue. */
export interface MatchmakerStats {
  readonly policy: string;
  readonly waitingTickets: number;
  readonly waitingPlayers: number;
  readonly matchesFormed: number;
  /** Human players seated in matches. */
  readonly playersMatched: number;
  /** Seats filled by bots after the maximum wait. */
  readonly botsUsed: number;
  readonly ticketsCancelled: number;
  readonly ticketsRequeued: number;
  /** Mean and 50th, 95th and 99th percentiles of the waits of players in recent matches (ms). */
  readonly meanWaitMs: number;
  readonly p50WaitMs: number;
  readonly p95WaitMs: number;
  readonly p99WaitMs: number;
  /** Mean imbalance of recent matches. */
  readonly meanImbalance: number;
  /** Longest current wait among waiting tickets (ms). */
  readonly oldestWaitMs: number;
  /** Proposals a policy made that could not be assembled (a policy bug; should stay 0). */
  readonly policyErrors: number;
  /** Per side preference (`A`, `B`, `any` = choice-free): waiting now and recent waits. */
  readonly bySide: Readonly<Record<"A" | "B" | "any", ClassFigures>>;
  /** Per zone, in a zoned queue: waiting now (a choice-free ticket counts in each of its zones) and recent waits of the games formed there. */
  readonly byZone?: Readonly<Record<string, ClassFigures>>;
  /** The recent side mix and whether it can be served (Xu et al.'s Fact 3). */
  readonly sideMix: SideMixFigures;
  /** The policy's own report (`Policy.status`), e.g. `{ mode: "greedy", estimatedQ: 0.21 }` for `patient` in `auto` mode; per zone in a zoned queue. */
  readonly policyStatus?: Readonly<Record<string, unknown>>;
}
