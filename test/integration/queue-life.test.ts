/**
 * A queue that outlives its last player (issue 33), with real SDK clients against a booted
 * server: every defined queue is in the metrics before anyone joins; the queue's counters, recent
 * waits and rematch history continue across the empty period between two queue rooms; a seat that
 * expires after everyone left the queue still reaches the game room's `onNoShow` and is counted;
 * a limiter's count stays in the figures while the queue has no room. The game rooms reserve
 * seats for 1 s; the seat watch's grace adds 2 s.
 */
import { defineRoom, matchMaker, Room, type Client } from "@colyseus/core";
import { Client as SdkClient, type Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  defineQueue,
  matchmakerMetrics,
  playerArrived,
  queueSeatsOnly,
  type MatchInfo,
  type MatchmakerRoom,
  type NoShowListener,
  type NoShowReport,
  type QueueMetrics,
  type SeatOptions,
} from "../../src/index.js";
import type { SeatMessage } from "../../src/client/index.js";
import { processQueueLives } from "../../src/colyseus/queue-life.js";
import { testPort, within } from "../helpers/sdk.js";

const PORT = testPort(180);
const base = `http://127.0.0.1:${PORT}`;
const QUEUES = ["life_duel", "life_flood", "life_squad"];

/** A game room as the README's: it reports arrivals and hears no-shows. */
class LifeGame extends Room implements NoShowListener {
  static override onAuth = queueSeatsOnly;
  static readonly noShows: NoShowReport[] = [];
  match!: MatchInfo;

  override onCreate(options: { match: MatchInfo }): void {
    this.seatReservationTimeout = 1;
    this.match = options.match;
    this.maxClients = options.match.teamSize * 2;
  }
  override onJoin(client: Client, _seat: SeatOptions): void {
    playerArrived(this.match, client.sessionId);
  }
  onNoShow(report: NoShowReport): void {
    LifeGame.noShows.push(report);
  }
}

async function metrics(): Promise<QueueMetrics[]> {
  const res = await fetch(`${base}/matchmaker/metrics`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { queues: QueueMetrics[] }).queues;
}

async function figuresOf(queue: string): Promise<QueueMetrics> {
  const all = (await metrics()).filter((m) => m.queue === queue);
  expect(all).toHaveLength(1); // one room of a name at a time: one entry
  return all[0]!;
}

async function prometheus(): Promise<string[]> {
  const res = await fetch(`${base}/matchmaker/metrics/prometheus`);
  expect(res.status).toBe(200);
  return (await res.text()).split("\n");
}

