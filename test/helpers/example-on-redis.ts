/**
 * The example server on Redis presence, for durable-queue tests in one process: its options
 * (logger, auth) with the test's rooms and the demo game room, presence under a key prefix of the
 * test file's own, deleted afterwards.
 */
import { defineRoom } from "@colyseus/core";
import { RedisPresence } from "@colyseus/redis-presence";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, vi } from "vitest";
import app from "../../example-server/app.config.js";
import { DemoGameRoom } from "../../example-server/DemoGameRoom.js";

export interface ExampleOnRedisOptions {
  readonly port: number;
  /** The queues (the demo game room `demo_game` is added). */
  readonly rooms: Parameters<typeof config>[0]["rooms"];
  /** Redis's URL, the key prefix of this file's presence, and a connection to delete its keys with. */
  readonly url: string;
  readonly prefix: string;
  readonly redis: Redis | undefined;
}

/**
 * For the enclosing describe block: the server booted before its tests (the SDK's "closed
 * unexpectedly" lines silenced); after them shut down, the prefix's keys deleted and `redis`
 * disconnected.
 */
export function exampleOnRedis({ port, rooms, url, prefix, redis }: ExampleOnRedisOptions): void {
  let server: ColyseusTestServer | undefined;
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    server = await boot(
      config({
        ...app,
        rooms: { ...rooms, demo_game: defineRoom(DemoGameRoom) },
        options: { ...app.options, presence: new RedisPresence(`${url}?keyPrefix=${prefix}`) },
      }),
      port,
    );
  });
  afterAll(async () => {
    await server?.shutdown();
    const keys = (await redis?.keys(`${prefix}*`)) ?? [];
    if (keys.length > 0) await redis?.del(...keys);
    redis?.disconnect();
    vi.restoreAllMocks();
  });
}
