/**
 * The forum features through a real queue room: `expanding-window` with `avoidRecent`, clients
 * that come back with the same `playerId`, and the window each player carries into the game
 * room's MatchInfo.
 */
import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineQueue } from "../../src/index.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { joinQueue, staysPending, testPort, within } from "../helpers/sdk.js";

const { room: RecordingRoom, record: played } = recordingRoom();

const app = config({
  rooms: {
    forum_duel: defineQueue({
      teamSize: 1,
      gameRoom: "recording",
      policy: "expanding-window",
      params: { initial: 100, growthPerSecond: 0 },
      avoidRecent: 1,
      avoidRecentFallbackMs: 60_000,
      tickMs: 200,
    }),
    recording: defineRoom(RecordingRoom),
  },
});

describe("expanding-window and avoidRecent in the room", () => {
  let server: ColyseusTestServer;
  beforeAll(async () => {
    server = await boot(app, testPort(7));
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("tells the game room each player's window, and keeps two players who just met apart while someone new can come", async () => {
    // Far from everyone: keeps the queue room (and so its history) alive while the others leave.
    const holder = await joinQueue(server, "forum_duel", { rating: 9000 });
    const ann = await joinQueue(server, "forum_duel", { rating: 1500, playerId: "ann" });
    const bob = await joinQueue(server, "forum_duel", { rating: 1550, playerId: "bob" });
    const [seatA, seatB] = await within(Promise.all([ann.seat, bob.seat]), 5000, "the first game");
    expect(seatA.matchId).toBe(seatB.matchId);
    const first = played.matches.find((m) => m.id === seatA.matchId)!;
    for (const team of first.teams)
      for (const p of team.players) expect(p.window).toEqual({ unit: "rating", initial: 100, width: 100 });
    await ann.queue.leave();
    await bob.queue.leave();

    // New sessions, same players: a rematch waits (fallback 60 s) ...
    const ann2 = await joinQueue(server, "forum_duel", { rating: 1500, playerId: "ann" });
    const bob2 = await joinQueue(server, "forum_duel", { rating: 1550, playerId: "bob" });
    expect(await staysPending(Promise.race([ann2.seat, bob2.seat]), 1000)).toBe(true);
    // ... and someone new plays one of them at once.
    const cid = await joinQueue(server, "forum_duel", { rating: 1520, playerId: "cid" });
    const seatC = await within(cid.seat, 5000, "cid's game");
    const second = played.matches.find((m) => m.id === seatC.matchId)!;
    const sessions = second.teams.flatMap((t) => t.players.map((p) => p.sessionId));
    expect(sessions).toContain(cid.queue.sessionId);
    expect(sessions.filter((s) => s === ann2.queue.sessionId || s === bob2.queue.sessionId)).toHaveLength(1);
    for (const c of [ann2, bob2, cid, holder]) await c.queue.leave();
  });

  it("refuses a bad playerId naming the field", async () => {
    const error = await server.sdk.joinOrCreate("forum_duel", { rating: 1500, playerId: "" }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(error?.code).toBe(525);
    expect(error?.message).toMatch(/playerId: must not be empty/);
  });
});
