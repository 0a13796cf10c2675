/**
 * A ranked queue (option `ratings`) without sockets: the rules between `ratings` and `players`, the
 * join path (the resolver gives the account, the ratings give the rating, clamped into the queue's
 * range; a resolver that answers a rating is refused; a store that fails or hangs refuses the join
 * with a reason and throws nothing else), and opening a match (a store failure is the caller's to
 * re-queue).
 */
import { describe, expect, it } from "vitest";
import { refusal } from "../helpers/thrown.js";
import type { Match } from "../../src/core/types.js";
import { RankedRatings } from "../../src/colyseus/ranked.js";
import { PlayerResolver, type ResolvedPlayersOption } from "../../src/colyseus/trusted-players.js";
import { DEFAULTS } from "../../src/options/fields.js";
import { parseRoomOptions } from "../../src/options/index.js";
import type { PlayersOption } from "../../src/options/player-options.js";
import { MemoryRatingStore } from "../../src/ratings/memory-store.js";
import { Ratings } from "../../src/ratings/ratings.js";
import type { RatingStore } from "../../src/ratings/store.js";

const range = { min: 1000, max: 2000 };
const request = { token: "t", auth: undefined, queue: "ranked", sessionId: "s1", address: "203.0.113.7" };

/** A resolver of a ranked queue on `ratings`, and the lines it logged. */
function rankedResolver(resolve: PlayersOption["resolve"], ratings: Ratings, timeoutMs = 50) {
  const log: string[] = [];
  const option: ResolvedPlayersOption = { resolve, clientOptions: [...DEFAULTS.players.clientOptions], timeoutMs };
  const ranked = new RankedRatings(ratings, "ranked", range, (m) => log.push(m));
  return { r: new PlayerResolver(option, { rating: range, ranked }, (m) => log.push(m)), log };
}

/** A 1v1 match of accounts a and b. */
function duel(id: string): Match {
  const player = (playerId: string) => ({
    sessionId: `s-${playerId}`,
    playerId,
    rating: 1500,
    ticketId: playerId,
    waitMs: 0,
  });
  return {
    id,
    createdAt: 0,
    teamSize: 1,
    shape: { kind: "teams", teams: 2, teamSize: 1, minTeamSize: 1 },
    teams: [{ players: [player("a")] }, { players: [player("b")] }],
    tickets: [],
    bots: 0,
    quality: { spread: 0, imbalance: 0 },
  } as unknown as Match;
}

/** A store whose reads and opens fail (or never answer), as a database that went away. */
function brokenStore(how: "fails" | "hangs"): RatingStore {
  const memory = new MemoryRatingStore();
  const broken = () =>
    how === "fails" ? Promise.reject(new Error("connection refused")) : new Promise<never>(() => {});
  return Object.assign(Object.create(memory) as RatingStore, { ratings: broken, openMatch: broken });
}

const account = () => ({ playerId: "a" });

describe("the ratings option's rules", () => {
  const base = { teamSize: 1, gameRoom: "game" };
  const ratings = new Ratings();

  it("needs players, and players.clientOptions naming neither rating nor uncertainty", () => {
    expect(() => parseRoomOptions({ ...base, ratings })).toThrow(
      "MatchmakerRoom options: ratings: needs players: ratings are kept by account",
    );
    for (const name of ["rating", "uncertainty"])
      expect(() =>
        parseRoomOptions({ ...base, ratings, players: { resolve: account, clientOptions: ["side", name] } }),
      ).toThrow(`players.clientOptions: must not name ${name} in a queue with ratings`);
    expect(parseRoomOptions({ ...base, ratings, players: { resolve: account } }).ratings).toBe(ratings);
  });

  it("must be a Ratings", () => {
    expect(() => parseRoomOptions({ ...base, ratings: {}, players: { resolve: account } })).toThrow(
      "ratings: must be a Ratings (new Ratings({ store }))",
    );
  });
});

describe("a ranked queue's join", () => {
  it("takes the account from the resolver and the rating and uncertainty from the ratings", async () => {
    const ratings = new Ratings();
    const { r } = rankedResolver(account, ratings);
    expect(await r.resolve({ side: "A" }, request)).toEqual({
      side: "A",
      playerId: "a",
      rating: 1500,
      uncertainty: 500,
    });
    // After a loss to b, a's next join reads its lower rating.
    await ratings.openMatch(duel("m1"), "ranked");
    await ratings.reportResult("m1", { winner: 1 });
    const after = await r.resolve({}, request);
    expect(after.rating).toBeLessThan(1500);
    expect(after.rating).toBe((await ratings.rating("a")).rating);
    expect(after.uncertainty).toBeLessThan(500);
  });

  it("clamps a stored rating into the queue's range", async () => {
    const ratings = new Ratings({ scale: { start: 2600, uncertainty: 100 } });
    const { r } = rankedResolver(account, ratings);
    expect((await r.resolve({}, request)).rating).toBe(range.max);
  });

  it.each([
    [{ playerId: "a", rating: 1500 }, "rating"],
    [{ playerId: "a", uncertainty: 50 }, "uncertainty"],
  ])("refuses a resolver that answers %j, saying why", async (answer, name) => {
    const { r, log } = rankedResolver(() => answer, new Ratings());
    expect(await refusal(() => r.resolve({}, request))).toBe(
      `player_refused: the server's data for this player is invalid (${name}: comes from the queue's ratings in a ranked queue (option ratings): players.resolve must not answer ${name})`,
    );
    expect(log).toHaveLength(1);
  });

  it("refuses the join with a reason when the store fails, and logs why", async () => {
    const { r, log } = rankedResolver(account, new Ratings({ store: brokenStore("fails") }));
    expect(await refusal(() => r.resolve({}, request))).toBe(
      "player_refused: the server could not read this player's rating; try again",
    );
    expect(log).toEqual(["[ranked] ratings could not be read (connection refused): join refused"]);
  });

  it("refuses the join when the store does not answer within players.timeoutMs", async () => {
    const { r, log } = rankedResolver(account, new Ratings({ store: brokenStore("hangs") }), 20);
    expect(await refusal(() => r.resolve({}, request))).toBe(
      "player_refused: identifying this player took too long (over 20 ms); try again",
    );
    expect(log).toEqual(["[ranked] ratings gave no rating within 20 ms: join refused"]);
  });
});

describe("opening a ranked match", () => {
  it("opens it in the ratings with a key: only a report that carries the key counts", async () => {
    const ratings = new Ratings();
    const ratingKey = await new RankedRatings(ratings, "ranked", range, () => {}).open(duel("m2"));
    // The match's id alone (what a player's seat says), or with another key: nothing changes.
    expect(await ratings.reportResult("m2", { winner: 0 })).toEqual({ status: "unknown" });
    expect(await ratings.reportResult({ id: "m2", ratingKey: "guessed" }, { winner: 0 })).toEqual({
      status: "unknown",
    });
    expect((await ratings.rating("a")).games).toBe(0);
    // The game room's MatchInfo carries it.
    expect((await ratings.reportResult({ id: "m2", ratingKey }, { draw: true })).status).toBe("applied");
    expect((await ratings.reportResult({ id: "m2", ratingKey }, { draw: true })).status).toBe("already");
  });

  it("fails with the store's reason when the store fails (the queue re-queues as for a failed spawn)", async () => {
    const ranked = new RankedRatings(new Ratings({ store: brokenStore("fails") }), "ranked", range, () => {});
    await expect(ranked.open(duel("m3"))).rejects.toThrow("ratings could not open match m3: connection refused");
  });
});
