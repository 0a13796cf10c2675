import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { PolicyRegistry } from "../../src/core/policy.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import type { Match } from "../../src/core/types.js";
import { measure, schlupGameCost, wuImbalance } from "../../src/sim/measures.js";
import { Random } from "../../src/sim/random.js";
import { simulate } from "../../src/sim/simulator.js";
import { arrivals, type TrafficModel } from "../../src/sim/traffic.js";
import { thrown } from "../helpers/thrown.js";
import { uniformSolos } from "../helpers/traffic.js";
import { twoTeams } from "../../src/core/shape.js";

function take(model: TrafficModel, n: number, seed = 1) {
  const out = [];
  const stream = arrivals(model, seed);
  for (let i = 0; i < n; i++) out.push(stream.next().value);
  return out;
}

describe("Random", () => {
  it("repeats a stream for a seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const r = new Random(seed);
      return [
        r.uniform(),
        r.exponential(2),
        r.normal(),
        r.weighted([
          { value: "a", weight: 1 },
          { value: "b", weight: 3 },
        ]),
      ];
    };
    expect(draw(4)).toEqual(draw(4));
    expect(draw(4)).not.toEqual(draw(5));
  });

  it("draws exponentials with mean 1/rate and normals with unit variance (n = 100,000, 5 standard errors)", () => {
    const r = new Random(9);
    const n = 100_000;
    let e = 0;
    let z = 0;
    let z2 = 0;
    for (let i = 0; i < n; i++) {
      e += r.exponential(4);
      const x = r.normal();
      z += x;
      z2 += x * x;
    }
    // Exponential(4): sd 1/4, so the mean's standard error is 0.25 / sqrt(n).
    expect(Math.abs(e / n - 0.25)).toBeLessThan((5 * 0.25) / Math.sqrt(n));
    expect(Math.abs(z / n)).toBeLessThan(5 / Math.sqrt(n));
    // The sample variance of a standard normal has standard error sqrt(2 / n).
    expect(Math.abs(z2 / n - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
  });
});

describe("traffic", () => {
  it("spaces regular arrivals exactly 1/rate apart and stamps enqueuedAt in ms", () => {
    const a = take(uniformSolos(4, "regular"), 5);
    expect(a.map((x) => x.time)).toEqual([0.25, 0.5, 0.75, 1, 1.25]);
    expect(a[2].ticket.enqueuedAt).toBe(750);
    expect(a.map((x) => x.ticket.id)).toEqual(["t0", "t1", "t2", "t3", "t4"]);
  });

  it("draws party sizes, sides and two-type skills in the configured proportions (n = 20,000, 5 standard errors)", () => {
    const n = 20_000;
    const a = take(
      {
        arrivals: "poisson",
        rate: 1,
        parties: [
          { value: 1, weight: 3 },
          { value: 2, weight: 1 },
        ],
        skill: { kind: "two-type", q: 0.2 },
        sides: [
          { value: "A", weight: 1 },
          { value: undefined, weight: 1 },
        ],
      },
      n,
    );
    const share = (pred: (x: (typeof a)[number]) => boolean, p: number) => {
      const observed = a.filter(pred).length / n;
      expect(Math.abs(observed - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / n));
    };
    share((x) => x.ticket.players.length === 2, 0.25);
    share((x) => x.ticket.side === "A", 0.5);
    share((x) => x.ticket.players[0].rating === 1, 0.2);
    expect(a.every((x) => x.ticket.players.every((p) => p.rating === 0 || p.rating === 1))).toBe(true);
    // Poisson process: the mean gap is 1/rate.
    expect(Math.abs(a[n - 1].time / n - 1)).toBeLessThan(5 / Math.sqrt(n));
  });
});

/** A 1v1 match by hand. */
function duel(ratingA: number, ratingB: number, waitA: number, waitB: number, bots = 0): Match {
  const player = (id: string, rating: number, waitMs: number, bot = false) => ({
    sessionId: id,
    rating,
    ticketId: id,
    waitMs,
    ...(bot ? { bot: true as const } : {}),
  });
  return {
    id: "m",
    createdAt: 10_000,
    teamSize: 1,
    shape: twoTeams(1),
    teams: [
      { side: "A", players: [player("a", ratingA, waitA)], ticketIds: ["a"], ratingSum: ratingA },
      { side: "B", players: [player("b", ratingB, waitB, bots > 0)], ticketIds: ["b"], ratingSum: ratingB },
    ],
    tickets: [{ id: "a", players: [{ sessionId: "a", rating: ratingA }], enqueuedAt: 10_000 - waitA }],
    bots,
    quality: {
      imbalance: Math.abs(ratingA - ratingB),
      spread: Math.abs(ratingA - ratingB),
      meanWaitMs: 0,
      maxWaitMs: 0,
    },
  };
}

