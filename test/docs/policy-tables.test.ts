/**
 * The README's "Choosing a policy" table and the policies guide's table name every policy a
 * queue can select, and nothing else: a policy added to the default registry shows up in both.
 * The guide's shapes table says which shapes each forms, as the policy's definition declares.
 */
import { describe, expect, it } from "vitest";
import type { ShapeKind } from "../../src/core/shape.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { tableAfter } from "../helpers/doc-tables.js";

/** The backticked names in the first column of the first table after `heading` (a row may name several policies). */
function firstColumnNames(doc: string, heading: string): string[] {
  return tableAfter(doc, heading)
    .flatMap((row) => [...Object.values(row)[0].matchAll(/`([a-z-]+)`/g)].map((m) => m[1]))
    .sort();
}

describe("policy tables", () => {
  const registered = defaultPolicies.names().sort();

  it("the README's table lists every registered policy", () => {
    expect(registered.length).toBeGreaterThan(0);
    expect(firstColumnNames("README.md", "## Choosing a policy")).toEqual(registered);
  });

  it("docs/policies.md's table lists every registered policy", () => {
    expect(firstColumnNames("docs/policies.md", "## Policies")).toEqual(registered);
  });

  it("docs/policies.md's shapes table says which shapes each policy forms, as its definition does", () => {
    const rows = tableAfter("docs/policies.md", "### Shapes");
    const columns: Array<[string, ShapeKind]> = [
      ["two teams", "two-teams"],
      ["more teams", "teams"],
      ["free-for-all", "free-for-all"],
    ];
    const listed: string[] = [];
    for (const row of rows) {
      for (const [, name] of row.policy.matchAll(/`([a-z-]+)`/g)) {
        listed.push(name);
        const served = defaultPolicies.get(name).shapes ?? ["two-teams"];
        for (const [column, kind] of columns)
          expect(row[column] !== "no", `${name}: ${column}`).toBe(served.includes(kind));
      }
    }
    expect(listed.sort()).toEqual(registered);
  });
});
