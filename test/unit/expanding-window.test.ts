/**
 * `expanding-window`: the forum thread's worked examples (paper 004), closest game first,
 * units, teams, parameters, and the window each matched player reports.
 */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { PolicyParams } from "../../src/core/policy.js";
import type { Match } from "../../src/core/types.js";
import { ExpandingWindowPolicy } from "../../src/policies/expanding-window.js";
import { WindowRule } from "../../src/policies/shared/window-rule.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { idSet, party, solo } from "../helpers/tickets.js";

const S = 1000;

function engine(params: PolicyParams, teamSize = 1): { mm: Matchmaker; policy: ExpandingWindowPolicy } {
  const mm = new Matchmaker({ teamSize, policy: "expanding-window", params, ratingRange: { min: 0, max: 3000 } });
  return { mm, policy: mm.policy as ExpandingWindowPolicy };
}

/** Tick at every wake-up the engine asks for, up to `until`; the matches with their time. */
function runUntil(mm: Matchmaker, from: number, until: number): Array<{ at: number; match: Match }> {
  const formed: Array<{ at: number; match: Match }> = [];
  for (let now = from; ;) {
    for (const match of mm.tick(now)) formed.push({ at: now, match });
    const next = mm.nextWakeup(now);
    if (next === undefined || next > until) return formed;
    expect(next).toBeGreaterThan(now);
    now = next;
  }
}

const ticketsOf = (m: Match) => idSet(m.tickets);

describe("the thread's first suggestion, with the closest game preferred (2300/2000/2050/1900)", () => {
  // ratingDifferenceLimit 150, +100 after each minute in the queue, clamped at 500.
  const params = { initial: 150, growthPerSecond: 100 / 60, stepMs: 60_000, max: 500 };

  it("pairs 2000 with 2050 (not 1900) when both arrive, then 2300 with 1900 only once both windows reach 400", () => {
    const { mm, policy } = engine(params);
    mm.enqueue(solo("team0", 2300, { at: 0 }), 0);
    mm.enqueue(solo("team1", 2000, { at: 0 }), 0);
    expect(mm.tick(0)).toEqual([]); // 300 apart, windows 150
    mm.enqueue(solo("team2", 2050, { at: 60 * S }), 60 * S);
    mm.enqueue(solo("team3", 1900, { at: 60 * S }), 60 * S);
    const [first, ...rest] = mm.tick(60 * S);
    expect(rest).toEqual([]);
    expect(ticketsOf(first)).toEqual(["team1", "team2"]); // 50 apart beats 100 apart
    expect(first.quality.spread).toBe(50);

    const later = runUntil(mm, 60 * S, 3600 * S);
    expect(later).toHaveLength(1);
    expect(ticketsOf(later[0].match)).toEqual(["team0", "team3"]);
    // team0's window reaches 400 at 180 s (150 + 3 × 100), team3's only at 60 + 180 = 240 s.
    expect(later[0].at).toBe(240 * S);
    const t0 = solo("team0", 2300, { at: 0 });
    const t3 = solo("team3", 1900, { at: 60 * S });
    expect(policy.accepts(t0, t3, 180 * S)).toBe(true);
    expect(policy.accepts(t3, t0, 180 * S)).toBe(false);
    expect(policy.accepts(t3, t0, 240 * S)).toBe(true);
  });

  it("without the late arrivals, 2300 and 2000 meet once both windows reach 300 (after two minutes)", () => {
    const { mm } = engine(params);
    mm.enqueue(solo("team0", 2300, { at: 0 }), 0);
    mm.enqueue(solo("team1", 2000, { at: 0 }), 0);
    const formed = runUntil(mm, 0, 3600 * S);
    expect(formed.map((f) => f.at)).toEqual([120 * S]);
  });

  it("reports each player's window when matched (how far it had to grow)", () => {
    const { mm } = engine(params);
    mm.enqueue(solo("team0", 2300, { at: 0 }), 0);
    mm.enqueue(solo("team3", 1900, { at: 60 * S }), 60 * S);
    const [{ match }] = runUntil(mm, 60 * S, 3600 * S);
    const windows = Object.fromEntries(match.teams.flatMap((t) => t.players).map((p) => [p.sessionId, p.window]));
    expect(windows["team0/0"]).toEqual({ unit: "rating", initial: 150, width: 500 }); // 150 + 4 × 100, clamped
    expect(windows["team3/0"]).toEqual({ unit: "rating", initial: 150, width: 150 + 3 * (100 / 60) * 60 });
  });
});

