import { describe, expect, it } from "vitest";
import { assembleTeams } from "../../src/core/assembly.js";
import { MatchmakerError } from "../../src/core/errors.js";
import {
  almanMcKay,
  highLowDifference,
  imbalanceFunction,
  pFairness,
  pSkill,
  qUniformity,
  resolveImbalance,
} from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Player, Ticket } from "../../src/core/types.js";

const players = (...ratings: number[]): Player[] => ratings.map((rating, i) => ({ sessionId: `p${i}`, rating }));
const solo = (id: string, rating: number, enqueuedAt = 0): Ticket => ({
  id,
  players: [{ sessionId: id, rating }],
  enqueuedAt,
});

describe("Alman–McKay components", () => {
  it("p-skill is the sum for p = 1, the Euclidean norm for p = 2, the best player for p = ∞", () => {
    expect(pSkill([3, 4], 1)).toBe(7);
    expect(pSkill([3, 4], 2)).toBeCloseTo(5, 12);
    expect(pSkill([3, 4, 1], Infinity)).toBe(4);
    expect(pFairness([3, 4], [5, 0], 2)).toBeCloseTo(0, 12);
    expect(pFairness([3, 4], [5, 0], 1)).toBe(2);
  });

  it("q-uniformity is the mean absolute deviation for q = 1, the standard deviation for q = 2, the largest deviation for q = ∞", () => {
    const z = [1, 2, 3, 6]; // mean 3
    expect(qUniformity(z, 1)).toBeCloseTo((2 + 1 + 0 + 3) / 4, 12);
    expect(qUniformity(z, 2)).toBeCloseTo(Math.sqrt((4 + 1 + 0 + 9) / 4), 12);
    expect(qUniformity(z, Infinity)).toBe(3);
    expect(qUniformity([], 2)).toBe(0);
  });

  it("f = alpha·d_p + v_q", () => {
    const f = almanMcKay({ alpha: 2, p: 1, q: Infinity, floor: 0 });
    // Teams 10+40 and 20+20: d_1 = 10; mean 22.5, largest deviation 17.5.
    expect(f(players(10, 40), players(20, 20))).toBeCloseTo(2 * 10 + 17.5, 12);
  });

  it("shifts ratings by the floor, so the p-norm does not depend on where the scale starts and negative ratings work", () => {
    const f0 = almanMcKay({ alpha: 1, p: 2, q: 2, floor: 0 });
    const shifted = almanMcKay({ alpha: 1, p: 2, q: 2, floor: -1000 });
    const a = players(100, 700);
    const b = players(400, 400);
    const minus = (ps: Player[]) => ps.map((p) => ({ ...p, rating: p.rating - 1000 }));
    expect(shifted(minus(a), minus(b))).toBeCloseTo(f0(a, b), 9);
    expect(Number.isFinite(shifted(minus(a), minus(b)))).toBe(true);
    // Shifted skills 100 and 700: d_2 = 600 and v_2 = 300. (Unshifted, p = 2 would rank -900 above -300.)
    expect(almanMcKay({ alpha: 1, p: 2, q: 2, floor: -1000 })(players(-900), players(-300))).toBeCloseTo(900, 9);
  });

  it("lets p = ∞ change which split is best: the team with the strongest player is the stronger team", () => {
    const tickets = [solo("a", 100), solo("b", 60), solo("c", 50), solo("d", 10)];
    const bySum = assembleTeams(tickets, 2, imbalanceFunction({ kind: "rating-sum" }))!;
    const byMax = assembleTeams(tickets, 2, almanMcKay({ alpha: 1, p: Infinity, q: 1, floor: 0 }))!;
    expect(bySum.teamA.map((t) => t.id).sort()).toEqual(["a", "d"]); // 110 against 110
    expect(byMax.imbalance).toBeCloseTo(40 + qUniformity([100, 60, 50, 10], 1), 9); // 100 against 60
    // With a second strong player, p = ∞ puts the two strongest on opposite teams.
    const four = [solo("a", 100), solo("b", 95), solo("c", 10), solo("d", 5)];
    const maxSplit = assembleTeams(four, 2, almanMcKay({ alpha: 1, p: Infinity, q: 1, floor: 0 }))!;
    expect(maxSplit.teamA.map((t) => t.id)).toContain("a");
    expect(maxSplit.teamA.map((t) => t.id)).not.toContain("b");
  });

  it("Wu's high-low imbalance counts H players per side", () => {
    expect(highLowDifference()(players(1, 1), players(0, 1))).toBe(1);
    expect(highLowDifference(1500)(players(1600, 1400), players(1500, 1000))).toBe(0);
  });
});

