import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineQueue, type MatchmakerRoom } from "../../src/index.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const { room: RecordingGameRoom, record: played } = recordingRoom();

describe("bots after the maximum wait", () => {
  let server: ColyseusTestServer;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // The timer runs once a minute: only the engine's own deadline can start these games.
          lonely_2v2: manualQueue(
            { teamSize: 2, gameRoom: "recording", tickMs: 60_000, maxWaitMs: 300, fillWithBots: true },
            clock,
          ),
          recording: defineRoom(RecordingGameRoom),
        },
      }),
      testPort(3),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("fills a lone player's 2v2 game with three bots at the deadline, and tells the game room which seats are bots", async () => {
    const player = await joinQueue(server, "lonely_2v2", { rating: 1500 });
    const queue = server.getRoomById<MatchmakerRoom>(player.queue.roomId);
    // One millisecond before the deadline the player still waits; at the deadline bots fill in.
    clock.advance(299, 50);
    expect(queue.matchmaker.get(player.queue.sessionId)).toBeDefined();
    expect(played.matches).toHaveLength(0);
    clock.advance(1);
    expect(queue.matchmaker.get(player.queue.sessionId)).toBeUndefined();
    const seat = await within(player.seat, 3000, "the bot-filled seat");

    const match = played.matches.at(-1)!;
    expect(match.bots).toBe(3);
    expect(match.teams.flatMap((t) => t.players).find((p) => !p.bot)!.waitMs).toBe(300);
    const seats = match.teams.flatMap((t) => t.players);
    expect(seats).toHaveLength(4);
    expect(seats.filter((p) => p.bot)).toHaveLength(3);
    expect(seats.filter((p) => !p.bot).map((p) => p.sessionId)).toEqual([player.queue.sessionId]);
    expect(match.teams.every((t) => t.players.length === 2)).toBe(true);

    const game = await server.sdk.consumeSeatReservation(seat);
    expect(played.joined.map((j) => j.sessionId)).toContain(player.queue.sessionId);
    await game.leave();
    await player.queue.leave();
  });

  it("refuses fillWithBots without a maximum wait, naming the option", () => {
    expect(() => defineQueue({ teamSize: 1, gameRoom: "recording", fillWithBots: true })).toThrow(
      /fillWithBots: needs maxWaitMs/,
    );
  });
});
