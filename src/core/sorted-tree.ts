/**
 * sorted-btree's B+tree (O(log n) insert, delete and ordered walks), loaded once for every
 * index that needs one.
 */
import * as sortedBtree from "sorted-btree";
import type { ISortedMap } from "sorted-btree";

// sorted-btree is CommonJS with `exports.default`: under Node's ESM loader the class sits one
// level deeper than its typings say, while bundlers may already unwrap it.
type BTreeConstructor = typeof sortedBtree.default.default;
const BTreeClass: BTreeConstructor =
  (sortedBtree.default as unknown as { default?: BTreeConstructor }).default ??
  (sortedBtree.default as unknown as BTreeConstructor);

/** The part of sorted-btree's BTree used here (its class type is not reachable as a type under NodeNext). */
export type SortedTree<K, V> = ISortedMap<K, V> & {
  entriesReversed(highestKey?: K, reusedArray?: (K | V)[], skipHighest?: boolean): IterableIterator<[K, V]>;
  nextLowerPair(key: K): [K, V] | undefined;
  nextHigherPair(key: K): [K, V] | undefined;
  getPairOrNextLower(key: K, reusedArray?: [K, V]): [K, V] | undefined;
};

/** A new, empty B+tree ordered by `compare`. */
export function sortedTree<K, V>(compare: (a: K, b: K) => number): SortedTree<K, V> {
  return new BTreeClass<K, V>(undefined, compare) as SortedTree<K, V>;
}

/**
 * A key ordered by a number, ties broken by a sequence number (the order of insertion): every
 * index here keys its tickets this way, so that equal ratings or times keep arrival order.
 */
export type RankedKey = readonly [value: number, seq: number];

/** Order of {@link RankedKey}s: by value, then by sequence. */
export const compareRanked = (a: RankedKey, b: RankedKey): number => a[0] - b[0] || a[1] - b[1];
