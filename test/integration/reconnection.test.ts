import { defineRoom, Room } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defineQueue, type MatchmakerRoom } from "../../src/index.js";
import type { SeatMessage } from "../../src/client/index.js";
import { join, kill, track, type Player } from "../helpers/queue-client.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { staysPending, testPort, within } from "../helpers/sdk.js";

const { room: ReconnectGameRoom, record: played } = recordingRoom();

/** A game room whose creation waits until the test opens the gate. */
class GatedGameRoom extends Room {
  static gate: Promise<void> = Promise.resolve();
  override async onCreate(): Promise<void> {
    await GatedGameRoom.gate;
  }
}

describe("reconnection", () => {
  let server: ColyseusTestServer;
  // grace_squad's engine reads this clock, so a wait is exact (Colyseus's grace timer stays real).
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // Matching runs on joins (and reconnections) only.
          grace_squad: manualQueue(
            { teamSize: 2, gameRoom: "reconnect_game", tickMs: 60_000, reconnectGraceMs: 5000 },
            clock,
          ),
          short_grace_squad: defineQueue({
            teamSize: 2,
            gameRoom: "reconnect_game",
            tickMs: 60_000,
            reconnectGraceMs: 300,
          }),
          ready_grace_duel: defineQueue({
            teamSize: 1,
            gameRoom: "reconnect_game",
            tickMs: 60_000,
            reconnectGraceMs: 5000,
            readyCheck: { timeoutMs: 10_000 },
          }),
          no_grace_duel: defineQueue({ teamSize: 1, gameRoom: "reconnect_game", tickMs: 60_000 }),
          reconnect_game: defineRoom(ReconnectGameRoom),
          gated_grace_duel: defineQueue({
            teamSize: 1,
            gameRoom: "gated_game",
            tickMs: 60_000,
            reconnectGraceMs: 5000,
          }),
          gated_game: defineRoom(GatedGameRoom),
        },
      }),
      testPort(12),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });
  beforeEach(() => {
    played.matches.length = 0;
  });

  const leaveAll = async (players: Player[]) => {
    for (const p of players) if (p.room.connection.isOpen) await p.room.leave();
  };

  it("a client killed mid-wait and reconnecting within the grace keeps its original enqueue time", async () => {
    const a = await join(server, "grace_squad", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const sessionId = a.room.sessionId;
    const since = queue.matchmaker.get(sessionId)!.enqueuedAt;
    const token = a.room.reconnectionToken;
    clock.advance(30);

    kill(a.room);
    await vi.waitFor(() => expect(queue.session.isConnected(sessionId)).toBe(false));
    // Still waiting, still shown, same place.
    expect(queue.matchmaker.get(sessionId)?.enqueuedAt).toBe(since);
    expect(queue.state.waiting.get(sessionId)?.waitingSince).toBe(since);

    const back = track(await server.sdk.reconnect(token));
    expect(back.room.sessionId).toBe(sessionId);
    await vi.waitFor(() => expect(queue.session.isConnected(sessionId)).toBe(true));
    expect(queue.matchmaker.get(sessionId)?.enqueuedAt).toBe(since);

    const others = [
      await join(server, "grace_squad", { rating: 1500 }),
      await join(server, "grace_squad", { rating: 1500 }),
      await join(server, "grace_squad", { rating: 1500 }),
    ];
    const seats: SeatMessage[] = await within(
      Promise.all([back, ...others].map((p) => p.inbox.nth("seat"))),
      5000,
      "seats",
    );
    expect(seats[0]!.sessionId).toBe(sessionId);
    const waitMs = played.matches[0]!.teams.flatMap((t) => t.players).find((p) => p.sessionId === sessionId)!.waitMs;
    // Matched at since + 30 on the controlled clock: the wait counts from the first join.
    expect(waitMs).toBe(30);
    await leaveAll([back, ...others]);
  });

  it("matched while away: no game room until the player is back within the grace; then its seat is sent", async () => {
    const a = await join(server, "grace_squad", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const token = a.room.reconnectionToken;
    kill(a.room);
    await vi.waitFor(() => expect(queue.session.isConnected(a.room.sessionId)).toBe(false));
    const others = [
      await join(server, "grace_squad", { rating: 1500 }),
      await join(server, "grace_squad", { rating: 1500 }),
      await join(server, "grace_squad", { rating: 1500 }),
    ];
    await vi.waitFor(() => expect(queue.session.placeOf(a.room.sessionId)).toBe("ready-check"));
    expect(await staysPending(others[0]!.inbox.nth("seat"), 150)).toBe(true);
    expect(played.matches).toHaveLength(0);

    const back = track(await server.sdk.reconnect(token));
    const seats: SeatMessage[] = await within(
      Promise.all([back, ...others].map((p) => p.inbox.nth("seat"))),
      5000,
      "seats",
    );
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(seats[0]!.sessionId).toBe(a.room.sessionId);
    expect(played.matches).toHaveLength(1);
    await leaveAll([back, ...others]);
  });

  it("not back within the grace: treated as a decline; the others keep their place and no game room exists", async () => {
    const a = await join(server, "short_grace_squad", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const b = await join(server, "short_grace_squad", { rating: 1500 });
    const sinceB = queue.matchmaker.get(b.room.sessionId)!.enqueuedAt;
    const token = a.room.reconnectionToken;
    kill(a.room);
    await vi.waitFor(() => expect(queue.session.isConnected(a.room.sessionId)).toBe(false));
    const c = await join(server, "short_grace_squad", { rating: 1500 });
    const d = await join(server, "short_grace_squad", { rating: 1500 });
    await vi.waitFor(() => expect(queue.session.placeOf(b.room.sessionId)).toBe("ready-check"));

    for (const p of [b, c, d])
      expect(await within(p.inbox.nth("requeued"), 5000, "requeued")).toMatchObject({ reason: "disconnected" });
    expect(queue.session.placeOf(a.room.sessionId)).toBeUndefined();
    expect(queue.matchmaker.get(b.room.sessionId)?.enqueuedAt).toBe(sinceB);
    expect(played.matches).toHaveLength(0);
    // The grace is over: the old token no longer works.
    await expect(server.sdk.reconnect(token)).rejects.toThrow();

    // The three who stayed play as soon as a fourth arrives.
    const e = await join(server, "short_grace_squad", { rating: 1500 });
    await within(Promise.all([b, c, d, e].map((p) => p.inbox.nth("seat"))), 5000, "seats");
    await leaveAll([b, c, d, e]);
  });

  it("with a ready check: a player back within the grace is asked again with the time left, and accepts", async () => {
    const a = await join(server, "ready_grace_duel", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const token = a.room.reconnectionToken;
    kill(a.room);
    await vi.waitFor(() => expect(queue.session.isConnected(a.room.sessionId)).toBe(false));
    const b = await join(server, "ready_grace_duel", { rating: 1500 });
    const found = await within(b.inbox.nth("match_found"), 5000, "match_found");
    b.room.send("accept");
    await new Promise((r) => setTimeout(r, 50));

    const back = track(await server.sdk.reconnect(token));
    const again = await within(back.inbox.nth("match_found"), 5000, "match_found after reconnecting");
    expect(again.matchId).toBe(found.matchId);
    expect(again.timeoutMs).toBeLessThan(10_000);
    expect(again.timeoutMs).toBeGreaterThan(5000);
    expect(played.matches).toHaveLength(0);
    back.room.send("accept");
    const seats: SeatMessage[] = await within(
      Promise.all([back.inbox.nth("seat"), b.inbox.nth("seat")]),
      5000,
      "seats",
    );
    expect(seats[0]!.roomId).toBe(seats[1]!.roomId);
    await leaveAll([back, b]);
  });

  it("without a grace, a dropped client is gone at once", async () => {
    const a = await join(server, "no_grace_duel", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    kill(a.room);
    await vi.waitFor(() => expect(queue.session.placeOf(a.room.sessionId)).toBeUndefined());
    expect(queue.matchmaker.size).toBe(0);
    expect(queue.state.waiting.size).toBe(0);
  });

  it("a seat reserved while the player was away is sent when it reconnects", async () => {
    let open!: () => void;
    GatedGameRoom.gate = new Promise<void>((resolve) => (open = resolve));
    const a = await join(server, "gated_grace_duel", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const b = await join(server, "gated_grace_duel", { rating: 1500 });
    await vi.waitFor(() => expect(queue.session.placeOf(a.room.sessionId)).toBe("spawning"));
    const token = a.room.reconnectionToken;
    kill(a.room);
    await vi.waitFor(() => expect(queue.session.isConnected(a.room.sessionId)).toBe(false));
    open();
    const seatB: SeatMessage = await within(b.inbox.nth("seat"), 5000, "the present player's seat");
    await vi.waitFor(() => expect(queue.session.placeOf(a.room.sessionId)).toBe("seated"));
    expect(a.inbox.all("seat")).toHaveLength(0);

    const back = track(await server.sdk.reconnect(token));
    const seatA: SeatMessage = await within(back.inbox.nth("seat"), 5000, "the held seat");
    expect(seatA.roomId).toBe(seatB.roomId);
    expect(seatA.sessionId).toBe(a.room.sessionId);
    // The held seat is usable.
    const game = await server.sdk.consumeSeatReservation(seatA);
    expect(game.sessionId).toBe(a.room.sessionId);
    await game.leave();
    await leaveAll([back, b]);
  });

  it("the SDK's own automatic reconnection keeps the place", async () => {
    const a = await join(server, "grace_squad", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const since = queue.matchmaker.get(a.room.sessionId)!.enqueuedAt;
    a.room.reconnection.minUptime = 0;
    const reconnected = new Promise<void>((resolve) => a.room.onReconnect(() => resolve()));
    const ws = (a.room.connection as unknown as { transport: { ws: { terminate: () => void } } }).transport.ws;
    ws.terminate(); // the network drops; the SDK retries by itself
    await within(reconnected, 5000, "the SDK's reconnection");
    await vi.waitFor(() => expect(queue.session.isConnected(a.room.sessionId)).toBe(true));
    expect(queue.matchmaker.get(a.room.sessionId)?.enqueuedAt).toBe(since);
    const others = [
      await join(server, "grace_squad", { rating: 1500 }),
      await join(server, "grace_squad", { rating: 1500 }),
      await join(server, "grace_squad", { rating: 1500 }),
    ];
    // The same SDK room object keeps its handlers and receives the seat.
    await within(Promise.all([a, ...others].map((p) => p.inbox.nth("seat"))), 5000, "seats");
    await leaveAll([a, ...others]);
  });
});
