/**
 * The two structures behind best-game and the sweep matcher, against plain sorted-array models:
 * `NumberTree` (its B+tree index: an insert returns the value at the next lower or equal key),
 * `RatingOrder` (rating order with ties in the order of adding, as a linked list) and
 * `IndexedHeap` (the least item by key, ties by a total tie-break, through sets and deletes).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { IndexedHeap } from "../../src/policies/shared/indexed-heap.js";
import { NumberTree } from "../../src/policies/shared/number-tree.js";
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

describe("NumberTree", () => {
  // Enough keys for leaves and inner nodes to split (32 per node) and, by deletes, to empty out.
  const treeOps = fc.array(
    fc.oneof(
      { weight: 3, arbitrary: fc.record({ set: fc.integer({ min: 0, max: 3000 }) }) },
      { weight: 2, arbitrary: fc.record({ del: fc.integer({ min: 0, max: 3000 }) }) },
      { weight: 1, arbitrary: fc.record({ delHeld: fc.nat() }) },
    ),
    { minLength: 500, maxLength: 3000 },
  );
  test.prop([treeOps], { numRuns: 60 })(
    "set returns the value at the next lower or equal key; get and size match",
    (ops) => {
      const tree = new NumberTree<number>();
      const model = new Map<number, number>();
      let version = 0;
      const lowerOrEqual = (key: number): number | undefined => {
        let best: number | undefined;
        for (const k of model.keys()) if (k <= key && (best === undefined || k > best)) best = k;
        return best === undefined ? undefined : model.get(best);
      };
      for (const op of ops) {
        if ("set" in op) {
          const value = version++;
          expect(tree.set(op.set, value)).toBe(lowerOrEqual(op.set));
          model.set(op.set, value);
        } else {
          const key = "del" in op ? op.del : [...model.keys()][op.delHeld % Math.max(1, model.size)];
          if (key === undefined) continue;
          expect(tree.delete(key)).toBe(model.delete(key));
        }
        expect(tree.size).toBe(model.size);
      }
      for (let key = 0; key <= 3000; key += 7) expect(tree.get(key)).toBe(model.get(key));
    },
  );
});
