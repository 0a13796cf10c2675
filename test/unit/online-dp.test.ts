/** The online optimum by dynamic programming (`src/sim/online-dp.ts`) and `npm run sim -- --online-dp`. */
import { describe, expect, it } from "vitest";
import { onlineDpRun, parseOnlineDpArgs } from "../../src/sim/online-dp-cli.js";
import { onlineDpPolicy, poolValue, solveOnlineDp, type OnlineDpSolution } from "../../src/sim/online-dp.js";
import { schlupTotalCost } from "../../src/sim/measures.js";
import { schlupOptimum } from "../../src/sim/optimum.js";
import { Random } from "../../src/sim/random.js";
import { schlupTraffic } from "../../src/sim/schlup-table3.js";
import { simulate } from "../../src/sim/simulator.js";
import { PolicyRegistry } from "../../src/core/policy.js";
import { twoTeamFields } from "../../src/core/policy.js";

/** Every partial matching of m players as flat pairs. */
function matchings(m: number): number[][] {
  const out: number[][] = [];
  const walk = (free: number[], pairs: number[]) => {
    out.push(pairs);
    for (let x = 0; x < free.length; x++)
      for (let y = x + 1; y < free.length; y++) {
        if (pairs.length > 0 && free[x] < pairs[pairs.length - 2]) continue;
        walk(
          free.filter((_, k) => k !== x && k !== y),
          [...pairs, free[x], free[y]],
        );
      }
  };
  walk(
    Array.from({ length: m }, (_, i) => i),
    [],
  );
  return out;
}

/**
 * Runs the model's own dynamics for `steps` steps, deciding each step by the solution's values
 * (what the solution claims optimal), and returns the cost per arrival actually paid.
 */
function modelRun(solution: OnlineDpSolution, steps: number, seed: number): number {
  const { lambda, steps: K, ratingBins: R, pool: N } = solution.options;
  const p = lambda / K;
  const random = new Random(seed);
  const pairCost = (a: number, b: number) => (a === b ? 2 / (3 * R) : (2 * Math.abs(a - b)) / R);
  let pool: Array<{ age: number; bin: number }> = [];
  let cost = 0;
  let arrivals = 0;
  for (let t = 0; t < steps; t++) {
    cost += pool.length / K;
    const pre = pool.map((x) => ({ age: x.age + 1, bin: x.bin }));
    if (random.uniform() < p) {
      pre.unshift({ age: 0, bin: Math.floor(random.uniform() * R) });
      arrivals++;
    }
    let best = Infinity;
    let bestLeft: typeof pool = [];
    let bestCost = 0;
    for (const pairs of matchings(pre.length)) {
      let c = 0;
      for (let k = 0; k < pairs.length; k += 2) c += pairCost(pre[pairs[k]].bin, pre[pairs[k + 1]].bin);
      const left = pre.filter((x, i) => !pairs.includes(i) && x.age < K);
      c += 3 * pre.filter((x, i) => !pairs.includes(i) && x.age === K).length;
      if (left.length > N) continue;
      const total =
        c +
        poolValue(
          solution,
          left.map((x) => x.age),
          left.map((x) => x.bin),
        );
      if (total < best) [best, bestLeft, bestCost] = [total, left, c];
    }
    cost += bestCost;
    pool = bestLeft;
  }
  return cost / arrivals;
}

describe("solveOnlineDp", () => {
  it("costs per arrival what its own decisions pay when the model is run (the Bellman equation is the dynamics)", () => {
    const solution = solveOnlineDp({ lambda: 3, ratingBins: 6, steps: 8, pool: 2 });
    expect(solution.span).toBeLessThan(1e-5);
    const paid = modelRun(solution, 200_000, 7);
    expect(Math.abs(paid / solution.costPerArrival - 1)).toBeLessThan(0.02);
  });

  it("never costs more with a larger pool or with each bin split in two (what a coarser model does stays possible)", () => {
    const base = { lambda: 4, ratingBins: 4, steps: 8, pool: 1 };
    const one = solveOnlineDp(base).costPerArrival;
    const two = solveOnlineDp({ ...base, pool: 2 }).costPerArrival;
    const finer = solveOnlineDp({ ...base, pool: 2, ratingBins: 8 }).costPerArrival;
    // Both strictly help here: waiting with two, then knowing ratings better when choosing whom.
    expect(two).toBeLessThan(one - 1e-3);
    expect(finer).toBeLessThan(two - 1e-3);
  });

  it("tends to Schlup's bot game (4 per player) when nobody else comes within tau_max", () => {
    // About 2·lambda of players meet someone within tau_max, saving them at most 4 each.
    const lonely = solveOnlineDp({ lambda: 0.01, ratingBins: 4, steps: 4, pool: 2 }).costPerArrival;
    expect(lonely).toBeGreaterThan(4 - 4 * 2 * 0.01);
    expect(lonely).toBeLessThanOrEqual(4);
  });

  it("refuses a discretisation it cannot solve", () => {
    expect(() => solveOnlineDp({ lambda: 5, ratingBins: 10, steps: 5, pool: 2 })).toThrow(RangeError);
    expect(() => solveOnlineDp({ lambda: 5, ratingBins: 1, steps: 10, pool: 2 })).toThrow(RangeError);
    expect(() => solveOnlineDp({ lambda: 5, ratingBins: 10, steps: 10, pool: 5 })).toThrow(RangeError);
  });
});

