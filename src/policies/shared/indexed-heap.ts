/**
 * A binary min-heap whose items change their key or leave in O(log n): each item records its
 * position (an indexed heap), so nothing goes stale and nothing needs rebuilding, unlike
 * {@link LazyHeap}. Keys are numbers held in a typed array beside the items (a sift compares
 * numbers without touching the items); equal keys are ordered by `tieBreak`, so with a tie-break
 * that is total over the items the least item does not depend on the order of updates.
 * Hand-written because heap-js cannot update or remove an item in O(log n), and a sorted-btree
 * keyed by (key, tie-break) costs best-game's general search more than half its speed.
 */

/** An item of an {@link IndexedHeap}: its position there, -1 while it is not in it. */
export interface HeapItem {
  heapIndex: number;
}

export class IndexedHeap<T extends HeapItem> {
  private readonly items: T[] = [];
  private keys = new Float64Array(64);

  /** @param tieBreak the order of items with equal keys, least first. */
  constructor(private readonly tieBreak: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  /** The least item (undefined when empty). */
  peek(): T | undefined {
    return this.items[0];
  }

  /** The key an item in the heap has. */
  keyOf(item: T): number {
    return this.keys[item.heapIndex];
  }

  /** Put `item` in the heap with `key`, or move it to `key` if it is there already. */
  set(item: T, key: number): void {
    const at = item.heapIndex;
    if (at < 0) {
      const i = this.items.length;
      if (i === this.keys.length) {
        const grown = new Float64Array(2 * i);
        grown.set(this.keys);
        this.keys = grown;
      }
      this.items.push(item);
      this.keys[i] = key;
      item.heapIndex = i;
      this.up(i);
      return;
    }
    const old = this.keys[at];
    this.keys[at] = key;
    if (key < old) this.up(at);
    else if (key > old) this.down(at);
  }

  /** Take `item` out (nothing if it is not in the heap). */
  delete(item: T): void {
    const at = item.heapIndex;
    if (at < 0) return;
    item.heapIndex = -1;
    const items = this.items;
    const last = items.pop()!;
    const n = items.length;
    if (at === n) return;
    items[at] = last;
    this.keys[at] = this.keys[n];
    last.heapIndex = at;
    this.up(at);
    if (last.heapIndex === at) this.down(at);
  }

  /** Does `a` (with key `ka`) go before `b` (with key `kb`)? */
  private first(ka: number, a: T, kb: number, b: T): boolean {
    return ka < kb || (ka === kb && this.tieBreak(a, b) < 0);
  }

  /** Move the item at i towards the root while it goes before its parent (one write per level, no swaps). */
  private up(i: number): void {
    const items = this.items;
    const keys = this.keys;
    const item = items[i];
    const key = keys[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.first(key, item, keys[parent], items[parent])) break;
      items[i] = items[parent];
      keys[i] = keys[parent];
      items[i].heapIndex = i;
      i = parent;
    }
    items[i] = item;
    keys[i] = key;
    item.heapIndex = i;
  }

  /** Move the item at i towards the leaves while a child goes before it. */
  private down(i: number): void {
    const items = this.items;
    const keys = this.keys;
    const n = items.length;
    const item = items[i];
    const key = keys[i];
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.first(keys[right], items[right], keys[left], items[left]) ? right : left;
      if (!this.first(keys[child], items[child], key, item)) break;
      items[i] = items[child];
      keys[i] = keys[child];
      items[i].heapIndex = i;
      i = child;
    }
    items[i] = item;
    keys[i] = key;
    item.heapIndex = i;
  }
}
