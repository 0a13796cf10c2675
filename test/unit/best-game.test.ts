/**
 * `best-game` (Alman–McKay): hand cases for the order in which games form, the exact split,
 * parties and sides, lazy invalidation, threshold and growth, the time-sensitive priority,
 * windows and parameter errors.
 */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import {
  almanMcKay,
  highLowDifference,
  ratingSumDifference,
  resolveImbalance,
  type ImbalanceSpec,
} from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { PolicyContext, PolicyParams } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import { BestGamePolicy, defaultWindow, lemma2Window } from "../../src/policies/best-game.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { simulate } from "../../src/sim/simulator.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { idSet, party, solo } from "../helpers/tickets.js";
import { twoTeamFields } from "../../src/core/policy.js";

function context(teamSize: number, spec: ImbalanceSpec = { kind: "rating-sum" }): PolicyContext {
  const imbalanceSpec = resolveImbalance(spec);
  const imbalance =
    imbalanceSpec.kind === "alman-mckay"
      ? almanMcKay(imbalanceSpec)
      : imbalanceSpec.kind === "high-low"
        ? highLowDifference(imbalanceSpec.threshold)
        : ratingSumDifference;
  return { ...twoTeamFields(teamSize), imbalance, imbalanceSpec };
}

function policy(teamSize: number, params: PolicyParams = {}, spec?: ImbalanceSpec): BestGamePolicy {
  return defaultPolicies.create("best-game", context(teamSize, spec), params) as BestGamePolicy;
}

function addAll(p: BestGamePolicy, tickets: readonly Ticket[], now = 0): void {
  for (const t of tickets) p.add(t, now);
}

function expectConfigError(fn: () => unknown, field: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MatchmakerError);
    expect((error as MatchmakerError).code).toBe("invalid_config");
    expect((error as MatchmakerError).message).toContain(field);
    return;
  }
  throw new Error(`expected invalid_config naming ${field}`);
}

