/**
 * The forum sweep's traffic, its series (one per policy, each over a sweep of its main parameter)
 * and one run's measures: shared by `npm run forum-sweep` (bench/forum-sweep.ts) and the test that
 * keeps its table in docs/forum-sweep.md in step with the plot's series.
 */
import { simulate } from "../src/sim/simulator.js";
import type { TrafficModel } from "../src/sim/traffic.js";

export const MAX_WAIT = 120;
export const traffic: TrafficModel = {
  arrivals: "poisson",
  rate: 1,
  parties: [{ value: 1, weight: 1 }],
  skill: { kind: "normal", mean: 1500, sd: 300 },
  sides: [{ value: undefined, weight: 1 }],
};

/** A line of the plot: a label, a policy, and its swept parameter sets. */
export interface Series {
  readonly name: string;
  readonly policy: string;
  readonly label: (p: Record<string, unknown>) => string;
  readonly runs: ReadonlyArray<Record<string, unknown>>;
}

/** Every line of the plot, in legend order. */
export const series: readonly Series[] = [
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
  {
    name: "weighted-pairing",
    policy: "weighted-pairing",
    label: (p) => `sd=${p.ratingSd}`,
    runs: [5, 10, 20, 40, 80].map((ratingSd) => ({ ratingSd, boundMs: 60_000 })),
  },
];

export interface Row {
  readonly series: string;
  readonly params: Record<string, unknown>;
  readonly label: string;
  readonly meanWait: number;
  readonly meanSpread: number;
  readonly botShare: number;
}

export function measureRun(
  policy: string,
  params: Record<string, unknown>,
  tickets: number,
): Omit<Row, "series" | "label"> {
  const trace = simulate({
    policy,
    params,
    teamSize: 1,
    traffic,
    tickets,
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
    const measured = m.tickets.filter((t) => Number(t.id.slice(1)) >= Math.floor(tickets / 10));
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
