/**
 * `npm run forum-sweep`: the forum thread's policies beside Schlup's on the same traffic, mean
 * wait against mean rating spread, one line per policy over a sweep of its main parameter.
 *
 * Traffic: Poisson arrivals at 1 player/s, ratings normal(1500, 300) (sparse top and bottom
 * ranks, as in the thread), 1v1, 10,000 players (the first 1,000 left out), seed 1, a maximum
 * wait of 120 s after which a bot fills the game (so every policy ends every wait).
 * - mean wait: every human player, bot games included (s);
 * - mean spread: rating difference of the games between two humans;
 * - bots: share of games a bot filled.
 *
 * Options: --out FILE.svg (default docs/forum-sweep.svg), --json, --tickets N.
 */
import { parseArgs } from "node:util";
import { writeOverlayPlot, type OverlayPoint } from "../src/sim/plot.js";
import { measureRun, series, type Row } from "./forum-series.js";

const { values: args } = parseArgs({
  options: { out: { type: "string" }, json: { type: "boolean" }, tickets: { type: "string" } },
});
const TICKETS = Number(args.tickets ?? 10_000);

const rows: Row[] = [];
for (const s of series) {
  for (const params of s.runs) {
    rows.push({ series: s.name, label: s.label(params), ...measureRun(s.policy, params, TICKETS) });
    process.stderr.write(".");
  }
}
process.stderr.write("\n");
const out = args.out ?? "docs/forum-sweep.svg";
const points: OverlayPoint[] = rows.map((r) => ({
  series: r.series,
  label: r.label,
  wait: r.meanWait,
  value: r.meanSpread,
}));
await writeOverlayPlot(
  out,
  "1v1, normal(1500, 300) ratings, 1 player/s, bots after 120 s",
  "mean rating spread (human games)",
  points,
);
if (args.json) console.log(JSON.stringify(rows));
else {
  console.log("| policy | parameters | mean wait (s) | mean spread | bot games |");
  console.log("|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.series} | ${JSON.stringify(r.params)} | ${r.meanWait.toFixed(2)} | ${r.meanSpread.toFixed(1)} | ${(100 * r.botShare).toFixed(1)}% |`,
    );
}
console.error(`wrote ${out}`);
