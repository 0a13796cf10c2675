/**
 * Schlup, "Automatic Game Matching": the closed forms of section 4 against the simulator
 * running the same policies the room runs. k = 2 players per game, one criterion on [0, 1].
 */
import { describe, expect, it } from "vitest";
import {
  schlupGreedyCost,
  schlupMultiQueueCost,
  schlupMultiQueueOptimalR,
  schlupPeriodicCost,
  schlupPeriodicOptimalN,
} from "../../src/core/closed-forms.js";
import { MultiQueuePolicy } from "../../src/policies/multi-queue.js";
import { PeriodicPolicy } from "../../src/policies/periodic.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { schlupGameCost } from "../../src/sim/measures.js";
import { simulate } from "../../src/sim/simulator.js";
import { batchMeans } from "../helpers/statistics.js";
import { uniformSolos } from "../helpers/traffic.js";

const TAU_MAX = 5;
const UNIT = { min: 0, max: 1 };

/** Per-game eq. (1) costs of a seeded run, the first 10% left out as warm-up. */
function gameCosts(policy: string, params: Record<string, unknown>, rate: number, tickets: number, seed = 7): number[] {
  const trace = simulate({
    policy,
    params,
    teamSize: 1,
    traffic: uniformSolos(rate),
    maxWaitMs: TAU_MAX * 1000,
    tickets,
    seed,
  });
  const warmupGames = Math.floor(trace.matches.length / 10);
  return trace.matches.slice(warmupGames).map((m) => schlupGameCost(m, TAU_MAX, UNIT));
}

/** The simulated mean agrees with the closed form within four batch-means standard errors. */
function expectCost(costs: number[], expected: number): void {
  const { mean, standardError } = batchMeans(costs);
  expect(standardError).toBeGreaterThan(0);
  expect(Math.abs(mean - expected)).toBeLessThan(4 * standardError);
}

describe("Schlup's closed forms", () => {
  it("gives the paper's worked examples: n_opt = 9 and 0.362 for A_PM, r_opt = 5.77 and 0.231 for A_MQ", () => {
    expect(schlupPeriodicOptimalN(2, 10, 5)).toBeCloseTo(9, 10);
    expect(schlupPeriodicCost(2, 8, 10, 5)).toBeCloseTo(0.362, 3);
    expect(schlupMultiQueueOptimalR(2, 10, 5)).toBeCloseTo(5.77, 2);
    expect(schlupMultiQueueCost(2, 6, 10, 5)).toBeCloseTo(0.231, 3);
  });
});

describe("the simulator reproduces Schlup's expected costs (a = 10, k = 2, tau_max = 5)", () => {
  it("A_G, eq. (2): about 0.687 per game", () => {
    expectCost(gameCosts("greedy", {}, 10, 20_000), schlupGreedyCost(2, 10, TAU_MAX));
  });

  it("A_PM with x = 4, eq. (5): about 0.362 per game", () => {
    expectCost(gameCosts("periodic", { x: 4 }, 10, 20_000), schlupPeriodicCost(2, 8, 10, TAU_MAX));
  });

  it("A_MQ with r = 6, eq. (7): about 0.231 per game", () => {
    expectCost(gameCosts("multi-queue", { r: 6 }, 10, 20_000), schlupMultiQueueCost(2, 6, 10, TAU_MAX));
  });

  it("A_PM with x = 1 and A_DW with fWait = 0 are the greedy algorithm (section 5.2)", () => {
    const greedy = gameCosts("greedy", {}, 3, 2_000);
    expect(gameCosts("periodic", { x: 1 }, 3, 2_000)).toEqual(greedy);
    expect(gameCosts("difference-wait", { fWait: 0 }, 3, 2_000)).toEqual(greedy);
  });
});

describe("auto parameters follow eq. (6) and eq. (9) on the measured arrival rate", () => {
  /** Feed a policy regular arrivals at `rate` per second and return it. */
  function warmed<P>(policy: string, params: Record<string, unknown>, rate: number): P {
    const engine = new Matchmaker({ teamSize: 1, policy, params, maxWaitMs: TAU_MAX * 1000, ratingRange: UNIT });
    for (let i = 0; i < 400; i++) {
      const now = (i * 1000) / rate;
      engine.enqueue({ id: `t${i}`, players: [{ sessionId: `p${i}`, rating: (i * 0.618) % 1 }], enqueuedAt: now }, now);
      engine.tick(now);
    }
    return engine.policy as P;
  }

  it("x = auto chooses 4 or 5 games per period at a = 10 (n_opt = 9), and 1 at a = 1", () => {
    expect([4, 5]).toContain(warmed<PeriodicPolicy>("periodic", { x: "auto" }, 10).gamesPerPeriod());
    expect(warmed<PeriodicPolicy>("periodic", { x: "auto" }, 1).gamesPerPeriod()).toBe(1);
  });

  it("r = auto chooses 6 ranges at a = 10 (r_opt = 5.77) and 2 at a = 1", () => {
    expect(warmed<MultiQueuePolicy>("multi-queue", { r: "auto" }, 10).rangeCount).toBe(6);
    expect(warmed<MultiQueuePolicy>("multi-queue", { r: "auto" }, 1).rangeCount).toBe(2);
  });

  it("refuses auto without a maximum wait", () => {
    expect(() => new Matchmaker({ teamSize: 1, policy: "periodic", params: { x: "auto" } })).toThrow(/x: "auto" needs/);
    expect(() => new Matchmaker({ teamSize: 1, policy: "multi-queue", params: { r: "auto" } })).toThrow(
      /r: "auto" needs/,
    );
  });
});
