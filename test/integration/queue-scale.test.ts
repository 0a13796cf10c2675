/**
 * The queue at scale, in counts (never timings): an idle queue is quiet, a joiner's first state
 * does not grow with the pool, and operators still see the whole queue.
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

interface Counted {
  room: SdkRoom;
  /** Room messages (any type) and state patches received. */
  received: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the queue at scale (counts)", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // 1v1 where everyone joins on side A: nobody can ever play, the pool only grows.
          stuck_duel: defineQueue({ teamSize: 1, gameRoom: "game", tickMs: TICK_MS, statusIntervalMs: TICK_MS }),
          queue_view: defineRoom(QueueViewRoom, { token: TOKEN, sampleSize: 5, refreshMs: 100 }),
          game: defineRoom(Game),
        },
      }),
      testPort(53),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  async function join(rating: number): Promise<Counted> {
    const room = await server.sdk.joinOrCreate("stuck_duel", { rating, side: "A" });
    const counted: Counted = { room, received: 0 };
    room.onMessage("*", () => counted.received++);
    room.onStateChange(() => counted.received++);
    return counted;
  }

  it("an idle queue sends a waiting client at most one message over twenty ticks", async () => {
    const clients: Counted[] = [];
    for (let i = 0; i < 6; i++) clients.push(await join(1000 + i));
    await sleep(5 * TICK_MS); // the joins' own news (counts, figures) settles
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
      const joiner = await server.sdk.joinOrCreate("stuck_duel", { rating: 1500, side: "A" });
      joiner.onMessage("*", () => undefined);
      await vi.waitFor(() => expect(joiner.state.figures).toBeDefined());
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
    expect(found).toMatchObject({ id: clients[2].room.sessionId, rating: 3002, side: "A" });
    expect(await view.request("lookup", "nobody")).toBeNull();
    expect(queueRoom.waitingSample(3).map((t) => t.id)).toEqual(clients.slice(0, 3).map((c) => c.room.sessionId));
    await view.leave();
    for (const c of clients.slice(0, 7)) await c.room.leave();
  });
});
