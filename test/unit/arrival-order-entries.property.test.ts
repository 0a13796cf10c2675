/**
 * `ArrivalOrder`'s array of entries, which removal empties in place (found by sequence number):
 * nodes made in one order and added in another (their sequence numbers then fall behind the
 * array's, and such a node goes to the tree), removed in any order, with walks checked against
 * a sorted model after every step; and a removed node is released by the order (not kept alive
 * by its array until a compaction). Each lane that exists (0, 1, 2: each finds its entry through its
 * own index in the node) is checked, and a lane that does not exist is refused.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { ArrivalNode, ArrivalOrder, compareNodes, LANES } from "../../src/core/arrival-order.js";
import type { Ticket } from "../../src/core/types.js";

const ticketAt = (id: string, enqueuedAt: number): Ticket => ({
  id,
  players: [{ sessionId: id, rating: 0 }],
  enqueuedAt,
});

function expectOrder(order: ArrivalOrder, model: readonly ArrivalNode[]): void {
  const want = [...model].sort(compareNodes).map((n) => n.ticket.id);
  const out: ArrivalNode[] = [];
  order.collect(Infinity, false, out);
  expect(out.map((n) => n.ticket.id)).toEqual(want);
  expect([...order.newest()].map(([, t]) => t.id)).toEqual([...want].reverse());
  expect(order.first()?.id).toBe(want[0]);
  expect(order.size).toBe(model.length);
}

describe.each([0, 1, 2])("ArrivalOrder entries on lane %i", (lane) => {
  test.prop(
    [
      fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat(3)), { minLength: 1, maxLength: 300 }),
      fc.array(fc.nat(), { maxLength: 40 }),
    ],
    { numRuns: 150 },
  )("nodes taken out of their making order, removed at random, walk as the sorted model", (steps, made) => {
    const order = new ArrivalOrder(lane);
    const model: ArrivalNode[] = [];
    // Nodes made ahead (older sequence numbers), taken later at a later time.
    const spare = made.map((_, i) => new ArrivalNode(ticketAt(`s${i}`, 0)));
    let clock = 0;
    let n = 0;
    for (const [add, pick, gap] of steps) {
      if (add || model.length === 0) {
        clock += gap;
        let node: ArrivalNode;
        if (spare.length > 0 && pick % 3 === 0) {
          // A spare node, its ticket's time moved to now: its sequence number is behind the array's.
          const old = spare.splice(pick % spare.length, 1)[0];
          node = new ArrivalNode(ticketAt(old.ticket.id, clock));
          Object.defineProperty(node, "seq", { value: old.seq });
        } else node = new ArrivalNode(ticketAt(`t${n++}`, clock));
        expect(order.take(node)).toBe(true);
        model.push(node);
      } else {
        const [node] = model.splice(pick % model.length, 1);
        order.removeNode(node);
        expect(order.holds(node)).toBe(false);
      }
      expectOrder(order, model);
    }
    for (const node of [...model]) {
      order.removeNode(node);
      model.splice(model.indexOf(node), 1);
      expectOrder(order, model);
    }
  });

  it("keeps no removed node in its array", () => {
    const order = new ArrivalOrder(lane);
    const nodes: ArrivalNode[] = [];
    for (let i = 0; i < 1000; i++) {
      const node = new ArrivalNode(ticketAt(`t${i}`, i));
      expect(order.take(node)).toBe(true);
      nodes.push(node);
    }
    // Every other one removed: fewer than half, so no compaction has run.
    for (let i = 1; i < 1000; i += 2) order.removeNode(nodes[i]);
    const held = new Set<unknown>((order as unknown as { queue: unknown[] }).queue);
    for (let i = 0; i < 1000; i++) expect(held.has(nodes[i])).toBe(i % 2 === 0);
  });
});

describe("ArrivalOrder lanes", () => {
  it("has lanes 0 to 2 and refuses any other, naming it", () => {
    expect(LANES).toBe(3);
    for (const lane of [-1, 3, 7, 1.5]) expect(() => new ArrivalOrder(lane)).toThrow(`lane ${lane} does not exist`);
  });
});
