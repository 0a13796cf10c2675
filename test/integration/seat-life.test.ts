/**
 * A ticket's life after its seat is sent, with real SDK clients and a queue on a manual clock:
 * a seat left unused goes back to the queue at the player's original place (the game room hears
 * who never came), a game room disposed before everyone entered re-queues the missing players at
 * once, and a replacement seat left unused sends its player back to waiting. The game rooms here
 * reserve seats for 2 s (their own `seatReservationTimeout`, which the queue reads from them).
 * The queue runs without `penalties`: by default a player who lets its seat expire while connected
 * goes back at the back of the queue, then is held out (test/integration/griefing.test.ts).
 */
import { defineRoom, Room, type Client } from "@colyseus/core";
import type { Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  playerArrived,
  queueSeatsOnly,
  requestBackfill,
  type MatchInfo,
  type MatchmakerRoom,
  type NoShowListener,
  type NoShowReport,
  type SeatOptions,
} from "../../src/index.js";
import type { RequeuedMessage, SeatMessage } from "../../src/client/index.js";
import { SEAT_WATCH_DEFAULTS } from "../../src/colyseus/director/seat-watch.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { testPort, within } from "../helpers/sdk.js";

const RESERVATION_S = 2;

/** A game room as the README's: it reports arrivals, hears no-shows, and replaces a player who left. */
class WatchedGame extends Room implements NoShowListener {
  static override onAuth = queueSeatsOnly;
  static rooms = new Map<string, WatchedGame>();
  match!: MatchInfo;
  readonly noShows: NoShowReport[] = [];
  /** Ask for a replacement when a player leaves (the backfill test). */
  backfillOnLeave = false;

  override onCreate(options: { match: MatchInfo }): void {
    this.seatReservationTimeout = RESERVATION_S;
    this.match = options.match;
    this.maxClients = options.match.teamSize * 2;
    WatchedGame.rooms.set(options.match.id, this);
  }
  override onJoin(client: Client, _seat: SeatOptions): void {
    playerArrived(this.match, client.sessionId);
  }
  override onLeave(client: Client): void {
    const team = this.match.teams.findIndex((t) => t.players.some((p) => p.sessionId === client.sessionId));
    if (team !== -1 && this.backfillOnLeave) void requestBackfill(this.match, team as 0 | 1, 1);
  }
  onNoShow(report: NoShowReport): void {
    this.noShows.push(report);
  }
}

/** A queued SDK client that records every seat and every `requeued` it receives. */
interface Player {
  queue: SdkRoom;
  seats: SeatMessage[];
  requeued: RequeuedMessage[];
}

