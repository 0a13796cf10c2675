/**
 * Xu, Yu and Wu, section III: 2v2 with solos (rate lambda1) and duos (rate lambda2), Poisson.
 * Waits per player, every party member counted; lambda_total = lambda1 + 2·lambda2 players per
 * second. Any central queue that starts a game once 4 can play: E[T] = 3/(2·lambda_total)
 * (eq. 8); two queues: E[T] = 5/(2·lambda_total) (eq. 6).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { measure } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { replicate } from "../helpers/statistics.js";

const LAMBDA1 = 1;
const LAMBDA2 = 1;
const LAMBDA_TOTAL = LAMBDA1 + 2 * LAMBDA2;

function waits(policy: string, seed: number) {
  const traffic = {
    arrivals: "poisson" as const,
    rate: LAMBDA1 + LAMBDA2,
    parties: [
      { value: 1, weight: LAMBDA1 },
      { value: 2, weight: LAMBDA2 },
    ],
    skill: { kind: "uniform" as const },
    sides: [{ value: undefined, weight: 1 }],
  };
  const trace = simulate({ policy, teamSize: 2, traffic, tickets: 8000, seed });
  return measure(trace, { teamSize: 2, warmup: 800, ratingScale: { min: 0, max: 1 } });
}

describe("Xu et al.'s service orders for 2v2 with solos and duos (lambda1 = lambda2 = 1; 8 seeds; 4 standard errors)", () => {
  const mean = new Map<string, { mean: number; standardError: number }>();
  const variance = new Map<string, { mean: number; standardError: number }>();
  beforeAll(() => {
    for (const policy of ["fifo", "packing", "lifo", "two-queue"]) {
      const runs = Array.from({ length: 8 }, (_, i) => waits(policy, i + 1));
      mean.set(
        policy,
        replicate(8, (seed) => runs[seed - 1].meanWait),
      );
      variance.set(
        policy,
        replicate(8, (seed) => runs[seed - 1].varWait),
      );
    }
  });

  for (const policy of ["fifo", "packing", "lifo"]) {
    it(`${policy}: E[T] = 3/(2·lambda_total) = 0.5`, () => {
      const m = mean.get(policy)!;
      expect(Math.abs(m.mean - 3 / (2 * LAMBDA_TOTAL))).toBeLessThan(4 * m.standardError);
    });
  }

  it("two-queue: E[T] = 5/(2·lambda_total) ≈ 0.833", () => {
    const m = mean.get("two-queue")!;
    expect(Math.abs(m.mean - 5 / (2 * LAMBDA_TOTAL))).toBeLessThan(4 * m.standardError);
  });

  it("FIFO's wait variance is below two-queue's, and below LIFO's", () => {
    const v = (p: string) => variance.get(p)!;
    expect(v("fifo").mean + 4 * v("fifo").standardError).toBeLessThan(
      v("two-queue").mean - 4 * v("two-queue").standardError,
    );
    expect(v("fifo").mean).toBeLessThan(v("lifo").mean);
  });
});
