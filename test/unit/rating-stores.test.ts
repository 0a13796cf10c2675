/**
 * Every rating store keeps the one contract (src/ratings/store.ts): memory, SQLite in a temporary
 * directory, Redis under `test:rstore:`, and the PostgreSQL example of docs/rating-stores.md when
 * PostgreSQL answers. Two stores on one backing stand for two servers; a store opened after
 * another closed stands for a restart.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RatingStore } from "../../src/ratings/store.js";
import {
  memoryKind,
  openMatch,
  POSTGRES_URL,
  postgresAnswers,
  postgresKind,
  REDIS_URL,
  redisKind,
  sqliteKind,
  winnerGains,
  type Backing,
  type StoreKind,
} from "../helpers/rating-store-kits.js";
import { redisForTests } from "../helpers/redis.js";

const redis = await redisForTests(REDIS_URL, "RedisRatingStore contract tests");
await redis?.quit();
const postgres = await postgresAnswers(POSTGRES_URL);
if (!postgres)
  process.stderr.write(
    `\n*** The PostgreSQL example store's contract tests SKIPPED: no PostgreSQL at ${POSTGRES_URL}. ***\n\n`,
  );

const HOUR = 3_600_000;

function contract(kind: StoreKind): void {
  let backing: Backing;
  let clock: number;
  const now = () => clock;
  let store: RatingStore;

  beforeEach(async () => {
    clock = Date.now();
    backing = await kind.backing();
    store = await backing.open(now);
  });
  afterEach(() => backing.end());

  it("applies a result once: reported again, it answers `already` with the same record", async () => {
    await store.openMatch(openMatch("m1", [["a"], ["b"]]), clock + HOUR);
    const first = await store.settle("m1", winnerGains(0));
    expect(first.status).toBe("applied");
    const again = await store.settle("m1", winnerGains(1));
    expect(again).toEqual({ status: "already", match: first.status === "applied" ? first.match : undefined });
    const ratings = await store.ratings("1", ["a", "b", "c"]);
    expect([...ratings.keys()].sort()).toEqual(["a", "b"]);
    expect(ratings.get("a")).toEqual({ mu: 1510, sigma: 499, games: 1, updatedAt: 1 });
    expect(ratings.get("b")).toMatchObject({ mu: 1490, games: 1 });
    // Opening a settled match again does not make it count twice.
    await store.openMatch(openMatch("m1", [["a"], ["b"]]), clock + HOUR);
    expect((await store.settle("m1", winnerGains(0))).status).toBe("already");
    expect((await store.ratings("1", ["a"])).get("a")!.games).toBe(1);
  });

  it("answers `unknown` for a match never opened, and changes nothing", async () => {
    expect(await store.settle("nobody-made-this", winnerGains(0))).toEqual({ status: "unknown" });
    expect((await store.ratings("1", ["a"])).size).toBe(0);
  });

  it("two stores on one backing reporting one match at once apply it once", async () => {
    const other = await backing.open(now);
    await store.openMatch(
      openMatch("m1", [
        ["a", "b"],
        ["c", "d"],
      ]),
      clock + HOUR,
    );
    const outcomes = await Promise.all([
      store.settle("m1", winnerGains(0)),
      other.settle("m1", winnerGains(1)),
      store.settle("m1", winnerGains(1)),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["already", "already", "applied"]);
    const ratings = await other.ratings("1", ["a", "b", "c", "d"]);
    expect([...ratings.values()].map((r) => r.games)).toEqual([1, 1, 1, 1]);
    expect(await store.history("1", "a", 10)).toHaveLength(1);
  });

  it("two stores settling different matches of one player at once apply every one", async () => {
    const other = await backing.open(now);
    const matches = Array.from({ length: 12 }, (_, i) =>
      openMatch(`m${i}`, [
        ["hot", `x${i}`],
        [`y${i}`, `z${i}`],
      ]),
    );
    for (const match of matches) await store.openMatch(match, clock + HOUR);
    await Promise.all(matches.map((m, i) => (i % 2 ? store : other).settle(m.matchId, winnerGains(0))));
    const hot = (await store.ratings("1", ["hot"])).get("hot")!;
    expect(hot.games).toBe(12);
    expect(hot.mu).toBe(1500 + 12 * 10);
    expect(await store.history("1", "hot", 50)).toHaveLength(12);
  });

  it("a computation that throws writes nothing and leaves the match open", async () => {
    await store.openMatch(openMatch("m1", [["a"], ["b"]]), clock + HOUR);
    await expect(
      store.settle("m1", () => {
        throw new Error("result does not fit");
      }),
    ).rejects.toThrow("result does not fit");
    expect((await store.ratings("1", ["a", "b"])).size).toBe(0);
    expect(await store.history("1", "a", 10)).toEqual([]);
    expect(await store.distribution("1", 100)).toEqual([]);
    expect((await store.settle("m1", winnerGains(0))).status).toBe("applied");
  });

  it("a match whose time to report ran out is unknown", async () => {
    await store.openMatch(openMatch("late", [["a"], ["b"]]), clock + 1000);
    await store.openMatch(openMatch("past", [["a"], ["b"]]), clock - 1);
    await store.openMatch(openMatch("soon", [["a"], ["b"]]), clock + 5000);
    clock += 1000;
    expect(await store.settle("late", winnerGains(0))).toEqual({ status: "unknown" });
    expect(await store.settle("past", winnerGains(0))).toEqual({ status: "unknown" });
    expect((await store.settle("soon", winnerGains(0))).status).toBe("applied");
    expect((await store.ratings("1", ["a"])).get("a")!.games).toBe(1);
  });

  it("seasons: a new one starts empty, the old one is kept", async () => {
    expect(await store.currentSeason()).toBeUndefined();
    await store.openMatch(openMatch("m1", [["a"], ["b"]], "1"), clock + HOUR);
    await store.settle("m1", winnerGains(0));
    await store.startSeason("2");
    expect(await store.currentSeason()).toBe("2");
    expect(await (await backing.open(now)).currentSeason()).toBe("2");
    expect((await store.ratings("2", ["a"])).size).toBe(0);
    await store.openMatch(openMatch("m2", [["a"], ["b"]], "2"), clock + HOUR);
    await store.settle("m2", winnerGains(1));
    expect((await store.ratings("2", ["a"])).get("a")).toMatchObject({ mu: 1490, games: 1 });
    expect((await store.ratings("1", ["a"])).get("a")).toMatchObject({ mu: 1510, games: 1 });
    expect((await store.history("1", "a", 10)).map((m) => m.matchId)).toEqual(["m1"]);
    expect((await store.history("2", "a", 10)).map((m) => m.matchId)).toEqual(["m2"]);
    expect(await store.distribution("2", 100)).toEqual([
      { from: 1400, count: 1 },
      { from: 1500, count: 1 },
    ]);
  });

  it("history: newest first, at most `limit`, with every player's change", async () => {
    for (const [i, winner] of [0, 1, 0].entries()) {
      await store.openMatch(openMatch(`m${i}`, [["a"], [`b${i}`]]), clock + HOUR);
      await store.settle(`m${i}`, winnerGains(winner, 100 + i));
    }
    const history = await store.history("1", "a", 2);
    expect(history.map((m) => [m.matchId, m.settledAt])).toEqual([
      ["m2", 102],
      ["m1", 101],
    ]);
    expect(history[0]!.changes).toEqual([
      { playerId: "a", team: 0, before: { mu: 1500, sigma: 498 }, after: { mu: 1510, sigma: 497 } },
      { playerId: "b2", team: 1, before: { mu: 1500, sigma: 500 }, after: { mu: 1490, sigma: 499 } },
    ]);
    expect(history[0]!.ranks).toEqual([0, 1]);
    expect(await store.history("1", "nobody", 5)).toEqual([]);
  });

  it("distribution: rated players by rating band, lowest first, empty bands left out", async () => {
    // a: 1500 + 3×10; b: 1500 − 10; c: 1500 − 3×10; d: 1500 + 10, then e at 1490: bands of 25.
    const games: Array<[string[][], number]> = [
      [[["a"], ["b"]], 0],
      [[["a"], ["c"]], 0],
      [[["a"], ["c"]], 0],
      [[["d"], ["c"]], 0],
      [[["d"], ["e"]], 1],
      [[["d"], ["e"]], 0],
    ];
    for (const [i, [teams, winner]] of games.entries()) {
      await store.openMatch(openMatch(`m${i}`, teams), clock + HOUR);
      await store.settle(`m${i}`, winnerGains(winner));
    }
    // a 1530, b 1490, c 1470, d 1510, e 1500
    expect(await store.distribution("1", 25)).toEqual([
      { from: 1450, count: 1 },
      { from: 1475, count: 1 },
      { from: 1500, count: 2 },
      { from: 1525, count: 1 },
    ]);
    expect(await store.distribution("1", 1000)).toEqual([{ from: 1000, count: 5 }]);
    expect(await store.distribution("1", 7)).toEqual(
      [1470, 1490, 1500, 1510, 1530].map((mu) => ({ from: Math.floor(mu / 7) * 7, count: 1 })),
    );
    expect(await store.distribution("other", 25)).toEqual([]);
  });

  it.runIf(kind.durable)("ratings, histories, seasons and settled matches survive a restart", async () => {
    await store.startSeason("s1");
    await store.openMatch(openMatch("m1", [["a"], ["b"]], "s1"), clock + HOUR);
    await store.openMatch(openMatch("m2", [["a"], ["b"]], "s1"), clock + HOUR);
    await store.settle("m1", winnerGains(0));
    const ratings = await store.ratings("s1", ["a", "b"]);
    await backing.shut(store);
    const restarted = await backing.open(now);
    expect(await restarted.currentSeason()).toBe("s1");
    expect(await restarted.ratings("s1", ["a", "b"])).toEqual(ratings);
    expect((await restarted.history("s1", "b", 5)).map((m) => m.matchId)).toEqual(["m1"]);
    expect((await restarted.settle("m1", winnerGains(1))).status).toBe("already");
    expect((await restarted.settle("m2", winnerGains(1))).status).toBe("applied");
    expect((await restarted.ratings("s1", ["a"])).get("a")).toMatchObject({ mu: 1500, games: 2 });
  });
}

describe(memoryKind.name, () => contract(memoryKind));
describe(sqliteKind.name, () => contract(sqliteKind));
describe.skipIf(!redis)(redisKind.name, () => contract(redisKind));
describe.skipIf(!postgres)(postgresKind.name, () => contract(postgresKind));
