/**
 * `RowTree` (best-game 1v1's layout: rows in the leaves, the least priority kept per subtree)
 * against a plain sorted-array model, through enough inserts and removes to split leaves and
 * inner nodes and to empty leaves again: rows in (rating, seq) order through the leaves' links
 * both ways, every row found by its key, and the least priority (the first row in order among
 * equals) after every change.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  nextRow,
  PRIORITY,
  ROW_TREE_WIDTH,
  RowTree,
  type RowCursor,
  type RowLeaf,
} from "../../src/policies/shared/row-tree.js";

interface Row {
  readonly rating: number;
  readonly seq: number;
  priority: number;
  readonly extra: number;
}

const COLUMNS = 4;
/** Column c of row i of a leaf. */
const cell = (c: number, i: number): number => c * ROW_TREE_WIDTH + i;

const byKey = (a: { rating: number; seq: number }, b: { rating: number; seq: number }): number =>
  a.rating - b.rating || a.seq - b.seq;

/** Rows of the tree in order, by the leaves' `next` links (and checked against the `prev` links). */
function rowsOf(tree: RowTree<Row>): Row[] {
  const at: RowCursor<Row> = { leaf: undefined as unknown as RowLeaf<Row>, index: 0 };
  const out: Row[] = [];
  if (!tree.first(at)) return out;
  let last: RowLeaf<Row> | undefined;
  for (let leaf: RowLeaf<Row> | undefined = at.leaf; leaf; last = leaf, leaf = leaf.next) {
    expect(leaf.prev).toBe(last);
    expect(leaf.size).toBeGreaterThan(0);
    for (let i = 0; i < leaf.size; i++) {
      const row = leaf.values[i]!;
      // The columns travel with their value through shifts and splits.
      expect([leaf.rows[cell(0, i)], leaf.rows[cell(1, i)], leaf.rows[cell(3, i)]]).toEqual([
        row.rating,
        row.seq,
        row.extra,
      ]);
      expect(leaf.rows[cell(PRIORITY, i)]).toBe(row.priority);
      out.push(row);
    }
  }
  return out;
}

/** `drain`: removals outweigh inserts, so leaves empty and are dropped, and the tree gets shallower. */
const opsArb = (drain: boolean) =>
  fc.array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          /** Few distinct ratings: long runs of ties, ordered by seq. */
          add: fc.integer({ min: -20, max: 20 }),
          priority: fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 1e6 })),
        }),
      },
      { weight: drain ? 8 : 3, arbitrary: fc.record({ remove: fc.nat() }) },
      /** A run of neighbours in key order: empties leaves inside a deep tree. */
      { weight: 1, arbitrary: fc.record({ run: fc.nat(), length: fc.integer({ min: 1, max: 80 }) }) },
      /** Empty the leaf of the least row, the least last: drops a leaf on the least's path. */
      { weight: 1, arbitrary: fc.record({ isolate: fc.constant(true) }) },
      { weight: 2, arbitrary: fc.record({ change: fc.nat(), priority: fc.oneof(fc.constant(Infinity), fc.nat(1e6)) }) },
    ),
    { minLength: 0, maxLength: 3000 },
  );