describe("online-dp policy", () => {
  it("plays every arrival once, in legal games, and never beats the offline optimum", () => {
    const solution = solveOnlineDp({ lambda: 5, ratingBins: 8, steps: 10, pool: 2 });
    const trace = simulate({
      policy: "online-dp",
      policies: new PolicyRegistry([onlineDpPolicy(solution)]),
      teamSize: 1,
      traffic: schlupTraffic({ label: "", rate: 1, rising: false }, 400),
      maxWaitMs: 5000,
      tickets: 400,
      seed: 3,
    });
    const seats = trace.matches.reduce((n, m) => n + m.tickets.length, 0);
    expect(seats).toBe(400);
    expect(new Set(trace.matches.flatMap((m) => m.tickets.map((t) => t.id))).size).toBe(400);
    for (const m of trace.matches) expect(m.tickets.length + m.bots).toBe(2);
    // Games between players form within tau_max of both arrivals.
    for (const m of trace.matches.filter((x) => x.bots === 0))
      for (const t of m.tickets) expect(m.createdAt - t.enqueuedAt).toBeLessThanOrEqual(5000);
    const opt = schlupOptimum(
      trace.arrivals.map((a) => ({ time: a.time, rating: a.ticket.players[0].rating })),
      5,
    );
    expect(schlupTotalCost(trace.matches, 5, { min: 0, max: 1 })).toBeGreaterThanOrEqual(opt.cost);
  });

  it("refuses a queue it was not solved for", () => {
    const solution = solveOnlineDp({ lambda: 2, ratingBins: 4, steps: 4, pool: 1 });
    const create = (maxWaitMs: number | undefined, teamSize: number) =>
      onlineDpPolicy(solution).create(
        { ...twoTeamFields(teamSize), imbalance: () => 0, ...(maxWaitMs !== undefined ? { maxWaitMs } : {}) },
        {},
      );
    expect(() => create(undefined, 1)).toThrow(/maximum wait/);
    expect(() => create(5000, 2)).toThrow(/1v1/);
  });
});

describe("--online-dp", () => {
  it("takes lambda from the rate and tau_max, with default bins, steps and pool", () => {
    expect(parseOnlineDpArgs(["--online-dp", "--rate", "1", "--max-wait", "5"])).toEqual({
      rate: 1,
      maxWait: 5,
      model: { lambda: 5, ratingBins: 20, steps: 20, pool: 2 },
      seeds: 8,
      tickets: 2000,
      json: false,
    });
    expect(parseOnlineDpArgs(["--online-dp", "--rate", "4", "--max-wait", "2", "--pool", "3"]).model).toEqual({
      lambda: 8,
      ratingBins: 20,
      steps: 32,
      pool: 3,
    });
    expect(() => parseOnlineDpArgs(["--online-dp", "--max-wait", "5"])).toThrow(/--rate/);
    expect(() => parseOnlineDpArgs(["--online-dp", "--rate", "3", "--max-wait", "2", "--steps", "6"])).toThrow(
      /exceed lambda/,
    );
  });

  it("runs the model's policy and density-window on the same arrivals against the optimum", () => {
    const result = onlineDpRun({
      rate: 1,
      maxWait: 5,
      model: { lambda: 5, ratingBins: 6, steps: 10, pool: 2 },
      seeds: 2,
      tickets: 300,
      json: false,
    });
    for (const name of ["online-dp", "density-window"]) expect(result.ratios[name].mean).toBeGreaterThan(1);
    expect(result.difference!.mean).toBeCloseTo(
      result.ratios["online-dp"].mean - result.ratios["density-window"].mean,
      9,
    );
    expect(result.modelRatio).toBeCloseTo(result.costPerArrival / result.optPerArrival!.mean, 9);
  });
});
