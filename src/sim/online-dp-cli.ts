/**
 * `npm run sim -- --online-dp --rate A --max-wait T [--bins R] [--steps K] [--pool N] [--seeds S] [--tickets N] [--json]`:
 * solve the online-optimum model of `online-dp.ts` for lambda = A·T, then run its policy and
 * `density-window` on the grid's seeded arrivals of that cell, each against the offline optimum.
 */
import { PolicyRegistry } from "../core/policy.js";
import { densityWindow } from "../policies/density-window.js";
import { schlupTotalCost } from "./measures.js";
import { onlineDpPolicy, solveOnlineDp, type OnlineDpOptions, type OnlineDpSolution } from "./online-dp.js";
import { schlupOptimum } from "./optimum.js";
import { parseFlags, parseOrExplain, UsageError, wholeInRange } from "./options.js";
import { formatSeedMean, schlupTraffic, seedMean, type SeedMean } from "./schlup-table3.js";
import { simulate } from "./simulator.js";

export const ONLINE_DP_USAGE = `usage: npm run sim -- --online-dp --rate A --max-wait T [--bins R] [--steps K] [--pool N] [--seeds S] [--tickets N] [--json]

  --rate A       arrivals per second (Schlup's a)
  --max-wait T   tau_max in seconds; the model depends on lambda = A·T only
  --bins R       rating bins of the model (default 20)
  --steps K      time steps per tau_max, more than lambda (default the larger of 20 and 4·lambda)
  --pool N       most players the model leaves waiting, 1..4 (default 2)
  --seeds S      arrival sequences (seeds 1..S) to run its policy and density-window on (default 8; 0: none)
  --tickets N    arrivals per run (default 2000)
  --json         print the result as one JSON object`;

export interface OnlineDpRequest {
  readonly rate: number;
  readonly maxWait: number;
  readonly model: OnlineDpOptions;
  readonly seeds: number;
  readonly tickets: number;
  readonly json: boolean;
}

export function parseOnlineDpArgs(argv: readonly string[]): OnlineDpRequest {
  const values = parseFlags("--online-dp", argv, {
    "online-dp": { type: "boolean" },
    rate: { type: "string" },
    "max-wait": { type: "string" },
    bins: { type: "string" },
    steps: { type: "string" },
    pool: { type: "string" },
    seeds: { type: "string" },
    tickets: { type: "string" },
    json: { type: "boolean" },
  });
  const positive = (option: string, text: string | undefined): number => {
    const x = Number(text);
    if (text === undefined || !Number.isFinite(x) || x <= 0)
      throw new UsageError(`${option}: a number > 0 is required`);
    return x;
  };
  const rate = positive("--rate", values.rate);
  const maxWait = positive("--max-wait", values["max-wait"]);
  const lambda = rate * maxWait;
  const steps = wholeInRange("--steps", values.steps ?? String(Math.max(20, Math.ceil(4 * lambda))), 2, 120);
  if (steps <= lambda) throw new UsageError(`--steps: must exceed lambda = ${lambda}`);
  return {
    rate,
    maxWait,
    model: {
      lambda,
      ratingBins: wholeInRange("--bins", values.bins ?? "20", 2, 64),
      steps,
      pool: wholeInRange("--pool", values.pool ?? "2", 1, 4),
    },
    seeds: wholeInRange("--seeds", values.seeds ?? "8", 0, 1000),
    tickets: wholeInRange("--tickets", values.tickets ?? "2000", 100, 1_000_000),
    json: values.json ?? false,
  };
}

/** The model's solution and, per policy, its runs against the offline optimum. */
export interface OnlineDpResult {
  readonly rate: number;
  readonly maxWait: number;
  readonly model: OnlineDpOptions;
  readonly costPerArrival: number;
  readonly iterations: number;
  readonly span: number;
  readonly seeds: number;
  readonly tickets: number;
  /** The offline optimum's cost per arrival over the seeds. */
  readonly optPerArrival?: SeedMean;
  /** The model's cost per arrival over the optimum's (the model's online optimum as a ratio). */
  readonly modelRatio?: number;
  /** Cost / OPT per run, by policy (`online-dp`, `density-window`). */
  readonly ratios: Readonly<Record<string, SeedMean>>;
  /** online-dp minus density-window, paired by seed. */
  readonly difference?: SeedMean;
}

