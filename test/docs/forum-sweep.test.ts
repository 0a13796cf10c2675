/**
 * The comparison plot (docs/forum-sweep.svg) and its table (docs/forum-sweep.md) show every series
 * `npm run forum-sweep` runs, `weighted-pairing` among them beside the other policies, and the
 * table's weighted-pairing point is what the policy produces today on the sweep's traffic.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { measureRun, series } from "../../bench/forum-series.js";

const ROOT = resolve(import.meta.dirname, "../..");
const table = readFileSync(resolve(ROOT, "docs/forum-sweep.md"), "utf8");
const plot = readFileSync(resolve(ROOT, "docs/forum-sweep.svg"), "utf8");

/** The table's row for `name` and `params`: [mean wait, mean spread]. */
function row(name: string, params: Record<string, unknown>): [number, number] | undefined {
  const line = table.split("\n").find((l) => l.startsWith(`| ${name} | ${JSON.stringify(params)} |`));
  if (!line) return undefined;
  const cells = line.split("|").map((c) => c.trim());
  return [Number(cells[3]), Number(cells[4])];
}

describe("the forum sweep's plot and table", () => {
  it("list weighted-pairing beside the other policies", () => {
    const names = series.map((s) => s.name);
    expect(names).toContain("weighted-pairing");
    expect(names.length).toBeGreaterThan(5);
  });

  it("have a row for every run of every series, and every series in the plot's legend", () => {
    for (const s of series) {
      expect(plot, `${s.name} in forum-sweep.svg`).toContain(`>${s.name}<`);
      for (const params of s.runs) expect(row(s.name, params), `${s.name} ${JSON.stringify(params)}`).toBeDefined();
    }
  });

  it("show the weighted-pairing point the policy produces now (same traffic, same seed)", () => {
    const weighted = series.find((s) => s.name === "weighted-pairing")!;
    const params = weighted.runs[2];
    const measured = measureRun(weighted.policy, params, 10_000);
    const [wait, spread] = row(weighted.name, params)!;
    // The table rounds to 2 and 1 decimals.
    expect(Math.abs(measured.meanWait - wait)).toBeLessThanOrEqual(0.0051);
    expect(Math.abs(measured.meanSpread - spread)).toBeLessThanOrEqual(0.051);
  });
});
