/**
 * `weighted-pairing`: parameters named and checked, games only on the cycle or at the bound,
 * nobody waiting past the bound while a game with them exists (property), teams and parties
 * through the shared assembly, and seeded runs that replay exactly.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canAssemble } from "../../src/core/assembly.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { WeightedPairingPolicy, weightedPairingOptions } from "../../src/policies/weighted-pairing.js";
import { simulate } from "../../src/sim/simulator.js";
import type { TrafficModel } from "../../src/sim/traffic.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { party, sideArb, solo } from "../helpers/tickets.js";
import { twoTeamFields } from "../../src/core/policy.js";

const context = { ...twoTeamFields(1), imbalance: ratingSumDifference };

describe("weighted-pairing parameters", () => {
  it("are named after the thread's three factors, with defaults from the queue", () => {
    const options = weightedPairingOptions(
      { ...context, ratingRange: { min: 0, max: 4000 }, maxWaitMs: 60_000 },
      { waitTimePerSecond: 0.5 },
    );
    expect(options).toEqual({
      ratingSd: 100,
      waitTimePerSecond: 0.5,
      recentPartnerFactor: 0.2,
      skipWeight: 1,
      cycleMs: 1000,
      boundMs: 30_000,
      seed: 1,
    });
  });

  it.each([
    [{ ratingSd: 0 }, "ratingSd: must be positive"],
    [{ recentPartnerFactor: 1.5 }, "recentPartnerFactor: must be between 0 and 1"],
    [{ waitTimePerSecond: -1 }, "waitTimePerSecond: must not be negative"],
    [{ cycleMs: 1.5 }, "cycleMs: must be a whole number of milliseconds"],
    [{ boundMs: "soon" }, "boundMs: must be a number of milliseconds"],
    [{ weight: 1 }, "weight: unknown field"],
  ])("refuses %j naming the field", (params, message) => {
    let error: unknown;
    try {
      new Matchmaker({ teamSize: 1, policy: "weighted-pairing", params });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MatchmakerError);
    expect(error).toMatchObject({
      code: "invalid_config",
      field: message.split(":")[0],
      message: `weighted-pairing policy parameters: ${message}`,
    });
  });

  it("honours avoidRecent (the recent-ness factor reads the queue's history)", () => {
    expect(() => new Matchmaker({ teamSize: 1, policy: "weighted-pairing", avoidRecent: 3 })).not.toThrow();
  });
});

describe("weighted-pairing: when games form", () => {
  it("only on the cycle: a join between cycles waits for the next multiple of cycleMs", () => {
    const mm = new Matchmaker({ teamSize: 1, policy: "weighted-pairing", params: { skipWeight: 0, cycleMs: 2000 } });
    mm.enqueue(solo("a", 1500, { at: 2100 }), 2100);
    expect(mm.tick(2100)).toEqual([]); // the cycle at 2000 ran with a alone
    mm.enqueue(solo("b", 1500, { at: 2500 }), 2500);
    expect(mm.tick(2500)).toEqual([]);
    expect(mm.nextWakeup(2500)).toBe(4000);
    const [match] = mm.tick(4000);
    expect(match.tickets.map((t) => t.id).sort()).toEqual(["a", "b"]);
    expect(mm.nextWakeup(4000)).toBeUndefined(); // an empty queue asks for no wake-up
  });

  it("a lone far candidate is usually declined (skipWeight), and taken at the bound", () => {
    const mm = new Matchmaker({
      teamSize: 1,
      policy: "weighted-pairing",
      params: { ratingSd: 50, boundMs: 10_000, waitTimePerSecond: 0 },
    });
    mm.enqueue(solo("a", 1000, { at: 0 }), 0);
    mm.enqueue(solo("b", 1300, { at: 0 }), 0); // 6 sd apart: beyond the kernel's cut-off
    for (let t = 1000; t < 10_000; t += 1000) expect(mm.tick(t)).toEqual([]);
    expect(mm.nextWakeup(9000)).toBe(10_000);
    const [match] = mm.tick(10_000);
    expect(match.quality.maxWaitMs).toBe(10_000);
  });

  it("a ticket at the bound plays with the next arrival at once, between cycles", () => {
    const mm = new Matchmaker({ teamSize: 1, policy: "weighted-pairing", params: { boundMs: 5000 } });
    mm.enqueue(solo("a", 1000, { at: 0 }), 0);
    expect(mm.tick(5000)).toEqual([]);
    mm.enqueue(solo("b", 2500, { at: 7300 }), 7300);
    const [match] = mm.tick(7300);
    expect(match.tickets.map((t) => t.id).sort()).toEqual(["a", "b"]);
  });
});

/** Drive an engine through joins and its own wake-ups, checking the bound after every tick. */
function checkBound(teamSize: number, ops: ReadonlyArray<{ dt: number; ratings: number[]; side?: "A" | "B" }>) {
  const BOUND = 5000;
  const mm = new Matchmaker({
    teamSize,
    policy: "weighted-pairing",
    params: { ratingSd: 20, boundMs: BOUND, cycleMs: 700, seed: 9 },
  });
  const matches: Match[] = [];
  let now = 0;
  const tick = (at: number) => {
    now = at;
    matches.push(...mm.tick(at));
    const waiting = [...mm.waiting()];
    for (const t of waiting) {
      if (t.enqueuedAt + BOUND > now) continue;
      // Past the bound, a ticket may still wait only if no game that includes it exists.
      expect(gameWith(t, waiting, teamSize), `ticket ${t.id} at ${now}`).toBe(false);
    }
  };
  ops.forEach((op, i) => {
    const target = now + op.dt;
    for (let w = mm.nextWakeup(now); w !== undefined && w <= target; w = mm.nextWakeup(now)) tick(Math.max(w, now));
    now = target;
    mm.enqueue(party(`t${i}`, op.ratings, { at: now, ...(op.side ? { side: op.side } : {}) }), now);
    tick(now);
  });
  for (let w = mm.nextWakeup(now), n = 0; w !== undefined && n < 200; w = mm.nextWakeup(now), n++)
    tick(Math.max(w, now));
  for (const m of matches) expectValidMatch(m, teamSize);
}

