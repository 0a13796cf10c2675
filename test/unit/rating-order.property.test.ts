/**
 * The two structures behind best-game, against plain sorted-array models: `RatingOrder` (rating
 * order with ties in the order of adding, as a linked list) and `IndexedHeap` (the least item by
 * key, ties by a total tie-break, through sets and deletes).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { IndexedHeap } from "../../src/policies/shared/indexed-heap.js";
import { RatingOrder } from "../../src/policies/shared/rating-order.js";

interface Item {
  readonly id: number;
  readonly rating: number;
  prev: Item | undefined;
  next: Item | undefined;
  heapIndex: number;
}

/** Insert (a rating, few distinct values so that ties are common) or remove (an index into the held items). */
const opsArb = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ add: fc.integer({ min: -4, max: 4 }).map((x) => x * 0.5) }) },
    { weight: 2, arbitrary: fc.record({ remove: fc.nat() }) },
  ),
  { maxLength: 200 },
);

describe("RatingOrder", () => {
  test.prop([opsArb])("keeps rating order, ties in the order of adding, with consistent links", (ops) => {
    const order = new RatingOrder<Item>();
    const model: Item[] = [];
    let id = 0;
    for (const op of ops) {
      if ("add" in op) {
        const item: Item = { id: id++, rating: op.add, prev: undefined, next: undefined, heapIndex: -1 };
        order.insert(item);
        model.push(item);
      } else if (model.length > 0) {
        const [item] = model.splice(op.remove % model.length, 1);
        order.remove(item);
      }
      const expected = [...model].sort((a, b) => a.rating - b.rating || a.id - b.id).map((x) => x.id);
      const forward: number[] = [];
      for (let x = order.head; x; x = x.next) forward.push(x.id);
      const backward: number[] = [];
      for (let x = order.tail; x; x = x.prev) backward.push(x.id);
      expect(forward).toEqual(expected);
      expect(backward.reverse()).toEqual(expected);
      expect(order.size).toBe(model.length);
    }
  });
});

describe("IndexedHeap", () => {
  const keyOps = fc.array(
    fc.oneof(
      { weight: 3, arbitrary: fc.record({ item: fc.nat({ max: 30 }), key: fc.integer({ min: 0, max: 6 }) }) },
      { weight: 1, arbitrary: fc.record({ drop: fc.nat({ max: 30 }) }) },
    ),
    { maxLength: 300 },
  );
  test.prop([keyOps])("its least item is the model's: least key, then least id", (ops) => {
    const items: Item[] = Array.from({ length: 31 }, (_, id) => ({
      id,
      rating: 0,
      prev: undefined,
      next: undefined,
      heapIndex: -1,
    }));
    const heap = new IndexedHeap<Item>((a, b) => a.id - b.id);
    const keys = new Map<number, number>();
    for (const op of ops) {
      if ("drop" in op) {
        heap.delete(items[op.drop]);
        keys.delete(op.drop);
      } else {
        heap.set(items[op.item], op.key);
        keys.set(op.item, op.key);
      }
      const least = [...keys].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0];
      expect(heap.size).toBe(keys.size);
      expect(heap.peek()?.id).toBe(least?.[0]);
      if (least) expect(heap.keyOf(items[least[0]])).toBe(least[1]);
      for (const [id] of keys) expect(heap.keyOf(items[id])).toBe(keys.get(id));
    }
  });
});
