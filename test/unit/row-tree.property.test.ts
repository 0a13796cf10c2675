/**
 * `RowTree` (the rating order of best-game and of the window policies' sweep: rows in the
 * leaves, the least priority kept per subtree) against a plain sorted-array model, through enough
 * inserts and removes to split leaves and inner nodes and to empty leaves again: rows in
 * (rating, seq) order through the leaves' links both ways, every row found by its key, and the
 * least priority (the first row in order among equals) after every change.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  NO_LEAF,
  PRIORITY,
  ROW_TREE_WIDTH,
  rowCursor,
  RowTree,
  type RowCursor,
} from "../../src/policies/shared/row-tree.js";

interface Row {
  readonly rating: number;
  readonly seq: number;
  priority: number;
  readonly extra: number;
}

const COLUMNS = 4;
/** Column c of row i of a leaf, in the tree's rows. */
const cell = <V>(tree: RowTree<V>, leaf: number, c: number, i: number): number =>
  leaf * tree.stride + c * ROW_TREE_WIDTH + i;
/** The value of row i of a leaf. */
const valueOf = <V>(tree: RowTree<V>, leaf: number, i: number): V | undefined => tree.values[leaf * ROW_TREE_WIDTH + i];

const byKey = (a: { rating: number; seq: number }, b: { rating: number; seq: number }): number =>
  a.rating - b.rating || a.seq - b.seq;

/** Rows of the tree in order, by the leaves' `next` links (and checked against the `prev` links). */
function rowsOf(tree: RowTree<Row>): Row[] {
  const at: RowCursor = rowCursor();
  const out: Row[] = [];
  if (!tree.first(at)) return out;
  let last = NO_LEAF;
  for (let leaf = at.leaf; leaf !== NO_LEAF; last = leaf, leaf = tree.nextLeaf(leaf)) {
    expect(tree.previousLeaf(leaf)).toBe(last);
    expect(tree.sizeOf(leaf)).toBeGreaterThan(0);
    for (let i = 0; i < tree.sizeOf(leaf); i++) {
      const row = valueOf(tree, leaf, i)!;
      const rows = tree.rows;
      // The columns travel with their value through shifts and splits.
      expect([rows[cell(tree, leaf, 0, i)], rows[cell(tree, leaf, 1, i)], rows[cell(tree, leaf, 3, i)]]).toEqual([
        row.rating,
        row.seq,
        row.extra,
      ]);
      expect(rows[cell(tree, leaf, PRIORITY, i)]).toBe(row.priority);
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
      const at: RowCursor = rowCursor();
      let seq = 0;
      const add = (rating: number, priority: number) => {
        const row: Row = { rating, seq: seq++, priority, extra: seq * 3 + 1 };
        tree.insert(row.rating, row.seq, row, at);
        expect(tree.valueAt(at)).toBe(row);
        expect(tree.rows[cell(tree, at.leaf, PRIORITY, at.index)]).toBe(Infinity);
        tree.rows[cell(tree, at.leaf, 3, at.index)] = row.extra;
        tree.rows[cell(tree, at.leaf, PRIORITY, at.index)] = priority;
        tree.refresh(at.leaf);
        model.push(row);
      };
      // Some runs start from a pool deep enough for three levels.
      if (fillFirst) for (let i = 0; i < 1500; i++) add((i * 7919) % 61, (i * 104729) % 1000003);
      ops.forEach((op, step) => {
        if ("add" in op) add(op.add, op.priority);
        else if ("isolate" in op) {
          if (tree.least(at)) {
            const least = tree.valueAt(at);
            const others = tree.values
              .slice(at.leaf * ROW_TREE_WIDTH, at.leaf * ROW_TREE_WIDTH + tree.sizeOf(at.leaf))
              .filter((row) => row !== least);
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
          expect(tree.valueAt(at)).toBe(row);
          if ("remove" in op) {
            tree.remove(at);
            model.splice(model.indexOf(row), 1);
            expect(tree.find(row.rating, row.seq, at)).toBe(false);
          } else {
            row.priority = op.priority;
            tree.rows[cell(tree, at.leaf, PRIORITY, at.index)] = op.priority;
            tree.refresh(at.leaf);
          }
        }
        expect(tree.size).toBe(model.length);
        let least: Row | undefined;
        for (const row of model) {
          if (row.priority === Infinity) continue;
          if (!least || (row.priority - least.priority || byKey(row, least)) < 0) least = row;
        }
        if (tree.least(at)) expect(tree.valueAt(at)).toBe(least);
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
        leaf: number;
      }
      const tree = new RowTree<Tracked>(2, (row, leaf) => (row.leaf = leaf));
      const model: Tracked[] = [];
      const at: RowCursor = rowCursor();
      let seq = 0;
      const add = (rating: number) => {
        const row: Tracked = { rating, seq: seq++, leaf: NO_LEAF };
        tree.insert(row.rating, row.seq, row, at);
        row.leaf = at.leaf;
        model.push(row);
      };
      const remove = (row: Tracked) => {
        expect(tree.findIn(row.leaf, row.rating, row.seq, at)).toBe(true);
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
        expect(tree.findIn(row.leaf, row.rating, row.seq, at)).toBe(true);
        expect(tree.valueAt(at)).toBe(row);
      }
      const order: Tracked[] = [];
      if (tree.first(at))
        do order.push(tree.valueAt(at));
        while (tree.next(at));
      expect(order).toEqual([...model].sort(byKey));
    },
  );
});
