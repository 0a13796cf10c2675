/**
 * Seats only from the queue. Before, after a player left the demo game, a client's own
 * `joinById(roomId, { backfill: true, side: "A" })` took a seat no queue reserved (the demo
 * trusted `options.backfill`), and the demo's state showed every reserved seat's sessionId, with
 * which another player took that seat first. Now a game room behind `queueSeatsOnly` refuses every
 * client's own join or creation, the queue's replacements still enter, and the queue gives no
 * replacement seat to a game room that takes clients' own joins.
 */
import { defineRoom, logger, Room, type Client } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { rooms } from "../../example-server/app.config.js";
import { DemoGameRoom, type DemoGameState } from "../../example-server/DemoGameRoom.js";
import {
  defineQueue,
  requestBackfill,
  type MatchInfo,
  type MatchmakerRoom,
  type SeatOptions,
} from "../../src/index.js";
import { DIRECT_JOIN_REFUSED } from "../../src/colyseus/director/seat-gate.js";
import { joinQueue, staysPending, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const PORT = testPort(152);

/** The demo game, asking its queue for a replacement when a player leaves. */
class ReplacingDemoRoom extends DemoGameRoom {
  override onLeave(client: Client): void {
    const seat = this.state.seats.get(client.sessionId);
    if (seat) void requestBackfill(this.match, seat.team, 1).catch(() => undefined);
  }
}

/** A game room as the old demo: Colyseus's default static onAuth, and `options.backfill` trusted. */
class OpenGameRoom extends Room {
  match!: MatchInfo;
  override onCreate(options: { match: MatchInfo }): void {
    this.match = options.match;
    this.maxClients = options.match.teamSize * 2;
  }
  override onJoin(client: Client, options: SeatOptions): void {
    const listed = this.match.teams.some((t) => t.players.some((p) => p.sessionId === client.sessionId));
    if (!listed && options.backfill !== true) throw new Error("this seat was not reserved for you");
  }
  override onLeave(client: Client): void {
    const team = this.match.teams.findIndex((t) => t.players.some((p) => p.sessionId === client.sessionId));
    if (team !== -1) void requestBackfill(this.match, team, 1).catch(() => undefined);
  }
}

const REFUSED = { code: 525, message: DIRECT_JOIN_REFUSED };

describe("seats only from the queue", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          ...rooms,
          gate_duel: defineQueue({ teamSize: 1, gameRoom: "gate_game", tickMs: 100 }),
          gate_game: defineRoom(ReplacingDemoRoom),
          open_duel: defineQueue({ teamSize: 1, gameRoom: "open_game", tickMs: 100 }),
          open_game: defineRoom(OpenGameRoom),
        },
      }),
      PORT,
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });
  beforeEach(async () => {
    await server.cleanup();
  });

  /**
   * Two players of `queue` matched, both in their game: their queue clients (still connected, so
   * that the queue room stays to hear the game's requests), seats and game rooms.
   */
  async function playing(queue: string) {
    const players: QueuedClient[] = [await joinQueue(server, queue, { rating: 1500 })];
    players.push(await joinQueue(server, queue, { rating: 1500 }));
    const seats = await within(Promise.all(players.map((p) => p.seat)), 5000, "both seats");
    const games = [];
    for (const seat of seats) games.push(await server.sdk.consumeSeatReservation<DemoGameState>(seat));
    return { players, seats, games };
  }

  it("refuses a client's own join into the demo game after a player left, and its own demo game", async () => {
    const a = await joinQueue(server, "duel", { rating: 1500 });
    const b = await joinQueue(server, "duel", { rating: 1500 });
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 5000, "both seats");
    const gameA = await server.sdk.consumeSeatReservation<DemoGameState>(seatA);
    // The first in sees its own seat only: b's sessionId (its seat's key) is not shown before b arrives.
    await vi.waitFor(() => expect(gameA.state.seats?.size).toBe(1));
    expect([...gameA.state.seats.keys()]).toEqual([seatA.sessionId]);
    const gameB = await server.sdk.consumeSeatReservation<DemoGameState>(seatB);
    await vi.waitFor(() => expect(gameA.state.seats.size).toBe(2));
    for (const p of [a, b]) await p.queue.leave();

    const room = server.getRoomById<DemoGameRoom>(seatA.roomId);
    await gameB.leave(); // a place is free
    await vi.waitFor(() => expect(room.clients.length).toBe(1));
    const forged = [
      { backfill: true, side: seatB.side, team: seatB.team, rating: 1500, matchId: seatB.matchId },
      { backfill: true, side: "A" },
      { side: seatB.side },
    ];
    for (const options of forged)
      await expect(server.sdk.joinById(seatA.roomId, options)).rejects.toMatchObject(REFUSED);
    const match = { id: "made-up", queue: "duel", teamSize: 1, bots: 0, teams: [], quality: { imbalance: 0 } };
    await expect(server.sdk.create("demo_game", { match })).rejects.toMatchObject(REFUSED);
    await expect(server.sdk.joinOrCreate("demo_game", { match })).rejects.toMatchObject(REFUSED);
    // Nothing changed in the game: its two players' seats, one of them still there.
    expect(room.clients.length).toBe(1);
    expect([...room.state.seats.keys()].sort()).toEqual([seatA.sessionId, seatB.sessionId].sort());
    expect(server.getRoomById(seatA.roomId)).toBe(room);
    await gameA.leave();
  });

  it("still seats the queue's replacement in a game behind queueSeatsOnly", async () => {
    const { players, seats, games } = await playing("gate_duel");
    const room = server.getRoomById<ReplacingDemoRoom>(seats[0]!.roomId);
    await games[1]!.leave(); // the game asks its queue for a replacement on that side
    const c = await joinQueue(server, "gate_duel", { rating: 1490 });
    const seatC = await within(c.seat, 5000, "the replacement's seat");
    expect(seatC).toMatchObject({ roomId: seats[0]!.roomId, side: seats[1]!.side, backfill: true });
    const gameC = await server.sdk.consumeSeatReservation(seatC);
    await vi.waitFor(() => expect(room.state.seats.get(c.queue.sessionId)?.arrived).toBe(true));
    expect(room.clients.length).toBe(2);
    for (const g of [games[0]!, gameC]) await g.leave();
    for (const p of [...players, c]) await p.queue.leave();
  });

  it("gives no replacement seat to a game room that takes clients' own joins, and says why, once", async () => {
    const warnings = vi.spyOn(logger, "warn");
    const errors = vi.spyOn(logger, "error");
    try {
      const { players, seats, games } = await playing("open_duel");
      const warned = warnings.mock.calls.map((args) => String(args[0]));
      expect(warned.filter((w) => w.includes('game room "open_game" takes clients\' own joins'))).toHaveLength(1);
      expect(warned.some((w) => w.includes("static override onAuth = queueSeatsOnly"))).toBe(true);

      const queueRoom = server.getRoomById<MatchmakerRoom>(
        (server.getRoomById(seats[0]!.roomId) as OpenGameRoom).match.queueRoomId!,
      );
      await games[1]!.leave(); // the game asks for a replacement: the queue refuses to reserve it
      await vi.waitFor(() => expect(queueRoom.getMetrics().backfillRequested).toBe(1));
      const c = await joinQueue(server, "open_duel", { rating: 1490 });
      await vi.waitFor(() => expect(queueRoom.getMetrics().backfillFailures).toBe(1));
      expect(await staysPending(c.seat, 300)).toBe(true);
      expect(queueRoom.getMetrics()).toMatchObject({ backfillPending: 0, backfillFilled: 0, backfillFailures: 1 });
      expect(queueRoom.matchmaker.has(c.queue.sessionId)).toBe(true); // back at its place
      const refusals = errors.mock.calls.map((args) => String(args[0])).filter((e) => e.includes("backfill refused"));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toContain('game room "open_game" takes clients\' own joins');

      // A second game of the same room type is not warned about again.
      await c.queue.leave();
      const again = await playing("open_duel");
      expect(warnings.mock.calls.filter((args) => String(args[0]).includes('"open_game"'))).toHaveLength(1);
      for (const g of [games[0]!, ...again.games]) await g.leave();
      for (const p of [...players, ...again.players]) await p.queue.leave();
    } finally {
      warnings.mockRestore();
      errors.mockRestore();
    }
  });
});