/** True when some subset of `pool` containing `ticket` fills a game (brute force; pools here are small). */
function gameWith(ticket: Ticket, pool: readonly Ticket[], teamSize: number): boolean {
  const others = pool.filter((t) => t !== ticket);
  const search = (i: number, chosen: Ticket[], players: number): boolean => {
    if (players === 2 * teamSize) return canAssemble(chosen, teamSize);
    if (i >= others.length || players > 2 * teamSize) return false;
    const t = others[i];
    return search(i + 1, [...chosen, t], players + t.players.length) || search(i + 1, chosen, players);
  };
  return search(0, [ticket], ticket.players.length);
}

describe("weighted-pairing: nobody waits past the bound while a game with them exists", () => {
  const opArb = (maxParty: number) =>
    fc.record({
      dt: fc.integer({ min: 0, max: 4000 }),
      ratings: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: maxParty }),
      side: sideArb,
    });
  test.prop([fc.array(opArb(1), { minLength: 1, maxLength: 40 })], { numRuns: 150 })("1v1", (ops) =>
    checkBound(1, ops),
  );
  test.prop([fc.array(opArb(2), { minLength: 1, maxLength: 30 })], { numRuns: 100 })("2v2 with duos and sides", (ops) =>
    checkBound(2, ops),
  );
});

describe("weighted-pairing in the simulator", () => {
  const traffic: TrafficModel = {
    arrivals: "poisson",
    rate: 2,
    parties: [
      { value: 1, weight: 2 },
      { value: 2, weight: 1 },
    ],
    skill: { kind: "normal", mean: 1500, sd: 300 },
    sides: [{ value: undefined, weight: 1 }],
  };
  const run = (seed: number, params: Record<string, unknown> = {}) =>
    simulate({ policy: "weighted-pairing", params, teamSize: 2, traffic, tickets: 2000, seed });

  it("forms valid 2v2 games with duos through the shared assembly", () => {
    const { matches, unmatched } = run(1, { ratingSd: 60 });
    expect(matches.length).toBeGreaterThan(300);
    for (const m of matches) expectValidMatch(m, 2);
    expect(matches.some((m) => m.tickets.some((t) => t.players.length === 2))).toBe(true);
    expect(unmatched.length).toBeLessThan(20);
  });

  it("replays exactly with the same seed, and differs with another", () => {
    const summary = (matches: readonly Match[]) => matches.map((m) => `${m.createdAt}:${m.tickets.map((t) => t.id)}`);
    expect(summary(run(1).matches)).toEqual(summary(run(1).matches));
    expect(summary(run(1, { seed: 2 }).matches)).not.toEqual(summary(run(1).matches));
  });

  it("an injected random source is what the draws use", () => {
    const pool = [solo("a", 1500), solo("b", 1510), solo("c", 1490)];
    const pick = (r: number) => {
      const p = new WeightedPairingPolicy(context, { ...weightedPairingOptions(context, { skipWeight: 0 }) }, () => r);
      for (const t of pool) p.add(t);
      return p.poll(0)[0].map((t) => t.id);
    };
    // Candidates in rating order (c, b) with equal weights: a low draw takes c, a high one b.
    expect(pick(0.1)).toEqual(["a", "c"]);
    expect(pick(0.9)).toEqual(["a", "b"]);
  });
});
