/**
 * The rating stores under one contract (test/unit/rating-stores.test.ts, the crash test): each kind
 * opens stores on one shared backing (a file, a Redis prefix, a PostgreSQL schema), each store with
 * its own connection, so that two stores are two servers and a new store is a restart.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { PostgresRatingStore } from "../../example-server/postgres-rating-store.js";
import { MemoryRatingStore } from "../../src/ratings/memory-store.js";
import { RedisRatingStore } from "../../src/ratings/redis-store.js";
import { SqliteRatingStore } from "../../src/ratings/sqlite-store.js";
import type { RatingStore } from "../../src/ratings/store.js";
import type { OpenMatch, SettledMatch, StoredRating } from "../../src/ratings/types.js";

/** One backing's stores. */
export interface Backing {
  /** A store on this backing, with a connection of its own (the memory kind has only one store). */
  open(now: () => number): Promise<RatingStore>;
  /** Close a store and its connection. */
  shut(store: RatingStore): Promise<void>;
  /** Close every store still open and remove the backing's data. */
  end(): Promise<void>;
}

export interface StoreKind {
  readonly name: string;
  /** Whether a store opened after another closed reads the same data (all but memory). */
  readonly durable: boolean;
  backing(): Promise<Backing>;
}

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
export const POSTGRES_URL = process.env.POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_PREFIX = "test:rstore:";
let backings = 0;

export const memoryKind: StoreKind = {
  name: "MemoryRatingStore",
  durable: false,
  backing: () => {
    let store: MemoryRatingStore | undefined;
    return Promise.resolve({
      open: (now) => Promise.resolve((store ??= new MemoryRatingStore(now))),
      shut: () => Promise.resolve(),
      end: () => Promise.resolve(),
    });
  },
};

export const sqliteKind: StoreKind = {
  name: "SqliteRatingStore",
  durable: true,
  backing: () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-rstore-"));
    const stores = new Set<RatingStore>();
    return Promise.resolve({
      open: (now) => {
        const store = new SqliteRatingStore({ path: join(dir, "ratings.db") }, now);
        stores.add(store);
        return Promise.resolve(store);
      },
      shut: async (store) => {
        stores.delete(store);
        await store.close!();
      },
      end: async () => {
        for (const store of stores) await store.close!();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  },
};

/** A prefix of its own per backing, under this file's `test:rstore:`. */
export function redisPrefix(): string {
  return `${REDIS_PREFIX}${process.pid}:${++backings}:`;
}

export const redisKind: StoreKind = {
  name: "RedisRatingStore",
  durable: true,
  backing: () => {
    const prefix = redisPrefix();
    const clients = new Map<RatingStore, Redis>();
    return Promise.resolve({
      open: (now) => {
        const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
        const store = new RedisRatingStore({ client, prefix }, now);
        clients.set(store, client);
        return Promise.resolve(store);
      },
      shut: async (store) => {
        await clients.get(store)?.quit();
        clients.delete(store);
      },
      end: async () => {
        const redis = new Redis(REDIS_URL);
        await deleteKeys(redis, prefix);
        await redis.quit();
        for (const client of clients.values()) await client.quit();
      },
    });
  },
};

/** Delete every key under `prefix`. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}

/** Each backing a schema of its own, dropped at the end; each store a pool of its own. */
export const postgresKind: StoreKind = {
  name: "PostgresRatingStore (example-server/postgres-rating-store.ts)",
  durable: true,
  backing: async () => {
    const schema = `test_rstore_${process.pid}_${++backings}`;
    const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const pools = new Map<RatingStore, pg.Pool>();
    let migrated = false;
    return {
      open: async (now) => {
        const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 4, options: `-c search_path=${schema}` });
        const store = new PostgresRatingStore(pool, now);
        if (!migrated) await store.migrate();
        migrated = true;
        pools.set(store, pool);
        return store;
      },
      shut: async (store) => {
        await pools.get(store)?.end();
        pools.delete(store);
      },
      end: async () => {
        for (const pool of pools.values()) await pool.end();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  },
};

/** Whether PostgreSQL answers at `url` (within a second). */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The crash test's pool of players (test/helpers/rating-store-writer.ts): four per match, so each plays a fifth. */
export const CRASH_PLAYERS = 20;
/** The crash test's writer settles at most this many matches: each player's fewer than a Redis history keeps (200). */
export const CRASH_MATCHES = 800;

/** A match of these accounts, team by team, in `season`. */
export function openMatch(matchId: string, teams: string[][], season = "1", createdAt = 0): OpenMatch {
  return { matchId, queue: "ranked", season, createdAt, teams: teams.map((t) => t.map((playerId) => ({ playerId }))) };
}

/**
 * A result's computation, simple enough to check by hand: every player of the winning team (team
 * `winner`) gains 10, every other loses 10; a newcomer starts at 1500 ± 500; uncertainty falls by 1.
 */
export function winnerGains(
  winner: number,
  settledAt = 1,
): (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch {
  return (match, current) => ({
    matchId: match.matchId,
    queue: match.queue,
    season: match.season,
    settledAt,
    ranks: match.teams.map((_, t) => (t === winner ? 0 : 1)),
    changes: match.teams.flatMap((team, t) =>
      team.flatMap((seat) => {
        if (seat.playerId === undefined) return [];
        const before = current.get(seat.playerId) ?? { mu: 1500, sigma: 500 };
        return [
          {
            playerId: seat.playerId,
            team: t,
            before: { mu: before.mu, sigma: before.sigma },
            after: { mu: before.mu + (t === winner ? 10 : -10), sigma: before.sigma - 1 },
          },
        ];
      }),
    ),
  });
}
