/** The CLI's output: a readable table, or one JSON object per run. */
import Table from "cli-table3";
import type { SimulationReport } from "./run.js";
import { describeShape } from "../core/shape.js";

const fixed = (n: number | null | undefined, digits = 3) => (n === null || n === undefined ? "–" : n.toFixed(digits));

/** One column per run (so a sweep reads left to right), one row per figure. */
export function reportTable(reports: readonly SimulationReport[]): string {
  const table = new Table({
    head: ["", ...reports.map((r) => `${r.policy} ${paramsText(r.params)}`.trim())],
    style: { head: [], border: [] },
  });
  const row = (name: string, value: (r: SimulationReport) => string) => table.push([name, ...reports.map(value)]);
  row("shape", (r) => describeShape(r.shape));
  row("tickets / players", (r) => `${r.tickets} / ${r.players}`);
  row("games (bots)", (r) => `${r.games} (${r.bots})`);
  row("mean wait s", (r) => fixed(r.meanWait));
  row("wait variance", (r) => fixed(r.varWait));
  row("p50 / p95 / p99 wait s", (r) => `${fixed(r.p50Wait, 2)} / ${fixed(r.p95Wait, 2)} / ${fixed(r.p99Wait, 2)}`);
  for (const key of [...new Set(reports.flatMap((r) => Object.keys(r.waitByClass)))].sort()) {
    row(`mean wait ${key}`, (r) => fixed(r.waitByClass[key]));
  }
  row("mean imbalance", (r) => fixed(r.meanImbalance));
  row("mean spread", (r) => fixed(r.meanSpread));
  for (const name of [...new Set(reports.flatMap((r) => Object.keys(r.meanDispersion ?? {})))])
    row(`mean dispersion ${name} (0..1)`, (r) => fixed(r.meanDispersion?.[name]));
  row("Schlup cost / game", (r) => fixed(r.schlupCostPerGame));
  row("Wu cost / time", (r) => fixed(r.wuCostPerTime));
  if (reports.some((r) => r.meanLatency !== null)) row("mean latency ms", (r) => fixed(r.meanLatency, 1));
  if (reports.some((r) => r.ratioToOpt !== undefined)) {
    row("optimum cost / game", (r) => fixed(r.optCostPerGame));
    row("ratio to optimum", (r) => fixed(r.ratioToOpt));
  }
  if (reports.some((r) => r.unmatched > 0)) row("still waiting at end", (r) => String(r.unmatched));
  if (reports.some((r) => r.sideMixUnstable))
    row("side mix", (r) => (r.sideMixUnstable ? "UNSTABLE: |A − B| ≥ choice-free" : "stable"));
  return table.toString();
}

/** `r=3x2 criteria.think.initial=0.1`: nested parameters by their dotted keys, as `--set` takes them. */
function paramsText(params: Readonly<Record<string, unknown>>, prefix = ""): string {
  return Object.entries(params)
    .map(([k, v]) =>
      typeof v === "object" && v !== null && !Array.isArray(v)
        ? paramsText(v as Record<string, unknown>, `${prefix}${k}.`)
        : `${prefix}${k}=${String(v)}`,
    )
    .join(" ");
}
