/**
 * Several criteria through real clients: a 2v2 queue with a second criterion, `think` (seconds
 * a player takes per move, 0 to 60), beside the rating, run by multi-queue with one rating range
 * and two think ranges (fast under 30 s, slow from 30 s). Players join with their values (a
 * party's members each with their own, the party filed by their mean), land in game rooms with
 * their own kind, and the game room learns every criterion's dispersion; bad values are refused
 * with the field named.
 */
import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineQueue } from "../../src/index.js";
import type { PartyMessage, SeatMessage } from "../../src/client/index.js";
import { join, joinError, type Player } from "../helpers/queue-client.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { staysPending, testPort, within } from "../helpers/sdk.js";

const { room: CriteriaGameRoom, record: played } = recordingRoom();

describe("a queue with two criteria, end to end", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // A long timer: games form on joins only, so the order of joins decides.
          think_2v2: defineQueue({
            teamSize: 2,
            gameRoom: "think_game",
            tickMs: 60_000,
            rating: { min: 0, max: 3000 },
            criteria: [{ name: "think", min: 0, max: 60 }],
            policy: "multi-queue",
            params: { r: [1, 2] },
          }),
          think_game: defineRoom(CriteriaGameRoom),
        },
      }),
      testPort(100),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("refuses missing, out-of-range, unknown and non-numeric values, naming the field", async () => {
    const refusal = async (options: Record<string, unknown>) =>
      (await joinError(server, "think_2v2", options))?.message;
    expect(await refusal({ rating: 1500 })).toBe("invalid join options: criteria: is required");
    expect(await refusal({ rating: 1500, criteria: { think: 90 } })).toBe(
      "invalid join options: criteria.think: must be at most 60",
    );
    expect(await refusal({ rating: 1500, criteria: { think: -1 } })).toBe(
      "invalid join options: criteria.think: must be at least 0",
    );
    expect(await refusal({ rating: 1500, criteria: {} })).toBe("invalid join options: criteria.think: is required");
    expect(await refusal({ rating: 1500, criteria: { think: 10, region: 0.5 } })).toBe(
      "invalid join options: criteria.region: is not one of think",
    );
    expect(await refusal({ rating: 1500, criteria: { think: "fast" } })).toBe(
      "invalid join options: criteria.think: must be a number",
    );
  });

  it("fast and slow thinkers land in separate game rooms; a party carries its members' values", async () => {
    const seat = (p: Player) => within(p.inbox.nth("seat") as Promise<SeatMessage>, 5000, "a seat");
    // A party of a fast and a slow thinker (10 s and 40 s): it is filed by its mean, 25 s, a fast one.
    const leader = await join(server, "think_2v2", { rating: 1500, criteria: { think: 10 }, party: { size: 2 } });
    const { code } = (await within(leader.inbox.nth("party"), 5000, "the party code")) as PartyMessage;
    const member = await join(server, "think_2v2", { rating: 1400, criteria: { think: 40 }, partyCode: code });
    // Two slow thinkers: with the party, four players, but not four of one kind.
    const slow1 = await join(server, "think_2v2", { rating: 1500, criteria: { think: 50 } });
    const slow2 = await join(server, "think_2v2", { rating: 1600, criteria: { think: 40 } });
    expect(await staysPending(Promise.race([seat(leader), seat(slow1)]), 300)).toBe(true);

    // Two more fast thinkers complete the fast game.
    const fast1 = await join(server, "think_2v2", { rating: 1700, criteria: { think: 5 } });
    const fast2 = await join(server, "think_2v2", { rating: 1300, criteria: { think: 25 } });
    const fastSeats = await Promise.all([leader, member, fast1, fast2].map(seat));
    expect(new Set(fastSeats.map((s) => s.roomId)).size).toBe(1);
    expect(await staysPending(seat(slow1), 200)).toBe(true);

    // Two more slow thinkers complete the slow game, in another room.
    const slow3 = await join(server, "think_2v2", { rating: 1200, criteria: { think: 35 } });
    const slow4 = await join(server, "think_2v2", { rating: 1800, criteria: { think: 60 } });
    const slowSeats = await Promise.all([slow1, slow2, slow3, slow4].map(seat));
    expect(new Set(slowSeats.map((s) => s.roomId)).size).toBe(1);
    expect(slowSeats[0]!.roomId).not.toBe(fastSeats[0]!.roomId);

    // The game rooms learned each player's values and every criterion's dispersion.
    expect(played.matches).toHaveLength(2);
    const [fast, slow] = played.matches;
    const thinks = (m: typeof fast) =>
      m!.teams.flatMap((t) => t.players.map((p) => p.criteria?.think)).sort((a, b) => a! - b!);
    expect(thinks(fast)).toEqual([5, 10, 25, 40]);
    expect(thinks(slow)).toEqual([35, 40, 50, 60]);
    expect(fast!.quality.dispersion).toEqual({ rating: 400, think: 35 });
    expect(slow!.quality.dispersion).toEqual({ rating: 600, think: 25 });
    // The party shares a team.
    const partyTeam = fast!.teams.find((t) => t.players.some((p) => p.criteria?.think === 10))!;
    expect(partyTeam.players.map((p) => p.criteria?.think).sort()).toEqual([10, 40]);
  });
});
