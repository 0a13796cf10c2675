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

// 12 seeds (a standard error worth the name) of 3,000 periods: every tolerance below stays
// under 5% of its expected cost (asserted with it).
const RUNS = 12;
const PERIODS = 3000;
const WARMUP = 300;

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

/** Expect `measured` within `tolerance` of `expected`, and the tolerance itself under 5% of it. */
function expectNear(measured: number, expected: number, tolerance: number): void {
  expect(tolerance).toBeLessThan(0.05 * expected);
  expect(Math.abs(measured - expected)).toBeLessThan(tolerance);
}

describe("Wu's costs per period, simulated with regular arrivals (12 seeds x 3,000 periods; 4 standard errors)", () => {
  for (const [n, q, alpha] of CASES) {
    describe(`n = ${n}, q = ${q}, alpha = ${alpha}`, () => {
      let greedy: ReturnType<typeof replicate>;
      let patient: ReturnType<typeof replicate>;
      let auto: ReturnType<typeof replicate>;
      // Only where the closed forms differ by more than 5% can a test tell auto's modes apart
      // (at n = 2, q = 0.5, alpha = 1 greedy and patient both cost 2).
      const distinct = Math.abs(wuGreedyCost(n, q, alpha) - wuPatientCost(n)) > 0.05 * wuPatientCost(n);
      beforeAll(() => {
        greedy = replicate(RUNS, (seed) => costPerPeriod("greedy", {}, n, q, alpha, seed));
        patient = replicate(RUNS, (seed) => costPerPeriod("patient", {}, n, q, alpha, seed));
        if (distinct)
          auto = replicate(RUNS, (seed) => costPerPeriod("patient", { mode: "auto", alpha }, n, q, alpha, seed));
      });

      it(`greedy costs n − 1/2 + alpha(1 − (2q − 1)^(2n))/2 = ${wuGreedyCost(n, q, alpha).toFixed(3)}`, () => {
        expectNear(greedy.mean, wuGreedyCost(n, q, alpha), 4 * greedy.standardError + boundary(n, alpha));
      });

      it(`patient costs n = ${wuPatientCost(n)}`, () => {
        expectNear(patient.mean, wuPatientCost(n), 4 * patient.standardError + boundary(n, alpha));
      });

      if (distinct)
        it(`auto follows Theorem 3.3 (${wuGreedyIsOptimal(n, q, alpha) ? "greedy" : "patient"}): costs the better mode's cost, clearly below the other's`, () => {
          const [better, worse] = wuGreedyIsOptimal(n, q, alpha) ? [greedy, patient] : [patient, greedy];
          const margin = (a: { standardError: number }, b: { standardError: number }) =>
            4 * Math.hypot(a.standardError, b.standardError) + boundary(n, alpha);
          expectNear(auto.mean, better.mean, margin(auto, better));
          expect(auto.mean).toBeLessThan(worse.mean - margin(auto, worse));
        });

      it("the queue's statistics say which mode auto uses, and the estimate of q behind it", () => {
        const trace = run("patient", { mode: "auto", alpha }, n, q, 1);
        const { policyStatus } = trace.stats;
        expect(policyStatus?.mode).toBe(wuGreedyIsOptimal(n, q, alpha) ? "greedy" : "patient");
        expect(policyStatus?.playersSeen).toBe(PERIODS);
        // The estimate is the share of H players among those seen: exactly, not within a tolerance.
        const high = trace.arrivals.filter((a) => a.ticket.players[0].rating === 1).length;
        expect(policyStatus?.estimatedQ).toBeCloseTo(high / PERIODS, 12);
      });
    });
  }
});
