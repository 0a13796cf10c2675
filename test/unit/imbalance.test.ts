import { describe, expect, it } from "vitest";
import {
  almanMcKay,
  assembleTeams,
  highLowDifference,
  imbalanceFunction,
  Matchmaker,
  MatchmakerError,
  pFairness,
  pSkill,
  qUniformity,
  resolveImbalance,
  type Player,
  type Ticket,
} from "../../src/core/index.js";

const players = (...ratings: number[]): Player[] => ratings.map((rating, i) => ({ id: `p${i}`, rating }));
const solo = (id: string, rating: number, enqueuedAt = 0): Ticket => ({ id, players: [{ id, rating }], enqueuedAt });

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
    expect(resolveImbalance({ kind: "alman-mckay", q: "inf" }, -50)).toEqual({ kind: "alman-mckay", alpha: 1, p: 1, q: Infinity, floor: -50 });
    expect(resolveImbalance({ kind: "high-low" })).toEqual({ kind: "high-low", threshold: 0.5 });
  });

  it("refuses bad configurations, naming the field", () => {
    const refused: Array<[unknown, RegExp]> = [
      [{ kind: "elo" }, /kind: must be "rating-sum", "alman-mckay" or "high-low"/],
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
