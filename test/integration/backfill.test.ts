import { defineRoom, Room, type Client } from "@colyseus/core";
import type { Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  cancelBackfill,
  defineQueue,
  queueSeatsOnly,
  requestBackfill,
  type MatchInfo,
  type MatchmakerRoom,
  type SeatOptions,
} from "../../src/index.js";
import { joinQueue, staysPending, testPort, within } from "../helpers/sdk.js";

/** A game that asks its queue for a replacement whenever a player leaves. */
class BackfillGame extends Room {
  static override onAuth = queueSeatsOnly; // replacement seats go only to rooms that refuse clients' own joins
  static rooms = new Map<string, BackfillGame>();
  match!: MatchInfo;
  readonly joins: Array<{ sessionId: string; options: SeatOptions }> = [];
  readonly requests: Array<Promise<unknown>> = [];

  override onCreate(options: { match: MatchInfo }): void {
    this.match = options.match;
    this.maxClients = options.match.teamSize * 2;
    BackfillGame.rooms.set(options.match.id, this);
  }
  override onJoin(client: Client, options: SeatOptions): void {
    this.joins.push({ sessionId: client.sessionId, options });
  }
  override onLeave(client: Client): void {
    const team = this.match.teams.findIndex((t) => t.players.some((p) => p.sessionId === client.sessionId));
    const replacement = this.joins.find((j) => j.sessionId === client.sessionId && j.options.backfill);
    const t = (team === -1 ? replacement?.options.team : team) as 0 | 1 | undefined;
    if (t !== undefined && this.autoBackfill) this.requests.push(requestBackfill(this.match, t, 1));
  }
  autoBackfill = true;
}

