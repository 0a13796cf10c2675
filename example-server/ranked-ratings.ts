/**
 * The ratings of the example's ranked queues (`ranked_1v1`, `ranked_2v2`), learned from the demo
 * game's results (docs/ratings.md): the queues read them at every join and the demo game room
 * reports each result to this same object. Kept where they survive a restart, with no other service:
 * - in an SQLite file, `example-server/data/ratings.sqlite` (gitignored; `RATINGS_FILE` names
 *   another), one process per file;
 * - with `REDIS_URL` (several processes, scale-out.ts), in Redis, shared by every process.
 * The store opens on its first use, so importing the server's definition (the tests boot it in
 * their own processes, in parallel) opens no file; under the tests each process has a file of its own.
 */
import { tmpdir } from "node:os";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { Ratings, RedisRatingStore, SqliteRatingStore, type RatingStore } from "../src/index.js";

/** The SQLite file: RATINGS_FILE, else the example's data directory (a file per process under the tests). */
export function ratingsFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RATINGS_FILE) return env.RATINGS_FILE;
  if (env.VITEST) return join(tmpdir(), `matchmaker-example-ratings-${process.pid}.sqlite`);
  return fileURLToPath(new URL("./data/ratings.sqlite", import.meta.url));
}

/** The store the environment asks for: Redis with REDIS_URL, else SQLite. */
function openStore(env: NodeJS.ProcessEnv = process.env): RatingStore {
  if (env.REDIS_URL) return new RedisRatingStore({ client: new Redis(env.REDIS_URL), prefix: "example:ratings:" });
  const file = ratingsFile(env);
  mkdirSync(dirname(file), { recursive: true });
  return new SqliteRatingStore({ path: file });
}

/** `open()`'s store, opened at the first call of any of its methods. */
function openedOnFirstUse(open: () => RatingStore): RatingStore {
  let store: RatingStore | undefined;
  const use = () => (store ??= open());
  return {
    currentSeason: () => use().currentSeason(),
    startSeason: (season) => use().startSeason(season),
    ratings: (season, playerIds) => use().ratings(season, playerIds),
    openMatch: (match, expiresAt) => use().openMatch(match, expiresAt),
    settle: (matchId, compute) => use().settle(matchId, compute),
    history: (season, playerId, limit) => use().history(season, playerId, limit),
    distribution: (season, width) => use().distribution(season, width),
    close: () => store?.close?.() ?? Promise.resolve(),
  };
}

/** The example's ratings: the ranked queues' option `ratings`, and what the demo game room reports to. */
export const ratings = new Ratings({ store: openedOnFirstUse(() => openStore()) });