describe("best-game: the most balanced game forms first", () => {
  it("is registered by name and runs in the engine", () => {
    expect(defaultPolicies.names()).toContain("best-game");
    const mm = new Matchmaker({ teamSize: 1, policy: "best-game" });
    for (const [i, r] of [1000, 1500, 1520, 2000].entries()) mm.enqueue(solo(`s${r}`, r, { at: i }), i);
    const matches = mm.tick(10);
    expect(matches.map((m) => idSet(m.tickets))).toEqual([
      ["s1500", "s1520"],
      ["s1000", "s2000"],
    ]);
    for (const m of matches) expectValidMatch(m, 1);
    expect(matches[0].quality.imbalance).toBe(20);
  });

  it("1v1: the closest pair forms first, wherever it is in arrival order", () => {
    const p = policy(1);
    addAll(p, [solo("a", 1000), solo("b", 1300), solo("c", 2000), solo("d", 2004), solo("e", 1290)]);
    expect(idSet(p.peek()!.tickets)).toEqual(["c", "d"]);
    const games = p.poll(0);
    expect(games.map((g) => idSet(g))).toEqual([
      ["c", "d"],
      ["b", "e"],
    ]);
    expect(p.size).toBe(1);
    expect(p.poll(0)).toEqual([]);
  });

  it("2v2: chooses the set and the split with the least imbalance", () => {
    const mm = new Matchmaker({ teamSize: 2, policy: "best-game" });
    // 1000+1300 = 1100+1200: a perfect game; 1500 stays out.
    for (const [i, r] of [1500, 1000, 1100, 1200, 1300].entries()) mm.enqueue(solo(`s${r}`, r, { at: i }), i);
    const [match, ...rest] = mm.tick(10);
    expect(rest).toEqual([]);
    expectValidMatch(match, 2);
    expect(match.quality.imbalance).toBe(0);
    const teams = match.teams.map((t) => [...t.ticketIds].sort());
    expect(teams.sort()).toEqual([
      ["s1000", "s1300"],
      ["s1100", "s1200"],
    ]);
    expect([...mm.waiting()].map((t) => t.id)).toEqual(["s1500"]);
  });

  it("2v2: a party stays together and the solos beside it balance it", () => {
    const mm = new Matchmaker({ teamSize: 2, policy: "best-game" });
    mm.enqueue(party("duo", [1000, 1400]), 0);
    mm.enqueue(solo("x", 1150), 0);
    mm.enqueue(solo("y", 1250), 0);
    mm.enqueue(solo("z", 1900), 0);
    const [match] = mm.tick(0);
    expectValidMatch(match, 2);
    const duoTeam = match.teams.find((t) => t.ticketIds.includes("duo"))!;
    expect(duoTeam.ticketIds).toEqual(["duo"]);
    expect(idSet(match.tickets)).toEqual(["duo", "x", "y"]);
    expect(match.quality.imbalance).toBe(0);
  });

  it("sides are honoured: two side-A tickets never meet, however close", () => {
    const p = policy(1);
    addAll(p, [
      solo("a1", 1000, { side: "A" }),
      solo("a2", 1001, { side: "A" }),
      solo("b", 1500, { side: "B" }),
      solo("free", 2500),
    ]);
    // a1/a2 cannot play each other; the best game is a2 against b (499).
    expect(idSet(p.peek()!.tickets)).toEqual(["a2", "b"]);
    expect(p.peek()!.imbalance).toBe(499);
    const mm = new Matchmaker({ teamSize: 1, policy: "best-game" });
    mm.enqueue(solo("a1", 1000, { side: "A" }), 0);
    mm.enqueue(solo("a2", 1001, { side: "A" }), 0);
    expect(mm.tick(0)).toEqual([]);
    mm.enqueue(solo("b", 1002, { side: "B" }), 0);
    const [match] = mm.tick(0);
    expectValidMatch(match, 1);
    expect(match.teams[0].ticketIds).toEqual(["a2"]);
    expect(match.teams[1].ticketIds).toEqual(["b"]);
  });

  it("3v3 with parties of every size: whole parties, full teams, least imbalance", () => {
    const p = policy(3, { budget: Infinity });
    addAll(p, [
      party("trio", [1500, 1500, 1500]),
      party("duo", [1400, 1600]),
      solo("s1", 1500),
      solo("s2", 1490),
      solo("far", 2500),
    ]);
    const best = p.peek()!;
    expect(idSet(best.tickets)).toEqual(["duo", "s1", "trio"]);
    expect(best.imbalance).toBe(0);
  });
});

describe("best-game: lazy invalidation", () => {
  it("removing a member drops its candidates; the next best game is found", () => {
    const p = policy(1);
    addAll(p, [solo("a", 1000), solo("b", 1001), solo("c", 2000), solo("d", 2003), solo("e", 2500)]);
    expect(idSet(p.peek()!.tickets)).toEqual(["a", "b"]);
    p.remove("b");
    expect(idSet(p.peek()!.tickets)).toEqual(["c", "d"]);
    p.remove("c");
    // a's window now holds d (1003 away) and e; d–e (497) is the best.
    expect(idSet(p.peek()!.tickets)).toEqual(["d", "e"]);
    p.remove("nobody");
    expect(p.size).toBe(3);
  });

  it("re-adding a ticket (same id) replaces it and its candidates", () => {
    const p = policy(1);
    addAll(p, [solo("a", 1000), solo("b", 1010), solo("c", 1500)]);
    expect(idSet(p.peek()!.tickets)).toEqual(["a", "b"]);
    p.add(solo("c", 1011), 0);
    expect(p.size).toBe(3);
    expect(idSet(p.peek()!.tickets)).toEqual(["b", "c"]);
  });

  it("tickets re-added over and over leave one candidate per anchor at most", () => {
    const p = policy(1);
    addAll(
      p,
      Array.from({ length: 200 }, (_, i) => solo(`s${i}`, 1000 + i * 7)),
    );
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 200; i += 2) {
        p.remove(`s${i}`);
        p.add(solo(`s${i}`, 1000 + i * 7 + (round % 3)), 0);
      }
    }
    expect(p.size).toBe(200);
    expect(p.candidates).toBeLessThanOrEqual(200);
    // Last round: the even tickets moved up by 1, so neighbours are 6 or 8 apart.
    expect(p.peek()!.imbalance).toBe(6);
  });

  it("poll removes every ticket of a formed game and recomputes the anchors around it", () => {
    const p = policy(2);
    addAll(
      p,
      [1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070].map((r) => solo(`s${r}`, r)),
    );
    const games = p.poll(0);
    expect(games).toHaveLength(2);
    const seen = new Set<string>();
    for (const g of games)
      for (const t of g) {
        expect(seen.has(t.id)).toBe(false);
        seen.add(t.id);
      }
    expect(seen.size).toBe(8);
    expect(p.size).toBe(0);
    expect(p.peek()).toBeUndefined();
  });
});