describe("backfill", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          bf_duel: defineQueue({ teamSize: 1, gameRoom: "bf_game", tickMs: 100 }),
          bf_squad: defineQueue({ teamSize: 2, gameRoom: "bf_game", tickMs: 100 }),
          bf_game: defineRoom(BackfillGame),
        },
      }),
      testPort(24),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });
  beforeEach(async () => {
    await server.cleanup();
  });

  it("gives a waiting player the seat of one who left, in the same game room, on the right team", async () => {
    const a = await joinQueue(server, "bf_duel", { rating: 1500 });
    const b = await joinQueue(server, "bf_duel", { rating: 1520 });
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 3000, "seats");
    const gameA = await server.sdk.consumeSeatReservation(seatA);
    const gameB = await server.sdk.consumeSeatReservation(seatB);
    const game = BackfillGame.rooms.get(seatA.matchId)!;
    expect(game.match.queueRoomId).toBe(a.queue.roomId);
    await vi.waitFor(() => expect(game.joins).toHaveLength(2));

    // Waiting meanwhile: one who insists on the other side (does not fit a's team), one far away.
    const queueRoom = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    const wrongSide = await joinQueue(server, "bf_duel", { rating: 1500, side: seatB.side });
    await vi.waitFor(() => expect(queueRoom.matchmaker.size).toBe(1));

    await gameA.leave(); // the game asks for one replacement on a's team
    await vi.waitFor(() => expect(game.requests).toHaveLength(1));
    expect(await game.requests[0]).toEqual({ matchId: seatA.matchId, team: seatA.team, pending: 1 });
    expect(await staysPending(wrongSide.seat, 300)).toBe(true);
    expect(queueRoom.getMetrics()).toMatchObject({ backfillRequested: 1, backfillPending: 1, backfillFilled: 0 });

    // A newcomer who fits takes the seat (ahead of playing wrongSide in a new game).
    const c = await joinQueue(server, "bf_duel", { rating: 1490 });
    const seatC = await within(c.seat, 3000, "the replacement's seat");
    expect(seatC).toMatchObject({
      roomId: seatA.roomId,
      matchId: seatA.matchId,
      side: seatA.side,
      team: seatA.team,
      backfill: true,
    });
    const gameC = await server.sdk.consumeSeatReservation(seatC);
    await vi.waitFor(() =>
      expect(game.joins.at(-1)).toEqual({
        sessionId: c.queue.sessionId,
        options: expect.objectContaining({ backfill: true, team: seatA.team, matchId: seatA.matchId }),
      }),
    );
    expect(queueRoom.getMetrics()).toMatchObject({
      backfillRequested: 1,
      backfillPending: 0,
      backfillFilled: 1,
      waitingPlayers: 1,
    });
    expect(queueRoom.matchmaker.has(wrongSide.queue.sessionId)).toBe(true);

    game.autoBackfill = false;
    for (const g of [gameB, gameC]) await g.leave();
    for (const q of [a, b, c, wrongSide]) await q.queue.leave();
  });

  it("refuses bad requests with a clear error, and cancels a pending one", async () => {
    const a = await joinQueue(server, "bf_duel", { rating: 1500 });
    const b = await joinQueue(server, "bf_duel", { rating: 1500 });
    const [seatA] = await within(Promise.all([a.seat, b.seat]), 3000, "seats");
    const game = BackfillGame.rooms.get(seatA.matchId)!;
    await expect(requestBackfill({ id: "no-such-match", queueRoomId: a.queue.roomId }, 0, 1)).rejects.toThrow(
      /matchId: no running match "no-such-match"/,
    );
    await expect(requestBackfill(game.match, 2 as 0, 1)).rejects.toThrow(/team: must be 0 \(side A\) or 1 \(side B\)/);
    await expect(requestBackfill(game.match, 0, 2)).rejects.toThrow(/count: must be a whole number from 1 to 1/);
    await expect(requestBackfill({ id: game.match.id }, 0, 1)).rejects.toThrow(/no queueRoomId/);

    // A pending request can be cancelled: a fitting newcomer then waits for a game of its own.
    const queueRoom = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    expect(await requestBackfill(game.match, 0, 1)).toEqual({ matchId: game.match.id, team: 0, pending: 1 });
    await expect(requestBackfill(game.match, 0, 1)).rejects.toThrow(
      "requestBackfill: count: 1 of the team's 1 seats are already sought",
    );
    expect(await cancelBackfill(game.match)).toBe(1);
    expect(queueRoom.getMetrics()).toMatchObject({ backfillRequested: 1, backfillPending: 0 });
    const newcomer = await joinQueue(server, "bf_duel", { rating: 1500 });
    expect(await staysPending(newcomer.seat, 300)).toBe(true);
    expect(queueRoom.matchmaker.has(newcomer.queue.sessionId)).toBe(true);
    expect(queueRoom.getMetrics()).toMatchObject({ backfillFilled: 0, backfillFailures: 0 }); // never tried
    for (const q of [a, b, newcomer]) await q.queue.leave();
  });

  it("puts a player back at its place when the game room cannot seat it", async () => {
    const a = await joinQueue(server, "bf_duel", { rating: 1500 });
    const b = await joinQueue(server, "bf_duel", { rating: 1500 });
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 3000, "seats");
    const games = [await server.sdk.consumeSeatReservation(seatA), await server.sdk.consumeSeatReservation(seatB)];
    const game = BackfillGame.rooms.get(seatA.matchId)!;
    await vi.waitFor(() => expect(game.joins).toHaveLength(2));
    const queueRoom = server.getRoomById<MatchmakerRoom>(a.queue.roomId);

    const waiter = await joinQueue(server, "bf_duel", { rating: 1500, side: seatA.side });
    const since = queueRoom.state.waiting.get(waiter.queue.sessionId)!.waitingSince;
    // Nobody left: the game is full, so every reservation fails; the request is dropped after a few.
    await requestBackfill(game.match, seatA.team, 1);
    await vi.waitFor(() => expect(queueRoom.getMetrics().backfillFailures).toBe(3), { timeout: 5000 });
    await vi.waitFor(() => expect(queueRoom.getMetrics().backfillPending).toBe(0));
    expect(queueRoom.matchmaker.has(waiter.queue.sessionId)).toBe(true);
    expect(queueRoom.state.waiting.get(waiter.queue.sessionId)!.waitingSince).toBe(since);
    expect(await staysPending(waiter.seat, 200)).toBe(true);

    game.autoBackfill = false;
    for (const g of games) await g.leave();
    for (const q of [a, b, waiter]) await q.queue.leave();
  });

  it("seats a waiting party in two seats of one team, as one", async () => {
    const solos = [];
    for (const rating of [1500, 1500, 1500, 1500]) solos.push(await joinQueue(server, "bf_squad", { rating }));
    const seats = await within(Promise.all(solos.map((s) => s.seat)), 3000, "squad seats");
    const games: SdkRoom[] = [];
    for (const seat of seats) games.push(await server.sdk.consumeSeatReservation(seat));
    const game = BackfillGame.rooms.get(seats[0].matchId)!;
    await vi.waitFor(() => expect(game.joins).toHaveLength(4));
    const queueRoom = server.getRoomById<MatchmakerRoom>(solos[0].queue.roomId);

    // Both players of team 0 leave: the game asks twice for one seat; the requests make one of two.
    const team0 = seats.map((s, i) => [s, games[i]] as const).filter(([s]) => s.team === 0);
    for (const [, g] of team0) await g.leave();
    await vi.waitFor(() => expect(game.requests).toHaveLength(2));
    await Promise.all(game.requests);
    expect(queueRoom.getMetrics()).toMatchObject({ backfillRequested: 2, backfillPending: 2 });

    // A party of two (leader and member) joins and takes both seats together.
    const leader = await joinQueue(server, "bf_squad", { rating: 1510, party: { size: 2 } });
    const code = await within(
      new Promise<string>((resolve) => leader.queue.onMessage("party", (m: { code: string }) => resolve(m.code))),
      3000,
      "the party code",
    );
    const member = await joinQueue(server, "bf_squad", { rating: 1490, partyCode: code });
    const [s1, s2] = await within(Promise.all([leader.seat, member.seat]), 3000, "the party's seats");
    for (const s of [s1, s2])
      expect(s).toMatchObject({ roomId: seats[0].roomId, matchId: seats[0].matchId, team: 0, backfill: true });
    expect(queueRoom.getMetrics()).toMatchObject({ backfillFilled: 2, backfillPending: 0, waitingPlayers: 0 });
    expect(queueRoom.session.placeOf(leader.queue.sessionId)).toBe("seated");

    game.autoBackfill = false;
    for (const [, g] of seats.map((s, i) => [s, games[i]] as const).filter(([s]) => s.team === 1)) await g.leave();
    for (const q of [...solos, leader, member]) await q.queue.leave();
  });
});
