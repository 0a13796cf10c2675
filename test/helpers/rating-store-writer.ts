/**
 * The crash test's writer (test/integration/rating-store-crash.test.ts): opens and settles
 * matches of a small pool of players in a loop, against an SQLite file or a Redis prefix, until
 * the test kills it. Prints `settled N` every ten matches.
 *
 *   node --import tsx test/helpers/rating-store-writer.ts sqlite FILE
 *   node --import tsx test/helpers/rating-store-writer.ts redis REDIS_URL PREFIX
 *
 * With TEAR_AFTER=N and TEAR_WRITE=K it kills itself instead, at the K-th file write after N
 * matches: inside a commit, between two of its writes, where a signal from outside rarely lands.
 */
import fs from "node:fs";
import { Redis } from "ioredis";
import { RedisRatingStore } from "../../src/ratings/redis-store.js";
import { SqliteRatingStore } from "../../src/ratings/sqlite-store.js";
import type { RatingStore } from "../../src/ratings/store.js";
import { CRASH_MATCHES, CRASH_PLAYERS, openMatch, winnerGains } from "./rating-store-kits.js";

const [kind, target, prefix] = process.argv.slice(2);
const store: RatingStore =
  kind === "sqlite"
    ? new SqliteRatingStore({ path: target! })
    : new RedisRatingStore({ client: new Redis(target!), prefix: prefix! });
const tearAfter = Number(process.env.TEAR_AFTER ?? Infinity);
const tearWrite = Number(process.env.TEAR_WRITE ?? 1);
for (let i = 0; i < CRASH_MATCHES; i++) {
  if (i === tearAfter) tearAtWrite(tearWrite);
  const seat = (k: number) => `p${(i * 7 + k * 5) % CRASH_PLAYERS}`;
  await store.openMatch(
    openMatch(`m${i}`, [
      [seat(0), seat(1)],
      [seat(2), seat(3)],
    ]),
    Date.now() + 3_600_000,
  );
  await store.settle(`m${i}`, winnerGains(i % 2, i));
  if (i % 10 === 9) process.stdout.write(`settled ${i + 1}\n`);
}
process.stdout.write("done\n");
process.exit(0);

/** Kill this process (SIGKILL) at its `k`-th file write from now (SQLite's, through node:fs). */
function tearAtWrite(k: number): void {
  const write = fs.writeSync;
  let writes = 0;
  fs.writeSync = ((...args: Parameters<typeof write>) => {
    if (++writes === k) process.kill(process.pid, "SIGKILL");
    return write(...args);
  }) as typeof write;
}