/** Solve and, with seeds, simulate. */
export function onlineDpRun(
  request: OnlineDpRequest,
  solution: OnlineDpSolution = solveOnlineDp(request.model),
): OnlineDpResult {
  const policies = new PolicyRegistry([onlineDpPolicy(solution), densityWindow]);
  const traffic = schlupTraffic({ label: "", rate: request.rate, rising: false }, request.tickets);
  const names = ["online-dp", "density-window"];
  const ratios = new Map(names.map((n) => [n, [] as number[]]));
  const opt: number[] = [];
  for (let seed = 1; seed <= request.seeds; seed++) {
    let optimum: number | undefined;
    for (const policy of names) {
      const trace = simulate({
        policy,
        policies,
        teamSize: 1,
        traffic,
        maxWaitMs: request.maxWait * 1000,
        tickets: request.tickets,
        seed,
      });
      if (optimum === undefined) {
        const arrivals = trace.arrivals.map((a) => ({ time: a.time, rating: a.ticket.players[0].rating }));
        optimum = schlupOptimum(arrivals, request.maxWait).cost;
        opt.push(optimum / request.tickets);
      }
      ratios.get(policy)!.push(schlupTotalCost(trace.matches, request.maxWait, { min: 0, max: 1 }) / optimum);
    }
  }
  const base = {
    rate: request.rate,
    maxWait: request.maxWait,
    model: request.model,
    costPerArrival: solution.costPerArrival,
    iterations: solution.iterations,
    span: solution.span,
    seeds: request.seeds,
    tickets: request.tickets,
  };
  if (request.seeds < 2) return { ...base, ratios: {} };
  const dp = ratios.get("online-dp")!;
  const dw = ratios.get("density-window")!;
  const optPerArrival = seedMean(opt);
  return {
    ...base,
    optPerArrival,
    modelRatio: solution.costPerArrival / optPerArrival.mean,
    ratios: Object.fromEntries(names.map((n) => [n, seedMean(ratios.get(n)!)])),
    difference: seedMean(dp.map((x, i) => x - dw[i])),
  };
}

export function onlineDpText(r: OnlineDpResult): string {
  const m = r.model;
  const lines = [
    `a = ${r.rate}, tau_max = ${r.maxWait} (lambda = ${m.lambda}); model: ${m.ratingBins} rating bins, ${m.steps} steps per tau_max, pool <= ${m.pool}`,
    `model's online optimum: ${r.costPerArrival.toFixed(5)} per arrival (${r.iterations} iterations, span ${r.span.toExponential(1)})`,
  ];
  if (r.optPerArrival && r.modelRatio !== undefined && r.difference) {
    lines.push(
      `offline optimum over ${r.seeds} seeds of ${r.tickets} arrivals: ${formatSeedMean(r.optPerArrival, 5)} per arrival; model / OPT = ${r.modelRatio.toFixed(3)}`,
      `cost / OPT, same arrivals: online-dp ${formatSeedMean(r.ratios["online-dp"])}, density-window ${formatSeedMean(r.ratios["density-window"])}; difference ${formatSeedMean(r.difference)}`,
    );
  }
  return lines.join("\n");
}

/** Run and print; resolves to the exit code. */
export function runOnlineDp(argv: readonly string[]): number {
  const request = parseOrExplain(parseOnlineDpArgs, argv, ONLINE_DP_USAGE);
  if (!request) return 2;
  const result = onlineDpRun(request);
  console.log(request.json ? JSON.stringify(result) : onlineDpText(result));
  return 0;
}