/** The value of one Prometheus sample line, or undefined when the line is absent. */
function sample(lines: readonly string[], series: string): number | undefined {
  const line = lines.find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

interface Player {
  queue: SdkRoom;
  seat: Promise<SeatMessage>;
}

async function join(queue: string, options: Record<string, unknown>, client = new SdkClient(base)): Promise<Player> {
  const room = await client.joinOrCreate(queue, options);
  let resolve!: (seat: SeatMessage) => void;
  const seat = new Promise<SeatMessage>((r) => (resolve = r));
  room.onMessage("seat", resolve);
  room.onMessage("*", () => undefined);
  return { queue: room, seat };
}

async function disposed(roomId: string): Promise<void> {
  await vi.waitFor(() => expect(matchMaker.getLocalRoomById(roomId)).toBeUndefined(), { timeout: 5000 });
}

describe("a queue's life is its name's", () => {
  let server: ColyseusTestServer;
  const sdk = new SdkClient(base);
  const games: SdkRoom[] = [];

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          life_duel: defineQueue({ teamSize: 1, gameRoom: "life_game", tickMs: 50, penalties: false, avoidRecent: 1 }),
          life_squad: defineQueue({ teamSize: 2, gameRoom: "life_game", tickMs: 50 }),
          // The test's connections (127.0.0.1) play a trusted proxy; X-Forwarded-For names its client.
          life_flood: defineQueue({
            teamSize: 1,
            gameRoom: "life_game",
            tickMs: 60_000,
            trustedProxies: ["127.0.0.1"],
            joinRateLimit: { perSecond: 0.01, burst: 1 },
          }),
          life_game: defineRoom(LifeGame),
        },
        initializeExpress: (app) => {
          app.use("/matchmaker/metrics", matchmakerMetrics());
        },
      }),
      PORT,
    );
  });
  afterAll(async () => {
    for (const g of games) await g.leave().catch(() => undefined);
    await server.shutdown();
  });

  /** Enter the game room of `seat` (it reports the arrival to the queue). */
  async function enter(seat: SeatMessage): Promise<void> {
    games.push(await sdk.consumeSeatReservation(seat));
  }

  it("lists every defined queue before any player, with its totals and no figure made up", async () => {
    const all = await metrics();
    expect(all.map((m) => m.queue)).toEqual(QUEUES);
    for (const m of all) {
      expect(m).toMatchObject({
        roomId: null,
        waitingPlayers: 0,
        matchesFormed: 0,
        playersMatched: 0,
        seatsEntered: 0,
        recentMatches: 0,
        // No match yet: no recent wait, not a wait of 0; nobody waits: no longest wait.
        meanWaitMs: null,
        p95WaitMs: null,
        meanImbalance: null,
        oldestWaitMs: null,
      });
    }
    expect((await figuresOf("life_squad")).teamSize).toBe(2);
    const lines = await prometheus();
    for (const queue of QUEUES) {
      expect(sample(lines, `matchmaker_matches_formed_total{queue="${queue}"}`)).toBe(0);
      expect(sample(lines, `matchmaker_queue_room_live{queue="${queue}"}`)).toBe(0);
    }
    expect(lines.filter((l) => /^matchmaker_(recent_wait|oldest_wait|recent_imbalance)/.test(l))).toEqual([]);
  });

  it("keeps its counters, recent waits and rematch history across an empty period and a refill", async () => {
    const seen: number[] = []; // matches_formed_total at every scrape: a counter never goes back
    const scrape = async () =>
      seen.push(sample(await prometheus(), 'matchmaker_matches_formed_total{queue="life_duel"}')!);

    const alice = await join("life_duel", { rating: 1500, playerId: "alice" });
    const bob = await join("life_duel", { rating: 1510, playerId: "bob" });
    const first = alice.queue.roomId;
    for (const seat of await within(Promise.all([alice.seat, bob.seat]), 5000, "round 1 seats")) await enter(seat);
    await vi.waitFor(async () => expect((await figuresOf("life_duel")).seatsEntered).toBe(2));
    await scrape();
    await alice.queue.leave();
    await bob.queue.leave();
    await disposed(first);

    // Between rooms: the totals and the recent figures are still there.
    const empty = await figuresOf("life_duel");
    expect(empty).toMatchObject({
      roomId: null,
      matchesFormed: 1,
      playersMatched: 2,
      seatsEntered: 2,
      recentMatches: 1,
    });
    expect(empty.p95WaitMs).not.toBeNull();
    await scrape();

    // A refill: a new room, the same queue. alice and bob met a game ago, so they wait for someone else.
    const alice2 = await join("life_duel", { rating: 1500, playerId: "alice" });
    const bob2 = await join("life_duel", { rating: 1510, playerId: "bob" });
    expect(alice2.queue.roomId).not.toBe(first);
    const room = server.getRoomById<MatchmakerRoom>(alice2.queue.roomId);
    expect(room.matchmaker.recentOpponents?.metRecently("alice", "bob")).toBe(true);
    await scrape();
    const carol = await join("life_duel", { rating: 1505, playerId: "carol" });
    const carolSeat = await within(carol.seat, 5000, "carol's seat");
    const partner = await within(Promise.race([alice2.seat, bob2.seat]), 5000, "carol's opponent's seat");
    expect(partner.roomId).toBe(carolSeat.roomId);
    await enter(carolSeat);
    await enter(partner);
    await vi.waitFor(async () => expect((await figuresOf("life_duel")).seatsEntered).toBe(4));
    const refilled = await figuresOf("life_duel");
    expect(refilled).toMatchObject({ roomId: room.roomId, matchesFormed: 2, playersMatched: 4, recentMatches: 2 });
    await scrape();
    for (const p of [alice2, bob2, carol]) await p.queue.leave();
    await disposed(room.roomId);
    await scrape();

    expect(seen).toEqual([1, 1, 1, 2, 2]);
    expect(await figuresOf("life_duel")).toMatchObject({
      roomId: null,
      matchesFormed: 2,
      seatsEntered: 4,
      lastHour: { matches: 2, playersSeated: 4, noShows: 0, requeued: 0 },
    });
  });

  it("reports a seat that expires after everyone left the queue to the game room, and counts it", async () => {
    const before = await figuresOf("life_duel");
    const dave = await join("life_duel", { rating: 1500, playerId: "dave" });
    const erin = await join("life_duel", { rating: 1500, playerId: "erin" });
    const roomId = dave.queue.roomId;
    const [daveSeat, erinSeat] = await within(Promise.all([dave.seat, erin.seat]), 5000, "seats");
    await enter(erinSeat);
    await vi.waitFor(async () => expect((await figuresOf("life_duel")).seatsEntered).toBe(before.seatsEntered + 1));
    // Everyone leaves the queue; dave never enters the game.
    await dave.queue.leave();
    await erin.queue.leave();
    await vi.waitFor(() => expect(LifeGame.noShows).toHaveLength(1), { timeout: 10_000 });
    expect(LifeGame.noShows[0]).toEqual({
      matchId: daveSeat.matchId,
      reason: "seat_expired",
      players: [{ sessionId: daveSeat.sessionId, team: daveSeat.team, backfill: false }],
    });
    await disposed(roomId); // nothing left to watch: the room goes
    expect(await figuresOf("life_duel")).toMatchObject({
      roomId: null,
      lastHour: { noShows: before.lastHour.noShows + 1, requeued: before.lastHour.requeued },
      seatsExpiredRemoved: before.seatsExpiredRemoved + 1,
      seatsEntered: before.seatsEntered + 1,
      seatsOpen: 0,
      matchesFormed: before.matchesFormed + 1,
    });
  });

  it("keeps a limiter's count in the figures while the queue has no room", async () => {
    const flooder = new SdkClient(base, { headers: { "X-Forwarded-For": "198.51.100.7" } });
    const first = await join("life_flood", { rating: 1500 }, flooder);
    await first.queue.leave();
    await disposed(first.queue.roomId);
    // Over its rate (burst 1): refused, twice, each time by a room that then goes.
    for (const refused of [1, 2]) {
      await expect(flooder.joinOrCreate("life_flood", { rating: 1500 })).rejects.toMatchObject({ code: 429 });
      await vi.waitFor(async () => expect((await figuresOf("life_flood")).roomId).toBeNull(), { timeout: 5000 });
      expect((await figuresOf("life_flood")).joinsRateLimited).toBe(refused);
    }
    const lines = await prometheus();
    expect(sample(lines, 'matchmaker_joins_limited_total{queue="life_flood",limit="join_rate"}')).toBe(2);
  });

  it("keeps one record per defined queue name, however many rooms came and went", () => {
    expect(processQueueLives.size).toBeLessThanOrEqual(QUEUES.length);
  });
});