describe("hplus0603's one-sided acceptance: rank 800 waited 300 s, rank 2000 just joined", () => {
  // ±5% of your own rating, +5% every 10 s.
  const params = { unit: "relative", initial: 0.05, growthPerSecond: 0.005, stepMs: 10_000 };

  it("does not match while only the 800 player accepts, and matches the moment both do", () => {
    const { mm, policy } = engine(params);
    const low = solo("p800", 800, { at: 0 });
    const high = solo("p2000", 2000, { at: 300 * S });
    mm.enqueue(low, 0);
    expect(runUntil(mm, 0, 300 * S)).toEqual([]);
    mm.enqueue(high, 300 * S);
    // 800 needs a 150% window to reach 2000: it has 5% + 30 × 5% = 155%. 2000 needs 60%.
    expect(policy.accepts(low, high, 300 * S)).toBe(true);
    expect(policy.accepts(high, low, 300 * S)).toBe(false);
    expect(mm.tick(300 * S)).toEqual([]);
    expect(mm.tick(409 * S)).toEqual([]);
    const formed = runUntil(mm, 409 * S, 3600 * S);
    expect(formed).toHaveLength(1);
    expect(formed[0].at).toBe(410 * S); // 2000's window: 5% + 11 × 5% = 60% after 110 s
    expect(ticketsOf(formed[0].match)).toEqual(["p2000", "p800"]);
  });
});

