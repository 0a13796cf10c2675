/**
 * Schlup's multi-queue with two criteria (D = 2): the simulated cost per game against eq. (7)
 * generalised to D criteria (docs/criteria.md derives it): criterion d cut into r_d ranges, one
 * queue per combination, each fed a / (r_1 r_2) players per second.
 *
 *   cost = sum_d f_d (k − 1) / ((k + 1) r_d) + r_1 r_2 k (k − 1) / (2 a tau_max),  f_d = k w_d / sum(w)
 *
 * Both criteria uniform on [0, 1], Poisson arrivals, seeded; the tolerance is four batch-means
 * standard errors of the run's own games (and those are checked to be under 5% of the value).
 */
import { describe, expect, it } from "vitest";
import { schlupMultiQueueCost, schlupMultiQueueCostD } from "../../src/core/closed-forms.js";
import { schlupGameCost, scaledDispersions } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { criteriaOf, type TrafficModel } from "../../src/sim/traffic.js";
import { batchMeans } from "../helpers/statistics.js";
import { uniformSolos } from "../helpers/traffic.js";

const UNIT = { min: 0, max: 1 };

/** Solo players, the rating and `think` both uniform on [0, 1]; `think` weighs `weight` against the rating's 1. */
function twoCriteria(rate: number, weight: number): TrafficModel {
  return { ...uniformSolos(rate), criteria: [{ name: "think", weight, values: { kind: "uniform" } }] };
}

/** Per-game eq. (1) costs and scaled dispersions of a seeded run, the first 10% of games left out. */
function run(traffic: TrafficModel, r: [number, number], teamSize: number, tauMax: number, tickets: number) {
  const trace = simulate({
    policy: "multi-queue",
    params: { r },
    teamSize,
    traffic,
    maxWaitMs: tauMax * 1000,
    tickets,
    seed: 11,
  });
  const games = trace.matches.slice(Math.floor(trace.matches.length / 10));
  const criteria = criteriaOf(traffic)!;
  return {
    costs: games.map((m) => schlupGameCost(m, tauMax, UNIT, criteria)),
    dispersions: [0, 1].map((d) => games.map((m) => scaledDispersions(m, UNIT, criteria)[d])),
    bots: games.reduce((s, m) => s + m.bots, 0),
  };
}

/** The simulated mean agrees with `expected` within four batch-means standard errors, themselves under 5% of it. */
function expectMean(values: number[], expected: number): void {
  const { mean, standardError } = batchMeans(values);
  expect(standardError).toBeGreaterThan(0);
  expect(4 * standardError).toBeLessThan(0.05 * expected);
  expect(Math.abs(mean - expected)).toBeLessThan(4 * standardError);
}

describe("eq. (7) for D criteria", () => {
  it("is eq. (7) when D = 1", () => {
    for (const [k, r, a, tau] of [
      [2, 6, 10, 5],
      [4, 3, 2, 30],
    ])
      expect(schlupMultiQueueCostD(k, [r], a, tau)).toBeCloseTo(schlupMultiQueueCost(k, r, a, tau), 12);
  });

  it("weighs each criterion f_d = k w_d / sum(w) and counts r_1 r_2 queues in the time cost", () => {
    // k = 2, a = 10, tau_max = 5, r = 3 x 2, equal weights: (1/3)(1/3 + 1/2) + 6·2/(2·10·5).
    expect(schlupMultiQueueCostD(2, [3, 2], 10, 5)).toBeCloseTo(5 / 18 + 0.12, 12);
    // k = 4, weights 1 and 3: 1·(3/5)(1/3) + 3·(3/5)(1/2) + 6·12/(2·10·10).
    expect(schlupMultiQueueCostD(4, [3, 2], 10, 10, [1, 3])).toBeCloseTo(0.2 + 0.9 + 0.36, 12);
  });
});

describe("the simulated multi-queue matches eq. (7) for D = 2", () => {
  it("k = 2, a = 10 players/s, tau_max = 5 s, 3 x 2 queues, equal weights: about 0.398 per game", () => {
    const { costs, dispersions, bots } = run(twoCriteria(10, 1), [3, 2], 1, 5, 20_000);
    expect(bots).toBe(0);
    // Each criterion's own dispersion: (k − 1) / ((k + 1) r_d).
    expectMean(dispersions[0], 1 / (3 * 3));
    expectMean(dispersions[1], 1 / (3 * 2));
    expectMean(costs, schlupMultiQueueCostD(2, [3, 2], 10, 5));
  });

  it("k = 4 (2 v 2), a = 10 players/s, tau_max = 10 s, 3 x 2 queues, think weighted 3: about 1.46 per game", () => {
    const { costs, dispersions } = run(twoCriteria(10, 3), [3, 2], 2, 10, 20_000);
    expectMean(dispersions[0], 3 / (5 * 3));
    expectMean(dispersions[1], 3 / (5 * 2));
    expectMean(costs, schlupMultiQueueCostD(4, [3, 2], 10, 10, [1, 3]));
  });
});
