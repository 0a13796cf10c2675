/**
 * The queue at scale, in counts (never timings): an idle queue is quiet, a joiner's first state
 * does not grow with the pool, and operators still see the whole queue; for two sides as for a
 * free-for-all of 8.
 */
import { defineRoom, Room } from "@colyseus/core";
import type { Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineQueue, QueueViewRoom, type MatchmakerRoom } from "../../src/index.js";
import { testPort } from "../helpers/sdk.js";

const TICK_MS = 100;
const TOKEN = "operator-secret-for-tests";

class Game extends Room {}

/** A game room that never starts: the free-for-all's queue is held by it (see `stuck_ffa8`). */
class FailingGame extends Game {
  override onCreate(): void {
    throw new Error("this game room never starts");
  }
}

interface Counted {
  room: SdkRoom;
  /** Room messages (any type) and state patches received. */
  received: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A queue where nobody can ever play, so the pool only grows: how to reach it and what joins it. */
interface StuckQueue {
  readonly title: string;
  readonly port: number;
  readonly queue: ReturnType<typeof defineQueue>;
  /** Its game room, by name and class. */
  readonly gameRoom: string;
  readonly GameRoom: typeof Game;
  readonly join: Record<string, unknown>;
  /** Brings the queue to where nobody can play (after boot). */
  readonly hold?: (server: ColyseusTestServer) => Promise<void>;
}

const STUCK_QUEUES: StuckQueue[] = [
  {
    // 1v1 where everyone joins on side A.
    title: "1v1, everyone on side A",
    port: testPort(53),
    queue: defineQueue({ teamSize: 1, gameRoom: "game", tickMs: TICK_MS, statusIntervalMs: TICK_MS }),
    gameRoom: "game",
    GameRoom: Game,
    join: { side: "A" },
  },
  {
    // A free-for-all has no sides: nothing a solo joins with keeps eight from a game. Its game
    // room type fails instead, and the spawn backoff (per process and game room type) holds every
    // match for ten minutes after the first failure: players keep waiting at their places.
    title: "a free-for-all of 8, held by its failing game room",
    port: testPort(237),
    queue: defineQueue({
      maxPlayers: 8,
      gameRoom: "failing_game",
      tickMs: TICK_MS,
      statusIntervalMs: TICK_MS,
      spawnRetryMs: 600_000,
      spawnRetryMaxMs: 600_000,
    }),
    gameRoom: "failing_game",
    GameRoom: FailingGame,
    join: {},
    hold: async (server) => {
      // Eight form a game, it fails to start, they are requeued; then they leave.
      const first: Counted[] = [];
      for (let i = 0; i < 8; i++) {
        const room = await server.sdk.joinOrCreate("stuck", { rating: 1000 + i });
        const counted: Counted = { room, received: 0 };
        room.onMessage("*", () => undefined);
        room.onMessage("requeued", () => counted.received++);
        first.push(counted);
      }
      await vi.waitFor(() => expect(first.every((c) => c.received === 1)).toBe(true), { timeout: 10_000 });
      // The shared figures refresh on their own interval: they may follow the requeued messages.
      await vi.waitFor(() => expect(first[0].room.state.figures.spawnFailures).toBe(1), { timeout: 10_000 });
      for (const c of first) await c.room.leave();
    },
  },
];

describe.each(STUCK_QUEUES)("the queue at scale (counts): $title", (stuck) => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // Nobody can ever play: the pool only grows.
          stuck: stuck.queue,
          queue_view: defineRoom(QueueViewRoom, { token: TOKEN, sampleSize: 5, refreshMs: 100 }),
          [stuck.gameRoom]: defineRoom(stuck.GameRoom),
        },
      }),
      stuck.port,
    );
    await stuck.hold?.(server);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  async function join(rating: number): Promise<Counted> {
    const room = await server.sdk.joinOrCreate("stuck", { rating, ...stuck.join });
    const counted: Counted = { room, received: 0 };
    room.onMessage("*", () => counted.received++);
    room.onStateChange(() => counted.received++);
    return counted;
  }

  it("an idle queue sends a waiting client at most one message over twenty ticks", async () => {
    const clients: Counted[] = [];
    // More than a game's worth, all waiting.
    for (let i = 0; i < 12; i++) clients.push(await join(1000 + i));
    await sleep(5 * TICK_MS); // the joins' own news (counts, figures) settles
    await vi.waitFor(() => expect(clients[0].room.state.figures.waitingPlayers).toBe(12), { timeout: 5000 });
    const before = clients.map((c) => c.received);
    await sleep(20 * TICK_MS);
    const during = clients.map((c, i) => c.received - before[i]);
    for (const n of during) expect(n).toBeLessThanOrEqual(1);
    for (const c of clients) await c.room.leave();
  });

  it("a joiner's first state carries no waiting entries, whatever the pool (10 or 200 waiting)", async () => {
    const firstStateOf = async (poolSize: number) => {
      const pool: Counted[] = [];
      for (let i = 0; i < poolSize; i++) pool.push(await join(2000 + i));
      const joiner = await server.sdk.joinOrCreate("stuck", { rating: 1500, ...stuck.join });
      joiner.onMessage("*", () => undefined);
      // Everyone waits: the pool and the joiner (no game formed).
      await vi.waitFor(() => expect(joiner.state.figures?.waitingPlayers).toBe(poolSize + 1), { timeout: 5000 });
      const state = joiner.state.toJSON() as Record<string, unknown>;
      for (const c of pool) await c.room.leave();
      await joiner.leave();
      return state;
    };
    const small = await firstStateOf(10);
    const large = await firstStateOf(200);
    // The same shape: the shared figures only; no entry per waiting ticket.
    expect(Object.keys(small)).toEqual(["figures"]);
    expect(Object.keys(large)).toEqual(["figures"]);
    // As many values (figures and their small maps by side, party size and zone), 10 or 200 waiting.
    const leaves = (x: unknown): number =>
      x !== null && typeof x === "object" ? Object.values(x).reduce<number>((n, v) => n + leaves(v), 0) : 1;
    expect(leaves(large)).toBe(leaves(small));
  }, 60_000);

  it("operators see the counts, a bounded sample longest-waiting first in seconds, the whole list, and a lookup", async () => {
    const clients: Counted[] = [];
    for (let i = 0; i < 8; i++) clients.push(await join(3000 + i));
    const queueRoom = server.getRoomById<MatchmakerRoom>(clients[0].room.roomId);
    await expect(
      server.sdk.create("queue_view", { queueRoomId: clients[0].room.roomId, token: "wrong" }),
    ).rejects.toThrow(/bad token/);
    const view = await server.sdk.create("queue_view", { queueRoomId: clients[0].room.roomId, token: TOKEN });
    await vi.waitFor(() => {
      expect(view.state.waitingPlayers).toBe(8);
      expect(view.state.waiting.size).toBe(8);
      expect(view.state.sample.length).toBe(5);
    });
    const sample = view.state.sample.toJSON() as Array<{ id: string; waitedS: number }>;
    expect(sample.map((t) => t.id)).toEqual(clients.slice(0, 5).map((c) => c.room.sessionId));
    for (const t of sample) expect(t.waitedS).toBeLessThan(60); // seconds, not epoch ms
    // One leaves: the list follows.
    await clients[7].room.leave();
    await vi.waitFor(() => expect(view.state.waiting.size).toBe(7));
    const found = await view.request("lookup", clients[2].room.sessionId);
    expect(found).toMatchObject({ id: clients[2].room.sessionId, rating: 3002, ...stuck.join });
    expect(await view.request("lookup", "nobody")).toBeNull();
    expect(queueRoom.waitingSample(3).map((t) => t.id)).toEqual(clients.slice(0, 3).map((c) => c.room.sessionId));
    await view.leave();
    for (const c of clients.slice(0, 7)) await c.room.leave();
  });
});
