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
import { simulate } from "../src/sim/simulator.js";
import type { TrafficModel } from "../src/sim/traffic.js";

const { values: args } = parseArgs({
  options: { out: { type: "string" }, json: { type: "boolean" }, tickets: { type: "string" } },
});
const TICKETS = Number(args.tickets ?? 10_000);
const WARMUP = Math.floor(TICKETS / 10);
const MAX_WAIT = 120;
const traffic: TrafficModel = {
  arrivals: "poisson",
  rate: 1,
  parties: [{ value: 1, weight: 1 }],
  skill: { kind: "normal", mean: 1500, sd: 300 },
  sides: [{ value: undefined, weight: 1 }],
};

/** Each series: a label, a policy, and its swept parameter sets. */
const series: Array<{
  name: string;
  policy: string;
  label: (p: Record<string, unknown>) => string;
  runs: Array<Record<string, unknown>>;
}> = [
  {
    name: "fixed window",
    policy: "expanding-window",
    label: (p) => `w=${p.initial}`,
    runs: [10, 20, 40, 80, 160].map((initial) => ({ initial, growthPerSecond: 0 })),
  },
  {
    name: "expanding-window",
    policy: "expanding-window",
    label: (p) => `+${p.growthPerSecond}/s`,
    runs: [0.25, 0.5, 1, 2, 4].map((growth) => ({ initial: 10, growthPerSecond: growth })),
  },
  {
    name: "expanding-window (percentile)",
    policy: "expanding-window",
    label: (p) => `+${p.growthPerSecond}/s`,
    runs: [0.0005, 0.001, 0.002, 0.004].map((growth) => ({
      unit: "percentile",
      initial: 0.005,
      growthPerSecond: growth,
    })),
  },
  {
    name: "brackets",
    policy: "brackets",
    label: (p) => `w=${p.width}`,
    runs: [50, 100, 200, 400].map((width) => ({ width, period: 60, splitAt: 6 })),
  },
  { name: "greedy", policy: "greedy", label: () => "", runs: [{}] },
  { name: "periodic", policy: "periodic", label: (p) => `x=${p.x}`, runs: [2, 4, 8, 16, 32].map((x) => ({ x })) },
  {
    name: "multi-queue",
    policy: "multi-queue",
    label: (p) => `r=${p.r}`,
    runs: [4, 8, 16, 32, 64].map((r) => ({ r })),
  },
  {
    name: "difference-wait",
    policy: "difference-wait",
    label: (p) => `f=${p.fWait}`,
    runs: [100, 300, 1000, 3000, 10000].map((fWait) => ({ fWait })),
  },
];

interface Row {
  readonly series: string;
  readonly params: Record<string, unknown>;
  readonly label: string;
  readonly meanWait: number;
  readonly meanSpread: number;
  readonly botShare: number;
}

function measureRun(policy: string, params: Record<string, unknown>): Omit<Row, "series" | "label"> {
  const trace = simulate({
    policy,
    params,
    teamSize: 1,
    traffic,
    tickets: TICKETS,
    maxWaitMs: MAX_WAIT * 1000,
    seed: 1,
  });
  let waitSum = 0;
  let players = 0;
  let spreadSum = 0;
  let humanGames = 0;
  let games = 0;
  let botGames = 0;
  for (const m of trace.matches) {
    const measured = m.tickets.filter((t) => Number(t.id.slice(1)) >= WARMUP);
    if (measured.length === 0) continue;
    games++;
    for (const t of measured) waitSum += (m.createdAt - t.enqueuedAt) / 1000;
    players += measured.length;
    if (m.bots > 0) botGames++;
    else {
      spreadSum += m.quality.spread;
      humanGames++;
    }
  }
  return { params, meanWait: waitSum / players, meanSpread: spreadSum / humanGames, botShare: botGames / games };
}

const rows: Row[] = [];
for (const s of series) {
  for (const params of s.runs) {
    rows.push({ series: s.name, label: s.label(params), ...measureRun(s.policy, params) });
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
