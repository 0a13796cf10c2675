/**
 * Items by a number key that changes, least first: a sorted-btree ordered by (key, `tieBreak`),
 * each item carrying its key while held, so that a change of key or a removal is O(log n) and,
 * with a tie-break total over the items, the least item does not depend on the order of updates.
 */
import { sortedTree, type SortedTree } from "../../core/sorted-tree.js";

/** An item of an {@link IndexedHeap}: its key while it is held there, undefined otherwise. */
export interface HeapItem {
  heapKey: number | undefined;
}

export class IndexedHeap<T extends HeapItem> {
  private readonly tree: SortedTree<T, undefined>;

  /** @param tieBreak the order of items with equal keys, least first. */
  constructor(tieBreak: (a: T, b: T) => number) {
    this.tree = sortedTree<T, undefined>((a, b) => a.heapKey! - b.heapKey! || tieBreak(a, b));
  }

  get size(): number {
    return this.tree.size;
  }

  /** The least item (undefined when empty). */
  peek(): T | undefined {
    return this.tree.minKey();
  }

  /** The key an item in the heap has. */
  keyOf(item: T): number {
    return item.heapKey!;
  }

  /** Put `item` in the heap with `key`, or move it to `key` if it is there already. */
  set(item: T, key: number): void {
    if (item.heapKey === key) return;
    if (item.heapKey !== undefined) this.tree.delete(item);
    item.heapKey = key;
    this.tree.set(item, undefined);
  }

  /** Take `item` out (nothing if it is not in the heap). */
  delete(item: T): void {
    if (item.heapKey === undefined) return;
    this.tree.delete(item);
    item.heapKey = undefined;
  }
}
