/**
 * Xu, Yu and Wu, section IV (1v1, Fig. 8): players who insist on side A (rate lA), on side B
 * (lB), or are choice-free (lC). Per-class mean waits, eqs. (13)–(15), against the simulator
 * (Poisson arrivals; 8 seeds; 4 standard errors across seeds).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { xuSideChoiceWaits } from "../../src/core/closed-forms.js";
import { measure } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { replicate } from "../helpers/statistics.js";

const CASES: Array<[lA: number, lB: number, lC: number]> = [
  [0.3, 0.3, 0.4],
  [0.4, 0.2, 0.4],
];

describe("side choice: per-class waits match the CTMC of Fig. 8", () => {
  for (const [lA, lB, lC] of CASES) {
    describe(`lambda_A = ${lA}, lambda_B = ${lB}, lambda_C = ${lC}`, () => {
      const expected = xuSideChoiceWaits(lA, lB, lC)!;
      const classes = { A: "side:A", B: "side:B", C: "side:any" } as const;
      const results = new Map<string, ReturnType<typeof replicate>>();
      beforeAll(() => {
        const runs = Array.from({ length: 8 }, (_, i) => {
          const traffic = {
            arrivals: "poisson" as const,
            rate: lA + lB + lC,
            parties: [{ value: 1, weight: 1 }],
            skill: { kind: "uniform" as const },
            sides: [
              { value: "A" as const, weight: lA },
              { value: "B" as const, weight: lB },
              { value: undefined, weight: lC },
            ],
          };
          const trace = simulate({ policy: "greedy", teamSize: 1, traffic, tickets: 20_000, seed: i + 1 });
          return measure(trace, { teamSize: 1, warmup: 2000, ratingScale: { min: 0, max: 1 } });
        });
        for (const [cls, key] of Object.entries(classes))
          results.set(
            cls,
            replicate(8, (seed) => runs[seed - 1].waitByClass[key]),
          );
        results.set(
          "all",
          replicate(8, (seed) => runs[seed - 1].meanWait),
        );
      });

      for (const cls of ["A", "B", "C", "all"] as const) {
        it(`E[T_${cls}] = ${expected[cls].toFixed(3)}`, () => {
          const r = results.get(cls)!;
          expect(Math.abs(r.mean - expected[cls])).toBeLessThan(4 * r.standardError);
        });
      }
    });
  }

  it("the queue itself flags lambda_C = 0 as unstable, and (0.3, 0.3, 0.4) as stable", () => {
    const run = (lA: number, lB: number, lC: number) => {
      const sides = [
        { value: "A" as const, weight: lA },
        { value: "B" as const, weight: lB },
        { value: undefined, weight: lC },
      ];
      const traffic = {
        arrivals: "poisson" as const,
        rate: 1,
        parties: [{ value: 1, weight: 1 }],
        skill: { kind: "uniform" as const },
        sides,
      };
      return simulate({ policy: "greedy", teamSize: 1, traffic, tickets: 5000, seed: 7 }).stats.sideMix;
    };
    expect(run(0.5, 0.5, 0).unstable).toBe(true);
    expect(run(0.3, 0.3, 0.4).unstable).toBe(false);
    expect(run(0.6, 0.2, 0.2).unstable).toBe(true);
  });

  it("has no finite waits when the side mix is unstable (Fact 3)", () => {
    expect(xuSideChoiceWaits(0.5, 0.3, 0.2)).toBeUndefined();
    expect(xuSideChoiceWaits(0.5, 0.5, 0)).toBeUndefined();
  });
});
