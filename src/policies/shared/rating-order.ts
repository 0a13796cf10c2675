/**
 * Entries in rating order, as a doubly linked list (neighbours in O(1), windows walked without
 * a tree) indexed by a sorted-btree keyed by the rating, for O(log n) insert and delete.
 * Equal ratings keep the order they were added in (a later entry after the earlier ones): the
 * tree maps each distinct rating to the last entry of that rating in the list, so a newcomer
 * goes right after the entry at its rating or at the next lower one.
 */
import { sortedTree } from "../../core/sorted-tree.js";

/** What the list needs of an entry: its rating and its neighbours (set by the list). */
export interface RatingLink<E> {
  readonly rating: number;
  prev: E | undefined;
  next: E | undefined;
}

export class RatingOrder<E extends RatingLink<E>> {
  private readonly tree = sortedTree<number, E>((a, b) => a - b);
  /** The lowest-rated entry. */
  head: E | undefined;
  /** The highest-rated entry. */
  tail: E | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Link `entry` in after every entry rated at most as high. */
  insert(entry: E): void {
    // The last entry at its rating or below: the newcomer goes after it.
    const lower = this.tree.getPairOrNextLower(entry.rating)?.[1];
    this.tree.set(entry.rating, entry);
    const higher = lower ? lower.next : this.head;
    entry.prev = lower;
    entry.next = higher;
    if (lower) lower.next = entry;
    else this.head = entry;
    if (higher) higher.prev = entry;
    else this.tail = entry;
    this.count++;
  }

  /** Unlink `entry` (it must be in the list). */
  remove(entry: E): void {
    const { prev, next } = entry;
    // The tree names the last entry of each rating: only the last one's leaving touches it.
    if (!next || next.rating !== entry.rating) {
      if (prev && prev.rating === entry.rating) this.tree.set(entry.rating, prev);
      else this.tree.delete(entry.rating);
    }
    if (prev) prev.next = next;
    else this.head = next;
    if (next) next.prev = prev;
    else this.tail = prev;
    entry.prev = entry.next = undefined;
    this.count--;
  }
}
