/**
 * Settles per second of each rating store (lab/rating-stores.md): 2v2 matches of 1,000 players,
 * each opened then settled one after another (the ledger's order), timed in wall and CPU.
 *
 *   npx tsx bench/rating-stores.ts [matches, default 2000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { PostgresRatingStore } from "../example-server/postgres-rating-store.js";
import { MemoryRatingStore } from "../src/ratings/memory-store.js";
import { RedisRatingStore } from "../src/ratings/redis-store.js";
import { SqliteRatingStore } from "../src/ratings/sqlite-store.js";
import type { RatingStore } from "../src/ratings/store.js";
import type { OpenMatch } from "../src/ratings/types.js";
import { deleteKeys, winnerGains } from "../test/helpers/rating-store-kits.js";

const MATCHES = Number(process.argv[2] ?? 2000);

async function measure(name: string, store: RatingStore): Promise<void> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < MATCHES; i++) {
    const seat = (k: number) => ({ playerId: `p${(i * 4 + k) % 1000}` });
    const match: OpenMatch = {
      matchId: `m${i}`,
      queue: "q",
      season: "1",
      createdAt: 0,
      teams: [
        [seat(0), seat(1)],
        [seat(2), seat(3)],
      ],
    };
    await store.openMatch(match, Date.now() + 3_600_000);
    await store.settle(match.matchId, winnerGains(i % 2, i));
  }
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / MATCHES;
  console.log(`| ${name} | ${MATCHES} | ${(MATCHES / seconds).toFixed(0)} | ${cpuMs.toFixed(3)} |`);
}

console.log("| store | matches | open + settle per s (wall) | CPU ms per match (this process) |\n|---|---|---|---|");
await measure("memory", new MemoryRatingStore());
const dir = mkdtempSync(join(tmpdir(), "mm-rstore-bench-"));
const sqlite = new SqliteRatingStore({ path: join(dir, "ratings.db") });
await measure("SQLite (node-sqlite3-wasm, WAL, synchronous FULL)", sqlite);
await sqlite.close();
rmSync(dir, { recursive: true, force: true });
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const prefix = `bench:rstore:${process.pid}:`;
await measure("Redis (local)", new RedisRatingStore({ client: redis, prefix }));
await deleteKeys(redis, prefix);
await redis.quit();
const admin = new pg.Pool({ connectionString: process.env.POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test" });
const schema = `bench_rstore_${process.pid}`;
try {
  await admin.query(`CREATE SCHEMA ${schema}`);
  const pool = new pg.Pool({
    connectionString: process.env.POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    options: `-c search_path=${schema}`,
  });
  const store = new PostgresRatingStore(pool);
  await store.migrate();
  await measure("PostgreSQL (local, the example store)", store);
  await pool.end();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
} catch (error) {
  console.log(`| PostgreSQL | not measured: ${String(error)} | | |`);
} finally {
  await admin.end();
}
