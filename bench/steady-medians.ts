/**
 * Medians of several steady-pool runs, as the markdown table of lab/engine-speed.md.
 *
 *     npm run bench -- --steady-only --json > run1.json   (and run2, run3)
 *     npx tsx bench/steady-medians.ts run1.json run2.json run3.json [--before=b1.json,b2.json,b3.json]
 *
 * Each cell is the median over the runs of that run's figure (itself the median of its three
 * rounds); growth rows compare the smallest and the largest pool of each policy and team size in
 * steps/s and against the floor (see `steadyGrowth`). "x fastest" is steps/s over the fastest floor
 * of the same run at the same N (see `againstFastestFloor`), recomputed from each run's rounds. With `--before`, a second set of runs (e.g.
 * the previous commit measured the same way) adds a "before" column.
 */
import { readFileSync } from "node:fs";
import { againstFastestFloor, median, steadyGrowth, type SteadyCell } from "./steady.js";

function load(files: readonly string[]): SteadyCell[][] {
  // Recomputed from the rounds, so that runs of a bench without the figure get it too.
  return files.map((f) =>
    againstFastestFloor((JSON.parse(readFileSync(f, "utf8")) as { steady: { cells: SteadyCell[] } }).steady.cells),
  );
}

const key = (c: SteadyCell) => `${c.policy}|${c.teamSize}|${c.waiting}`;

/** One cell per policy x team size x waiting: the median of each figure over the runs. */
function medianCells(runs: readonly SteadyCell[][]): SteadyCell[] {
  const groups = new Map<string, SteadyCell[]>();
  for (const run of runs) for (const c of run) groups.set(key(c), [...(groups.get(key(c)) ?? []), c]);
  return [...groups.values()].map((g) => ({
    ...g[0],
    stepsPerSecond: median(g.map((c) => c.stepsPerSecond)),
    floorPerSecond: median(g.map((c) => c.floorPerSecond)),
    ratio: median(g.map((c) => c.ratio)),
    // (Runs made before the column existed have none: NaN, printed as "-".)
    threadRatio: median(g.map((c) => c.threadRatio ?? NaN)),
    ratioToFastest: median(g.map((c) => c.ratioToFastest!)),
    fastestFloorPerSecond: median(g.map((c) => c.fastestFloorPerSecond!)),
    engineBytesPerTicket: median(g.map((c) => c.engineBytesPerTicket)),
    ticketBytesPerTicket: median(g.map((c) => c.ticketBytesPerTicket)),
    rounds: g.flatMap((c) => c.rounds),
  }));
}

const args = process.argv.slice(2);
const beforeArg = args.find((a) => a.startsWith("--before="));
const after = medianCells(load(args.filter((a) => !a.startsWith("--"))));
const before = beforeArg ? medianCells(load(beforeArg.slice("--before=".length).split(","))) : undefined;
const beforeOf = new Map((before ?? []).map((c) => [key(c), c]));

const fmt = (x: number) => (Number.isNaN(x) ? "-" : x >= 0.01 ? x.toFixed(3) : x.toFixed(4));
const n = (x: number) => Math.round(x).toLocaleString("en-US");
console.log(
  before
    ? "| policy | game | waiting | before x floor | after x floor | before x floor (thread) | after x floor (thread) | before x fastest | after x fastest | before steps/s | after steps/s | after floor/s | after fastest floor/s | before B/ticket | after B/ticket |"
    : "| policy | game | waiting | x floor | x floor (thread) | x fastest | steps/s | floor/s | fastest floor/s | B/ticket |",
);
console.log(
  before
    ? "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    : "|---|---|---|---|---|---|---|---|---|---|",
);
for (const c of after) {
  const b = beforeOf.get(key(c));
  const head = `| ${c.policy} | ${c.teamSize}v${c.teamSize} | ${n(c.waiting)} |`;
  console.log(
    before
      ? `${head} ${b ? fmt(b.ratio) : "-"} | ${fmt(c.ratio)} | ${b ? fmt(b.threadRatio) : "-"} | ${fmt(c.threadRatio)} | ${b ? fmt(b.ratioToFastest!) : "-"} | ${fmt(c.ratioToFastest!)} | ${b ? n(b.stepsPerSecond) : "-"} | ${n(c.stepsPerSecond)} | ${n(c.floorPerSecond)} | ${n(c.fastestFloorPerSecond!)} | ${b ? b.engineBytesPerTicket.toFixed(0) : "-"} | ${c.engineBytesPerTicket.toFixed(0)} |`
      : `${head} ${fmt(c.ratio)} | ${fmt(c.threadRatio)} | ${fmt(c.ratioToFastest!)} | ${n(c.stepsPerSecond)} | ${n(c.floorPerSecond)} | ${n(c.fastestFloorPerSecond!)} | ${c.engineBytesPerTicket.toFixed(0)} |`,
  );
}
console.log();
console.log("| policy | game | growth in steps/s | growth against the floor | floor's own slowdown |");
console.log("|---|---|---|---|---|");
for (const g of steadyGrowth(after)) {
  console.log(
    `| ${g.policy} | ${g.teamSize}v${g.teamSize} | ${g.slowdown.toFixed(2)}x | ${g.relativeSlowdown.toFixed(2)}x | ${g.floorSlowdown.toFixed(2)}x |`,
  );
}
