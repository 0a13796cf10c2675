import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import type { Match } from "../../src/core/types.js";
import { MemoryRatingStore } from "../../src/ratings/memory-store.js";
import { ranksOf } from "../../src/ratings/result.js";
import { openskillSystem, rateGame } from "../../src/ratings/rating-system.js";
import { Ratings } from "../../src/ratings/ratings.js";

/** A two-team match of the given accounts, as the engine makes it. */
function match(id: string, teams: string[][], windows: Record<string, { initial: number; width: number }> = {}): Match {
  return {
    id,
    createdAt: 0,
    teamSize: teams[0]!.length,
    shape: { kind: "teams", teams: teams.length, teamSize: teams[0]!.length, minTeamSize: teams[0]!.length },
    teams: teams.map((ids) => ({
      players: ids.map((playerId) => ({
        sessionId: `s-${playerId}`,
        playerId,
        rating: 1500,
        ticketId: `t-${playerId}`,
        waitMs: 0,
        ...(windows[playerId] ? { window: { unit: "rating" as const, ...windows[playerId] } } : {}),
      })),
    })),
    tickets: [],
    bots: 0,
    quality: { spread: 0, imbalance: 0 },
  } as unknown as Match;
}

describe("ranksOf: a game's result in its own words", () => {
  it("reads a winner, a draw, places and scores", () => {
    expect(ranksOf({ winner: 1 }, 3)).toEqual([1, 0, 1]);
    expect(ranksOf({ draw: true }, 2)).toEqual([0, 0]);
    expect(ranksOf({ ranks: [2, 0, 2, 5] }, 4)).toEqual([1, 0, 1, 2]);
    expect(ranksOf({ scores: [10, 30, 10] }, 3)).toEqual([1, 0, 1]);
  });

  it.each([
    [null, "result: must be an object"],
    [{ winner: 2 }, "result.winner: must be a team index, 0 to 1"],
    [{ winner: 0, draw: true }, "exactly one"],
    [{ draw: false }, "result.draw: must be true"],
    [{ ranks: [0] }, "result.ranks: must list one number per team (2)"],
    [{ scores: [1, Number.NaN] }, "result.scores: must be finite numbers"],
    [{ ranks: [0, 0.5] }, "result.ranks: must be places"],
    [{ winner: 0, extra: 1 }, "result.extra: unknown field extra"],
  ])("refuses %j", (result, message) => {
    expect(() => ranksOf(result, 2)).toThrow(MatchmakerError);
    expect(() => ranksOf(result, 2)).toThrow(message);
  });
});

describe("rateGame", () => {
  const system = openskillSystem();

  it("moves the winner up and the loser down by the same amount between equal newcomers", () => {
    const [[a], [b]] = rateGame(system, [[{ rating: system.newcomer }], [{ rating: system.newcomer }]], [0, 1]);
    expect(a!.mu).toBeGreaterThan(1500);
    expect(a!.mu - 1500).toBeCloseTo(1500 - b!.mu, 9);
    expect(a!.sigma).toBeLessThan(350);
  });

  it("the forum's adjustment: after a grown window, an upset moves ratings only as far as an even game would", () => {
    const strong = { rating: { mu: 2655, sigma: 100 }, window: { initial: 100, width: 700 } };
    const weak = { rating: { mu: 2044, sigma: 100 } };
    const even = rateGame(
      system,
      [[{ rating: { mu: 2349.5, sigma: 100 } }], [{ rating: { mu: 2349.5, sigma: 100 } }]],
      [1, 0],
    );
    const evenLoss = 2349.5 - even[0]![0]!.mu;
    const plain = rateGame(system, [[strong], [weak]], [1, 0]);
    const adjusted = rateGame(system, [[strong], [weak]], [1, 0], true);
    expect(2655 - plain[0]![0]!.mu).toBeGreaterThan(evenLoss * 1.5);
    expect(2655 - adjusted[0]![0]!.mu).toBeCloseTo(evenLoss, 9);
    expect(adjusted[1]![0]!.mu - 2044).toBeCloseTo(evenLoss, 9);
    // The expected result (the favourite wins) keeps its small change.
    const expected = rateGame(system, [[strong], [weak]], [0, 1], true);
    const expectedPlain = rateGame(system, [[strong], [weak]], [0, 1]);
    expect(expected[0]![0]!.mu).toBeCloseTo(expectedPlain[0]![0]!.mu, 9);
    expect(expected[0]![0]!.mu - 2655).toBeLessThan(evenLoss / 2);
  });
});

describe("Ratings with a memory store", () => {
  it("a result counts once, only for a match the queue opened", async () => {
    const ratings = new Ratings({ store: new MemoryRatingStore() });
    expect(await ratings.reportResult({ id: "never-made" }, { winner: 0 })).toEqual({ status: "unknown" });
    await ratings.openMatch(
      match("m1", [
        ["ann", "bob"],
        ["cy", "dee"],
      ]),
      "ranked",
    );
    const first = await ratings.reportResult({ id: "m1" }, { winner: 0 });
    expect(first.status).toBe("applied");
    const again = await ratings.reportResult("m1", { winner: 1 });
    expect(again).toEqual({ status: "already", changes: first.status === "applied" ? first.changes : [] });
    const ann = await ratings.rating("ann");
    expect(ann.games).toBe(1);
    expect(ann.rating).toBeGreaterThan(1500);
    expect((await ratings.rating("cy")).rating).toBeLessThan(1500);
    expect((await ratings.history("ann")).map((m) => m.matchId)).toEqual(["m1"]);
  });

  it("a bad result changes nothing and leaves the match open", async () => {
    const ratings = new Ratings({ store: new MemoryRatingStore() });
    await ratings.openMatch(match("m2", [["ann"], ["bob"]]), "duel");
    await expect(ratings.reportResult({ id: "m2" }, { winner: 5 })).rejects.toThrow("result.winner");
    expect((await ratings.rating("ann")).games).toBe(0);
    expect((await ratings.reportResult({ id: "m2" }, { draw: true })).status).toBe("applied");
  });

  it("a result after the time to report counts nothing", async () => {
    let now = 1_000;
    const ratings = new Ratings({ store: new MemoryRatingStore(() => now), reportWithinMs: 60_000 }, () => now);
    await ratings.openMatch(match("m3", [["ann"], ["bob"]]), "duel");
    now += 60_000;
    expect(await ratings.reportResult({ id: "m3" }, { winner: 0 })).toEqual({ status: "unknown" });
  });

  it("a new season starts everyone again; the last season stays readable", async () => {
    const ratings = new Ratings({ store: new MemoryRatingStore() });
    await ratings.openMatch(match("m4", [["ann"], ["bob"]]), "duel");
    await ratings.reportResult("m4", { winner: 0 });
    await ratings.startSeason("2027");
    expect(await ratings.rating("ann")).toEqual({ rating: 1500, uncertainty: 350, games: 0 });
    expect((await ratings.rating("ann", "1")).games).toBe(1);
    expect(await ratings.distribution({ season: "1", width: 100 })).toEqual([
      { from: 1300, count: 1 },
      { from: 1600, count: 1 },
    ]);
  });
});
