/**
 * Xu, Yu and Wu, section IV (1v1, Fig. 8): players who insist on side A (rate lA), on side B
 * (lB), or are choice-free (lC). Registers one `describe` that compares the simulated per-class
 * mean waits with eqs. (13)–(15), with tolerances from the spread across seeds.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { xuSideChoiceWaits } from "../../src/core/closed-forms.js";
import { measure } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { replicate } from "./statistics.js";

export interface SideChoiceCase {
  readonly rates: readonly [lA: number, lB: number, lC: number];
  readonly seeds: number;
  readonly tickets: number;
  /** Standard errors allowed; the tolerance this gives is asserted under 5% of each expected wait. */
  readonly errors: number;
}

export function describeSideChoiceWaits({ rates: [lA, lB, lC], seeds, tickets, errors }: SideChoiceCase): void {
  describe(`lambda_A = ${lA}, lambda_B = ${lB}, lambda_C = ${lC} (${seeds} seeds x ${tickets} tickets; ${errors} standard errors)`, () => {
    const expected = xuSideChoiceWaits(lA, lB, lC)!;
    const classes = { A: "side:A", B: "side:B", C: "side:any" } as const;
    const results = new Map<string, ReturnType<typeof replicate>>();
    beforeAll(() => {
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
      // One run per seed, shared by every class's figure.
      const runs = Array.from({ length: seeds }, (_, i) =>
        measure(simulate({ policy: "greedy", teamSize: 1, traffic, tickets, seed: i + 1 }), {
          teamSize: 1,
          warmup: tickets / 10,
          ratingScale: { min: 0, max: 1 },
        }),
      );
      for (const [cls, key] of Object.entries(classes))
        results.set(
          cls,
          replicate(seeds, (seed) => runs[seed - 1].waitByClass[key]),
        );
      results.set(
        "all",
        replicate(seeds, (seed) => runs[seed - 1].meanWait),
      );
    }, 600_000); // up to a million simulated arrivals: a generous bound, so a loaded machine cannot fail it

    for (const cls of ["A", "B", "C", "all"] as const) {
      it(`E[T_${cls}] = ${expected[cls].toFixed(3)}`, () => {
        const r = results.get(cls)!;
        const tolerance = errors * r.standardError;
        expect(tolerance).toBeLessThan(0.05 * expected[cls]);
        expect(Math.abs(r.mean - expected[cls])).toBeLessThan(tolerance);
      });
    }
  });
}
