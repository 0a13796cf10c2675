/**
 * Status messages on a controlled clock: the queue rooms read `clock.now` and their timers fire
 * only when the test advances it, so "on entry, then only when something moved, at most once per
 * statusIntervalMs" and "stops after the match" are exact statements about sends, not about how
 * fast this machine delivers them.
 */
import { defineRoom, Room, type Client as ServerClient } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatchmakerRoom } from "../../src/index.js";
import type { StatusMessage } from "../../src/client/index.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { joinQueue, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const TICK_MS = 200;
/** The clock moves in steps this long; every message sent in a step is delivered before the next. */
const STEP_MS = 50;

class Game extends Room {}

interface Watched extends Omit<QueuedClient, "statuses"> {
  /** Each status with the controlled time it was sent at. */
  statuses: Array<{ at: number; status: StatusMessage }>;
  clients: number[];
  /** The server's end of this client's connection, used to send fences. */
  peer: ServerClient;
  fences: number;
  fenced: (n: number) => Promise<void>;
}

const clock = new ManualClock();
const watched: Watched[] = [];
let server: ColyseusTestServer;

async function watch(queue: string, options: Record<string, unknown>): Promise<Watched> {
  const joined = await joinQueue(server, queue, options);
  const room = server.getRoomById<MatchmakerRoom>(joined.queue.roomId);
  const statuses: Watched["statuses"] = [];
  const clients: number[] = [];
  const waiters = new Map<number, () => void>();
  joined.queue.onMessage("status", (status: StatusMessage) => statuses.push({ at: clock.now, status }));
  joined.queue.onMessage("clients", (n: number) => clients.push(n));
  joined.queue.onMessage("fence", (n: number) => waiters.get(n)?.());
  const w: Watched = {
    ...joined,
    statuses,
    clients,
    peer: room.clients.getById(joined.queue.sessionId)!,
    fences: 0,
    fenced: (n) => new Promise<void>((resolve) => waiters.set(n, resolve)),
  };
  watched.push(w);
  await deliver();
  return w;
}

/**
 * Wait until every message the server sent so far has reached every watched client: one
 * connection delivers in order, so a fence sent now arrives after all of them.
 */
async function deliver(): Promise<void> {
  const open = watched.filter((w) => w.queue.connection.isOpen);
  await within(
    Promise.all(
      open.map((w) => {
        const n = ++w.fences;
        const arrived = w.fenced(n);
        w.peer.send("fence", n);
        return arrived;
      }),
    ),
    5000,
    "message delivery",
  );
}

/** Let `ms` of controlled time pass, delivering each step's messages before the next step. */
async function pass(ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= STEP_MS) {
    clock.advance(Math.min(STEP_MS, left));
    await deliver();
  }
}

/** Consecutive statuses are at least `statusIntervalMs` (here a tick) apart. */
function expectThrottled(statuses: Watched["statuses"]): void {
  for (let i = 1; i < statuses.length; i++) expect(statuses[i].at - statuses[i - 1].at).toBeGreaterThanOrEqual(TICK_MS);
}

