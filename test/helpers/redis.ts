/**
 * Redis for the multi-process tests: a connection that fails at once when Redis is unreachable,
 * so that a test file can skip locally (and fail under CI=true) instead of hanging.
 */
import { Redis } from "ioredis";

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
