import { CloseCode, defineRoom, matchMaker } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defineQueue, type MatchmakerRoom } from "../../src/index.js";
import type { MatchFoundMessage, SeatMessage } from "../../src/client/index.js";
import { join, type Player } from "../helpers/queue-client.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { staysPending, testPort, within } from "../helpers/sdk.js";

const { room: ReadyGameRoom, record: played } = recordingRoom();

describe("ready check", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          ready_squad: defineQueue({
            teamSize: 2,
            gameRoom: "ready_game",
            tickMs: 60_000,
            readyCheck: { timeoutMs: 10_000 },
          }),
          // A one-minute timer: the ready check's own deadline must wake the queue.
          ready_duel: defineQueue({
            teamSize: 1,
            gameRoom: "ready_game",
            tickMs: 60_000,
            readyCheck: { timeoutMs: 400 },
          }),
          ready_game: defineRoom(ReadyGameRoom),
        },
      }),
      testPort(11),
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

  it("one decline: the decliner is out, the other three go back ahead of newcomers, no game room until all accept", async () => {
    const [a, b, c, d] = [
      await join(server, "ready_squad", { rating: 1500 }),
      await join(server, "ready_squad", { rating: 1500 }),
      await join(server, "ready_squad", { rating: 1500 }),
      await join(server, "ready_squad", { rating: 1500 }),
    ];
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const found: MatchFoundMessage[] = await within(
      Promise.all([a, b, c, d].map((p) => p.inbox.nth("match_found"))),
      5000,
      "match_found",
    );
    expect(new Set(found.map((f) => f.matchId)).size).toBe(1);
    expect(found[0]).toEqual({ matchId: found[0]!.matchId, timeoutMs: 10_000, players: 4 });
    // Matched: no longer in the waiting list, and no game room yet.
    for (const p of [a, b, c, d]) expect(queue.state.waiting.has(p.room.sessionId)).toBe(false);
    expect(played.matches).toHaveLength(0);

    // Two newcomers join while the ready check runs.
    const e = await join(server, "ready_squad", { rating: 1500 });
    const f = await join(server, "ready_squad", { rating: 1500 });
    a.room.send("accept");
    b.room.send("accept");
    c.room.send("accept");
    d.room.send("decline");

    // Its first offence (the queue option `penalties`): it lost its place, and may rejoin at the back.
    expect(await within(d.inbox.nth("removed"), 5000, "removed")).toEqual({
      reason: "declined",
      matchId: found[0]!.matchId,
      penalty: expect.objectContaining({ offences: 1, cooldownMs: 0 }),
    });
    expect(await within(d.left, 5000, "the decliner's disconnection")).toBe(CloseCode.CONSENTED);
    for (const p of [a, b, c])
      expect(await within(p.inbox.nth("requeued"), 5000, "requeued")).toEqual({
        matchId: found[0]!.matchId,
        reason: "declined",
      });
    expect(played.matches).toHaveLength(0);

    // The three are back with their first enqueue time and, being older, fill the next match
    // with the first newcomer; the second newcomer waits.
    const second: MatchFoundMessage[] = await within(
      Promise.all([a, b, c, e].map((p) => p.inbox.nth("match_found", p === e ? 1 : 2))),
      5000,
      "second match_found",
    );
    expect(new Set(second.map((s) => s.matchId)).size).toBe(1);
    expect(second[0]!.matchId).not.toBe(found[0]!.matchId);
    expect(f.inbox.all("match_found")).toHaveLength(0);
    expect(queue.matchmaker.get(f.room.sessionId)).toBeDefined();
    const pending = queue.session.pending.get(second[0]!.matchId)!;
    const waits = new Map(pending.match.teams.flatMap((t) => t.players).map((p) => [p.sessionId, p.waitMs]));
    for (const p of [a, b, c]) expect(waits.get(p.room.sessionId)!).toBeGreaterThan(waits.get(e.room.sessionId)!);
    expect(queue.session.placeOf(d.room.sessionId)).toBeUndefined();

    // All accept: exactly one game room, seats for the four.
    for (const p of [a, b, c]) p.room.send("accept");
    expect(await staysPending(e.inbox.nth("seat"), 100)).toBe(true);
    expect(played.matches).toHaveLength(0);
    e.room.send("accept");
    const seats: SeatMessage[] = await within(Promise.all([a, b, c, e].map((p) => p.inbox.nth("seat"))), 5000, "seats");
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(played.matches).toHaveLength(1);
    expect(played.matches[0]!.id).toBe(second[0]!.matchId);
    expect(await matchMaker.query({ name: "ready_game" })).toHaveLength(1);
    await leaveAll([a, b, c, e, f]);
  });

  it("a player who does not accept in time is removed; the other waits again; no game room", async () => {
    const a = await join(server, "ready_duel", { rating: 1000 });
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    const sinceA = queue.matchmaker.get(a.room.sessionId)!.enqueuedAt;
    const b = await join(server, "ready_duel", { rating: 1000 });
    await within(Promise.all([a.inbox.nth("match_found"), b.inbox.nth("match_found")]), 5000, "match_found");
    a.room.send("accept");
    expect(await within(b.inbox.nth("removed"), 5000, "timeout removal")).toMatchObject({ reason: "timeout" });
    expect(await within(a.inbox.nth("requeued"), 5000, "requeued")).toMatchObject({ reason: "timeout" });
    await vi.waitFor(() => expect(queue.matchmaker.get(a.room.sessionId)).toBeDefined());
    expect(queue.matchmaker.get(a.room.sessionId)!.enqueuedAt).toBe(sinceA);
    expect(played.matches).toHaveLength(0);
    await within(b.left, 5000, "the removed player's disconnection");
    await leaveAll([a]);
  });
});
