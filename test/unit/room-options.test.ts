import { describe, expect, it } from "vitest";
import { joinOptionsSchema, parseJoinOptions } from "../../src/colyseus/join-options.js";
import { parseRoomOptions } from "../../src/options/index.js";

describe("join options", () => {
  const validator = joinOptionsSchema({ min: 0, max: 10_000 });
  const parse = (input: unknown) => parseJoinOptions(validator, input);

  it("accepts QueueRoom's rank as an alias of rating", () => {
    expect(parse({ rank: 1500 })).toEqual({ ok: true, value: { rating: 1500 } });
    expect(parse({ rating: 1500, rank: 1500, side: "A" })).toEqual({ ok: true, value: { rating: 1500, side: "A" } });
  });

  it("refuses a rank and a rating that disagree, a missing rating, and a bad rank, naming the field", () => {
    expect(parse({ rating: 1500, rank: 1600 })).toEqual({
      ok: false,
      message: expect.stringMatching(/^rank: is an alias of rating/),
    });
    expect(parse({})).toEqual({ ok: false, message: "rating: is required (or its alias rank)" });
    expect(parse({ rank: "high" })).toEqual({ ok: false, message: "rank: must be a number" });
    // NaN and Infinity arrive as null: the refusal says why the number is missing.
    expect(parse({ rating: JSON.parse(JSON.stringify({ r: Number.NaN })).r })).toEqual({
      ok: false,
      message: "rating: must be a finite number (got null: NaN and Infinity are sent as null)",
    });
    expect(parse({ rank: 20_000 })).toEqual({ ok: false, message: "rank: must be at most 10000" });
    expect(parse({ rank: 10, teamId: "x" })).toEqual({ ok: false, message: "teamId: unknown field" });
  });
});

describe("queue options", () => {
  it("names every bad field", () => {
    expect(() => parseRoomOptions({})).toThrow(
      "MatchmakerRoom options: gameRoom: is required; teamSize: is required (or give maxPlayers alone for a free-for-all)",
    );
    expect(() => parseRoomOptions({ teamSize: 2, gameRoom: "g", tickMs: 5, foo: 1 })).toThrow(
      "MatchmakerRoom options: tickMs: must be at least 10; foo: unknown field",
    );
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", rating: { min: 5, max: 1 } })).toThrow(
      "MatchmakerRoom options: rating: min must be below max",
    );
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", fillWithBots: true })).toThrow(
      "fillWithBots: needs maxWaitMs",
    );
  });

  it("fills the defaults", () => {
    expect(parseRoomOptions({ teamSize: 2, gameRoom: "g" })).toMatchObject({
      policy: "greedy",
      tickMs: 1000,
      rating: { min: 0, max: 10_000 },
    });
  });
});