describe("a seat's life after it is sent", () => {
  let server: ColyseusTestServer;
  const clock = new ManualClock();
  const grace = SEAT_WATCH_DEFAULTS.graceMs;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // The seat's life itself: a seat left unused costs nothing more here (its cost for the player
          // who let it expire, `penalties`, is test/integration/griefing.test.ts's).
          seat_duel: manualQueue({ teamSize: 1, gameRoom: "watched_game", tickMs: 100, penalties: false }, clock),
          watched_game: defineRoom(WatchedGame),
        },
      }),
      testPort(60),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });
  beforeEach(async () => {
    await server.cleanup();
    WatchedGame.rooms.clear();
  });

  async function join(rating = 1500): Promise<Player> {
    const queue = await server.sdk.joinOrCreate("seat_duel", { rating });
    const player: Player = { queue, seats: [], requeued: [] };
    queue.onMessage("seat", (seat: SeatMessage) => player.seats.push(seat));
    queue.onMessage("requeued", (message: RequeuedMessage) => player.requeued.push(message));
    queue.onMessage("status", () => undefined);
    queue.onMessage("clients", () => undefined);
    return player;
  }

  const queueOf = (p: Player) => server.getRoomById<MatchmakerRoom>(p.queue.roomId);
  const seatOf = async (p: Player, n = 1) => {
    await vi.waitFor(() => expect(p.seats).toHaveLength(n), { timeout: 3000 });
    return p.seats[n - 1]!;
  };

  it("puts a player who never used its seat back at its original place when the seat expires, and seats it later", async () => {
    const idle = await join();
    const queue = queueOf(idle);
    const since = queue.matchmaker.get(idle.queue.sessionId)!.enqueuedAt;
    clock.advance(5000, 100);
    const good = await join();
    const [idleSeat, goodSeat] = [await seatOf(idle), await seatOf(good)];
    expect(idleSeat.roomId).toBe(goodSeat.roomId);
    await server.sdk.consumeSeatReservation(goodSeat); // good enters; idle ignores its seat
    await vi.waitFor(() => expect(queue.getMetrics().seatsEntered).toBe(1));
    expect(queue.session.placeOf(idle.queue.sessionId)).toBe("seated");

    // Before the reservation (the game room's 2 s) and the grace: still seated, nothing said.
    clock.advance(RESERVATION_S * 1000 + grace - 100, 100);
    expect(queue.session.placeOf(idle.queue.sessionId)).toBe("seated");
    clock.advance(100);
    await vi.waitFor(() => expect(idle.requeued).toEqual([{ matchId: idleSeat.matchId, reason: "seat_expired" }]));
    expect(queue.matchmaker.get(idle.queue.sessionId)?.enqueuedAt).toBe(since);
    expect(queue.state.waiting.get(idle.queue.sessionId)?.waitingSince).toBe(since);
    expect(good.requeued).toEqual([]);
    const game = WatchedGame.rooms.get(idleSeat.matchId)!;
    await vi.waitFor(() =>
      expect(game.noShows).toEqual([
        {
          matchId: idleSeat.matchId,
          reason: "seat_expired",
          players: [{ sessionId: idle.queue.sessionId, team: idleSeat.team, backfill: false }],
        },
      ]),
    );
    expect(queue.getMetrics()).toMatchObject({ seatsEntered: 1, seatsExpiredRequeued: 1, seatsOpen: 0 });

    // A newcomer: the re-queued player is matched with it, and this time enters.
    const late = await join();
    const second = await seatOf(idle, 2);
    expect((await seatOf(late)).roomId).toBe(second.roomId);
    const waits = WatchedGame.rooms.get(second.matchId)!.match.teams.flatMap((t) => t.players);
    expect(waits.find((p) => p.sessionId === idle.queue.sessionId)!.waitMs).toBe(clock.now - since);
    await server.sdk.consumeSeatReservation(second);
    await vi.waitFor(() => expect(queue.getMetrics().seatsEntered).toBe(2));
    for (const p of [idle, good, late]) await p.queue.leave();
  });

  it("re-queues at once, told game_lost, the players who had not entered a game room that is disposed", async () => {
    const a = await join();
    const queue = queueOf(a);
    const since = queue.matchmaker.get(a.queue.sessionId)!.enqueuedAt;
    const b = await join();
    const [seatA, seatB] = [await seatOf(a), await seatOf(b)];
    await server.sdk.consumeSeatReservation(seatB);
    await vi.waitFor(() => expect(queue.getMetrics().seatsEntered).toBe(1));

    await WatchedGame.rooms.get(seatA.matchId)!.disconnect(); // the game ends before a arrives
    clock.advance(SEAT_WATCH_DEFAULTS.probeMs, 100); // one probe, well before the reservation's end
    await vi.waitFor(() => expect(a.requeued).toEqual([{ matchId: seatA.matchId, reason: "game_lost" }]));
    expect(queue.matchmaker.get(a.queue.sessionId)?.enqueuedAt).toBe(since);
    expect(queue.getMetrics()).toMatchObject({ seatsEntered: 1, seatsLostRequeued: 1, seatsOpen: 0 });
    await a.queue.leave();
    await b.queue.leave().catch(() => undefined);
  });

  it("counts a player who left the queue with its seat unused as removed, and tells the game room", async () => {
    const a = await join();
    const queue = queueOf(a);
    const b = await join();
    const [seatA, seatB] = [await seatOf(a), await seatOf(b)];
    await server.sdk.consumeSeatReservation(seatB);
    await a.queue.leave(); // gone without entering
    clock.advance(RESERVATION_S * 1000 + grace, 100);
    const game = WatchedGame.rooms.get(seatA.matchId)!;
    await vi.waitFor(() =>
      expect(game.noShows.flatMap((r) => r.players.map((p) => p.sessionId))).toEqual([seatA.sessionId]),
    );
    expect(queue.getMetrics()).toMatchObject({ seatsEntered: 1, seatsExpiredRemoved: 1, seatsExpiredRequeued: 0 });
    expect(queue.session.placeOf(a.queue.sessionId)).toBeUndefined();
    await b.queue.leave();
  });

  it("sends a player whose replacement seat went unused back to waiting at its place, and the game room hears it", async () => {
    const a = await join();
    const queue = queueOf(a);
    const b = await join();
    const [seatA, seatB] = [await seatOf(a), await seatOf(b)];
    const gameA = await server.sdk.consumeSeatReservation(seatA);
    await server.sdk.consumeSeatReservation(seatB);
    await vi.waitFor(() => expect(queue.getMetrics().seatsEntered).toBe(2));
    const game = WatchedGame.rooms.get(seatA.matchId)!;
    game.backfillOnLeave = true;

    const r = await join(1500);
    const since = queue.matchmaker.get(r.queue.sessionId)!.enqueuedAt;
    clock.advance(1000, 100);
    await gameA.leave(); // the game asks for a replacement on a's team
    const offered = await seatOf(r);
    expect(offered).toMatchObject({ roomId: seatA.roomId, matchId: seatA.matchId, team: seatA.team, backfill: true });
    expect(queue.session.placeOf(r.queue.sessionId)).toBe("seated");

    clock.advance(RESERVATION_S * 1000 + grace, 100); // r ignores it
    await vi.waitFor(() => expect(r.requeued).toEqual([{ matchId: seatA.matchId, reason: "seat_expired" }]));
    expect(queue.session.placeOf(r.queue.sessionId)).toBe("waiting");
    expect(queue.matchmaker.get(r.queue.sessionId)?.enqueuedAt).toBe(since);
    await vi.waitFor(() =>
      expect(game.noShows).toEqual([
        {
          matchId: seatA.matchId,
          reason: "seat_expired",
          players: [{ sessionId: r.queue.sessionId, team: seatA.team, backfill: true }],
        },
      ]),
    );
    expect(queue.getMetrics()).toMatchObject({ seatsExpiredRequeued: 1, backfillFilled: 1, seatsOpen: 0 });

    // What a game room does with the report: ask again (once Colyseus freed the unused seat, which
    // it does on the real clock); the same player is offered a seat and takes it.
    await vi.waitFor(() => expect(game.hasReachedMaxClients()).toBe(false), { timeout: RESERVATION_S * 2000 });
    await requestBackfill(game.match, seatA.team, 1);
    const again = await seatOf(r, 2);
    expect(again).toMatchObject({ roomId: seatA.roomId, backfill: true });
    await server.sdk.consumeSeatReservation(again);
    await vi.waitFor(() => expect(queue.getMetrics().seatsEntered).toBe(3));
    for (const p of [r, b]) await within(p.queue.leave(), 2000, "leave").catch(() => undefined);
  });
});