describe("best-game: threshold and growth", () => {
  it("at the default threshold it forms greedy's games as solos arrive; a threshold with growth lets fairer games gather", () => {
    // The comparison docs/policies.md gives (2v2, one solo a second, uniform ratings), shorter.
    const run = (policy: string, params: PolicyParams = {}) =>
      simulate({
        policy,
        params,
        teamSize: 2,
        traffic: {
          arrivals: "poisson",
          rate: 1,
          parties: [{ value: 1, weight: 1 }],
          skill: { kind: "uniform" },
          sides: [{ value: undefined, weight: 1 }],
        },
        tickets: 2000,
        seed: 3,
      }).matches;
    const games = (matches: ReturnType<typeof run>) => matches.map((m) => [m.createdAt, ...idSet(m.tickets)]);
    const meanImbalance = (matches: ReturnType<typeof run>) =>
      matches.reduce((sum, m) => sum + m.quality.imbalance!, 0) / matches.length;
    const greedy = run("greedy");
    expect(games(run("best-game"))).toEqual(games(greedy));
    const gathered = run("best-game", { threshold: 0.05, thresholdGrowthPerSecond: 0.02 });
    expect(meanImbalance(gathered)).toBeLessThan(meanImbalance(greedy) / 2);
  });

  it("with a threshold, a game above it waits; no wake-up without growth", () => {
    const p = policy(1, { threshold: 5 });
    addAll(p, [solo("a", 1000, { at: 0 }), solo("b", 1010, { at: 0 })]);
    expect(p.poll(100_000)).toEqual([]);
    expect(p.nextWakeup(100_000)).toBeUndefined();
    p.add(solo("c", 1013, { at: 50 }), 50);
    expect(p.poll(100_000).map(idSet)).toEqual([["b", "c"]]);
  });

  it("the threshold grows with the game's longest wait, and nextWakeup says when it qualifies", () => {
    // f = 10 ≤ 5 + 1·wait(s) once the oldest ticket (t = 0) has waited 5 s.
    const p = policy(1, { threshold: 5, thresholdGrowthPerSecond: 1 });
    addAll(p, [solo("a", 1000, { at: 0 }), solo("b", 1010, { at: 2000 })]);
    expect(p.poll(2000)).toEqual([]);
    expect(p.nextWakeup(2000)).toBe(5000);
    expect(p.poll(4999)).toEqual([]);
    expect(p.poll(5000).map(idSet)).toEqual([["a", "b"]]);
    expect(p.nextWakeup(5000)).toBeUndefined();
  });

  it("in the engine, ticking at the announced wake-up forms the game", () => {
    const mm = new Matchmaker({
      teamSize: 2,
      policy: "best-game",
      params: { threshold: 0, thresholdGrowthPerSecond: 10 },
    });
    for (const [i, r] of [1000, 1100, 1200, 1350].entries()) mm.enqueue(solo(`s${i}`, r, { at: 1000 * i }), 1000 * i);
    expect(mm.tick(3000)).toEqual([]);
    const wake = mm.nextWakeup(3000)!;
    // f = |1000+1350 − 1100−1200| = 50 → 5 s after the oldest (t = 0).
    expect(wake).toBe(5000);
    expect(mm.tick(wake - 1)).toEqual([]);
    const [match] = mm.tick(wake);
    expectValidMatch(match, 2);
    expect(match.quality.imbalance).toBe(50);
  });

  it("threshold 'inf' and budget 'inf' are accepted in JSON-friendly form", () => {
    const p = policy(1, { threshold: "inf", budget: "inf" });
    expect(p.threshold).toBe(Infinity);
    expect(p.budget).toBe(Infinity);
  });
});

