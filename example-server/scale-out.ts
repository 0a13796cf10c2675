/**
 * Running the example server as several processes: with `REDIS_URL` set, every process shares
 * its room listings (RedisDriver) and its messages between processes (RedisPresence) through
 * Redis, and announces the address clients reach it at (`publicAddress`). Without it the server
 * stays in memory, a single process.
 *
 * While Redis is unreachable, joins are refused at once with the retryable code 503 and a message
 * naming the cause (`failFastDriver`), instead of ioredis's own error after about 9.5 s.
 */
import type { ServerOptions } from "@colyseus/core";
import { RedisDriver } from "@colyseus/redis-driver";
import { RedisPresence } from "@colyseus/redis-presence";
import { Redis } from "ioredis";
import { failFastDriver } from "../src/index.js";

/** The server options scale-out adds: presence, driver and this process's public address. */
export type ScaleOutOptions = Pick<ServerOptions, "presence" | "driver" | "publicAddress">;

/**
 * The extra server options for this process, from the environment:
 * - `REDIS_URL` (e.g. `redis://127.0.0.1:6379`): use Redis; unset: stay in memory (returns `{}`).
 *   ioredis reads a database number from the path and options from the query, e.g.
 *   `redis://127.0.0.1:6379/2?keyPrefix=mm:` keeps one deployment's keys apart from another's.
 * - `PUBLIC_ADDRESS` (e.g. `game1.example.com:2567`): where clients reach this process; default
 *   `localhost:PORT`. A seat in a room on this process sends the client here; without it a
 *   client connected to another process would ask that process for the room and be refused.
 */
export function scaleOutOptions(port: number, env: NodeJS.ProcessEnv = process.env): ScaleOutOptions {
  const url = env.REDIS_URL;
  if (!url) return {};
  const listings = new Redis(url);
  listings.on("error", () => undefined); // RedisPresence already logs the connection's errors
  return {
    presence: new RedisPresence(url),
    driver: failFastDriver(new RedisDriver(listings), listings),
    publicAddress: env.PUBLIC_ADDRESS || `localhost:${port}`,
  };
}
