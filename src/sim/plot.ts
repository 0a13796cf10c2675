/** `--plot`: the trade-off curve of a sweep, mean wait against cost, as an SVG (vega-lite). */
import { writeFile } from "node:fs/promises";
import type { SimulationReport } from "./run.js";

/** Render a vega-lite `spec` to an SVG `file`. */
async function writeSvg(file: string, spec: object): Promise<void> {
  // vega is only needed for plots: load it on demand so the library does not depend on it.
  const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")]).catch(() => {
    throw new Error("--plot needs the packages vega and vega-lite (npm install vega vega-lite)");
  });
  const compiled = vegaLite.compile(spec as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  await writeFile(file, await view.toSVG());
}

/** What a sweep trades its mean wait against, as the y axis of its plot. */
export interface TradeOff {
  readonly title: string;
  readonly of: (report: SimulationReport) => number;
}

/**
 * The measure a sweep trades wait against: Schlup's eq. (1) cost per game when the runs have a
 * maximum wait (it includes the spread); Wu's cost per time when they carry an imbalance cost;
 * otherwise the mean rating spread per game, what every window, band and threshold buys with
 * waiting (Wu's cost without an imbalance cost is the wait again, a straight diagonal).
 */
export function tradeOffOf(reports: readonly SimulationReport[], imbalanceCost: number): TradeOff {
  if (reports.every((r) => r.schlupCostPerGame !== null))
    return { title: "Schlup cost per game", of: (r) => r.schlupCostPerGame! };
  if (imbalanceCost > 0) return { title: "Wu cost per time", of: (r) => r.wuCostPerTime };
  return { title: "mean rating spread per game", of: (r) => r.meanSpread };
}

/** Write the sweep's curve to `file`: mean wait against what it trades it for ({@link tradeOffOf}). */
export async function writeSweepPlot(
  file: string,
  sweepKey: string,
  reports: readonly SimulationReport[],
  imbalanceCost = 0,
): Promise<void> {
  const tradeOff = tradeOffOf(reports, imbalanceCost);
  const values = reports.map((r) => ({ value: String(r.params[sweepKey]), wait: r.meanWait, cost: tradeOff.of(r) }));
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `${reports[0].policy}: sweep of ${sweepKey}`,
    width: 480,
    height: 320,
    data: { values },
    layer: [
      {
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "wait", type: "quantitative", title: "mean wait (s)" },
          y: { field: "cost", type: "quantitative", title: tradeOff.title },
        },
      },
      {
        mark: { type: "text", dx: 8, dy: -8 },
        encoding: {
          x: { field: "wait", type: "quantitative" },
          y: { field: "cost", type: "quantitative" },
          text: { field: "value" },
        },
      },
    ],
  };
  await writeSvg(file, spec);
}

/** One point of an overlay plot: a policy's run at one parameter value. */
export interface OverlayPoint {
  readonly series: string;
  readonly label: string;
  readonly wait: number;
  readonly value: number;
}

/** Several policies' sweeps on one plot: mean wait (x) against `yTitle` (y), one line per series. */
export async function writeOverlayPlot(
  file: string,
  title: string,
  yTitle: string,
  points: readonly OverlayPoint[],
): Promise<void> {
  const x = { field: "wait", type: "quantitative", title: "mean wait (s)", scale: { type: "log" } };
  const y = { field: "value", type: "quantitative", title: yTitle, scale: { type: "log" } };
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title,
    width: 640,
    height: 420,
    data: { values: points.map((p) => ({ ...p })) },
    layer: [
      {
        mark: { type: "line", point: true },
        encoding: {
          x,
          y,
          // Long series names ("expanding-window (percentile)") in full, under the plot.
          color: {
            field: "series",
            type: "nominal",
            title: "policy",
            legend: { orient: "bottom", columns: 2, labelLimit: 0 },
          },
          order: { field: "wait", type: "quantitative" },
        },
      },
      {
        // Each series' parameter values, at its first and last point only: labels at every point
        // of nine crossing series overlap into noise.
        transform: [
          {
            joinaggregate: [
              { op: "min", field: "wait", as: "first" },
              { op: "max", field: "wait", as: "last" },
            ],
            groupby: ["series"],
          },
          { filter: "datum.wait === datum.first || datum.wait === datum.last" },
        ],
        mark: { type: "text", dx: 6, dy: -6, fontSize: 9 },
        encoding: { x, y, text: { field: "label" }, color: { field: "series", type: "nominal" } },
      },
    ],
  };
  await writeSvg(file, spec);
}

/** One point of a comparison's plot: a policy at one setting. */
export interface ComparePoint {
  readonly policy: string;
  readonly label: string;
  /** p95 wait, s. */
  readonly wait: number;
  /** Mean |P(win) − ½|. */
  readonly fairness: number;
  readonly recommended: boolean;
}

/**
 * `--compare`'s plot: p95 wait (x, log) against unfairness (y), one line per policy through its
 * defaults and grid settings, the target wait as a vertical rule and the recommended point ringed.
 */
export async function writeComparePlot(
  file: string,
  title: string,
  yTitle: string,
  targetWait: number,
  points: readonly ComparePoint[],
): Promise<void> {
  const x = { field: "wait", type: "quantitative", title: "p95 wait (s)", scale: { type: "log" } };
  const y = { field: "fairness", type: "quantitative", title: yTitle, scale: { zero: false } };
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title,
    width: 640,
    height: 420,
    layer: [
      {
        data: { values: points.map((p) => ({ ...p })) },
        mark: { type: "line", point: true },
        encoding: {
          x,
          y,
          color: { field: "policy", type: "nominal", title: "policy", legend: { orient: "bottom", columns: 3 } },
          order: { field: "wait", type: "quantitative" },
        },
      },
      {
        data: { values: points.filter((p) => p.recommended).map((p) => ({ ...p })) },
        mark: { type: "point", size: 300, strokeWidth: 2, color: "black" },
        encoding: { x, y },
      },
      {
        data: { values: [{ target: targetWait }] },
        mark: { type: "rule", strokeDash: [4, 4], color: "gray" },
        encoding: { x: { field: "target", type: "quantitative" } },
      },
    ],
  };
  await writeSvg(file, spec);
}
