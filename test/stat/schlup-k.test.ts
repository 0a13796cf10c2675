/**
 * Schlup, "Automatic Game Matching", section 4, at k > 2: the text's k-player matching problem,
 * a game being a free-for-all of k (`maxPlayers: k`), run by the same policies the room runs, in
 * the style of schlup.test.ts (k = 2): one criterion uniform on [0, 1], Poisson arrivals at
 * a = 10 players per second, tau_max = 5 s, bots filling a game after tau_max (the simulator sets
 * the engine's `fillWithBots` with `maxWaitMs`), each policy at the best integer parameter around
 * eq. (6) / eq. (9). The closed forms then give, per game:
 *
 * | k | A_G, eq. (2) | A_PM, eq. (5)          | A_MQ, eq. (7)     |
 * |---|--------------|------------------------|-------------------|
 * | 3 | 1.560        | x = 4 (n = 12): 0.7915 | r = 5: 0.600      |
 * | 5 | 3.533        | x = 4 (n = 20): 1.902  | r = 4: 1.633      |
 *
 * They hold here because bots are rare: a game lacks players after tau_max only when fewer than
 * k − 1 players follow its first within 5 s (or within its range: a·tau_max / r = 10 at k = 3,
 * 12.5 at k = 5), a few in ten thousand games.
 */
import { describe, expect, it } from "vitest";
import {
  bestIntegerAround,
  schlupGreedyCost,
  schlupMultiQueueCost,
  schlupMultiQueueOptimalR,
  schlupPeriodicCost,
  schlupPeriodicOptimalN,
} from "../../src/core/closed-forms.js";
import { seatsOf } from "../../src/core/shape.js";
import type { MultiQueuePolicy } from "../../src/policies/multi-queue.js";
import type { PeriodicPolicy } from "../../src/policies/periodic.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { schlupGameCost } from "../../src/sim/measures.js";
import { simulate, type SimulationConfig } from "../../src/sim/simulator.js";
import { batchMeans } from "../helpers/statistics.js";
import { uniformSolos } from "../helpers/traffic.js";

const A = 10;
const TAU_MAX = 5;
const UNIT = { min: 0, max: 1 };

/** Eq. (6)'s best whole number of games per period, as `x: "auto"` chooses it. */
const bestX = (k: number) =>
  bestIntegerAround(schlupPeriodicOptimalN(k, A, TAU_MAX) / k, (x) => schlupPeriodicCost(k, x * k, A, TAU_MAX));
/** Eq. (9)'s best whole number of ranges, as `r: "auto"` chooses it. */
const bestR = (k: number) =>
  bestIntegerAround(schlupMultiQueueOptimalR(k, A, TAU_MAX), (r) => schlupMultiQueueCost(k, r, A, TAU_MAX));

/** A seeded run of `policy` on Schlup's traffic at rate `rate`, in a queue of `shape`. */
function run(
  policy: string,
  params: Record<string, unknown>,
  shape: Pick<SimulationConfig, "maxPlayers" | "teamSize">,
  rate: number,
  tickets: number,
) {
  return simulate({
    policy,
    params,
    ...shape,
    traffic: uniformSolos(rate),
    maxWaitMs: TAU_MAX * 1000,
    tickets,
    seed: 7,
  });
}

/** Per-game eq. (1) costs of a run at a = 10 in a free-for-all of k, the first 10% of games left out. */
function gameCosts(k: number, policy: string, params: Record<string, unknown>): number[] {
  const trace = run(policy, params, { maxPlayers: k }, A, 20_000);
  expect(seatsOf(trace.shape)).toBe(k);
  const warmupGames = Math.floor(trace.matches.length / 10);
  return trace.matches.slice(warmupGames).map((m) => schlupGameCost(m, TAU_MAX, UNIT));
}

/** The simulated mean agrees with the closed form within four batch-means standard errors. */
function expectCost(costs: number[], expected: number): void {
  const { mean, standardError } = batchMeans(costs);
  expect(standardError).toBeGreaterThan(0);
  expect(Math.abs(mean - expected)).toBeLessThan(4 * standardError);
}

describe("the closed forms at k = 3 and k = 5 (a = 10, tau_max = 5)", () => {
  it("give the parameters and costs this file checks", () => {
    expect([bestX(3), bestX(5)]).toEqual([4, 4]);
    expect([bestR(3), bestR(5)]).toEqual([5, 4]);
    expect(schlupGreedyCost(3, A, TAU_MAX)).toBeCloseTo(1.56, 10);
    expect(schlupGreedyCost(5, A, TAU_MAX)).toBeCloseTo(3.5333, 4);
    expect(schlupPeriodicCost(3, 12, A, TAU_MAX)).toBeCloseTo(0.7915, 4);
    expect(schlupPeriodicCost(5, 20, A, TAU_MAX)).toBeCloseTo(1.9024, 4);
    expect(schlupMultiQueueCost(3, 5, A, TAU_MAX)).toBeCloseTo(0.6, 10);
    expect(schlupMultiQueueCost(5, 4, A, TAU_MAX)).toBeCloseTo(1.6333, 4);
  });
});

