/**
 * Schlup's Table 3 as the paper ran it ("Automatic Game Matching", section 5): k = 2, one
 * criterion uniform on [0, 1], tau_max = 5 s, the six arrival settings of Table 2 (constant
 * rates 1, 3, 10; rates rising from 0 to 2, 6, 20 over the run). Each policy plays each
 * setting at its best parameter found by sweep (as section 5.2 did); every cost is eq. (1)
 * over the whole run divided by the offline optimum on the same arrivals; Table 3 is the mean
 * of those ratios over the six settings.
 */
import type { PolicyParams } from "../core/policy.js";
import { schlupTotalCost } from "./measures.js";
import { schlupOptimum } from "./optimum.js";
import { simulate } from "./simulator.js";
import type { TrafficModel } from "./traffic.js";

/** One arrival setting of Table 2: a constant rate, or one rising from 0 to `rate` over the run. */
export interface SchlupSetting {
  readonly label: string;
  readonly rate: number;
  readonly rising: boolean;
}

export const SCHLUP_TABLE2: readonly SchlupSetting[] = [
  { label: "constant 1", rate: 1, rising: false },
  { label: "constant 3", rate: 3, rising: false },
  { label: "constant 10", rate: 10, rising: false },
  { label: "rising 0..2", rate: 2, rising: true },
  { label: "rising 0..6", rate: 6, rising: true },
  { label: "rising 0..20", rate: 20, rising: true },
];

/** Table 3 of the paper: averaged costs scaled to the optimum (= 1). */
export const SCHLUP_TABLE3_PAPER: Readonly<Record<SchlupPolicy, number>> = {
  greedy: 2.04,
  periodic: 1.64,
  "multi-queue": 1.41,
  "difference-wait": 1.39,
};

export type SchlupPolicy = "greedy" | "periodic" | "multi-queue" | "difference-wait";

/** The parameter each policy is swept over, and the values tried (greedy has none). */
export interface SchlupGrid {
  readonly key?: string;
  readonly values: readonly unknown[];
  /** Parameters fixed beside the swept one (default none: the policy's defaults). */
  readonly params?: PolicyParams;
}

/**
 * The sweep grids. The paper swept A_PM's games per period and A_MQ's number of queues from 1
 * and A_DW's f_wait from 0 (its Fig. 2); these cover the optima of eqs. (6) and (9) at every
 * rate of Table 2 (n_opt ≈ 19 players at a = 20, r_opt ≈ 8 queues) with room on both sides.
 */
export const SCHLUP_GRIDS: Readonly<Record<SchlupPolicy, SchlupGrid>> = {
  greedy: { values: [undefined] },
  periodic: { key: "x", values: [1, 2, 3, 4, 5, 6, 8, 10, 12] },
  "multi-queue": { key: "r", values: [1, 2, 3, 4, 5, 6, 7, 8, 10, 12] },
  "difference-wait": { key: "fWait", values: [0, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24] },
};

export const SCHLUP_POLICIES = Object.keys(SCHLUP_GRIDS) as SchlupPolicy[];

export interface SchlupTable3Options {
  /** Arrivals per run (the paper does not say; its figures are per game). */
  readonly tickets: number;
  /** Independent arrival sequences per setting (seeds 1..seeds). */
  readonly seeds: number;
  /** The first seed (default 1): seeds firstSeed..firstSeed + seeds − 1, e.g. for a sample independent of a documented run. */
  readonly firstSeed?: number;
  readonly tauMax?: number;
  /** Limit the run to some policies or settings (default: all). */
  readonly policies?: readonly SchlupPolicy[];
  readonly settings?: readonly SchlupSetting[];
  /** Override the grids (e.g. a narrower one for a quick test). */
  readonly grids?: Partial<Record<SchlupPolicy, SchlupGrid>>;
  /**
   * Other registered policies to run beside Schlup's, on the same arrivals and cost, each with
   * its grid (`{ values: [undefined] }`: the policy's defaults, no sweep).
   */
  readonly others?: Readonly<Record<string, SchlupGrid>>;
  readonly onProgress?: (done: number, total: number) => void;
}

/** One policy in one setting: every swept value's mean ratio, and the best. */
export interface SchlupCell {
  /** One of Schlup's four, or one of `others`. */
  readonly policy: string;
  readonly setting: string;
  /** Mean over seeds of cost / OPT cost, per swept value (in grid order). */
  readonly sweep: ReadonlyArray<{ readonly value: unknown; readonly ratio: number }>;
  readonly bestValue: unknown;
  /** The ratio at the best value, per seed. */
  readonly bestRatios: readonly number[];
  readonly bestRatio: number;
  /** Eq. (1) cost per game at the best value, per seed. */
  readonly bestCostsPerGame: readonly number[];
}

/** A mean over seeds and its standard error (each seed one replicate). */
export interface SeedMean {
  readonly mean: number;
  readonly standardError: number;
}

export interface SchlupTable3 {
  readonly tickets: number;
  readonly seeds: number;
  readonly tauMax: number;
  readonly cells: readonly SchlupCell[];
  /**
   * Per policy, the mean over settings of the best ratio to OPT ("every cost scaled by the
   * optimum, averaged"), with its standard error across seeds (each seed's average over the
   * settings is one replicate).
   */
  readonly meanOfRatios: Readonly<Record<string, SeedMean>>;
  /**
   * Per policy, the paper's own wording ("average matching costs over all tests and scale the
   * costs of the optimum matching to 1"): the policy's cost per game averaged over the settings,
   * divided by OPT's averaged the same way. Low rates, where every cost per game is higher,
   * weigh more than in `meanOfRatios`.
   */
  readonly ratioOfMeans: Readonly<Record<string, SeedMean>>;
  /** OPT's mean cost per game in each setting. */
  readonly optCostPerGame: Readonly<Record<string, number>>;
}

