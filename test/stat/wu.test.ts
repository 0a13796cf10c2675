/**
 * Wu, "Dynamic Matching With Teams": one player per period (regular arrivals), H with
 * probability q (rating 1) else L (rating 0), teams of n, waiting cost 1 per player per period,
 * imbalance cost alpha per player per unit of H-count imbalance. Section 3: greedy costs
 * n − 1/2 + alpha(1 − (2q − 1)^(2n))/2 per period, patient costs n, and Theorem 3.3 says which wins.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { wuGreedyCost, wuGreedyIsOptimal, wuPatientCost } from "../../src/core/closed-forms.js";
import { measure } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { replicate } from "../helpers/statistics.js";

const RUNS = 6;
const PERIODS = 4000;
const WARMUP = 400;

/**
 * Cutting a run at the warm-up and at the end can cut one game of 2n players at each end, each
 * player with a wait of at most 2n + 1 periods and an imbalance cost of at most alpha: a
 * systematic error of at most 2·2n(2n + 1 + alpha) over the measured periods.
 */
const boundary = (n: number, alpha: number) => (2 * 2 * n * (2 * n + 1 + alpha)) / (PERIODS - WARMUP);

function run(policy: string, params: Record<string, unknown>, n: number, q: number, seed: number) {
  const traffic = {
    arrivals: "regular" as const,
    rate: 1,
    parties: [{ value: 1, weight: 1 }],
    skill: { kind: "two-type" as const, q },
    sides: [{ value: undefined, weight: 1 }],
  };
  return simulate({ policy, params, teamSize: n, traffic, imbalance: { kind: "high-low" }, tickets: PERIODS, seed });
}

function costPerPeriod(
  policy: string,
  params: Record<string, unknown>,
  n: number,
  q: number,
  alpha: number,
  seed: number,
): number {
  const trace = run(policy, params, n, q, seed);
  return measure(trace, { teamSize: n, warmup: WARMUP, imbalanceCost: alpha, ratingScale: { min: 0, max: 1 } })
    .wuCostPerTime;
}

const CASES: Array<[n: number, q: number, alpha: number]> = [
  [2, 0.5, 1],
  [5, 0.2, 3],
  [3, 0.5, 4],
  [2, 0.8, 0.5],
];

describe("Wu's costs per period, simulated with regular arrivals (6 seeds x 4,000 periods; 4 standard errors)", () => {
  for (const [n, q, alpha] of CASES) {
    describe(`n = ${n}, q = ${q}, alpha = ${alpha}`, () => {
      let greedy: ReturnType<typeof replicate>;
      let patient: ReturnType<typeof replicate>;
      let auto: ReturnType<typeof replicate>;
      beforeAll(() => {
        greedy = replicate(RUNS, (seed) => costPerPeriod("greedy", {}, n, q, alpha, seed));
        patient = replicate(RUNS, (seed) => costPerPeriod("patient", {}, n, q, alpha, seed));
        auto = replicate(RUNS, (seed) => costPerPeriod("patient", { mode: "auto", alpha }, n, q, alpha, seed));
      });

      it(`greedy costs n − 1/2 + alpha(1 − (2q − 1)^(2n))/2 = ${wuGreedyCost(n, q, alpha).toFixed(3)}`, () => {
        expect(Math.abs(greedy.mean - wuGreedyCost(n, q, alpha))).toBeLessThan(
          4 * greedy.standardError + boundary(n, alpha),
        );
      });

      it(`patient costs n = ${wuPatientCost(n)}`, () => {
        expect(Math.abs(patient.mean - wuPatientCost(n))).toBeLessThan(4 * patient.standardError + boundary(n, alpha));
      });

      it(`auto follows Theorem 3.3 (${wuGreedyIsOptimal(n, q, alpha) ? "greedy" : "patient"}) and is never worse than the better`, () => {
        const better = Math.min(greedy.mean, patient.mean);
        expect(auto.mean).toBeLessThanOrEqual(
          better + 4 * Math.max(greedy.standardError, patient.standardError) + boundary(n, alpha),
        );
      });

      it("the queue's statistics say which mode auto uses, and the estimate of q behind it", () => {
        const { policyStatus } = run("patient", { mode: "auto", alpha }, n, q, 1).stats;
        expect(policyStatus?.mode).toBe(wuGreedyIsOptimal(n, q, alpha) ? "greedy" : "patient");
        expect(policyStatus?.playersSeen).toBe(PERIODS);
        // A binomial proportion over PERIODS players: 4 standard errors (q = 0 or 1 would be exact).
        expect(Math.abs((policyStatus?.estimatedQ as number) - q)).toBeLessThanOrEqual(
          4 * Math.sqrt((q * (1 - q)) / PERIODS),
        );
      });
    });
  }
});
