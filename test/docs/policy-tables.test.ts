/**
 * The README's "Choosing a policy" table and the policies guide's table name every policy a
 * queue can select, and nothing else: a policy added to the default registry shows up in both.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultPolicies } from "../../src/policies/default-registry.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** The backticked names in the first column of the first table after `heading`. */
function firstColumnNames(doc: string, heading: string): string[] {
  const text = readFileSync(resolve(ROOT, doc), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${doc}: no heading "${heading}"`);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const after = lines.findIndex((line, i) => i > first && !line.startsWith("|"));
  const table = lines.slice(first, after < 0 ? undefined : after);
  // Skip the header and the |---| row; a row may name several policies.
  const names = table.slice(2).flatMap((row) => [...row.split("|")[1].matchAll(/`([a-z-]+)`/g)].map((m) => m[1]));
  return names.sort();
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
});
