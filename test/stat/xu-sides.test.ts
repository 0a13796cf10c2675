/**
 * Xu, Yu and Wu, section IV (1v1, Fig. 8): players who insist on side A (rate lA), on side B
 * (lB), or are choice-free (lC). Per-class mean waits, eqs. (13)–(15), against the simulator
 * (Poisson arrivals; 3 standard errors across 20 seeds, each tolerance under 5% of its wait).
 */
import { describe, expect, it } from "vitest";
import { xuSideChoiceWaits } from "../../src/core/closed-forms.js";
import { simulate } from "../../src/sim/simulator.js";
import { describeSideChoiceWaits } from "../helpers/side-choice.js";

describe("side choice: per-class waits match the CTMC of Fig. 8", () => {
  // Balanced sides. (The unbalanced case, 0.4 / 0.2 / 0.4, has its own file: its waits are far
  // noisier and it needs ~4x the arrivals, which then run in parallel with this file.)
  describeSideChoiceWaits({ rates: [0.3, 0.3, 0.4], seeds: 20, tickets: 20_000, errors: 3 });

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
