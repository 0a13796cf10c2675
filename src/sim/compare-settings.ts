/**
 * The settings `--compare` tries for each policy beside its defaults: a small grid over the
 * parameter that trades waiting for fairer games (a window's growth, a game's bar, a batch's size).
 * Parameters in rating points are given as shares of the ratings' span (the queue's rating range),
 * so the same grid serves a 0..1 trace and a 1500 ± 500 ladder. A policy without such a parameter
 * (greedy, fifo, lifo, packing, two-queue) is compared at its defaults only.
 */
import type { PolicyParams } from "../core/policy.js";

/** A policy's grid: what it turns, and the settings tried for a rating span. */
export interface PolicyGrid {
  /** The parameter(s) turned, as the table names them. */
  readonly turns: string;
  /** The settings tried, for ratings spanning `span` points. */
  readonly settings: (span: number) => readonly PolicyParams[];
}

const round = (x: number) => Number(x.toPrecision(2));
const ofSpan = (shares: readonly number[], span: number) => shares.map((s) => round(s * span));

/** Every tunable built-in policy's grid, by policy name (3 to 4 settings each, to keep a run short). */
export const COMPARE_GRIDS: Readonly<Record<string, PolicyGrid>> = {
  periodic: { turns: "x", settings: () => [2, 4, 8].map((x) => ({ x })) },
  "multi-queue": { turns: "r", settings: () => [2, 4, 8].map((r) => ({ r })) },
  "difference-wait": { turns: "fWait", settings: () => [2, 4, 8, 16].map((fWait) => ({ fWait })) },
  "best-game": {
    // The default threshold forms a game at once (greedy's games): a bar that lowers with waiting.
    turns: "threshold, thresholdGrowthPerSecond",
    settings: (span) =>
      ofSpan([0.001, 0.003, 0.01, 0.03], span).map((g) => ({
        threshold: round(0.01 * span),
        thresholdGrowthPerSecond: g,
      })),
  },
  patient: { turns: "maxExtraArrivals", settings: () => [2, 4, 8].map((maxExtraArrivals) => ({ maxExtraArrivals })) },
  "expanding-window": {
    turns: "initial, growthPerSecond",
    settings: (span) =>
      ofSpan([0.002, 0.005, 0.02], span).map((g) => ({ initial: round(0.01 * span), growthPerSecond: g })),
  },
  brackets: { turns: "width", settings: (span) => ofSpan([1 / 3, 1 / 12, 1 / 24], span).map((width) => ({ width })) },
  "weighted-pairing": {
    turns: "ratingSd",
    settings: (span) => ofSpan([1 / 10, 1 / 20, 1 / 80], span).map((ratingSd) => ({ ratingSd })),
  },
  "density-window": { turns: "c", settings: () => [0.5, 2, 4].map((c) => ({ c })) },
};

/** A setting as the table prints it: `key=value`, comma-separated; "defaults" for none. */
export function settingLabel(params: PolicyParams): string {
  const pairs = Object.entries(params).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`);
  return pairs.length === 0 ? "defaults" : pairs.join(", ");
}