for (const k of [3, 5]) {
  describe(`the simulator reproduces Schlup's expected costs in a free-for-all of k = ${k}`, () => {
    it(`A_G with computer players, eq. (2): ${schlupGreedyCost(k, A, TAU_MAX).toFixed(3)} per game`, () => {
      expectCost(gameCosts(k, "greedy", {}), schlupGreedyCost(k, A, TAU_MAX));
    });

    it(`A_PM with x = ${bestX(k)}, eq. (5): ${schlupPeriodicCost(k, bestX(k) * k, A, TAU_MAX).toFixed(3)} per game`, () => {
      expectCost(gameCosts(k, "periodic", { x: bestX(k) }), schlupPeriodicCost(k, bestX(k) * k, A, TAU_MAX));
    });

    it(`A_MQ with r = ${bestR(k)}, eq. (7): ${schlupMultiQueueCost(k, bestR(k), A, TAU_MAX).toFixed(3)} per game`, () => {
      expectCost(gameCosts(k, "multi-queue", { r: bestR(k) }), schlupMultiQueueCost(k, bestR(k), A, TAU_MAX));
    });
  });
}

describe("k-player games beside the paper's k = 2", () => {
  it("A_G fills a game short of k players after tau_max with computer players, and seats everyone", () => {
    for (const k of [3, 5]) {
      const trace = run("greedy", {}, { maxPlayers: k }, 0.3, 600);
      const withBots = trace.matches.filter((m) => m.bots > 0);
      expect(trace.unmatched).toHaveLength(0);
      expect(trace.matches.reduce((n, m) => n + m.tickets.length, 0)).toBe(600);
      expect(withBots.length).toBeGreaterThan(10);
      for (const m of withBots) {
        const humans = m.teams.flatMap((t) => t.players).filter((p) => !p.bot);
        expect(humans.length + m.bots).toBe(k);
        // The game starts when its oldest player reaches tau_max.
        expect(Math.max(...humans.map((p) => p.waitMs))).toBeCloseTo(TAU_MAX * 1000, 6);
      }
    }
  });

  it("A_PM with x = 1 is the greedy algorithm at k = 3 too (section 5.2)", () => {
    const costs = (policy: string, params: Record<string, unknown>) =>
      run(policy, params, { maxPlayers: 3 }, 3, 2_000).matches.map((m) => schlupGameCost(m, TAU_MAX, UNIT));
    expect(costs("periodic", { x: 1 })).toEqual(costs("greedy", {}));
  });

  it("a free-for-all of 2 is the paper's k = 2: the same games' costs as two teams of one", () => {
    for (const [policy, params] of [
      ["periodic", { x: 4 }],
      ["multi-queue", { r: 6 }],
    ] as const) {
      const costs = (shape: Pick<SimulationConfig, "maxPlayers" | "teamSize">) =>
        run(policy, params, shape, A, 2_000).matches.map((m) => schlupGameCost(m, TAU_MAX, UNIT));
      expect(costs({ maxPlayers: 2 })).toEqual(costs({ teamSize: 1 }));
    }
  });
});

describe("auto parameters follow eq. (6) and eq. (9) with k = players per game", () => {
  /** Feed a policy regular arrivals at a = 10 per second in a free-for-all of k and return it. */
  function warmed<P>(k: number, policy: string, params: Record<string, unknown>): P {
    const engine = new Matchmaker({ maxPlayers: k, policy, params, maxWaitMs: TAU_MAX * 1000, ratingRange: UNIT });
    for (let i = 0; i < 400; i++) {
      const now = (i * 1000) / A;
      engine.enqueue({ id: `t${i}`, players: [{ sessionId: `p${i}`, rating: (i * 0.618) % 1 }], enqueuedAt: now }, now);
      engine.tick(now);
    }
    return engine.policy as P;
  }

  it("x = auto chooses eq. (6)'s best whole period: 4 games at k = 3 (n_opt = 13.1) and at k = 5 (n_opt = 19)", () => {
    expect(warmed<PeriodicPolicy>(3, "periodic", { x: "auto" }).gamesPerPeriod()).toBe(bestX(3));
    expect(warmed<PeriodicPolicy>(5, "periodic", { x: "auto" }).gamesPerPeriod()).toBe(bestX(5));
  });

  it("r = auto chooses eq. (9)'s best whole number of ranges: 5 at k = 3 (r_opt = 5), 4 at k = 5 (r_opt = 4.08)", () => {
    expect(warmed<MultiQueuePolicy>(3, "multi-queue", { r: "auto" }).rangeCount).toBe(bestR(3));
    expect(warmed<MultiQueuePolicy>(5, "multi-queue", { r: "auto" }).rangeCount).toBe(bestR(5));
  });
});
