/** The demo game's winner of a rated game: a coin weighted by the ratings, seeded by the match id (example-server/demo-result.ts). */
import { describe, expect, it } from "vitest";
import { coinOf, drawWinner, ratingMessages } from "../../example-server/demo-result.js";
import type { MatchInfo } from "../../src/index.js";

describe("coinOf", () => {
  it("gives the same match the same coin, in [0, 1)", () => {
    expect(coinOf("m-1")).toBe(coinOf("m-1"));
    for (const id of ["", "a", "m-1", "m-2", "x".repeat(128)]) {
      expect(coinOf(id)).toBeGreaterThanOrEqual(0);
      expect(coinOf(id)).toBeLessThan(1);
    }
    expect(coinOf("m-1")).not.toBe(coinOf("m-2"));
  });

  it("is about uniform over many match ids (a fair coin between equals)", () => {
    const coins = Array.from({ length: 10_000 }, (_, i) => coinOf(`match-${i}`));
    const heads = coins.filter((c) => c < 0.5).length;
    // Binomial(10,000, 1/2): the standard deviation is 50; 4 of them either side.
    expect(heads).toBeGreaterThan(5000 - 200);
    expect(heads).toBeLessThan(5000 + 200);
    const low = coins.filter((c) => c < 0.1).length;
    expect(low).toBeGreaterThan(1000 - 120); // sd 30
    expect(low).toBeLessThan(1000 + 120);
  });
});

describe("drawWinner", () => {
  it("picks the team in whose share the coin falls", () => {
    expect(drawWinner([0.5, 0.5], 0)).toBe(0);
    expect(drawWinner([0.5, 0.5], 0.4999)).toBe(0);
    expect(drawWinner([0.5, 0.5], 0.5)).toBe(1);
    expect(drawWinner([0.2, 0.3, 0.5], 0.45)).toBe(1);
    expect(drawWinner([0.2, 0.3, 0.5], 0.9999)).toBe(2);
  });

  it("normalises the shares, and a team with no chance never wins", () => {
    expect(drawWinner([1, 3], 0.2)).toBe(0);
    expect(drawWinner([1, 3], 0.3)).toBe(1);
    expect(drawWinner([0, 1], 0)).toBe(1);
  });

  it("refuses chances that are no shares", () => {
    expect(() => drawWinner([], 0.5)).toThrow(RangeError);
    expect(() => drawWinner([0.5, Number.NaN], 0.5)).toThrow(RangeError);
    expect(() => drawWinner([-0.1, 1.1], 0.5)).toThrow(RangeError);
  });
});

describe("ratingMessages", () => {
  const seat = (sessionId: string, playerId: string) => ({ sessionId, playerId });
  const match = {
    teams: [{ players: [seat("s-a", "alice")] }, { players: [seat("s-b", "bob")] }],
  } as unknown as MatchInfo;
  const change = (playerId: string, team: number, before: number, after: number) => ({
    playerId,
    team,
    before: { mu: before, sigma: 500 },
    after: { mu: after, sigma: 430 },
  });

  it("tells each rated player, by its seat, whether it won and its rating before and after", () => {
    const messages = ratingMessages(match, [change("alice", 0, 1500, 1610), change("bob", 1, 1500, 1390)], 0);
    expect(Object.fromEntries(messages)).toEqual({
      "s-a": { outcome: "won", before: { rating: 1500, uncertainty: 500 }, after: { rating: 1610, uncertainty: 430 } },
      "s-b": { outcome: "lost", before: { rating: 1500, uncertainty: 500 }, after: { rating: 1390, uncertainty: 430 } },
    });
  });

  it("tells nobody the report does not place in the match", () => {
    const messages = ratingMessages(match, [change("mallory", 0, 1500, 1610), change("bob", 0, 1500, 1390)], 1);
    expect([...messages.keys()]).toEqual([]);
  });
});
