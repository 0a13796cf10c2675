/**
 * The current rating distribution, for percentile windows: a multiset of ratings with
 * O(log n) insert, delete and rank (an order-statistic treap; sorted-btree keeps no subtree
 * sizes). `RatingRanks.recent(n)` keeps only the last n ratings added, so the distribution
 * follows the population that is playing now, not only the few tickets still waiting.
 */

interface TreapNode {
  rating: number;
  /** Copies of this rating in the multiset. */
  count: number;
  /** Ratings in this subtree, copies included. */
  size: number;
  priority: number;
  left: TreapNode | undefined;
  right: TreapNode | undefined;
}

const sizeOf = (node: TreapNode | undefined): number => (node ? node.size : 0);

function update(node: TreapNode): TreapNode {
  node.size = node.count + sizeOf(node.left) + sizeOf(node.right);
  return node;
}

/** Split into ratings < r and ratings ≥ r. */
function split(node: TreapNode | undefined, r: number): [TreapNode | undefined, TreapNode | undefined] {
  if (!node) return [undefined, undefined];
  if (node.rating < r) {
    const [low, high] = split(node.right, r);
    node.right = low;
    return [update(node), high];
  }
  const [low, high] = split(node.left, r);
  node.left = high;
  return [low, update(node)];
}

function merge(a: TreapNode | undefined, b: TreapNode | undefined): TreapNode | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a.priority > b.priority) {
    a.right = merge(a.right, b);
    return update(a);
  }
  b.left = merge(a, b.left);
  return update(b);
}

/**
 * How many recent arrivals make a policy's rating distribution unless its parameters say
 * (`population` of `expanding-window`'s percentile windows and of `density-window`).
 */
export const DEFAULT_POPULATION = 1000;

/** A multiset of ratings with ranks; deterministic (priorities from a fixed-seed generator). */
export class RatingRanks {
  private root: TreapNode | undefined;
  private seed = 0x9e3779b9;
  /** With a capacity: the ratings in insertion order, oldest dropped first. */
  private readonly ring: number[] | undefined;
  private ringStart = 0;

  /** `capacity`: keep only the last `capacity` ratings added (default: keep all). */
  constructor(private readonly capacity = Infinity) {
    if (!(capacity >= 1)) throw new RangeError("RatingRanks capacity must be at least 1");
    this.ring = Number.isFinite(capacity) ? [] : undefined;
  }

  /** A distribution of the last `n` ratings added. */
  static recent(n: number): RatingRanks {
    return new RatingRanks(n);
  }

  get size(): number {
    return sizeOf(this.root);
  }

  add(rating: number): void {
    if (!Number.isFinite(rating)) throw new RangeError("RatingRanks: ratings must be finite");
    if (this.ring) {
      if (this.ring.length - this.ringStart >= this.capacity) this.delete(this.ring[this.ringStart++]);
      this.ring.push(rating);
      // Compact now and then so the ring stays O(capacity).
      if (this.ringStart > this.capacity) {
        this.ring.splice(0, this.ringStart);
        this.ringStart = 0;
      }
    }
    const [low, rest] = split(this.root, rating);
    const [equal, high] = split(rest, nextUp(rating));
    let node = equal;
    if (node) {
      node.count++;
      update(node);
    } else {
      node = { rating, count: 1, size: 1, priority: this.nextPriority(), left: undefined, right: undefined };
    }
    this.root = merge(merge(low, node), high);
  }

  /** Remove one copy of `rating`; false if it is not there. */
  delete(rating: number): boolean {
    const [low, rest] = split(this.root, rating);
    const [equal, high] = split(rest, nextUp(rating));
    let kept = equal;
    const found = equal !== undefined;
    if (equal) {
      equal.count--;
      kept = equal.count > 0 ? update(equal) : undefined;
    }
    this.root = merge(merge(low, kept), high);
    return found;
  }

  /** How many ratings are strictly below `r`, and how many equal it. */
  countBelowAndEqual(r: number): { below: number; equal: number } {
    let below = 0;
    let node = this.root;
    while (node) {
      if (r < node.rating) node = node.left;
      else if (r > node.rating) {
        below += sizeOf(node.left) + node.count;
        node = node.right;
      } else return { below: below + sizeOf(node.left), equal: node.count };
    }
    return { below, equal: 0 };
  }

  /**
   * The percentile of `r` in [0, 1] (mid-rank: ties count half), 0.5 for an empty distribution.
   * Non-decreasing in `r`, so a window in percentiles is an interval of ratings.
   */
  percentile(r: number): number {
    const n = this.size;
    if (n === 0) return 0.5;
    const { below, equal } = this.countBelowAndEqual(r);
    return (below + equal / 2) / n;
  }

  /** The `k`-th lowest rating (0-based, copies counted), or undefined when k is out of range. */
  atRank(k: number): number | undefined {
    if (!(k >= 0 && k < this.size)) return undefined;
    let node = this.root;
    while (node) {
      const left = sizeOf(node.left);
      if (k < left) node = node.left;
      else if (k < left + node.count) return node.rating;
      else {
        k -= left + node.count;
        node = node.right;
      }
    }
    return undefined; // unreachable: k < size
  }

  private nextPriority(): number {
    // xorshift32: reproducible shapes, hence reproducible timings in tests and the simulator.
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    return this.seed;
  }
}

/** The smallest double above `r` (splits at [r, nextUp(r)) isolate the copies of r). */
function nextUp(r: number): number {
  if (r === Infinity) return r;
  if (r === 0) return Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, r);
  const bits = buffer.getBigUint64(0);
  buffer.setBigUint64(0, r > 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}
