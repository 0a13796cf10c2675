/**
 * `npm run sim -- --trace FILE [...]`: replay a recorded queue's traffic (downloaded from
 * `/matchmaker/traces`; the format is `src/trace/format.ts`).
 *
 * - Without `--policy` (or with the recorded policy and no `--set`): the exact replay on the
 *   recorded clock, checked game for game against the live queue's.
 * - With `--policy NAME [--set K=V ...]`: the recorded arrivals and departures through that policy.
 * - With `--compare [--target-wait S]`: every policy at its defaults and at its best setting
 *   within the target (`compare.ts`), one table and a recommendation; `--plot FILE.svg` draws it.
 */
import { readFileSync } from "node:fs";
import { servesShape, type PolicyParams } from "../core/policy.js";
import { checkTrace, type TrafficTrace } from "../trace/format.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { measure, type Measures } from "./measures.js";
import { keyValue, parseFlags, parseValue, UsageError } from "./options.js";
import { writeComparePlot } from "./plot.js";
import {
  comparePolicies,
  gamesDigest,
  referenceFirst,
  type CompareOutcome,
  type CompareRunner,
  type Comparison,
} from "./compare.js";
import { comparePoints, comparisonTable } from "./compare-report.js";
import { DEFAULT_TARGET_WAIT_S, parseWait, teamsOf } from "./compare-cli.js";
import { batchMeansError } from "./batch-means.js";
import { DEFAULT_STOMP_CHANCE, stompThreshold, unfairness, winChances } from "./win-model.js";
import { compareMatches, replayExact, replayTrace, type ReplayResult } from "./replay.js";
import { describeShape, kindOf } from "../core/shape.js";
import { resolveShape } from "../options/shape-options.js";

export const TRACE_USAGE = `usage: npm run sim -- --trace FILE [--policy NAME] [--set KEY=VALUE ...] [--compare] [--plot FILE.svg] [--json]

  --trace FILE      a traffic trace downloaded from /matchmaker/traces (queue option trafficTrace)
  --policy NAME     replay through this policy (default: the recorded one, exactly, on the recorded clock)
  --set KEY=VALUE   its parameters (repeatable)
  --target-wait S   with --policy: the queue option targetWait (mean wait in seconds); with
                    --compare: the p95 wait a tuned setting must keep (default ${DEFAULT_TARGET_WAIT_S} s)
  --compare         every policy at its defaults and at its best setting within the target wait:
                    waits, fairness and stomps by the recorded ratings, and a recommendation
  --plot FILE.svg   with --compare: plot p95 wait against fairness, one line per policy
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
    targetWait = parseWait("--target-wait", values["target-wait"]);
    if (values.policy === undefined && !values.compare)
      throw new UsageError("--target-wait: needs --policy (the queue option) or --compare (the wait to tune for)");
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
 * The win model's performance noise for a trace's ratings: half their standard deviation, the
 * closed loop's default ratio (β 175 for skills of sd 350).
 */
export const TRACE_NOISE_PER_SD = 0.5;

/**
 * A replay of the trace's arrivals and departures through a policy, as a comparison's outcome.
 * Fairness and stomps take the recorded ratings as the true skills (a trace has no others), in
 * the closed loop's win model with β = {@link TRACE_NOISE_PER_SD} × their sd: they say how even
 * the games were by the ratings the queue had. Nothing is learned, so no newcomer placement.
 */
export function traceRunner(trace: TrafficTrace): CompareRunner {
  const ratingRange = ratingSpan(trace);
  const beta = TRACE_NOISE_PER_SD * ratingSd(trace);
  return (policy, params): CompareOutcome => {
    const result = replayTrace(trace, { policy, params, engine: { ratingRange } });
    const measures = measureReplay(trace, result);
    const games = result.matches.slice(Math.floor(result.matches.length / 10));
    const unfair = new Float64Array(games.length);
    const stomps = new Float64Array(games.length);
    games.forEach((match, g) => {
      const chances = winChances(
        match.teams.map((team) => team.players.map((p) => p.rating)),
        beta,
      );
      unfair[g] = unfairness(chances);
      stomps[g] = Math.max(...chances) >= stompThreshold(chances.length, DEFAULT_STOMP_CHANCE) ? 1 : 0;
    });
    const mean = (values: Float64Array) => values.reduce((s, x) => s + x, 0) / (values.length || 1);
    return {
      meanWait: measures.meanWait,
      p95Wait: measures.p95Wait,
      games: measures.games,
      fairness: mean(unfair),
      fairnessError: batchMeansError(unfair),
      stompShare: mean(stomps),
      stompError: batchMeansError(stomps),
      arrived: result.arrivals.length,
      stillWaiting: result.unmatched.length,
      gamesDigest: gamesDigest(result.matches),
    };
  };
}

/**
 * Every policy that forms the trace's games, at its defaults and over its grid, on the trace's
 * traffic; the tuned settings keep the p95 wait within `targetWait` seconds.
 */
export function compareOnTrace(
  trace: TrafficTrace,
  targetWait: number,
  onRun?: (done: number, total: number) => void,
): Comparison {
  const shape = resolveShape(trace.engine);
  const span = ratingSpan(trace);
  const served = defaultPolicies.names().filter((name) => servesShape(defaultPolicies.get(name), kindOf(shape)));
  return comparePolicies(referenceFirst(served), traceRunner(trace), {
    targetWait,
    ratingSpan: span.max - span.min,
    teams: teamsOf(shape),
    ...(onRun ? { onRun } : {}),
  });
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
    const comparison = compareOnTrace(trace, request.targetWait ?? DEFAULT_TARGET_WAIT_S, onProgress);
    if (request.plot) {
      await writeComparePlot(
        request.plot,
        `p95 wait against fairness on the recorded traffic (${trace.queue ?? "trace"})`,
        "fairness by the recorded ratings: mean |P(win) − ½|",
        comparison.targetWait,
        comparePoints(comparison),
      );
      console.error(`sim: wrote ${request.plot}`);
    }
    console.log(
      request.json
        ? JSON.stringify(comparison)
        : `${header}\nfairness and stomps by the recorded ratings taken as the true skills (β = ${TRACE_NOISE_PER_SD} × their sd); a trace learns no ratings, so no newcomer placement\n${comparisonTable(comparison, teamsOf(resolveShape(trace.engine)))}`,
    );
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
