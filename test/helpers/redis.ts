/**
 * Redis for the multi-process tests: a connection that fails at once when Redis is unreachable,
 * so that a test file can skip locally (and fail under CI=true) instead of hanging.
 */
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";

/** Connected to Redis at `url`, or undefined when it is unreachable. */
export async function connectRedis(url: string): Promise<Redis | undefined> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return undefined;
  }
}

/** In CI a missing Redis is a failure, not a skip: otherwise the run goes green with these tests unrun. */
export const IN_CI = process.env.CI === "true" || process.env.CI === "1";

/**
 * Redis at `url` for a test file whose tests (`what`) need it, or undefined: then they are to be
 * skipped (`describe.skipIf(!redis)`), and a line on stderr says so, except under CI=true, where a
 * failing test says Redis is missing instead.
 */
export async function redisForTests(url: string, what: string): Promise<Redis | undefined> {
  const redis = await connectRedis(url);
  if (!redis && !IN_CI) process.stderr.write(`\n*** ${what} SKIPPED: no Redis at ${url}. ***\n\n`);
  describe.runIf(!redis && IN_CI)("Redis in CI", () => {
    it(`answers, so the ${what} run`, () => {
      expect.fail(`CI=true but no Redis answers at ${url}; .ci/run must start it`);
    });
  });
  return redis;
}
