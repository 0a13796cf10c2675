/**
 * Runs what the CLI asked for: one simulation, or one per swept parameter value, each
 * measured and, on request, compared with the offline optimum of the same arrivals.
 */
import { measure, schlupTotalCost, type Measures } from "./measures.js";
import { schlupOptimum } from "./optimum.js";
import { withParam, type SimulationRequest } from "./options.js";
import { simulate, type SimulationTrace } from "./simulator.js";
import { criteriaOf, ratingScale } from "./traffic.js";
import type { GameShape } from "../core/shape.js";
import { optionsOfShape } from "../options/shape-options.js";

/** One row of results: the `--json` object of the CLI. */
export interface SimulationReport extends Measures {
  readonly policy: string;
  /** The shape of the run's games. */
  readonly shape: GameShape;
  readonly params: Readonly<Record<string, unknown>>;
  /** Eq. (1) cost per game of the offline optimum on the same arrivals (with `--opt`). */
  readonly optCostPerGame?: number;
  /** The policy's total eq. (1) cost over the whole run divided by the optimum's. */
  readonly ratioToOpt?: number;
  /**
   * The engine's side-mix flag at the end of the run (Xu et al.'s Fact 3): true when
   * |lambda_A − lambda_B| ≥ lambda_C over its recent arrivals, so the surplus side's waits grow
   * without bound and the figures describe only how long the run was.
   */
  readonly sideMixUnstable: boolean;
}

export type Progress = (done: number, total: number | undefined, label: string) => void;

/** Every run of the request, in sweep order. */
export function runRequest(request: SimulationRequest, progress?: Progress): SimulationReport[] {
  const variants = request.sweep
    ? request.sweep.values.map((value) => withParam(request.params, request.sweep!.key, value))
    : [request.params];
  return variants.map((params) => runOne(request, params, progress));
}

function runOne(
  request: SimulationRequest,
  params: Readonly<Record<string, unknown>>,
  progress?: Progress,
): SimulationReport {
  const label = `${request.policy} ${JSON.stringify(params)}`;
  const trace = simulate({
    policy: request.policy,
    params,
    ...optionsOfShape(request.shape),
    ...(request.shortHandedAfter !== undefined
      ? { shortHandedAfterMs: Math.ceil(request.shortHandedAfter * 1000) }
      : {}),
    traffic: request.traffic,
    ...(request.imbalance ? { imbalance: request.imbalance } : {}),
    ...(request.maxWait !== undefined ? { maxWaitMs: request.maxWait * 1000 } : {}),
    ...(request.tickets !== undefined ? { tickets: request.tickets } : {}),
    ...(request.duration !== undefined ? { durationMs: request.duration * 1000 } : {}),
    seed: request.seed,
    ...(request.avoidRecent ? { avoidRecent: request.avoidRecent } : {}),
    ...(request.latency ? { latency: request.latency } : {}),
    onProgress: (done, total) => progress?.(done, total, label),
  });
  const scale = ratingScale(request.traffic.skill);
  const measures = measure(trace, {
    warmup: request.warmup ?? Math.floor(trace.arrivals.length / 10),
    ...(request.maxWait !== undefined ? { maxWaitMs: request.maxWait * 1000 } : {}),
    imbalanceCost: request.imbalanceCost,
    ratingScale: scale,
    ...(request.traffic.criteria ? { criteria: criteriaOf(request.traffic)! } : {}),
  });
  const report: SimulationReport = {
    policy: request.policy,
    shape: trace.shape,
    params,
    ...measures,
    sideMixUnstable: trace.stats.sideMix.unstable,
  };
  if (!request.opt || request.maxWait === undefined) return report;
  return { ...report, ...compareWithOptimum(trace, request.maxWait, scale) };
}

/** The optimum over the whole run (no warm-up: both sides see exactly the same arrivals). */
function compareWithOptimum(trace: SimulationTrace, tauMax: number, scale: { min: number; max: number }) {
  const clamp = (r: number) => Math.min(1, Math.max(0, (r - scale.min) / (scale.max - scale.min)));
  const optimum = schlupOptimum(
    trace.arrivals.map((a) => ({ time: a.time, rating: clamp(a.ticket.players[0].rating) })),
    tauMax,
  );
  const policyCost = schlupTotalCost(trace.matches, tauMax, scale);
  return { optCostPerGame: optimum.cost / optimum.games, ratioToOpt: policyCost / optimum.cost };
}