describe("best-game: time-sensitive priority (beta)", () => {
  const pairs = (): Ticket[] => [
    // An old, looser pair (f = 10, waiting since 0) and a fresh, tight one (f = 1).
    solo("old1", 1000, { at: 0 }),
    solo("old2", 1010, { at: 0 }),
    solo("new1", 2000, { at: 60_000 }),
    solo("new2", 2001, { at: 60_000 }),
  ];

  it("without beta the tighter game forms first", () => {
    const p = policy(1, { threshold: 0 });
    addAll(p, pairs());
    expect(idSet(p.peek()!.tickets)).toEqual(["new1", "new2"]);
  });

  it("with beta the long-waiting game goes first, and the order does not change as time passes", () => {
    // g = f − beta·wait: at t = 60 s, old: 10 − 60 = −50, new: 1 − 0 = 1.
    const p = policy(1, { beta: 1, threshold: 0 });
    addAll(p, pairs());
    expect(idSet(p.peek()!.tickets)).toEqual(["old1", "old2"]);
    expect(p.poll(60_000)).toEqual([]); // threshold 0: nothing qualifies, the order is what matters here
    const q = policy(1, { beta: 1 });
    addAll(q, pairs());
    expect(q.poll(60_000).map(idSet)).toEqual([
      ["old1", "old2"],
      ["new1", "new2"],
    ]);
  });

  it("beta trades imbalance against waiting at its rate: a 5 s older game wins only if at most 5·beta worse", () => {
    const p = policy(1, { beta: 2 });
    addAll(p, [
      solo("a", 1000, { at: 0 }),
      solo("b", 1009, { at: 0 }),
      solo("c", 3000, { at: 5000 }),
      solo("d", 3000, { at: 5000 }),
    ]);
    // keys: 9 + 2·0 = 9 versus 0 + 2·5 = 10: the older pair wins.
    expect(idSet(p.peek()!.tickets)).toEqual(["a", "b"]);
    const q = policy(1, { beta: 2 });
    addAll(q, [
      solo("a", 1000, { at: 0 }),
      solo("b", 1011, { at: 0 }),
      solo("c", 3000, { at: 5000 }),
      solo("d", 3000, { at: 5000 }),
    ]);
    expect(idSet(q.peek()!.tickets)).toEqual(["c", "d"]);
  });
});

