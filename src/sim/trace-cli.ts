/**
 * `npm run sim -- --trace FILE [...]`: replay a recorded queue's traffic (downloaded from
 * `/matchmaker/traces`; the format is `src/trace/format.ts`).
 *
 * - Without `--policy` (or with the recorded policy and no `--set`): the exact replay on the
 *   recorded clock, checked game for game against the live queue's.
 * - With `--policy NAME [--set K=V ...]`: the recorded arrivals and departures through that policy.
 * - With `--compare`: every policy of {@link COMPARE_SERIES} over its sweep, and target waits,
 *   printed as a table of mean wait and mean spread with the frontier marked (runs no other run
 *   beats on both), and with `--plot FILE.svg` drawn.
 */
import { readFileSync } from "node:fs";
import Table from "cli-table3";
import { servesShape, type PolicyParams } from "../core/policy.js";
import { checkTrace, type TrafficTrace } from "../trace/format.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { measure, type Measures } from "./measures.js";
import { keyValue, parseFlags, parseValue, UsageError } from "./options.js";
import { writeOverlayPlot } from "./plot.js";
import { compareMatches, replayExact, replayTrace, type ReplayOverride, type ReplayResult } from "./replay.js";
import { describeShape, kindOf } from "../core/shape.js";
import { resolveShape } from "../options/shape-options.js";

export const TRACE_USAGE = `usage: npm run sim -- --trace FILE [--policy NAME] [--set KEY=VALUE ...] [--compare] [--plot FILE.svg] [--json]

  --trace FILE      a traffic trace downloaded from /matchmaker/traces (queue option trafficTrace)
  --policy NAME     replay through this policy (default: the recorded one, exactly, on the recorded clock)
  --set KEY=VALUE   its parameters (repeatable)
  --target-wait S   with --policy: the queue option targetWait (mean wait in seconds)
  --compare         every policy over a sweep, and target waits: mean wait against mean spread
  --plot FILE.svg   with --compare: plot the runs (mean wait against mean spread per game)
  --json            print the result as one JSON object`;

export interface TraceRequest {
  readonly file: string;
  readonly policy?: string;
  readonly params?: PolicyParams;
  readonly targetWait?: number;
  readonly compare: boolean;
  readonly plot?: string;
  readonly json: boolean;
}

export function parseTraceArgs(argv: readonly string[]): TraceRequest {
  const values = parseFlags("--trace", argv, {
    trace: { type: "string" },
    policy: { type: "string" },
    set: { type: "string", multiple: true },
    "target-wait": { type: "string" },
    compare: { type: "boolean" },
    plot: { type: "string" },
    json: { type: "boolean" },
  });
  if (!values.trace) throw new UsageError("--trace: give the trace file");
  if (values.policy !== undefined && !defaultPolicies.names().includes(values.policy))
    throw new UsageError(
      `--policy: unknown policy "${values.policy}"; registered: ${defaultPolicies.names().join(", ")}`,
    );
  if (values.compare && values.policy !== undefined)
    throw new UsageError("--compare runs every policy: leave out --policy");
  if (values.plot !== undefined && !values.compare) throw new UsageError("--plot: needs --compare");
  if (values.plot !== undefined && !values.plot.endsWith(".svg"))
    throw new UsageError("--plot: the file name must end in .svg");
  const params: Record<string, unknown> = {};
  for (const pair of values.set ?? []) {
    const [key, value] = keyValue("--set", pair);
    params[key] = parseValue(value);
  }
  let targetWait: number | undefined;
  if (values["target-wait"] !== undefined) {
    targetWait = Number(values["target-wait"]);
    if (!(targetWait > 0) || !Number.isFinite(targetWait))
      throw new UsageError(`--target-wait: must be a positive number of seconds, got ${values["target-wait"]}`);
    if (values.policy === undefined) throw new UsageError("--target-wait: needs --policy");
  }
  return {
    file: values.trace,
    ...(values.policy !== undefined ? { policy: values.policy } : {}),
    ...(values.set ? { params } : {}),
    ...(targetWait !== undefined ? { targetWait } : {}),
    compare: values.compare ?? false,
    ...(values.plot !== undefined ? { plot: values.plot } : {}),
    json: values.json ?? false,
  };
}

/** One run of a comparison: a policy at one parameter set, and what it measured. */
export interface CompareRun {
  readonly series: string;
  readonly policy: string;
  readonly params: PolicyParams;
  readonly label: string;
  readonly targetWaitMs?: number;
  readonly measures: Measures;
  /** No other run has both a shorter (or equal) mean wait and a smaller (or equal) mean spread. */
  readonly frontier: boolean;
}

