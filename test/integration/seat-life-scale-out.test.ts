/**
 * Killing the game rooms' process: two server processes on Redis (test/helpers/seat-life-server.ts),
 * the queue on one, every game room on the other. Eight players are matched in four 1v1 games;
 * three enter their game rooms; the game rooms' process is then killed (SIGKILL). The five who had
 * not entered are re-queued at their original place, told `game_lost` (the reservation, 60 s, is
 * far from over: it is the probe that found the process gone), and the queue seats them again on
 * the surviving process. Bounded: every wait has a limit; the processes are killed at the end.
 */
import type { ChildProcess } from "node:child_process";
import { Client, type Room as SdkRoom } from "@colyseus/sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { QueueMetrics } from "../../src/index.js";
import type { RequeuedMessage, SeatMessage, StatusMessage } from "../../src/client/index.js";
import { connectRedis, IN_CI } from "../helpers/redis.js";
import { testPort } from "../helpers/sdk.js";
import { startServerProcess, stopServerProcess } from "../helpers/server-process.js";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Our own key prefix: parallel runs in other checkouts keep their rooms apart.
const PREFIX = `mm-seat-life-test:${process.pid}:${Date.now()}:`;
const SERVER_URL = `${REDIS}?keyPrefix=${encodeURIComponent(PREFIX)}`;
const PORTS = [testPort(61), testPort(62)] as const;
const RESERVATION_S = 60;

const redis = await connectRedis(REDIS);
if (!redis && !IN_CI) console.warn(`seat-life scale-out test skipped: no Redis reachable at ${REDIS}`);

describe.runIf(!redis && IN_CI)("Redis in CI", () => {
  it("is reachable, so the killed-process test runs", () => {
    expect.fail(`CI=true but no Redis answers at ${REDIS}; .ci/run must start it`);
  });
});

function startServer(port: number) {
  return startServerProcess("test/helpers/seat-life-server.ts", port, {
    REDIS_URL: SERVER_URL,
    PUBLIC_ADDRESS: `127.0.0.1:${port}`,
    SEAT_RESERVATION_S: String(RESERVATION_S),
  });
}

async function metricsOn(port: number): Promise<QueueMetrics[]> {
  const response = await fetch(`http://127.0.0.1:${port}/matchmaker/metrics`);
  return ((await response.json()) as { queues: QueueMetrics[] }).queues;
}

interface Player {
  sdk: Client;
  queue: SdkRoom;
  seats: SeatMessage[];
  requeued: RequeuedMessage[];
  statuses: StatusMessage[];
  /** Epoch ms bounds of its join (the server is another process on this machine's clock). */
  joined: { from: number; by: number };
}

async function join(port: number, rating: number): Promise<Player> {
  const sdk = new Client(`ws://127.0.0.1:${port}`);
  const from = Date.now();
  const queue = await sdk.joinOrCreate("seat_duel", { rating });
  const player: Player = { sdk, queue, seats: [], requeued: [], statuses: [], joined: { from, by: Date.now() } };
  queue.onMessage("seat", (seat: SeatMessage) => player.seats.push(seat));
  queue.onMessage("requeued", (message: RequeuedMessage) => player.requeued.push(message));
  queue.onMessage("status", (status: StatusMessage) => player.statuses.push(status));
  queue.onMessage("clients", () => undefined);
  return player;
}

describe.skipIf(!redis)("the game rooms' process is killed before everyone entered", () => {
  let servers: Array<{ child: ChildProcess; ready: Promise<void> }> = [];
  const open: SdkRoom[] = [];

  beforeAll(async () => {
    servers = PORTS.map(startServer);
    await Promise.all(servers.map((s) => s.ready));
    // Both processes registered, so game rooms can be placed on the one without the queue.
    await vi.waitFor(async () => expect(Object.keys(await redis!.hgetall(`${PREFIX}roomcount`))).toHaveLength(2), {
      timeout: 5000,
      interval: 100,
    });
  });
  afterAll(async () => {
    // Some of these rooms were on the killed process: close the sockets instead of a polite leave.
    for (const room of open) room.connection.close();
    await Promise.all(servers.map((s) => stopServerProcess(s.child)));
    const keys = await redis!.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis!.del(...keys);
    redis!.disconnect();
  });

  it("re-queues at once, at their original place, everyone who had not entered, and seats them again", async () => {
    const players: Player[] = [];
    for (let i = 0; i < 8; i++) {
      const player = await join(PORTS[i % 2], 1500 + 10 * i);
      players.push(player);
      open.push(player.queue);
    }
    await vi.waitFor(() => expect(players.every((p) => p.seats.length === 1)).toBe(true), { timeout: 10_000 });
    const queueRoomId = players[0]!.queue.roomId;
    const queueIndex = (await Promise.all(PORTS.map(metricsOn))).findIndex((qs) =>
      qs.some((q) => q.roomId === queueRoomId),
    );
    expect(queueIndex).toBeGreaterThanOrEqual(0);
    const queuePort = PORTS[queueIndex]!;
    const gamePort = PORTS[1 - queueIndex]!;
    for (const p of players) expect(p.seats[0]!.publicAddress).toBe(`127.0.0.1:${gamePort}`);
    const queueFigures = async () => (await metricsOn(queuePort)).find((q) => q.roomId === queueRoomId)!;
    const before = await queueFigures();
    expect(before.seatsOpen).toBe(8);

    // Three enter their game rooms (on the other process); then that process dies.
    const entered = players.slice(0, 3);
    for (const p of entered) open.push(await p.sdk.consumeSeatReservation(p.seats[0]!));
    await vi.waitFor(async () => expect((await queueFigures()).seatsEntered).toBe(3), { timeout: 5000 });
    await stopServerProcess(servers[1 - queueIndex]!.child, "SIGKILL");

    const missing = players.slice(3);
    await vi.waitFor(
      () => {
        for (const p of missing) expect(p.requeued).toEqual([{ matchId: p.seats[0]!.matchId, reason: "game_lost" }]);
      },
      { timeout: 15_000, interval: 100 },
    );
    for (const p of entered) expect(p.requeued).toEqual([]);
    const after = await queueFigures();
    expect(after).toMatchObject({ seatsEntered: 3, seatsLostRequeued: 5, seatsLostRemoved: 0 });
    // The re-queued may already hold their next seats (four of them, in one new game).
    expect([0, 4]).toContain(after.seatsOpen);

    // Back in the queue, they are matched again; the new game rooms are on the surviving process.
    await vi.waitFor(() => expect(missing.filter((p) => p.seats.length === 2)).toHaveLength(4), { timeout: 15_000 });
    const again = missing.filter((p) => p.seats.length === 2);
    for (const p of again) expect(p.seats[1]!.publicAddress).toBe(`127.0.0.1:${queuePort}`);
    // The one left over waits at its original place: the queue tells it its first entry time again
    // (its first status may never have gone out: a player matched by its own join hears its seat instead).
    const left = missing.find((p) => p.seats.length === 1)!;
    await vi.waitFor(() => expect(left.statuses.length).toBeGreaterThanOrEqual(1), { timeout: 5000 });
    expect(left.statuses.at(-1)!.waitingSince).toBeGreaterThanOrEqual(left.joined.from);
    expect(left.statuses.at(-1)!.waitingSince).toBeLessThanOrEqual(left.joined.by);
    for (const p of again) open.push(await p.sdk.consumeSeatReservation(p.seats[1]!));
    await vi.waitFor(async () => expect((await queueFigures()).seatsEntered).toBe(7), { timeout: 5000 });
  });
});
