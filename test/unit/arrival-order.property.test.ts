/**
 * `ArrivalOrder`: its walks against a sorted-array model, with out-of-order arrivals (the tree),
 * runs of removals (the array's head and compaction), and nodes shared between two orders on
 * different lanes (`take`), where each order must see only its own adds and removals.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { ArrivalNode, ArrivalOrder, compareNodes } from "../../src/core/arrival-order.js";
import type { Ticket } from "../../src/core/types.js";

type Op =
  | { kind: "add"; back: number; share: boolean }
  | { kind: "remove"; from: 0 | 1; pick: number }
  | { kind: "removeRun"; from: 0 | 1; count: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      // Mostly in order; sometimes behind the newest (a re-queued ticket).
      back: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }) },
      ),
      share: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("remove" as const),
      from: fc.constantFrom(0 as const, 1 as const),
      pick: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("removeRun" as const),
      from: fc.constantFrom(0 as const, 1 as const),
      count: fc.integer({ min: 1, max: 60 }),
    }),
  },
);

function ids(order: ArrivalOrder, newestFirst: boolean, limit = Infinity): string[] {
  const out: ArrivalNode[] = [];
  order.collect(limit, newestFirst, out);
  return out.map((n) => n.ticket.id);
}

function check(order: ArrivalOrder, model: ArrivalNode[]): void {
  const sorted = [...model].sort(compareNodes);
  const want = sorted.map((n) => n.ticket.id);
  expect(order.size).toBe(model.length);
  expect(ids(order, false)).toEqual(want);
  expect(ids(order, true)).toEqual([...want].reverse());
  expect(ids(order, false, 3)).toEqual(want.slice(0, 3));
  expect([...order.oldest()].map(([, t]) => t.id)).toEqual(want);
  expect([...order.newest(2)].map(([, t]) => t.id)).toEqual([...want].reverse().slice(0, 2));
  expect([...order.oldestNodes()].map((n) => n.ticket.id)).toEqual(want);
  expect(order.first()?.id).toBe(want[0]);
  for (const n of model) expect(order.holds(n)).toBe(true);
}

describe("ArrivalOrder", () => {
  test.prop([fc.array(opArb, { minLength: 1, maxLength: 400 })], { numRuns: 150 })(
    "two orders on two lanes, sharing nodes, each match a sorted model",
    (ops) => {
      const orders = [new ArrivalOrder(0), new ArrivalOrder(1)];
      const models: ArrivalNode[][] = [[], []];
      const removed: ArrivalNode[][] = [[], []];
      let clock = 1000;
      let seq = 0;
      for (const op of ops) {
        if (op.kind === "add") {
          clock++;
          const ticket: Ticket = {
            id: `t${seq++}`,
            players: [{ sessionId: "p", rating: 0 }],
            enqueuedAt: clock - op.back,
          };
          const node = orders[0].addNode(ticket);
          models[0].push(node);
          if (op.share) {
            expect(orders[1].take(node)).toBe(true);
            models[1].push(node);
          } else models[1].push(orders[1].addNode(ticket));
        } else {
          const model = models[op.from];
          const count = op.kind === "remove" ? 1 : Math.min(op.count, model.length);
          for (let i = 0; i < count && model.length > 0; i++) {
            const at = op.kind === "remove" ? op.pick % model.length : 0;
            const [node] = model.splice(at, 1);
            orders[op.from].removeNode(node);
            orders[op.from].removeNode(node); // a second removal is ignored
            removed[op.from].push(node);
          }
        }
      }
      for (const k of [0, 1]) {
        check(orders[k], models[k]);
        for (const n of removed[k]) {
          expect(orders[k].holds(n)).toBe(false);
          // A node once removed is never taken again (it may still sit in the array).
          expect(orders[k].take(n)).toBe(false);
        }
      }
    },
  );

  it("takes a node only once per lane, and not on a lane another order of the same lane used", () => {
    const a = new ArrivalOrder(0);
    const b = new ArrivalOrder(1);
    const c = new ArrivalOrder(1);
    const node = a.addNode({ id: "x", players: [{ sessionId: "x", rating: 0 }], enqueuedAt: 0 });
    expect(a.take(node)).toBe(false);
    expect(b.take(node)).toBe(true);
    expect(c.take(node)).toBe(false);
    expect(c.size).toBe(0);
    b.removeNode(node);
    expect(a.holds(node)).toBe(true);
    expect(b.holds(node)).toBe(false);
    expect(b.take(node)).toBe(false);
  });
});