describe("expanding-window", () => {
  it("among acceptable pairs forms the closest first, then the next closest", () => {
    const { mm } = engine({ initial: 1000, growthPerSecond: 0 });
    for (const [id, r] of [
      ["a", 1000],
      ["b", 1100],
      ["c", 1120],
      ["d", 1500],
    ] as const)
      mm.enqueue(solo(id, r), 0);
    const matches = mm.tick(0);
    expect(matches.map(ticketsOf)).toEqual([
      ["b", "c"],
      ["a", "d"],
    ]);
  });

  it("never pairs tickets whose sides clash, and keeps looking further out", () => {
    const { mm } = engine({ initial: 500, growthPerSecond: 0 });
    mm.enqueue(solo("a", 1000, { side: "A" }), 0);
    mm.enqueue(solo("b", 1010, { side: "A" }), 0);
    mm.enqueue(solo("c", 1200, { side: "B" }), 0);
    const [m] = mm.tick(0);
    expect(ticketsOf(m)).toEqual(["b", "c"]);
  });

  it("a lone player far from everyone is matched once the windows grow (no cap), never with a cap below the gap", () => {
    const open = engine({ initial: 100, growthPerSecond: 10 }).mm;
    open.enqueue(solo("top", 2900), 0);
    open.enqueue(solo("mid", 1500), 0);
    const formed = runUntil(open, 0, 10_000 * S);
    expect(formed.map((f) => f.at)).toEqual([130 * S]); // 100 + 10/s × 130 s = 1400
    const capped = engine({ initial: 100, growthPerSecond: 10, max: 500 }).mm;
    capped.enqueue(solo("top", 2900), 0);
    capped.enqueue(solo("mid", 1500), 0);
    expect(runUntil(capped, 0, 10_000 * S)).toEqual([]);
    expect(capped.nextWakeup(0)).toBeUndefined();
  });

  it("percentile windows: sparse top ranks widen in rating points by themselves", () => {
    const { mm, policy } = engine({ unit: "percentile", initial: 0.1, growthPerSecond: 0 });
    // A dense middle and two far-apart players at the top.
    for (let i = 0; i < 18; i++) mm.enqueue(solo(`m${i}`, 1000 + i, { side: "A" }), 0); // side A: they cannot play each other
    mm.enqueue(solo("top1", 2500), 0);
    mm.enqueue(solo("top2", 2900), 0);
    const matches = mm.tick(0);
    // 400 rating points, but adjacent in the distribution (5% apart): they accept each other.
    expect(matches.map(ticketsOf)).toEqual([["top1", "top2"]]);
    expect(policy.accepts(solo("x", 1000), solo("y", 1001), 0)).toBe(true);
    expect(policy.accepts(solo("x", 1000), solo("y", 2500), 0)).toBe(false);
  });

  it("tells a waiting ticket its acceptance window in ratings (the status message's window), in every unit", () => {
    const rating = engine({ initial: 100, growthPerSecond: 10 });
    rating.mm.enqueue(solo("a", 1500), 0);
    expect(rating.policy.acceptanceWindow("a", 5 * S)).toEqual({ min: 1350, max: 1650 });
    expect(rating.policy.acceptanceWindow("nobody", 5 * S)).toBeUndefined();

    const relative = engine({ unit: "relative", initial: 0.05, growthPerSecond: 0 });
    relative.mm.enqueue(solo("a", 2000), 0);
    expect(relative.policy.acceptanceWindow("a", 0)).toEqual({ min: 1900, max: 2100 });

    // Percentiles: 20 ratings 1000..1019 plus the ticket; ±10% of 21 is about two ranks either way.
    const pct = engine({ unit: "percentile", initial: 0.1, growthPerSecond: 0 });
    for (let i = 0; i < 20; i++) pct.mm.enqueue(solo(`m${i}`, 1000 + i, { side: "A" }), 0);
    pct.mm.enqueue(solo("b", 1010, { side: "A" }), 0);
    const window = pct.policy.acceptanceWindow("b", 0)!;
    expect(window.min).toBeGreaterThanOrEqual(1007);
    expect(window.min).toBeLessThan(1010);
    expect(window.max).toBeGreaterThan(1010);
    expect(window.max).toBeLessThanOrEqual(1013);
    // Every rating inside the reported window is one the ticket accepts, and one step outside is not.
    expect(pct.policy.accepts(solo("b", 1010), solo("in", window.max), 0)).toBe(true);
    expect(pct.policy.accepts(solo("b", 1010), solo("out", window.max + 5), 0)).toBe(false);
  });

  it("teams: 2v2 with a party, every pair of tickets accepting each other", () => {
    const { mm, policy } = engine({ initial: 100, growthPerSecond: 0 }, 2);
    mm.enqueue(party("duo", [1000, 1040]), 0); // mean 1020
    mm.enqueue(solo("s1", 1000), 0);
    mm.enqueue(solo("s2", 1110), 0); // 110 from s1: not acceptable with s1
    expect(mm.tick(0)).toEqual([]);
    mm.enqueue(solo("s3", 1050), 0);
    const [m] = mm.tick(0);
    expectValidMatch(m, 2);
    expect(ticketsOf(m)).toEqual(["duo", "s1", "s3"]);
    for (const a of m.tickets) for (const b of m.tickets) expect(policy.accepts(a, b, 0)).toBe(true);
  });

  it("a leave makes the tickets that counted on it look again", () => {
    const { mm } = engine({ initial: 100, growthPerSecond: 0 });
    mm.enqueue(solo("a", 1000, { side: "A" }), 0);
    mm.enqueue(solo("b", 1050, { side: "A" }), 0);
    expect(mm.tick(0)).toEqual([]);
    mm.enqueue(solo("c", 1020, { side: "B" }), 0);
    mm.cancel("c");
    mm.enqueue(solo("d", 1090, { side: "B" }), 0);
    const [m] = mm.tick(0);
    expect(ticketsOf(m)).toEqual(["b", "d"]);
  });

  it("refuses bad parameters naming the field", () => {
    expect(() => engine({ unit: "percent" })).toThrow(/unit: must be "rating", "relative" or "percentile"/);
    expect(() => engine({ initial: -1 })).toThrow(/initial: must not be negative/);
    expect(() => engine({ initial: 200, max: 100 })).toThrow(/max: must be at least initial/);
    expect(() => engine({ width: 3 })).toThrow(/width: unknown field/);
    expect(() => engine({ growthPerSecond: "fast" })).toThrow(MatchmakerError);
  });
});

describe("WindowRule", () => {
  it("linear and stepped widths, the clamp, and the wait to reach a distance agree", () => {
    const linear = new WindowRule({ unit: "rating", initial: 10, growthPerSecond: 2, stepMs: 0, max: 50 });
    expect(linear.width(5 * S)).toBe(20);
    expect(linear.width(100 * S)).toBe(50);
    expect(linear.waitToReach(21)).toBe(5500);
    expect(linear.waitToReach(51)).toBe(Infinity);
    const stepped = new WindowRule({ unit: "rating", initial: 10, growthPerSecond: 2, stepMs: 10_000, max: Infinity });
    expect(stepped.width(9999)).toBe(10);
    expect(stepped.width(10 * S)).toBe(30);
    expect(stepped.waitToReach(11)).toBe(10 * S);
    expect(stepped.waitToReach(31)).toBe(20 * S);
    for (const d of [0, 3, 10, 10.5, 29.999, 30, 77.7]) {
      const w = stepped.waitToReach(d);
      expect(stepped.width(w)).toBeGreaterThanOrEqual(d);
      if (w > 0) expect(stepped.width(w - 1)).toBeLessThan(d);
    }
  });
});
