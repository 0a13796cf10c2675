/**
 * Regions by latency through real clients: a 1v1 queue with zones `eu` and `us` and a maximum
 * latency of 100 ms. Players near one region play there, a player between the two plays whoever
 * waits in a zone it reaches, two players who both reach both regions play in the one that serves
 * the worse-placed of them better, and each is told its zone; missing or out-of-range latencies and
 * players who reach no zone are refused with the field named.
 */
import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineQueue } from "../../src/index.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { joinQueue, staysPending, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const { room: RegionGameRoom, record: played } = recordingRoom();

describe("a queue that chooses regions by latency, end to end", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // A long timer: games form on joins only, so the order of joins decides.
          regions_1v1: defineQueue({
            teamSize: 1,
            gameRoom: "region_game",
            tickMs: 60_000,
            zones: ["eu", "us"],
            maxLatencyMs: 100,
          }),
          region_game: defineRoom(RegionGameRoom),
        },
      }),
      testPort(95),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("refuses missing and out-of-range latencies and a player who reaches no region, naming the field", async () => {
    const refused = (options: Record<string, unknown>) => server.sdk.joinOrCreate("regions_1v1", options);
    await expect(refused({ rating: 1500 })).rejects.toThrow(/latencies: is required/);
    await expect(refused({ rating: 1500, latencies: { eu: 30 } })).rejects.toThrow(/latencies\.us: is required/);
    await expect(refused({ rating: 1500, latencies: { eu: 30, us: 70_000 } })).rejects.toThrow(
      /latencies\.us: must be at most 60000/,
    );
    await expect(refused({ rating: 1500, latencies: { eu: 30, us: 40, asia: 10 } })).rejects.toThrow(
      /latencies\.asia: is not one of eu, us/,
    );
    await expect(refused({ rating: 1500, latencies: { eu: 180, us: 150 } })).rejects.toThrow(
      /latencies: no zone is reached within 100 ms \(the nearest, us, at 150 ms\)/,
    );
  });

  it("players in two regions and one between them land in the right game rooms, each told its zone", async () => {
    const join = (latencies: Record<string, number>) => joinQueue(server, "regions_1v1", { rating: 1500, latencies });
    const seats = async (players: QueuedClient[], what: string) => {
      const all = await within(Promise.all(players.map((p) => p.seat)), 5000, what);
      expect(new Set(all.map((s) => s.roomId)).size).toBe(1);
      return all;
    };

    // Europe and America cannot play each other: no region serves both within 100 ms.
    const eu = await join({ eu: 20, us: 140 });
    const us = await join({ eu: 140, us: 25 });
    expect(await staysPending(Promise.race([eu.seat, us.seat]), 200)).toBe(true);

    // A player between the two reaches both: it plays the longest-waiting, Europe, in eu.
    const between = await join({ eu: 70, us: 60 });
    const euGame = await seats([eu, between], "the eu game");
    expect(euGame.map((s) => s.zone)).toEqual(["eu", "eu"]);
    expect(await staysPending(us.seat, 200)).toBe(true);

    // Another in-between player meets America in the only region America reaches.
    const between2 = await join({ eu: 65, us: 55 });
    const usGame = await seats([us, between2], "the us game");
    expect(usGame.map((s) => s.zone)).toEqual(["us", "us"]);
    expect(usGame[0].roomId).not.toBe(euGame[0].roomId);

    // Two who both reach both regions play where the worse-placed of them is better served:
    // eu would put one at 95 ms, us serves both within 90 ms.
    const a = await join({ eu: 40, us: 90 });
    const b = await join({ eu: 95, us: 30 });
    const bothGame = await seats([a, b], "the game of two who reach both");
    expect(bothGame.map((s) => s.zone)).toEqual(["us", "us"]);

    // The game rooms were created in those zones.
    expect(played.matches.slice(-3).map((m) => m.zone)).toEqual(["eu", "us", "us"]);
    const games = await Promise.all(
      [...euGame, ...usGame, ...bothGame].map((s) => server.sdk.consumeSeatReservation(s)),
    );
    expect(played.joined.filter((j) => j.seat.zone === "us")).toHaveLength(4);
    for (const g of games) await g.leave();
    for (const p of [eu, us, between, between2, a, b]) if (p.queue.connection.isOpen) await p.queue.leave();
  });
});
