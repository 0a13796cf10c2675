/**
 * Xu, Yu and Wu, section V (1v1, Fig. 11): juniors for zone A only (rate lA), experienced
 * players for zone B only (lB), experienced players for both zones (lC), FIFO between the two
 * queues. Per-class mean waits, eqs. (19)–(21), and the improvement factor of being
 * choice-free, eq. (23) (eq. (24) when lA = lB), against the simulator's zone routing (Poisson
 * arrivals; 8 seeds of 20,000 tickets; 4 standard errors across seeds).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { xuChoiceFreeImprovement, xuZoneWaits } from "../../src/core/closed-forms.js";
import { measure, type Measures } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { replicate } from "../helpers/statistics.js";

const SEEDS = 8;
const CASES: Array<[lA: number, lB: number, lC: number]> = [
  [0.4, 0.4, 0.2],
  [0.5, 0.2, 0.3],
];

describe("zones: per-class waits match eqs. (19)–(21), the choice-free factor eq. (23)/(24)", () => {
  for (const [lA, lB, lC] of CASES) {
    describe(`lambda_A = ${lA}, lambda_B = ${lB}, lambda_C = ${lC}`, () => {
      const expected = xuZoneWaits(lA, lB, lC);
      const classes = { A: "zone:junior", B: "zone:advanced", C: "zone:junior+advanced" } as const;
      let runs: Measures[] = [];
      beforeAll(() => {
        runs = Array.from({ length: SEEDS }, (_, i) => {
          const traffic = {
            arrivals: "poisson" as const,
            rate: lA + lB + lC,
            parties: [{ value: 1, weight: 1 }],
            skill: { kind: "uniform" as const },
            sides: [{ value: undefined, weight: 1 }],
            zones: [
              { value: ["junior"], weight: lA },
              { value: ["advanced"], weight: lB },
              { value: ["junior", "advanced"], weight: lC },
            ],
          };
          const trace = simulate({ policy: "greedy", teamSize: 1, traffic, tickets: 20_000, seed: i + 1 });
          return measure(trace, { teamSize: 1, warmup: 2000, ratingScale: { min: 0, max: 1 } });
        });
      });

      for (const cls of ["A", "B", "C"] as const) {
        it(`E[T_${cls}] = ${expected[cls].toFixed(4)}`, () => {
          const r = replicate(SEEDS, (seed) => runs[seed - 1].waitByClass[classes[cls]]);
          expect(Math.abs(r.mean - expected[cls])).toBeLessThan(4 * r.standardError);
        });
      }

      it(`E[T] = ${expected.all.toFixed(4)}`, () => {
        const r = replicate(SEEDS, (seed) => runs[seed - 1].meanWait);
        expect(Math.abs(r.mean - expected.all)).toBeLessThan(4 * r.standardError);
      });

      const q = xuChoiceFreeImprovement(lA, lB, lC);
      it(`improvement factor q = E[T_C] / E[T_B] = ${q.toFixed(4)}`, () => {
        // The ratio per seed: 18,000 measured tickets make its bias (order 1/n) negligible
        // against the spread between seeds.
        const r = replicate(
          SEEDS,
          (seed) => runs[seed - 1].waitByClass[classes.C] / runs[seed - 1].waitByClass[classes.B],
        );
        expect(Math.abs(r.mean - q)).toBeLessThan(4 * r.standardError);
      });
    });
  }

  it("eq. (24): lambda_A = lambda_B gives q = (lB + lC) / (4 lB + lC), e.g. 1/3 at (0.4, 0.4, 0.2)", () => {
    expect(xuChoiceFreeImprovement(0.4, 0.4, 0.2)).toBeCloseTo(1 / 3, 12);
    expect(xuChoiceFreeImprovement(0.3, 0.3, 0.4)).toBeCloseTo((0.3 + 0.4) / (4 * 0.3 + 0.4), 12);
  });
});