describe("best-game: windows", () => {
  it("default window: Lemma 2's bound for Alman–McKay, 4k otherwise", () => {
    expect(lemma2Window(1, 1, 1)).toBe(8);
    expect(lemma2Window(5, 1, 1)).toBe(200);
    expect(lemma2Window(5, 1, Infinity)).toBe(40);
    expect(lemma2Window(2, 0.5, 2)).toBe(Math.ceil(4 * 1.5 * 2 ** 1.5));
    expect(policy(5, {}, { kind: "alman-mckay", alpha: 1, q: "inf" }).window).toBe(40);
    expect(policy(3, {}, { kind: "alman-mckay", alpha: 0, q: 1 }).window).toBe(36);
    expect(policy(5).window).toBe(20);
    expect(defaultWindow(2, undefined)).toBe(8);
    expect(policy(1, { window: 3 }).window).toBe(3);
  });

  it("a game whose tickets lie more than 52 positions apart is found and formed whole", () => {
    // With beta the oldest game wins although 60 side-A duos sit between its two tickets.
    const p = policy(2, { window: 100, beta: 1 });
    addAll(p, [party("anchor", [1000, 1000], { at: 0, side: "A" })]);
    for (let i = 0; i < 60; i++) p.add(party(`a${i}`, [1100 + i, 1100 + i], { at: 1_000_000, side: "A" }), 0);
    p.add(party("b", [2000, 2000], { at: 1_000_000, side: "B" }), 0);
    expect(idSet(p.peek()!.tickets)).toEqual(["anchor", "b"]);
    expect(p.peek()!.imbalance).toBe(2000);
    expect(p.poll(2_000_000).map(idSet)).toEqual([["anchor", "b"]]);
    expect(p.size).toBe(60);
  });

  it("a game spread wider than the window is not seen; a wider window finds it", () => {
    // 2v2 rating-sum: {0, 1000} vs {400, 600} is perfect but spans 7 positions; within 4
    // consecutive tickets the best is {0, 7} vs {1, 3}.
    const ratings = [0, 1, 3, 7, 400, 600, 1000];
    const narrow = policy(2, { window: 3, budget: Infinity });
    const wide = policy(2, { window: 6, budget: Infinity });
    for (const p of [narrow, wide])
      addAll(
        p,
        ratings.map((r) => solo(`s${r}`, r)),
      );
    expect(narrow.peek()!.imbalance).toBe(3);
    expect(idSet(narrow.peek()!.tickets)).toEqual(["s0", "s1", "s3", "s7"]);
    expect(wide.peek()!.imbalance).toBe(0);
    expect(idSet(wide.peek()!.tickets)).toEqual(["s0", "s1000", "s400", "s600"]);
  });

  it("Alman–McKay: the Lemma 6 bound stops the search early without changing the result", () => {
    const spec: ImbalanceSpec = { kind: "alman-mckay", alpha: 1, p: 2, q: 2 };
    const tickets = Array.from({ length: 40 }, (_, i) => solo(`s${i}`, (i * 389) % 1000, { at: i }));
    const exhaustive = policy(2, { budget: Infinity }, spec);
    addAll(exhaustive, tickets);
    const exact = almanMcKay({ alpha: 1, p: 2, q: 2, floor: 0 });
    // Reference: the best game by brute force over all 4-subsets and their splits.
    let best = Infinity;
    const n = tickets.length;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        for (let c = b + 1; c < n; c++)
          for (let d = c + 1; d < n; d++) {
            const [w, x, y, z] = [a, b, c, d].map((i) => tickets[i].players[0]);
            best = Math.min(best, exact([w, x], [y, z]), exact([w, y], [x, z]), exact([w, z], [x, y]));
          }
    expect(exhaustive.peek()!.imbalance).toBeCloseTo(best, 9);
  });
});

describe("best-game: parameters", () => {
  it.each([
    [{ nope: 1 }, "nope"],
    [{ window: 2.5 }, "window"],
    [{ window: 0 }, "window"],
    [{ window: 100_000 }, "window"],
    [{ budget: 0 }, "budget"],
    [{ budget: 1.5 }, "budget"],
    [{ threshold: -1 }, "threshold"],
    [{ threshold: "high" }, "threshold"],
    [{ thresholdGrowthPerSecond: -0.1 }, "thresholdGrowth"],
    [{ thresholdGrowthPerSecond: Infinity }, "thresholdGrowth"],
    [{ beta: -1 }, "beta"],
    [{ beta: Number.NaN }, "beta"],
  ])("refuses %j with invalid_config naming the field", (params, field) => {
    expectConfigError(() => policy(2, params as PolicyParams), field);
    expectConfigError(
      () => new Matchmaker({ teamSize: 2, policy: "best-game", params: params as PolicyParams }),
      field,
    );
  });

  it("refuses a window too small to hold a game of solos", () => {
    expectConfigError(() => policy(5, { window: 8 }), "window");
    expect(policy(5, { window: 9 }).window).toBe(9);
  });
});
