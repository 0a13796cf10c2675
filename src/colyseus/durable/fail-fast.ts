/**
 * Joins fail fast while Redis is unreachable. Colyseus's matchmaking route reads the room
 * listings from its driver on every join; with Redis down, ioredis queues each read and rejects
 * it only after its 20 reconnection attempts (about 9.5 s) with its own "Reached the max retries
 * per request limit". Wrapped here, a listing read while the connection is not ready rejects at
 * once with the retryable {@link RETRY_LATER} error naming the cause, and a read that fails is
 * reported the same way. Writes are left to ioredis's offline queue (they apply once Redis is back).
 *
 * The wrapper also forgets the RedisDriver's shared in-flight listing read after a failure:
 * the driver clears it only on success, so one failed read during an outage would otherwise be
 * returned to every later join of that room name, refusing them long after Redis is back.
 */
import type { MatchMakerDriver } from "@colyseus/core";
import { retryLater } from "./unavailable.js";

/** The part of an ioredis connection the guard reads: `"ready"` when commands are served. */
export interface ConnectionStatus {
  readonly status: string;
}

/** The driver reads a join makes. */
const READS = new Set<PropertyKey>(["findOne", "query", "findByIds", "has"]);

/** The driver, with its listing reads refused at once (retryable) while `connection` is not ready. */
export function failFastDriver<D extends MatchMakerDriver>(
  driver: D,
  connection: ConnectionStatus,
  retryInMs = 2000,
): D {
  const forgetSharedRead = () => {
    const cached = driver as unknown as Record<string, unknown>;
    if ("_concurrentRoomCacheRequest" in cached) cached._concurrentRoomCacheRequest = undefined;
    if ("_roomCacheRequestByName" in cached) cached._roomCacheRequestByName = {};
  };
  return new Proxy(driver, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (!READS.has(property) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (connection.status !== "ready") return Promise.reject(retryLater("redis_unreachable", retryInMs));
        return Promise.resolve(value.apply(target, args)).catch((error: unknown) => {
          forgetSharedRead();
          throw connection.status !== "ready" ? retryLater("redis_unreachable", retryInMs) : error;
        });
      };
    },
  });
}
