/**
 * The room layer follows the shape of a queue's games, seen by real SDK clients over real sockets:
 * a free-for-all of 3 (three seats of teams 0, 1 and 2, no sides; a fourth waits), four teams of
 * two, a 2-to-4 free-for-all that starts short-handed (empty seats), bots in a free-for-all, a
 * QueueRoom client in 3-player games (against QueueRoom and the matchmaker alike), `side` refused
 * in a free-for-all, a party in a free-for-all, and a ready check of three where one declines.
 */
import { defineRoom, QueueRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { playFromQueue } from "../../example-client/queue-room-client.js";
import { defineQueue, type MatchInfo, type MatchmakerRoom } from "../../src/index.js";
import type { MatchFoundMessage, PartyMessage, SeatMessage } from "../../src/client/index.js";
import { join, joinError, type Player } from "../helpers/queue-client.js";
import { DemoGameRoom, type DemoGameState } from "../../example-server/DemoGameRoom.js";
import { countingRoom } from "../helpers/counting-room.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { testPort, within } from "../helpers/sdk.js";

const { room: ShapeGameRoom, record: played } = recordingRoom();

/** The game room both QueueRoom and the matchmaker create for the QueueRoom client. */
const { room: AnyTable, joined: tables } = countingRoom(3);

/** A queued player that also records every `clients` count it hears. */
interface ShapePlayer extends Player {
  readonly clients: number[];
}

describe("the room follows the shape of the games", () => {
  let server: ColyseusTestServer;
  const players: Player[] = [];

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          ffa_3: defineQueue({ maxPlayers: 3, gameRoom: "shape_game", tickMs: 100 }),
          teams_4x2: defineQueue({ teamSize: 2, teams: 4, gameRoom: "shape_game", tickMs: 100 }),
          ffa_2to4: defineQueue({
            maxPlayers: 4,
            minPlayers: 2,
            shortHandedAfterMs: 200,
            gameRoom: "shape_game",
            tickMs: 100,
          }),
          ffa_bots: defineQueue({
            maxPlayers: 3,
            maxWaitMs: 200,
            fillWithBots: true,
            gameRoom: "shape_game",
            tickMs: 100,
          }),
          ffa_party: defineQueue({ maxPlayers: 4, gameRoom: "shape_game", tickMs: 100 }),
          ffa_ready: defineQueue({
            maxPlayers: 3,
            gameRoom: "shape_game",
            tickMs: 100,
            readyCheck: { timeoutMs: 30_000 },
          }),
          shape_game: defineRoom(ShapeGameRoom),
          // The example server's game room, in a short-handed free-for-all and in four teams.
          demo_2to4: defineQueue({ maxPlayers: 4, minPlayers: 2, shortHandedAfterMs: 200, gameRoom: "demo_game" }),
          demo_4x2: defineQueue({ teamSize: 2, teams: 4, gameRoom: "demo_game" }),
          demo_game: defineRoom(DemoGameRoom),
          // A QueueRoom client's two queues: Colyseus's own and the matchmaker, both 3-player games.
          colyseus_queue_3: defineRoom(QueueRoom, { matchRoomName: "any_table", maxPlayers: 3 }),
          matchmaker_queue_3: defineQueue({ maxPlayers: 3, gameRoom: "any_table", tickMs: 100 }),
          any_table: defineRoom(AnyTable),
        },
      }),
      testPort(220),
    );
  });
  afterAll(async () => {
    for (const p of players) if (p.room.connection.isOpen) await p.room.leave();
    await server.shutdown();
  });
  beforeEach(() => {
    played.matches.length = 0;
    played.joined.length = 0;
  });

  const enter = async (queue: string, options: Record<string, unknown>): Promise<ShapePlayer> => {
    const player = await join(server, queue, options);
    const clients: number[] = [];
    player.room.onMessage("clients", (n: number) => clients.push(n));
    players.push(player);
    return { ...player, clients };
  };
  const seatsOf = (group: readonly Player[], what: string): Promise<SeatMessage[]> =>
    within(Promise.all(group.map((p) => p.inbox.nth("seat"))), 10_000, what);
  const queueOf = (p: Player) => server.getRoomById<MatchmakerRoom>(p.room.roomId);
  const matchOf = (seat: SeatMessage): MatchInfo => played.matches.find((m) => m.id === seat.matchId)!;

  it("a free-for-all of 3: three clients share one game, teams 0, 1 and 2 without sides; a fourth waits", async () => {
    const four = await Promise.all([1500, 1510, 1520, 1530].map((rating) => enter("ffa_3", { rating })));
    // Three of the four are seated (which three depends on the order the joins arrived in).
    await vi.waitFor(() => expect(four.filter((p) => p.inbox.all("seat").length > 0)).toHaveLength(3), {
      timeout: 10_000,
    });
    const seated = four.filter((p) => p.inbox.all("seat").length > 0);
    const waiting = four.find((p) => !seated.includes(p))!;
    const seats = await seatsOf(seated, "three seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(new Set(seats.map((s) => s.matchId)).size).toBe(1);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2]);
    for (const seat of seats) expect(seat).not.toHaveProperty("side");

    // The game room's match: the shape, three teams of one, no sides, no empty seats.
    const match = matchOf(seats[0]!);
    expect(match.shape).toEqual({ kind: "free-for-all", players: 3, minPlayers: 3, countMultiple: 1 });
    expect(match.teamSize).toBe(1);
    expect(match.teams.map((t) => t.players.length)).toEqual([1, 1, 1]);
    for (const team of match.teams) expect(team).not.toHaveProperty("side");
    expect(match).not.toHaveProperty("emptySeats");
    expect(match.quality).not.toHaveProperty("imbalance");
    expect(match.quality.spread).toBeGreaterThanOrEqual(10);
    // Each seat's team index is its player's team in the match; the game room got the same.
    for (const [i, p] of seated.entries())
      expect(match.teams[seats[i]!.team]!.players[0]!.sessionId).toBe(p.room.sessionId);
    // Matched, each heard its game's size as `clients` (QueueRoom's group) last.
    for (const p of seated) expect(p.clients.at(-1)).toBe(3);

    // The fourth waits in the queue.
    const queue = queueOf(waiting);
    expect(queue.session.placeOf(waiting.room.sessionId)).toBe("waiting");
    expect(queue.matchmaker.get(waiting.room.sessionId)).toBeDefined();

    // The figures and metrics state the shape, and a free-for-all's quality is its spread.
    const metrics = queue.getMetrics();
    expect(metrics).toMatchObject({
      shapeKind: "free-for-all",
      teams: 3,
      teamSize: 1,
      maxPlayers: 3,
      minPlayers: 3,
      meanImbalance: null,
    });
    expect(metrics.meanSpread).toBe(match.quality.spread);
    expect(queue.state.figures.shapeKind).toBe("free-for-all");
    expect(queue.state.figures.maxPlayers).toBe(3);
    for (const p of four) await p.room.leave();
  });

  it("four teams of two: eight clients, teams 0 to 3 of two each, no sides", async () => {
    const eight = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => enter("teams_4x2", { rating: 1400 + 25 * i })));
    const seats = await seatsOf(eight, "eight seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect([0, 1, 2, 3].map((team) => seats.filter((s) => s.team === team).length)).toEqual([2, 2, 2, 2]);
    for (const seat of seats) expect(seat).not.toHaveProperty("side");
    const match = matchOf(seats[0]!);
    expect(match.shape).toEqual({ kind: "teams", teams: 4, teamSize: 2, minTeamSize: 2 });
    expect(match.teams.map((t) => t.players.length)).toEqual([2, 2, 2, 2]);
    for (const team of match.teams) expect(team).not.toHaveProperty("side");
    // More than two teams: the imbalance is there (the largest between two teams), beside the spread.
    expect(match.quality.imbalance).toBeGreaterThanOrEqual(0);
    for (const p of eight) expect(p.clients.at(-1)).toBe(8);
    expect(queueOf(eight[0]!).getMetrics()).toMatchObject({ shapeKind: "teams", teams: 4, teamSize: 2, maxPlayers: 8 });
    for (const p of eight) await p.room.leave();
  });

  it("two to four players: two clients start short-handed after the wait, in one game with two empty seats", async () => {
    const two = await Promise.all([1500, 1550].map((rating) => enter("ffa_2to4", { rating })));
    const seats = await seatsOf(two, "two seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1]);
    const match = matchOf(seats[0]!);
    expect(match.emptySeats).toBe(2);
    expect(match.bots).toBe(0);
    expect(match.teams).toHaveLength(2);
    expect(match.shape).toMatchObject({ kind: "free-for-all", players: 4, minPlayers: 2 });
    for (const p of two) expect(p.clients.at(-1)).toBe(2);
    for (const p of two) await p.room.leave();
  });

  it("bots fill a free-for-all: one client who waited its maximum plays with two bots", async () => {
    const alone = await enter("ffa_bots", { rating: 1500 });
    const [seat] = await seatsOf([alone], "a seat beside bots");
    const match = matchOf(seat!);
    expect(match.bots).toBe(2);
    expect(match.teams).toHaveLength(3);
    expect(match.teams.flatMap((t) => t.players).filter((p) => p.bot)).toHaveLength(2);
    expect(match).not.toHaveProperty("emptySeats");
    expect(match.teams[seat!.team]!.players[0]!.sessionId).toBe(alone.room.sessionId);
    await alone.room.leave();
  });

  it("refuses `side` in a free-for-all (and in four teams) by name, before any ticket is made", async () => {
    expect(await joinError(server, "ffa_3", { rating: 1500, side: "A" })).toEqual({
      code: 525,
      message: "invalid join options: side: this queue's games (a free-for-all of 3) have no sides",
    });
    expect(await joinError(server, "teams_4x2", { rating: 1500, side: "B" })).toEqual({
      code: 525,
      message: "invalid join options: side: this queue's games (4 teams of 2) have no sides",
    });
    // The queue serves everyone else as before.
    const ok = await enter("ffa_3", { rating: 1500 });
    expect(queueOf(ok).session.placeOf(ok.room.sessionId)).toBe("waiting");
    await ok.room.leave();
  });

  it("a party in a free-for-all plays in one game, each member for themselves; a party over the game's size is refused", async () => {
    expect(await joinError(server, "ffa_party", { rating: 1500, party: { size: 5 } })).toEqual({
      code: 525,
      message:
        "invalid join options: party.size: must be at most 4 (a free-for-all's party plays in one game of 4, each member for themselves)",
    });
    const leader = await enter("ffa_party", { rating: 1500, party: { size: 2 } });
    const created: PartyMessage = await within(leader.inbox.nth("party"), 5000, "the party code");
    const member = await enter("ffa_party", { rating: 1600, partyCode: created.code });
    const solos = await Promise.all([1400, 1700].map((rating) => enter("ffa_party", { rating })));
    const seats = await seatsOf([leader, member, ...solos], "four seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2, 3]);
    const match = matchOf(seats[0]!);
    const byId = new Map(match.teams.flatMap((t) => t.players).map((p) => [p.sessionId, p]));
    // The two members came as one ticket (never split), and play on teams of their own.
    expect(byId.get(leader.room.sessionId)!.ticketId).toBe(byId.get(member.room.sessionId)!.ticketId);
    expect(seats[0]!.team).not.toBe(seats[1]!.team);
    for (const p of [leader, member, ...solos]) await p.room.leave();
  });

  it("a ready check of three: one declines, the other two wait again at their places and play with the next", async () => {
    const [a, b, c] = await Promise.all([1500, 1510, 1520].map((rating) => enter("ffa_ready", { rating })));
    const found: MatchFoundMessage[] = await within(
      Promise.all([a, b, c].map((p) => p.inbox.nth("match_found"))),
      10_000,
      "match_found",
    );
    expect(new Set(found.map((f) => f.matchId)).size).toBe(1);
    expect(found[0]).toMatchObject({ players: 3 });
    const queue = queueOf(a!);
    const enqueuedAt = new Map(
      queue.session.pending.get(found[0]!.matchId)!.match.tickets.map((t) => [t.id, t.enqueuedAt]),
    );
    a!.room.send("decline");
    b!.room.send("accept");
    expect(await within(a!.inbox.nth("removed"), 5000, "removed")).toMatchObject({ reason: "declined" });
    for (const p of [b!, c!]) {
      expect(await within(p.inbox.nth("requeued"), 5000, "requeued")).toEqual({
        matchId: found[0]!.matchId,
        reason: "declined",
      });
      // Back in the queue with its first enqueue time: its place.
      expect(queue.matchmaker.get(p.room.sessionId)?.enqueuedAt).toBe(enqueuedAt.get(p.room.sessionId));
    }
    expect(played.matches).toHaveLength(0);

    // A newcomer makes three again: the two who waited and it, in a new match everyone accepts.
    const d = await enter("ffa_ready", { rating: 1530 });
    const second: MatchFoundMessage[] = await within(
      Promise.all([b!, c!, d].map((p) => p.inbox.nth("match_found", p === d ? 1 : 2))),
      10_000,
      "the second match_found",
    );
    expect(new Set(second.map((s) => s.matchId)).size).toBe(1);
    expect(second[0]!.matchId).not.toBe(found[0]!.matchId);
    for (const p of [b!, c!, d]) p.room.send("accept");
    const seats = await seatsOf([b!, c!, d], "three seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2]);
    expect(played.matches).toHaveLength(1);
    for (const p of [b!, c!, d]) await p.room.leave();
  });

  /** The game rooms a test entered (it leaves them at its end). */
  const games: Array<{ leave(): Promise<unknown> }> = [];
  /** Take every seat in the demo game room; resolves with the room once every seat shows its player arrived. */
  const enterDemo = async (seats: readonly SeatMessage[]): Promise<DemoGameRoom> => {
    for (const seat of seats) games.push(await server.sdk.consumeSeatReservation<DemoGameState>(seat));
    const room = server.getRoomById<DemoGameRoom>(seats[0]!.roomId);
    await vi.waitFor(() => expect([...room.state.seats.values()].filter((s) => s.arrived)).toHaveLength(seats.length));
    return room;
  };
  it("the demo game seats a short-handed free-for-all by team index and shows its two empty seats", async () => {
    const two = await Promise.all([1500, 1550].map((rating) => enter("demo_2to4", { rating })));
    const seats = await seatsOf(two, "two seats");
    const room = await enterDemo(seats);
    expect(room.state.shape).toBe("a free-for-all of 4");
    expect(room.state.emptySeats).toBe(2);
    // Room for the empty seats: a game may fill them with requestBackfill.
    expect(room.maxClients).toBe(4);
    for (const seat of seats)
      expect(room.state.seats.get(seat.sessionId)).toMatchObject({ team: seat.team, side: "", arrived: true });
    for (const g of games.splice(0)) await g.leave();
    for (const p of two) await p.room.leave();
  });

  it("the demo game seats four teams of two by team index", async () => {
    const eight = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => enter("demo_4x2", { rating: 1400 + 10 * i })));
    const seats = await seatsOf(eight, "eight seats");
    const room = await enterDemo(seats);
    expect(room.state.shape).toBe("4 teams of 2");
    expect(room.state.emptySeats).toBe(0);
    const teams = [...room.state.seats.values()].map((s) => s.team);
    expect([0, 1, 2, 3].map((t) => teams.filter((x) => x === t).length)).toEqual([2, 2, 2, 2]);
    for (const g of games.splice(0)) await g.leave();
    for (const p of eight) await p.room.leave();
  });

  for (const queueName of ["colyseus_queue_3", "matchmaker_queue_3"]) {
    it(`a QueueRoom client with maxPlayers 3 lands three players in one game from ${queueName}`, async () => {
      const endpoint = `ws://localhost:${testPort(220)}`;
      const outcomes = await within(
        Promise.all([1200, 1205, 1210].map((rank) => playFromQueue(endpoint, queueName, rank))),
        15_000,
        `three seats from ${queueName}`,
      );
      const roomIds = new Set(outcomes.map((o) => o.game.roomId));
      expect(roomIds.size).toBe(1);
      await vi.waitFor(() =>
        expect(tables.get(outcomes[0]!.game.roomId)?.sort()).toEqual(outcomes.map((o) => o.game.sessionId).sort()),
      );
      for (const o of outcomes) {
        expect(o.clients.every((n) => Number.isInteger(n) && n >= 1 && n <= 3)).toBe(true);
        expect(await within(o.queueClosed, 5000, "the queue to let the client go")).toBe(1000);
      }
      // The matchmaker tells each its group, the game's three players, before the seat.
      if (queueName === "matchmaker_queue_3") for (const o of outcomes) expect(o.clients.at(-1)).toBe(3);
      for (const o of outcomes) await o.game.leave();
    });
  }
});