describe("status messages", () => {
  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // multi-queue with two ranges over 0..10000: a player's window is its half.
          mq_duel: manualQueue(
            {
              teamSize: 1,
              gameRoom: "game",
              policy: "multi-queue",
              params: { r: 2 },
              tickMs: TICK_MS,
              statusIntervalMs: TICK_MS,
            },
            clock,
          ),
          // Zones: a choice-free player waits in every zone its rating may enter.
          zoned_duel: manualQueue(
            {
              teamSize: 1,
              gameRoom: "game",
              tickMs: TICK_MS,
              statusIntervalMs: TICK_MS,
              zones: ["eu", { name: "pro", minRating: 2000 }],
            },
            clock,
          ),
          // Joins batched over half a second; no heartbeat in the way.
          batched_duel: manualQueue(
            { teamSize: 1, gameRoom: "game", tickMs: 60_000, statusIntervalMs: TICK_MS, joinBatchMs: 500 },
            clock,
          ),
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
    const a = await watch("mq_duel", { rating: 1000 });
    const joinedAt = clock.now;
    await pass(6 * TICK_MS + 100);

    // 1.3 s of waiting and nothing moved: the status at the join is the only one (no clock-driven waitedMs).
    expect(a.statuses.map((s) => s.at - joinedAt)).toEqual([0]);
    const first = a.statuses[0].status;
    expect(first).toMatchObject({ waiting: 1, waitedMs: 0, estimatedWaitMs: null, window: { min: 0, max: 5000 } });
    // The client derives the waited time from the pair it was sent once.
    expect(first.ticketId).toBe(a.queue.sessionId);
    expect(first.serverTime! - first.waitingSince!).toBe(0);
    // QueueRoom's `clients`: the players waiting, sent once (it did not change).
    expect(a.clients).toEqual([1]);

    // A player in the other half of the range does not fit a's window: both wait, and a is told 2 wait.
    const far = await watch("mq_duel", { rating: 9000 });
    await pass(3 * TICK_MS);
    expect(a.statuses.at(-1)!.status.waiting).toBe(2);
    expect(far.statuses.at(-1)!.status.window).toEqual({ min: 5000, max: 10_000 });
    expect(a.clients).toEqual([1, 2]);
    expectThrottled(a.statuses);

    // b, side B, in a's half: a and b play at once; their statuses stop.
    const b = await watch("mq_duel", { rating: 1100, side: "B" });
    const matchedAt = clock.now;
    await within(Promise.all([a.seat, b.seat]), 3000, "seats");
    await pass(4 * TICK_MS);
    expect(a.statuses.filter((s) => s.at > matchedAt)).toEqual([]);
    expect(b.statuses.filter((s) => s.at > matchedAt)).toEqual([]);
    // far still waits and hears that one player waits now.
    expect(far.statuses.at(-1)!.status.waiting).toBe(1);

    // The next solo of a's class (party of 1, any side, a's rating band) is told a's wait as its
    // estimate, in whole seconds: a waited 1.9 s.
    expect(matchedAt - joinedAt).toBe(1900);
    const c = await watch("mq_duel", { rating: 1050 });
    await pass(TICK_MS);
    expect(c.statuses[0].status.estimatedWaitMs).toBe(2000);
    for (const q of [a, b, far, c]) await q.queue.leave();
  });

  it("coalesce a burst of joins: at most one status per statusIntervalMs", async () => {
    // Side-A players cannot play each other in 1v1: they all wait, and every join changes `waiting`.
    const first = await watch("mq_duel", { rating: 3000, side: "A" });
    await pass(TICK_MS + STEP_MS);
    const start = clock.now;
    const others: Watched[] = [];
    // Eight joins within one step of controlled time.
    for (let i = 0; i < 8; i++) others.push(await watch("mq_duel", { rating: 3000 + i, side: "A" }));
    await pass(2 * TICK_MS);
    const during = first.statuses.filter((s) => s.at >= start);
    // Eight changes of `waiting` in one instant, then two intervals: at most one status per
    // interval (here at most three), the last with all nine waiting.
    expect(during.length).toBeGreaterThan(0);
    expect(during.length).toBeLessThanOrEqual(3);
    expect(during.at(-1)!.status.waiting).toBe(9);
    expectThrottled(first.statuses);
    for (const q of [first, ...others]) await q.queue.leave();
  });

  it("batch joins: a join after a quiet interval runs the policy at once, the next ones at the interval's end", async () => {
    const seated = new Set<string>();
    const track = (w: Watched) => void w.seat.then(() => seated.add(w.queue.sessionId));
    // The first join: the policy runs at once; alone, a waits and hears its status.
    const a = await watch("batched_duel", { rating: 1500, side: "A" });
    track(a);
    expect(a.statuses.map((s) => s.at)).toEqual([clock.now]);
    // b could play a, but joins within the interval: no run yet, so no seat and no status.
    await pass(STEP_MS);
    const b = await watch("batched_duel", { rating: 1510, side: "B" });
    track(b);
    expect(seated.size).toBe(0);
    expect(b.statuses).toEqual([]);
    // At the interval's end one run matches them; b, matched by it, hears its seat without a status.
    await pass(500);
    await within(Promise.all([a.seat, b.seat]), 3000, "seats");
    expect(b.statuses).toEqual([]);
    expect(b.clients).toEqual([2]);
    expect(a.statuses).toHaveLength(1);
    for (const q of [a, b]) await q.queue.leave();
  });

  it("count players per zone, a choice-free player in every zone its rating may enter", async () => {
    const eu = await watch("zoned_duel", { rating: 2100, zones: ["eu"], side: "A" });
    const free = await watch("zoned_duel", { rating: 2200, side: "A" }); // eu and pro
    const low = await watch("zoned_duel", { rating: 1000, side: "A" }); // eu only
    await pass(2 * TICK_MS);
    expect(eu.statuses.at(-1)!.status).toMatchObject({ waiting: 3, waitingByZone: { eu: 3 } });
    expect(free.statuses.at(-1)!.status).toMatchObject({ waiting: 3, waitingByZone: { eu: 3, pro: 1 } });
    expect(low.statuses.at(-1)!.status).toMatchObject({ waiting: 3, waitingByZone: { eu: 3 } });
    // `clients` is the player's busiest zone.
    expect(free.clients.at(-1)).toBe(3);
    for (const q of [eu, free, low]) await q.queue.leave();
  });
});