/** A series of a comparison: runs of one policy over its parameter (`sd`: the ratings' standard deviation). */
export interface CompareSeries {
  readonly name: string;
  readonly policy: string;
  readonly label: (params: PolicyParams) => string;
  readonly runs: (sd: number) => readonly PolicyParams[];
  /** Target waits (s) for a target-wait series (needs the engine's `targetWait`). */
  readonly targetWaits?: readonly number[];
}

/** The policies a comparison runs, each over a sweep of its main parameter. */
export const COMPARE_SERIES: readonly CompareSeries[] = [
  { name: "greedy", policy: "greedy", label: () => "", runs: () => [{}] },
  { name: "periodic", policy: "periodic", label: (p) => `x=${p.x}`, runs: () => [2, 4, 8].map((x) => ({ x })) },
  {
    name: "multi-queue",
    policy: "multi-queue",
    label: (p) => `r=${p.r}`,
    runs: () => [2, 4, 8, 16].map((r) => ({ r })),
  },
  {
    name: "difference-wait",
    policy: "difference-wait",
    label: (p) => `fWait=${p.fWait}`,
    runs: () => [0.5, 1, 2, 4, 8, 16].map((fWait) => ({ fWait })),
  },
  {
    name: "expanding-window",
    policy: "expanding-window",
    label: (p) => `+${p.growthPerSecond}/s`,
    runs: (sd) =>
      [0.05, 0.1, 0.2, 0.4, 0.8].map((g) => ({ initial: round(0.02 * sd), growthPerSecond: round(g * sd) })),
  },
  {
    name: "expanding-window (percentile)",
    policy: "expanding-window",
    label: (p) => `+${p.growthPerSecond}/s`,
    runs: () => [0.01, 0.02, 0.05, 0.1, 0.3].map((g) => ({ unit: "percentile", initial: 0.005, growthPerSecond: g })),
  },
  { name: "brackets", policy: "brackets", label: () => "", runs: () => [{}] },
];

const round = (x: number) => Number(x.toPrecision(3));

/** The ratings' standard deviation over every recorded player. */
export function ratingSd(trace: TrafficTrace): number {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const e of trace.events)
    if (e.e === "arrive")
      for (const p of e.players) {
        n++;
        sum += p.rating;
        squares += p.rating * p.rating;
      }
  if (n < 2) return 1;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, squares / n - mean * mean)) || 1;
}

/** The range of the recorded ratings (the compare runs' rating range). */
function ratingSpan(trace: TrafficTrace): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const e of trace.events)
    if (e.e === "arrive")
      for (const p of e.players) {
        min = Math.min(min, p.rating);
        max = Math.max(max, p.rating);
      }
  return min < max ? { min, max } : (trace.engine.ratingRange ?? { min: 0, max: 1 });
}

/** The measures of a replay: the first tenth of its arrivals left out. */
export function measureReplay(trace: TrafficTrace, result: ReplayResult): Measures {
  const first = result.arrivals[0]?.index ?? 0;
  const span = ratingSpan(trace);
  return measure(result, {
    warmup: first + Math.floor(result.arrivals.length / 10),
    ...(trace.engine.maxWaitMs !== undefined ? { maxWaitMs: trace.engine.maxWaitMs } : {}),
    ratingScale: span,
  });
}

/**
 * Every series over its sweep on the trace's traffic, with the frontier marked; a series whose
 * policy does not form games of the trace's shape is left out.
 */
export function compareOnTrace(
  trace: TrafficTrace,
  series: readonly CompareSeries[] = COMPARE_SERIES,
  onRun?: (done: number, total: number) => void,
): CompareRun[] {
  const sd = ratingSd(trace);
  const ratingRange = ratingSpan(trace);
  const kind = kindOf(resolveShape(trace.engine));
  const served = series.filter((s) => servesShape(defaultPolicies.get(s.policy), kind));
  const plan = served.flatMap((s) =>
    s.targetWaits
      ? s.targetWaits.flatMap((target) =>
          s.runs(sd).map((params) => ({ s, params, target: Math.round(target * 1000) as number | undefined })),
        )
      : s.runs(sd).map((params) => ({ s, params, target: undefined as number | undefined })),
  );
  const runs: Omit<CompareRun, "frontier">[] = [];
  plan.forEach(({ s, params, target }, i) => {
    const override: ReplayOverride = {
      policy: s.policy,
      params,
      engine: { ratingRange, ...(target !== undefined ? { targetWait: { waitMs: target } } : {}) },
    };
    const measures = measureReplay(trace, replayTrace(trace, override));
    runs.push({
      series: s.name,
      policy: s.policy,
      params,
      label: target !== undefined ? `${target / 1000} s` : s.label(params),
      ...(target !== undefined ? { targetWaitMs: target } : {}),
      measures,
    });
    onRun?.(i + 1, plan.length);
  });
  return runs.map((r) => ({
    ...r,
    frontier:
      r.measures.unmatched === 0 &&
      !runs.some(
        (o) =>
          o !== r &&
          o.measures.unmatched === 0 &&
          o.measures.meanWait <= r.measures.meanWait &&
          o.measures.meanSpread <= r.measures.meanSpread &&
          (o.measures.meanWait < r.measures.meanWait || o.measures.meanSpread < r.measures.meanSpread),
      ),
  }));
}