describe("RowTree", () => {
  test.prop([fc.boolean().chain((drain) => fc.tuple(opsArb(drain), fc.constant(drain)))], { numRuns: 60 })(
    "rows in key order, found by key, the least priority first in order",
    ([ops, fillFirst]) => {
      const tree = new RowTree<Row>(COLUMNS);
      const model: Row[] = [];
      const at: RowCursor<Row> = { leaf: undefined as unknown as RowLeaf<Row>, index: 0 };
      let seq = 0;
      const add = (rating: number, priority: number) => {
        const row: Row = { rating, seq: seq++, priority, extra: seq * 3 + 1 };
        tree.insert(row.rating, row.seq, row, at);
        expect(at.leaf.values[at.index]).toBe(row);
        expect(at.leaf.rows[cell(PRIORITY, at.index)]).toBe(Infinity);
        at.leaf.rows[cell(3, at.index)] = row.extra;
        at.leaf.rows[cell(PRIORITY, at.index)] = priority;
        tree.refresh(at.leaf);
        model.push(row);
      };
      // Some runs start from a pool deep enough for three levels.
      if (fillFirst) for (let i = 0; i < 1500; i++) add((i * 7919) % 61, (i * 104729) % 1000003);
      ops.forEach((op, step) => {
        if ("add" in op) add(op.add, op.priority);
        else if ("isolate" in op) {
          if (tree.least(at)) {
            const least = at.leaf.values[at.index]!;
            const others = at.leaf.values.slice(0, at.leaf.size).filter((row) => row !== least);
            for (const row of [...others, least]) {
              expect(tree.find(row!.rating, row!.seq, at)).toBe(true);
              tree.remove(at);
              model.splice(model.indexOf(row!), 1);
            }
          }
        } else if ("run" in op) {
          const sorted = [...model].sort(byKey);
          const start = op.run % (sorted.length + 1);
          for (const row of sorted.slice(start, start + op.length)) {
            expect(tree.find(row.rating, row.seq, at)).toBe(true);
            tree.remove(at);
            model.splice(model.indexOf(row), 1);
          }
        } else if (model.length > 0) {
          const row = model[("remove" in op ? op.remove : op.change) % model.length];
          expect(tree.find(row.rating, row.seq, at)).toBe(true);
          expect(at.leaf.values[at.index]).toBe(row);
          if ("remove" in op) {
            tree.remove(at);
            model.splice(model.indexOf(row), 1);
            expect(tree.find(row.rating, row.seq, at)).toBe(false);
          } else {
            row.priority = op.priority;
            at.leaf.rows[cell(PRIORITY, at.index)] = op.priority;
            tree.refresh(at.leaf);
          }
        }
        expect(tree.size).toBe(model.length);
        let least: Row | undefined;
        for (const row of model) {
          if (row.priority === Infinity) continue;
          if (!least || (row.priority - least.priority || byKey(row, least)) < 0) least = row;
        }
        if (tree.least(at)) expect(at.leaf.values[at.index]).toBe(least);
        else expect(least).toBeUndefined();
        // The full walk is slower: every 50 steps and at the end.
        if (step % 50 === 0) expect(rowsOf(tree)).toEqual([...model].sort(byKey));
      });
      expect(rowsOf(tree)).toEqual([...model].sort(byKey));
    },
  );

  test.prop([fc.boolean().chain((drain) => fc.tuple(opsArb(drain), fc.constant(drain)))], { numRuns: 40 })(
    "without priorities, each row found again in the leaf its value was last told (on insert and on splits)",
    ([ops, fillFirst]) => {
      interface Tracked {
        readonly rating: number;
        readonly seq: number;
        leaf: RowLeaf<Tracked> | undefined;
      }
      const tree = new RowTree<Tracked>(2, (row, leaf) => (row.leaf = leaf));
      const model: Tracked[] = [];
      const at: RowCursor<Tracked> = { leaf: undefined as unknown as RowLeaf<Tracked>, index: 0 };
      let seq = 0;
      const add = (rating: number) => {
        const row: Tracked = { rating, seq: seq++, leaf: undefined };
        tree.insert(row.rating, row.seq, row, at);
        row.leaf = at.leaf;
        model.push(row);
      };
      const remove = (row: Tracked) => {
        expect(tree.findIn(row.leaf!, row.rating, row.seq, at)).toBe(true);
        tree.remove(at);
        model.splice(model.indexOf(row), 1);
      };
      if (fillFirst) for (let i = 0; i < 1500; i++) add((i * 7919) % 61);
      for (const op of ops) {
        if ("add" in op) add(op.add);
        else if ("run" in op) {
          const sorted = [...model].sort(byKey);
          const start = op.run % (sorted.length + 1);
          for (const row of sorted.slice(start, start + op.length)) remove(row);
        } else if ("remove" in op && model.length > 0) remove(model[op.remove % model.length]);
        expect(tree.size).toBe(model.length);
        expect(tree.least(at)).toBe(false);
      }
      for (const row of model) {
        expect(tree.findIn(row.leaf!, row.rating, row.seq, at)).toBe(true);
        expect(at.leaf.values[at.index]).toBe(row);
      }
      const order: Tracked[] = [];
      if (tree.first(at))
        do order.push(at.leaf.values[at.index]!);
        while (nextRow(at));
      expect(order).toEqual([...model].sort(byKey));
    },
  );
});
