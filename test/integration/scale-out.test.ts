/**
 * Scale-out: two real server processes sharing Redis (test/helpers/scale-out-server.ts, which
 * runs the example server's rooms with `example-server/scale-out.ts`). Clients connect to both
 * endpoints; one queue room serves them all, the game room lands on the other process, every
 * client reaches it through the seat's publicAddress, and backfill crosses back to the queue.
 */
import type { ChildProcess } from "node:child_process";
import { Client, type Room as SdkRoom } from "@colyseus/sdk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DemoGameState } from "../../example-server/DemoGameRoom.js";
import type { QueueMetrics } from "../../src/index.js";
import type { SeatMessage } from "../../src/client/index.js";
import { connectRedis, IN_CI } from "../helpers/redis.js";
import { testPort, within } from "../helpers/sdk.js";
import { startServerProcess, stopServerProcess } from "../helpers/server-process.js";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Colyseus's Redis keys are fixed names (roomcaches, roomcount, ...): a prefix of our own keeps
// parallel runs in other checkouts apart. Channels are not prefixed, but they carry random ids.
const PREFIX = `mm-scale-out-test:${process.pid}:${Date.now()}:`;
const SERVER_URL = `${REDIS}?keyPrefix=${encodeURIComponent(PREFIX)}`;
const PORTS = [testPort(30), testPort(31)] as const;

const redis = await connectRedis(REDIS);
if (!redis && !IN_CI) console.warn(`scale-out tests skipped: no Redis reachable at ${REDIS}`);

describe.runIf(!redis && IN_CI)("Redis in CI", () => {
  it("is reachable, so the multi-process tests run", () => {
    expect.fail(`CI=true but no Redis answers at ${REDIS}; .ci/run must start it`);
  });
});

/** Start one server process; resolves once it prints that it listens. */
function startServer(port: number) {
  return startServerProcess("test/helpers/scale-out-server.ts", port, {
    REDIS_URL: SERVER_URL,
    PUBLIC_ADDRESS: `127.0.0.1:${port}`,
  });
}

/** The rooms each process counts, as it published them in Redis (processId → roomCount). */
async function roomCounts(): Promise<number[]> {
  const counts = await redis!.hgetall(`${PREFIX}roomcount`);
  return Object.values(counts).map((value) => Number(value.split(",")[0]));
}

/** The queue rooms a process hosts (its /matchmaker/metrics only lists its own). */
async function queueRoomsOn(port: number): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${port}/matchmaker/metrics`);
  const body = (await response.json()) as { queues: QueueMetrics[] };
  // A queue with no room here is listed too, with `roomId: null`.
  return body.queues.flatMap((q) => (q.roomId !== null ? [q.roomId] : []));
}

interface Player {
  sdk: Client;
  queue: SdkRoom;
  seat: Promise<SeatMessage>;
}

async function joinQueue(port: number, queue: string, rating: number): Promise<Player> {
  const sdk = new Client(`ws://127.0.0.1:${port}`);
  const room = await sdk.joinOrCreate(queue, { rating });
  const seat = new Promise<SeatMessage>((resolve) => room.onMessage("seat", resolve));
  room.onMessage("status", () => undefined);
  room.onMessage("clients", () => undefined);
  return { sdk, queue: room, seat };
}