describe("imbalance configuration", () => {
  it("fills in defaults and the queue's floor", () => {
    expect(resolveImbalance({ kind: "alman-mckay", q: "inf" }, -50)).toEqual({
      kind: "alman-mckay",
      alpha: 1,
      p: 1,
      q: Infinity,
      floor: -50,
    });
    expect(resolveImbalance({ kind: "high-low" })).toEqual({ kind: "high-low", threshold: 0.5 });
  });

  it("refuses bad configurations, naming the field", () => {
    const refused: Array<[unknown, RegExp]> = [
      [{ kind: "elo" }, /kind: must be "rating-sum", "alman-mckay", "high-low" or "win-probability"/],
      [{ kind: "alman-mckay", p: 0.5 }, /p: must be a number of at least 1 or "inf"/],
      [{ kind: "alman-mckay", alpha: -1 }, /alpha: must not be negative/],
      [{ kind: "alman-mckay", gamma: 1 }, /gamma: unknown field/],
    ];
    for (const [spec, message] of refused) {
      expect(() => resolveImbalance(spec)).toThrow(MatchmakerError);
      expect(() => resolveImbalance(spec)).toThrow(message);
    }
  });

  it("is used by the engine for every split it forms", () => {
    const engine = new Matchmaker({ teamSize: 2, imbalance: { kind: "alman-mckay", p: "inf", q: 1 } });
    for (const [i, r] of [100, 95, 10, 5].entries()) engine.enqueue(solo(`t${i}`, r, i), i);
    const [match] = engine.tick(10);
    const teamOfA = match.teams.find((t) => t.ticketIds.includes("t0"))!;
    expect(teamOfA.ticketIds).not.toContain("t1");
    // f = |100 − 95| (p = ∞: the strongest of each team) + mean absolute deviation from 52.5 (45).
    expect(match.quality.imbalance).toBeCloseTo(5 + 45, 9);
  });
});

describe("win-probability fairness (openskill)", () => {
  /** Standard normal CDF by Abramowitz–Stegun 7.1.26 (absolute error below 1.5e-7). */
  const phi = (x: number) => {
    const z = Math.abs(x) / Math.SQRT2;
    const t = 1 / (1 + 0.3275911 * z);
    const erf =
      1 -
      ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
        t *
        Math.exp(-z * z);
    return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
  };
  const rated = (...pairs: Array<[number, number]>): Player[] =>
    pairs.map(([rating, uncertainty], i) => ({ sessionId: `u${i}`, rating, uncertainty }));

  it("is the gap |2Φ(Δμ / √(2β² + Σσ²)) − 1| between the teams' predicted chances", () => {
    const f = imbalanceFunction(resolveImbalance({ kind: "win-probability", beta: 4 }));
    const a = rated([30, 2], [20, 3]);
    const b = rated([24, 1], [22, 5]);
    const pA = phi((50 - 46) / Math.sqrt(2 * 16 + (4 + 9) + (1 + 25)));
    expect(f(a, b)).toBeCloseTo(Math.abs(2 * pA - 1), 6);
    expect(f(b, a)).toBeCloseTo(f(a, b), 12);
  });

  it("is 0 for equal teams, grows with the skill gap and shrinks with uncertainty", () => {
    const f = imbalanceFunction(resolveImbalance({ kind: "win-probability" }));
    expect(f(rated([25, 3]), rated([25, 3]))).toBeCloseTo(0, 12);
    expect(f(rated([30, 3]), rated([25, 3]))).toBeGreaterThan(0);
    expect(f(rated([35, 3]), rated([25, 3]))).toBeGreaterThan(f(rated([30, 3]), rated([25, 3])));
    expect(f(rated([30, 12]), rated([25, 12]))).toBeLessThan(f(rated([30, 1]), rated([25, 1])));
  });

  it("uses the spec's sigma for players without their own uncertainty", () => {
    const f = imbalanceFunction(resolveImbalance({ kind: "win-probability", sigma: 12 }));
    expect(f(players(30), players(25))).toBeCloseTo(f(rated([30, 12]), rated([25, 12])), 12);
  });

  it("lets the engine pick the split with the closest predicted chances", () => {
    const engine = new Matchmaker({ teamSize: 2, imbalance: { kind: "win-probability" } });
    const tickets: Ticket[] = [
      { id: "a", players: [{ sessionId: "a", rating: 30, uncertainty: 1 }], enqueuedAt: 0 },
      { id: "b", players: [{ sessionId: "b", rating: 28, uncertainty: 1 }], enqueuedAt: 1 },
      { id: "c", players: [{ sessionId: "c", rating: 22, uncertainty: 1 }], enqueuedAt: 2 },
      { id: "d", players: [{ sessionId: "d", rating: 20, uncertainty: 1 }], enqueuedAt: 3 },
    ];
    for (const t of tickets) engine.enqueue(t, t.enqueuedAt);
    const [match] = engine.tick(5);
    expect(match.teams.find((t) => t.ticketIds.includes("a"))!.ticketIds).toContain("d");
    expect(match.quality.imbalance).toBeCloseTo(0, 12);
  });
});
