/**
 * `IdTable` against a `Map`: adds (refused when present), removals (backward shift), lookups,
 * through growth and shrinking, on small key spaces (so that runs collide and wrap around the
 * end of the table) and large ones.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { IdTable } from "../../src/core/id-table.js";

type Op = { kind: "add" | "take" | "get"; key: number };

const opsArb = (keys: number) =>
  fc.array(
    fc.record({
      kind: fc.constantFrom("add" as const, "add" as const, "take" as const, "get" as const),
      key: fc.nat(keys - 1),
    }),
    { maxLength: 600 },
  );

function replay(ops: readonly Op[]): void {
  const table = new IdTable<number>();
  const model = new Map<string, number>();
  let n = 0;
  for (const op of ops) {
    // Ids of differing lengths and shared prefixes, as built by a driver (not interned).
    const id = `k${op.key}`.padEnd(2 + (op.key % 5), "x");
    if (op.kind === "add") {
      const value = n++;
      const added = !model.has(id);
      if (added) model.set(id, value);
      expect(table.add(id, value)).toBe(added);
    } else if (op.kind === "take") {
      expect(table.take(id)).toBe(model.get(id));
      model.delete(id);
    } else {
      expect(table.get(id)).toBe(model.get(id));
      expect(table.has(id)).toBe(model.has(id));
    }
    expect(table.size).toBe(model.size);
  }
  for (const [id, value] of model) expect(table.get(id)).toBe(value);
}

describe("IdTable", () => {
  test.prop([opsArb(12)], { numRuns: 200 })("matches a Map on a few keys", replay);
  test.prop([opsArb(400)], { numRuns: 100 })("matches a Map on many keys", replay);

  it("holds 50,000 ids, finds each, and empties again", () => {
    const table = new IdTable<number>();
    for (let i = 0; i < 50_000; i++) expect(table.add(`t${i}`, i)).toBe(true);
    expect(table.add("t123", 0)).toBe(false);
    for (let i = 0; i < 50_000; i += 7) expect(table.get(`t${i}`)).toBe(i);
    for (let i = 0; i < 50_000; i += 2) expect(table.take(`t${i}`)).toBe(i);
    for (let i = 0; i < 50_000; i++) expect(table.get(`t${i}`)).toBe(i % 2 === 1 ? i : undefined);
    for (let i = 1; i < 50_000; i += 2) expect(table.take(`t${i}`)).toBe(i);
    expect(table.size).toBe(0);
    expect(table.get("t1")).toBeUndefined();
  });
});