describe("measures", () => {
  it("computes Schlup's eq. (1) per game: f·q + Σ τ/τ_max, a bot counting q = 1 and τ = τ_max", () => {
    // Two players: spread 0.3, waits 1 s and 0 s, tau_max 5: 2 x 0.3 + 1/5.
    expect(schlupGameCost(duel(0.2, 0.5, 1000, 0), 5, { min: 0, max: 1 })).toBeCloseTo(0.8, 12);
    // A player who waited tau_max, with a bot: 2 x 1 + 1 + 1.
    expect(schlupGameCost(duel(0.2, 0.2, 5000, 0, 1), 5, { min: 0, max: 1 })).toBeCloseTo(4, 12);
    // Ratings are scaled to [0, 1] by the skill model's range.
    expect(schlupGameCost(duel(1200, 1500, 0, 0), 5, { min: 1000, max: 2000 })).toBeCloseTo(0.6, 12);
  });

  it("counts k = the game's players in a free-for-all, and only the players a short-handed game has", () => {
    const free = (ratings: number[], waits: number[], emptySeats?: number): Match => ({
      id: "m",
      createdAt: 10_000,
      teamSize: 1,
      shape: { kind: "free-for-all", players: 4, minPlayers: 2, countMultiple: 1 },
      teams: ratings.map((rating, i) => ({
        players: [{ sessionId: `p${i}`, rating, ticketId: `p${i}`, waitMs: waits[i] }],
        ticketIds: [`p${i}`],
        ratingSum: rating,
      })),
      tickets: [],
      bots: 0,
      ...(emptySeats !== undefined ? { emptySeats } : {}),
      quality: { spread: Math.max(...ratings) - Math.min(...ratings), meanWaitMs: 0, maxWaitMs: 0 },
    });
    // Four players: spread 0.5, waits 1 + 2 + 0 + 2 s over tau_max 5: 4 x 0.5 + 1.
    expect(schlupGameCost(free([0.2, 0.7, 0.4, 0.5], [1000, 2000, 0, 2000]), 5, { min: 0, max: 1 })).toBeCloseTo(3, 12);
    // Started with two of four seats: k = 2.
    expect(schlupGameCost(free([0.2, 0.7], [5000, 0], 2), 5, { min: 0, max: 1 })).toBeCloseTo(2, 12);
  });

  it("measures a free-for-all: players per game, the spread, and no team imbalance", () => {
    const trace = simulate({ policy: "greedy", maxPlayers: 3, traffic: uniformSolos(2, "regular"), tickets: 30 });
    expect(trace.shape).toEqual({ kind: "free-for-all", players: 3, minPlayers: 3, countMultiple: 1 });
    const m = measure(trace, { warmup: 0, ratingScale: { min: 0, max: 1 } });
    expect([m.games, m.players]).toEqual([10, 30]);
    expect(m.meanImbalance).toBeNull();
    expect(m.meanSpread).toBeGreaterThan(0);
    expect(Object.keys(m.waitByClass)).toEqual(["party:1"]);
  });

  it("counts Wu's imbalance in H players (rating 1) per side", () => {
    expect(wuImbalance(duel(1, 0, 0, 0))).toBe(1);
    expect(wuImbalance(duel(1, 1, 0, 0))).toBe(0);
  });

  it("leaves warm-up arrivals and their games out, and counts every party member's wait", () => {
    const trace = simulate({
      policy: "greedy",
      teamSize: 2,
      traffic: { ...uniformSolos(1, "regular"), parties: [{ value: 2, weight: 1 }] },
      tickets: 10,
    });
    // Duos every second: each game pairs two consecutive duos; the first waits 1 s.
    const m = measure(trace, { teamSize: 2, warmup: 2, ratingScale: { min: 0, max: 1 } });
    expect(m.games).toBe(4);
    expect(m.players).toBe(16);
    expect(m.meanWait).toBeCloseTo(0.5, 9);
    expect(m.waitByClass["party:2"]).toBeCloseTo(0.5, 9);
    expect(m.p95Wait).toBeCloseTo(1, 9);
    expect(m.schlupCostPerGame).toBeNull();
  });
});

describe("simulate", () => {
  it("ends with every ticket matched when bots fill after the maximum wait", () => {
    const trace = simulate({
      policy: "multi-queue",
      params: { r: 8 },
      teamSize: 1,
      traffic: uniformSolos(0.2),
      maxWaitMs: 5000,
      tickets: 300,
    });
    expect(trace.unmatched).toHaveLength(0);
    const seated = trace.matches.flatMap((m) => m.tickets.map((t) => t.id));
    expect(new Set(seated).size).toBe(300);
    expect(trace.matches.some((m) => m.bots > 0)).toBe(true);
  });

  it("stops a policy that keeps asking to be woken without forming a game", () => {
    const policies = new PolicyRegistry([...defaultPolicies.all()]);
    policies.register({
      name: "test-restless",
      summary: "always wants to be woken now",
      create: () => ({
        name: "test-restless",
        add() {},
        remove() {},
        poll: () => [],
        nextWakeup: (now: number) => now,
      }),
    });
    const error = thrown(
      () => simulate({ policy: "test-restless", policies, teamSize: 1, traffic: uniformSolos(1), tickets: 5 }),
      MatchmakerError,
    );
    expect(error).toMatchObject({ code: "policy_contract", field: "policy" });
    expect(error.message).toMatch(/keeps asking to be woken/);
    expect(new Matchmaker({ teamSize: 1, policy: "test-restless", policies }).nextWakeup(7)).toBe(7);
  });
});
