/**
 * `NodeTable` against a `Map` by ticket id: adds (refused when the id is present), removals
 * (backward shift), lookups, through growth and shrinking, on small key spaces (so that runs
 * collide and wrap around the end of the table) and large ones. Lookups use equal ids that are
 * other string objects than the ones the nodes' tickets hold, as a driver's would be.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { ArrivalNode } from "../../src/core/arrival-order.js";
import { NodeTable } from "../../src/core/node-table.js";

type Op = { kind: "add" | "take" | "get"; key: number };

const opsArb = (keys: number) =>
  fc.array(
    fc.record({
      kind: fc.constantFrom("add" as const, "add" as const, "take" as const, "get" as const),
      key: fc.nat(keys - 1),
    }),
    { maxLength: 600 },
  );

/** An id of differing length and shared prefixes, built afresh (not interned) on each call. */
const idOf = (key: number): string => `k${key}`.padEnd(2 + (key % 5), "x");

const nodeOf = (id: string, n: number): ArrivalNode =>
  new ArrivalNode({ id, players: [{ sessionId: id, rating: 1500 }], enqueuedAt: n });

function replay(ops: readonly Op[]): void {
  const table = new NodeTable();
  const model = new Map<string, ArrivalNode>();
  let n = 0;
  for (const op of ops) {
    const id = idOf(op.key);
    if (op.kind === "add") {
      const node = nodeOf(idOf(op.key), n++);
      const added = !model.has(id);
      if (added) model.set(id, node);
      expect(table.add(node)).toBe(added);
    } else if (op.kind === "take") {
      expect(table.take(id)).toBe(model.get(id));
      model.delete(id);
    } else {
      expect(table.get(id)).toBe(model.get(id));
      expect(table.has(id)).toBe(model.has(id));
    }
    expect(table.size).toBe(model.size);
  }
  for (const [id, node] of model) expect(table.get(id)).toBe(node);
}

describe("NodeTable", () => {
  test.prop([opsArb(12)], { numRuns: 200 })("matches a Map on a few keys", replay);
  test.prop([opsArb(400)], { numRuns: 100 })("matches a Map on many keys", replay);

  it("holds 50,000 nodes, finds each by an equal id, and empties again", () => {
    const table = new NodeTable();
    const nodes: ArrivalNode[] = [];
    for (let i = 0; i < 50_000; i++) {
      nodes.push(nodeOf(`t${i}`, i));
      expect(table.add(nodes[i])).toBe(true);
    }
    expect(table.add(nodeOf("t123", 0))).toBe(false);
    expect(table.get("t123")).toBe(nodes[123]);
    for (let i = 0; i < 50_000; i += 7) expect(table.get(`t${i}`)).toBe(nodes[i]);
    for (let i = 0; i < 50_000; i += 2) expect(table.take(`t${i}`)).toBe(nodes[i]);
    for (let i = 0; i < 50_000; i++) expect(table.get(`t${i}`)).toBe(i % 2 === 1 ? nodes[i] : undefined);
    for (let i = 1; i < 50_000; i += 2) expect(table.take(`t${i}`)).toBe(nodes[i]);
    expect(table.size).toBe(0);
    expect(table.get("t1")).toBeUndefined();
  });
});