/** The comparison as a table, fastest first. */
export function compareTable(runs: readonly CompareRun[]): string {
  const table = new Table({
    head: ["policy", "parameter", "mean wait s", "p95 wait s", "mean spread", "games", "still waiting", "frontier"],
    style: { head: [], border: [] },
  });
  for (const r of [...runs].sort((a, b) => a.measures.meanWait - b.measures.meanWait))
    table.push([
      r.series,
      r.label,
      r.measures.meanWait.toFixed(3),
      r.measures.p95Wait.toFixed(2),
      r.measures.meanSpread.toFixed(1),
      String(r.measures.games),
      String(r.measures.unmatched),
      r.frontier ? "*" : "",
    ]);
  return table.toString();
}

/** Run and print; resolves to the exit code. */
export async function runTrace(
  argv: readonly string[],
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  let request: TraceRequest;
  let trace: TrafficTrace;
  try {
    request = parseTraceArgs(argv);
    trace = checkTrace(JSON.parse(readFileSync(request.file, "utf8")));
  } catch (error) {
    const usage = error instanceof UsageError;
    console.error(`sim: ${(error as Error).message}${usage ? `\n\n${TRACE_USAGE}` : ""}`);
    return 2;
  }
  const arrivals = trace.events.filter((e) => e.e === "arrive").length;
  const header = `trace: queue ${trace.queue ?? "?"}, ${describeShape(resolveShape(trace.engine))}, policy ${trace.engine.policy}, ${arrivals} arrivals, ${trace.events.length} events${trace.dropped > 0 ? `, ${trace.dropped} events lost off the ring's start` : ""}`;
  if (request.compare) {
    const runs = compareOnTrace(trace, COMPARE_SERIES, onProgress);
    if (request.plot) {
      await writeOverlayPlot(
        request.plot,
        `wait against spread on the recorded traffic (${trace.queue ?? "trace"})`,
        "mean rating spread per game",
        runs.map((r) => ({
          series: r.series,
          label: r.label,
          wait: r.measures.meanWait,
          value: r.measures.meanSpread,
        })),
      );
      console.error(`sim: wrote ${request.plot}`);
    }
    console.log(request.json ? JSON.stringify({ runs }) : `${header}\n${compareTable(runs)}`);
    return 0;
  }
  const same =
    request.policy === undefined ||
    (request.policy === trace.engine.policy && request.params === undefined && request.targetWait === undefined);
  if (same) {
    const result = replayExact(trace);
    const check = compareMatches(result);
    const measures = measureReplay(trace, result);
    if (request.json) console.log(JSON.stringify({ exact: true, ...check, measures }));
    else
      console.log(
        `${header}\nexact replay on the recorded clock: ${check.replayed} games replayed, ${check.recorded} recorded: ${
          check.same
            ? "the same games"
            : `they differ from game ${check.firstDifference!.index + 1} (recorded ${check.firstDifference!.recorded ?? "none"}, replayed ${check.firstDifference!.replayed ?? "none"})`
        }\nmean wait ${measures.meanWait.toFixed(3)} s, p95 ${measures.p95Wait.toFixed(2)} s, mean spread ${measures.meanSpread.toFixed(1)}, ${measures.games} games`,
      );
    return check.same ? 0 : 1;
  }
  const result = replayTrace(trace, {
    policy: request.policy!,
    ...(request.params ? { params: request.params } : {}),
    ...(request.targetWait !== undefined
      ? { engine: { targetWait: { waitMs: Math.round(request.targetWait * 1000) } } }
      : {}),
  });
  const measures = measureReplay(trace, result);
  if (request.json) console.log(JSON.stringify({ exact: false, policy: request.policy, measures }));
  else
    console.log(
      `${header}\nreplayed through ${request.policy}: mean wait ${measures.meanWait.toFixed(3)} s, p95 ${measures.p95Wait.toFixed(2)} s, mean spread ${measures.meanSpread.toFixed(1)}, ${measures.games} games, ${measures.unmatched} still waiting`,
    );
  return 0;
}
