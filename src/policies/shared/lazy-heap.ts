/**
 * A min-heap with lazy invalidation. heap-js has no decrease-key and an O(n) `remove`, so a
 * policy never takes an entry out: it marks it stale (its owner's version moved on, or a ticket
 * in it left) and the heap drops stale entries when they reach the top, and rebuilds itself from
 * the live ones once stale entries outnumber them. Used by the sweep matcher, the role windows
 * and density-window.
 */
import { Heap } from "heap-js";

export class LazyHeap<T> {
  private readonly heap: Heap<T>;

  /**
   * @param compare the order, least first. Where ties matter it should be total over live
   * entries: a rebuild changes the heap's layout, and with it which of two tied entries is first.
   * @param isLive whether an entry still stands; a stale entry is never returned.
   */
  constructor(
    compare: (a: T, b: T) => number,
    private readonly isLive: (entry: T) => boolean,
  ) {
    this.heap = new Heap<T>(compare);
  }

  /** Entries held, live and stale (for tests and benchmarks). */
  get length(): number {
    return this.heap.length;
  }

  push(entry: T): void {
    this.heap.push(entry);
  }

  /** Replace the whole content (heapify, O(n)). */
  init(entries: T[]): void {
    this.heap.init(entries);
  }

  /** The least live entry, dropping the stale entries above it. */
  peek(): T | undefined {
    for (let top = this.heap.peek(); top !== undefined; top = this.heap.peek()) {
      if (this.isLive(top)) return top;
      this.heap.pop();
    }
    return undefined;
  }

  /** Take the least live entry out. */
  pop(): T | undefined {
    const top = this.peek();
    if (top !== undefined) this.heap.pop();
    return top;
  }

  /**
   * Rebuild from the live entries once more than `(1 + staleShare) * live + slack` are held, so
   * the heap stays within a constant factor of the live count (amortized O(1) per stale entry).
   * A smaller `staleShare` holds less memory for more frequent rebuilds.
   */
  compact(live: number, slack: number, staleShare = 1): void {
    if (this.heap.length > (1 + staleShare) * live + slack) this.heap.init(this.heap.toArray().filter(this.isLive));
  }
}
