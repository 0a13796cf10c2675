/**
 * The set-up the cluster tests share (test/helpers/durable-cluster.ts): whether they can run, and a
 * redis-server and example-server processes of the file's own, fresh for every test.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OwnRedis, Player, redisInstalled, ServerProcess } from "./durable-cluster.js";
import { IN_CI } from "./redis.js";

/**
 * Whether redis-server is installed, so that the cluster tests (`what`) run. Without it they are
 * skipped with a warning; under CI=true a failing test says it is missing instead.
 */
export function redisServerInstalled(what: string): boolean {
  const installed = redisInstalled();
  if (!installed && !IN_CI) console.warn(`${what} skipped: redis-server is not installed`);
  describe.runIf(!installed && IN_CI)("redis-server in CI", () => {
    it(`is installed, so the ${what} run`, () => {
      expect.fail("CI=true but redis-server is missing; .ci/run installs it");
    });
  });
  return installed;
}

/**
 * For the enclosing describe block: a redis-server of its own on `redisPort` (a leftover of an
 * interrupted run stopped first) and an example-server process on each of `ports`. Before each
 * test Redis is (re)started if it is down and emptied, and the servers are started; after it the
 * test's `players` leave and the servers are killed; Redis is stopped at the end.
 */
export function clusterPerTest(redisPort: number, ports: readonly number[]) {
  const redis = new OwnRedis(redisPort);
  const servers = ports.map((port) => new ServerProcess(port, redis.url));
  /** The test's players: push each, they leave after the test. */
  const players: Player[] = [];

  beforeAll(async () => {
    await redis.stop(); // a leftover of an interrupted run
    await redis.start();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop("SIGKILL")));
    await redis.stop();
  });
  beforeEach(async () => {
    if (!redis.answers()) await redis.start();
    redis.cli("flushall");
    await Promise.all(servers.map((s) => s.start()));
  });
  afterEach(async () => {
    await Promise.all(players.splice(0).map((p) => p.leave()));
    await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  });
  return { redis, servers, players };
}
