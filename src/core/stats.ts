/**
 * Rolling figures over the most recent matches: waits per player and imbalance per game.
 * Fixed memory (ring buffers), and incremental: a push updates a running sum and an ordered
 * copy of the window, so the mean and any percentile cost O(1) to read and nothing is ever
 * sorted (the room reads them on every figures refresh, the engine's `stats()` per tick).
 */
import { RatingRanks } from "./rating-ranks.js";
import type { SideMixFigures } from "./side-mix.js";

/** Windows up to this size keep their order in a sorted array (a push moves at most this many doubles); larger ones in a treap. */
const SORTED_ARRAY_MAX = 1 << 14;

/** The value's place in the order: NaN sorts above everything, as `Float64Array.prototype.sort` puts it. */
const orderKey = (v: number): number => (Number.isNaN(v) ? Infinity : v);

/** The values of a window in ascending order, with O(1) (array) or O(log n) (treap) rank lookups. */
interface OrderedValues {
  insert(value: number): void;
  remove(value: number): void;
  /** The k-th smallest (0-based). */
  at(k: number): number;
}

/** A sorted Float64Array: binary search, and one `copyWithin` per insert or remove. */
class SortedArray implements OrderedValues {
  private readonly values: Float64Array;
  private count = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
  }

  insert(value: number): void {
    const key = orderKey(value);
    const i = this.lowerBound(key);
    this.values.copyWithin(i + 1, i, this.count);
    this.values[i] = key;
    this.count++;
  }

  remove(value: number): void {
    const key = orderKey(value);
    const i = this.lowerBound(key);
    if (i >= this.count || this.values[i] !== key) return;
    this.values.copyWithin(i, i + 1, this.count);
    this.count--;
  }

  at(k: number): number {
    return this.values[k];
  }

  /** First index whose value is ≥ key. */
  private lowerBound(key: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.values[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** A large window: the order-statistic treap of `RatingRanks` (finite values only, so ±∞ and NaN are clamped). */
class TreapValues implements OrderedValues {
  private readonly ranks = new RatingRanks();
  insert(value: number): void {
    this.ranks.add(finite(value));
  }
  remove(value: number): void {
    this.ranks.delete(finite(value));
  }
  at(k: number): number {
    return this.ranks.atRank(k) ?? 0;
  }
}

const finite = (v: number): number =>
  Number.isNaN(v) || v === Infinity ? Number.MAX_VALUE : v === -Infinity ? -Number.MAX_VALUE : v;

/** A fixed-size window over the most recent values, with incremental mean and percentiles. */
export class RecentWindow {
  private readonly values: Float64Array;
  private readonly ordered: OrderedValues;
  private next = 0;
  private count = 0;
  /** Sum of the values held; recomputed from the ring whenever the ring wraps, so rounding never accumulates. */
  private sum = 0;

  constructor(readonly capacity: number) {
    this.values = new Float64Array(capacity);
    this.ordered = capacity <= SORTED_ARRAY_MAX ? new SortedArray(capacity) : new TreapValues();
  }

  push(value: number): void {
    if (this.count === this.capacity) {
      const old = this.values[this.next];
      this.ordered.remove(old);
      this.sum -= old;
    } else {
      this.count++;
    }
    this.values[this.next] = value;
    this.ordered.insert(value);
    this.sum += value;
    this.next = (this.next + 1) % this.capacity;
    if (this.next === 0) this.resum(); // once per `capacity` pushes: O(1) amortized
  }

  get size(): number {
    return this.count;
  }

  /** The mean of the values held (0 when empty); O(1). */
  mean(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /** Nearest-rank percentile, `p` in [0, 100]; 0 when empty; O(1) (O(log n) for very large windows). */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const k = Math.max(1, Math.ceil((p * this.count) / 100)) - 1;
    const v = this.ordered.at(Math.min(k, this.count - 1));
    // The ordered copy holds NaN as +∞; give back what was pushed.
    return v === Infinity && !this.holdsInfinity() ? NaN : v;
  }

  /** Several nearest-rank percentiles. */
  percentiles(ps: readonly number[]): number[] {
    return ps.map((p) => this.percentile(p));
  }

  private resum(): void {
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.values[i];
    this.sum = sum;
  }

  /** Rare path (only when a percentile lands on +∞): whether +∞ itself was pushed, or only NaN. */
  private holdsInfinity(): boolean {
    for (let i = 0; i < this.count; i++) if (this.values[i] === Infinity) return true;
    return false;
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
  /** Mean imbalance of recent team matches (0 in a free-for-all, which has none). */
  readonly meanImbalance: number;
  /** Mean rating spread (highest minus lowest human) of recent matches: a free-for-all's measure. */
  readonly meanSpread: number;
  /** Matches the recent figures (waits, imbalance) cover: 0 before the first, when those figures mean "no data", not 0. */
  readonly recentMatches: number;
  /** Longest current wait among waiting tickets (ms). */
  readonly oldestWaitMs: number;
  /** Proposals a policy made that could not be assembled (a policy bug; should stay 0). */
  readonly policyErrors: number;
  /** Games a policy proposed that the queue's `blocked` rule kept from forming (their tickets waited on). */
  readonly blockedGames: number;
  /** Per side preference (`A`, `B`, `any` = choice-free): waiting now and recent waits. */
  readonly bySide: Readonly<Record<"A" | "B" | "any", ClassFigures>>;
  /** Per zone, in a zoned queue: waiting now (a choice-free ticket counts in each of its zones) and recent waits of the games formed there. */
  readonly byZone?: Readonly<Record<string, ClassFigures>>;
  /** The recent side mix and whether it can be served (Xu et al.'s Fact 3). */
  readonly sideMix: SideMixFigures;
  /** The policy's own report (`Policy.status`), e.g. `{ mode: "greedy", estimatedQ: 0.21 }` for `patient` in `auto` mode; per zone in a zoned queue. */
  readonly policyStatus?: Readonly<Record<string, unknown>>;
}