/** Table 2's traffic for one setting: uniform solos, Poisson, constant or rising over `tickets`. */
export function schlupTraffic(setting: SchlupSetting, tickets: number): TrafficModel {
  return {
    arrivals: "poisson",
    rate: setting.rate,
    // Rising from 0: the run's `tickets` arrivals are expected by 2·tickets / rate seconds.
    ...(setting.rising ? { rising: { from: 0, over: (2 * tickets) / setting.rate } } : {}),
    parties: [{ value: 1, weight: 1 }],
    skill: { kind: "uniform" },
    sides: [{ value: undefined, weight: 1 }],
  };
}

export function schlupTable3(options: SchlupTable3Options): SchlupTable3 {
  const tauMax = options.tauMax ?? 5;
  const others = options.others ?? {};
  const policies: string[] = [...(options.policies ?? SCHLUP_POLICIES), ...Object.keys(others)];
  const settings = options.settings ?? SCHLUP_TABLE2;
  const grid = (p: string): SchlupGrid =>
    others[p] ?? options.grids?.[p as SchlupPolicy] ?? SCHLUP_GRIDS[p as SchlupPolicy];
  const total = settings.length * options.seeds * policies.reduce((n, p) => n + grid(p).values.length, 0);
  let done = 0;
  const cells: SchlupCell[] = [];
  const optCostPerGame: Record<string, number> = {};
  const optBySetting: number[][] = [];
  for (const setting of settings) {
    const traffic = schlupTraffic(setting, options.tickets);
    // ratios[policy][value index][seed]
    const ratios = new Map(policies.map((p) => [p, grid(p).values.map(() => [] as number[])]));
    const costs = new Map(policies.map((p) => [p, grid(p).values.map(() => [] as number[])]));
    const optPerGame: number[] = [];
    const firstSeed = options.firstSeed ?? 1;
    for (let seed = firstSeed; seed < firstSeed + options.seeds; seed++) {
      let optimum: number | undefined;
      for (const policy of policies) {
        const { key, values, params: fixed = {} } = grid(policy);
        values.forEach((value, i) => {
          const params: PolicyParams = key === undefined ? fixed : { ...fixed, [key]: value };
          const trace = simulate({
            policy,
            params,
            teamSize: 1,
            traffic,
            maxWaitMs: tauMax * 1000,
            tickets: options.tickets,
            seed,
          });
          // Every policy sees the same arrivals for a seed: the optimum is solved once.
          if (optimum === undefined) {
            const opt = schlupOptimum(
              trace.arrivals.map((a) => ({ time: a.time, rating: a.ticket.players[0].rating })),
              tauMax,
            );
            optimum = opt.cost;
            optPerGame.push(opt.cost / opt.games);
          }
          const cost = schlupTotalCost(trace.matches, tauMax, { min: 0, max: 1 });
          ratios.get(policy)![i].push(cost / optimum);
          costs.get(policy)![i].push(cost / trace.matches.length);
          options.onProgress?.(++done, total);
        });
      }
    }
    optCostPerGame[setting.label] = mean(optPerGame);
    optBySetting.push(optPerGame);
    for (const policy of policies) {
      const perValue = ratios.get(policy)!;
      const sweep = grid(policy).values.map((value, i) => ({ value, ratio: mean(perValue[i]) }));
      let best = 0;
      sweep.forEach((s, i) => (s.ratio < sweep[best].ratio ? (best = i) : undefined));
      cells.push({
        policy,
        setting: setting.label,
        sweep,
        bestValue: sweep[best].value,
        bestRatios: perValue[best],
        bestRatio: sweep[best].ratio,
        bestCostsPerGame: costs.get(policy)![best],
      });
    }
  }
  const meanOfRatios: Record<string, SeedMean> = {};
  const ratioOfMeans: Record<string, SeedMean> = {};
  const seeds = Array.from({ length: options.seeds }, (_, s) => s);
  for (const policy of policies) {
    const mine = cells.filter((c) => c.policy === policy);
    meanOfRatios[policy] = seedMean(seeds.map((s) => mean(mine.map((c) => c.bestRatios[s]))));
    ratioOfMeans[policy] = seedMean(
      seeds.map((s) => mean(mine.map((c) => c.bestCostsPerGame[s])) / mean(optBySetting.map((o) => o[s]))),
    );
  }
  return { tickets: options.tickets, seeds: options.seeds, tauMax, cells, meanOfRatios, ratioOfMeans, optCostPerGame };
}

function mean(values: readonly number[]): number {
  return values.reduce((s, x) => s + x, 0) / values.length;
}

/** The mean of per-seed values and its standard error (NaN with fewer than two seeds). */
export function seedMean(values: readonly number[]): SeedMean {
  const m = mean(values);
  if (values.length < 2) return { mean: m, standardError: NaN };
  return {
    mean: m,
    standardError: Math.sqrt(values.reduce((s, x) => s + (x - m) ** 2, 0) / (values.length - 1) / values.length),
  };
}

/** "mean ± standard error", each to `digits` decimals. */
export function formatSeedMean(m: SeedMean, digits = 3): string {
  return `${m.mean.toFixed(digits)} ± ${m.standardError.toFixed(digits)}`;
}