describe.skipIf(!redis)("two server processes sharing Redis", () => {
  const children: ChildProcess[] = [];
  const open: SdkRoom[] = [];

  beforeAll(async () => {
    const servers = PORTS.map(startServer);
    children.push(...servers.map((s) => s.child));
    await Promise.all(servers.map((s) => s.ready));
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => stopServerProcess(child)));
    const keys = await redis!.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis!.del(...keys);
    redis!.disconnect();
  });
  beforeEach(async () => {
    // Both processes registered and empty (counts are published at most once a second), so the
    // least-loaded placement is known: the queue's process counts the queue, the other none.
    await vi.waitFor(async () => expect(await roomCounts()).toEqual([0, 0]), { timeout: 5000, interval: 100 });
  });
  afterEach(async () => {
    // Bounded: a failed test may leave rooms whose leave() would never settle.
    for (const room of open.splice(0).reverse()) await within(room.leave(), 2000, "leave").catch(() => undefined);
  });

  it("matches players who joined one queue through both processes; the game room is on the other process and everyone reaches it", async () => {
    const players: Player[] = [];
    // One at a time: the first creates the queue room, the others find it through Redis.
    for (const [i, rating] of [1500, 1600, 1400, 1700].entries()) {
      const player = await joinQueue(PORTS[i % 2], "squad", rating);
      players.push(player);
      open.push(player.queue);
    }
    const queueRoomId = players[0].queue.roomId;
    for (const p of players) expect(p.queue.roomId).toBe(queueRoomId);

    const seats = await within(Promise.all(players.map((p) => p.seat)), 5000, "four seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(new Set(seats.map((s) => s.matchId)).size).toBe(1);

    const queuePort = (await Promise.all(PORTS.map(queueRoomsOn))).flatMap((ids, i) =>
      ids.includes(queueRoomId) ? [PORTS[i]] : [],
    );
    expect(queuePort).toHaveLength(1);
    // Least-loaded placement: the queue's process counts the queue room, the other process none.
    const otherPort = PORTS.find((p) => p !== queuePort[0]);
    for (const seat of seats) expect(seat.publicAddress).toBe(`127.0.0.1:${otherPort}`);

    // Each client consumes its seat through its own endpoint's SDK client: half of them were
    // connected to the queue's process, and the seat's publicAddress sends them to the other.
    const games: Array<SdkRoom<DemoGameState>> = [];
    for (const [i, p] of players.entries()) {
      const game = await p.sdk.consumeSeatReservation<DemoGameState>(seats[i]);
      games.push(game);
      open.push(game);
      expect(game.roomId).toBe(seats[i].roomId);
      expect(game.sessionId).toBe(seats[i].sessionId);
    }
    await vi.waitFor(() => {
      for (const game of games) {
        const arrived = [...game.state.seats.values()].filter((s) => s.arrived).map((s) => s.sessionId);
        expect(arrived.sort()).toEqual(seats.map((s) => s.sessionId).sort());
      }
    });
  });

  it("backfills a game room on one process from the queue on the other", async () => {
    const first = await joinQueue(PORTS[0], "bf_duel", 1500);
    open.push(first.queue);
    const second = await joinQueue(PORTS[1], "bf_duel", 1510);
    open.push(second.queue);
    const [seat1, seat2] = await within(Promise.all([first.seat, second.seat]), 5000, "two seats");
    const queueRoomId = first.queue.roomId;
    expect(second.queue.roomId).toBe(queueRoomId);

    const queuePort = (await Promise.all(PORTS.map(queueRoomsOn))).flatMap((ids, i) =>
      ids.includes(queueRoomId) ? [PORTS[i]] : [],
    );
    expect(queuePort).toHaveLength(1);
    const gamePort = PORTS.find((p) => p !== queuePort[0]);
    expect(seat1.publicAddress).toBe(`127.0.0.1:${gamePort}`);

    // Not in `open`: the test leaves it itself, and a second leave() never settles.
    const game1 = await first.sdk.consumeSeatReservation<DemoGameState>(seat1);
    const game2 = await second.sdk.consumeSeatReservation<DemoGameState>(seat2);
    open.push(game2);
    await vi.waitFor(() => expect([...game2.state.seats.values()].filter((s) => s.arrived)).toHaveLength(2));

    // A third player waits alone (1v1: nobody to play), connected to the game's process; the
    // queue room it joins is on the other.
    const third = await joinQueue(gamePort!, "bf_duel", 1490);
    open.push(third.queue);
    expect(third.queue.roomId).toBe(queueRoomId);

    // The first player quits: the game room asks the queue (remoteRoomCall across processes)
    // for a replacement on that side, and the waiting player gets the seat.
    await game1.leave();
    const seat3 = await within(third.seat, 5000, "the replacement seat");
    expect(seat3).toMatchObject({
      roomId: seat1.roomId,
      matchId: seat1.matchId,
      side: seat1.side,
      team: seat1.team,
      backfill: true,
    });
    expect(seat3.publicAddress).toBe(`127.0.0.1:${gamePort}`);

    const game3 = await third.sdk.consumeSeatReservation<DemoGameState>(seat3);
    open.push(game3);
    expect(game3.roomId).toBe(seat1.roomId);
    await vi.waitFor(() => {
      const arrived = [...game2.state.seats.values()].filter((s) => s.arrived).map((s) => [s.sessionId, s.side]);
      expect(Object.fromEntries(arrived)).toEqual({ [seat2.sessionId]: seat2.side, [seat3.sessionId]: seat1.side });
    });
  });
});
