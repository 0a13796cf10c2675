import { defineRoom, Room } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineQueue, type StatusMessage } from "../../src/index.js";
import { joinQueue, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const TICK_MS = 200;

class Game extends Room {}

interface Watched extends Omit<QueuedClient, "statuses"> {
  statuses: Array<{ at: number; status: StatusMessage }>;
  clients: number[];
  seatAt: Promise<number>;
}

async function watch(server: ColyseusTestServer, queue: string, options: Record<string, unknown>): Promise<Watched> {
  const joined = await joinQueue(server, queue, options);
  const statuses: Watched["statuses"] = [];
  const clients: number[] = [];
  joined.queue.onMessage("status", (status: StatusMessage) => statuses.push({ at: Date.now(), status }));
  joined.queue.onMessage("clients", (n: number) => clients.push(n));
  return { ...joined, statuses, clients, seatAt: joined.seat.then(() => Date.now()) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("status messages", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // multi-queue with two ranges over 0..10000: a player's window is its half.
          mq_duel: defineQueue({
            teamSize: 1,
            gameRoom: "game",
            policy: "multi-queue",
            params: { r: 2 },
            tickMs: TICK_MS,
            statusIntervalMs: TICK_MS,
          }),
          // Zones: a choice-free player waits in every zone its rating may enter.
          zoned_duel: defineQueue({
            teamSize: 1,
            gameRoom: "game",
            tickMs: TICK_MS,
            statusIntervalMs: TICK_MS,
            zones: ["eu", { name: "pro", minRating: 2000 }],
          }),
          game: defineRoom(Game),
        },
      }),
      testPort(20),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("arrive on entering the queue, then only when something moved, and stop after the match", async () => {
    const start = Date.now();
    const a = await watch(server, "mq_duel", { rating: 1000 });
    await vi.waitFor(() => expect(a.statuses.length).toBe(1));
    await sleep(6 * TICK_MS + 100);

    // Nothing moved for six ticks: the first status was the only one (no clock-driven waitedMs).
    expect(a.statuses).toHaveLength(1);
    const first = a.statuses[0].status;
    expect(first).toMatchObject({ waiting: 1, waitedMs: 0, estimatedWaitMs: null, window: { min: 0, max: 5000 } });
    // The client derives the waited time from the pair it was sent once.
    expect(first.ticketId).toBe(a.queue.sessionId);
    expect(first.serverTime! - first.waitingSince!).toBeGreaterThanOrEqual(0);
    expect(first.serverTime! - first.waitingSince!).toBeLessThan(1000);
    // QueueRoom's `clients`: the players waiting, sent once (it did not change).
    expect(a.clients).toEqual([1]);

    // A player in the other half of the range does not fit a's window: both wait, and a is told 2 wait.
    const far = await watch(server, "mq_duel", { rating: 9000 });
    await vi.waitFor(() => expect(a.statuses.at(-1)!.status.waiting).toBe(2));
    expect(a.statuses.at(-1)!.status.waiting).toBe(2);
    expect(far.statuses.at(-1)!.status.window).toEqual({ min: 5000, max: 10_000 });
    expect(a.clients).toEqual([1, 2]);

    // b, side B, in a's half: a and b play; their statuses stop.
    const b = await watch(server, "mq_duel", { rating: 1100, side: "B" });
    const [seatAtA, seatAtB] = await within(Promise.all([a.seatAt, b.seatAt]), 3000, "seats");
    await sleep(4 * TICK_MS);
    expect(a.statuses.filter((s) => s.at > seatAtA)).toEqual([]);
    expect(b.statuses.filter((s) => s.at > seatAtB)).toEqual([]);
    // far still waits and hears that one player waits now.
    expect(far.statuses.at(-1)!.status.waiting).toBe(1);

    // The next solo of a's class (party of 1, any side, a's rating band) is told a's wait as its estimate.
    const c = await watch(server, "mq_duel", { rating: 1050 });
    await sleep(2 * TICK_MS);
    const estimate = c.statuses[0].status.estimatedWaitMs;
    expect(estimate).not.toBeNull();
    expect(estimate!).toBeGreaterThanOrEqual(1000);
    expect(estimate!).toBeLessThanOrEqual(Math.round((Date.now() - start) / 1000) * 1000);
    for (const q of [a, b, far, c]) await q.queue.leave();
  });

  it("coalesce a burst of joins: at most one status per statusIntervalMs", async () => {
    // Side-A players cannot play each other in 1v1: they all wait, and every join changes `waiting`.
    const first = await watch(server, "mq_duel", { rating: 3000, side: "A" });
    await sleep(TICK_MS + 50);
    const start = Date.now();
    const others: Watched[] = [];
    for (let i = 0; i < 8; i++) others.push(await watch(server, "mq_duel", { rating: 3000 + i, side: "A" }));
    await sleep(2 * TICK_MS);
    const during = first.statuses.filter((s) => s.at >= start);
    const elapsed = Date.now() - start;
    // Nine joins changed `waiting` eight times, but a status goes out at most once per interval.
    expect(during.length).toBeLessThanOrEqual(Math.ceil(elapsed / TICK_MS) + 1);
    await vi.waitFor(() => expect(first.statuses.at(-1)!.status.waiting).toBe(9));
    for (let i = 1; i < first.statuses.length; i++) {
      expect(first.statuses[i].at - first.statuses[i - 1].at).toBeGreaterThan(TICK_MS / 2);
    }
    for (const q of [first, ...others]) await q.queue.leave();
  });

  it("count players per zone, a choice-free player in every zone its rating may enter", async () => {
    const eu = await watch(server, "zoned_duel", { rating: 2100, zones: ["eu"], side: "A" });
    const free = await watch(server, "zoned_duel", { rating: 2200, side: "A" }); // eu and pro
    const low = await watch(server, "zoned_duel", { rating: 1000, side: "A" }); // eu only
    await sleep(2 * TICK_MS);
    await vi.waitFor(() => expect(eu.statuses.at(-1)!.status).toMatchObject({ waiting: 3, waitingByZone: { eu: 3 } }));
    await vi.waitFor(() =>
      expect(free.statuses.at(-1)!.status).toMatchObject({ waiting: 3, waitingByZone: { eu: 3, pro: 1 } }),
    );
    await vi.waitFor(() => expect(low.statuses.at(-1)!.status).toMatchObject({ waiting: 3, waitingByZone: { eu: 3 } }));
    // `clients` is the player's busiest zone.
    expect(free.clients.at(-1)).toBe(3);
    for (const q of [eu, free, low]) await q.queue.leave();
  });
});
