/**
 * A 2v2 queue with two zones and side preferences, through real clients: each zone forms its
 * own games, a choice-free player goes to the zone whose game holds the longest-waiting player,
 * sides are honoured, a premade duo plays on one team in the zone its leader chose, and the
 * game room and the players learn the zone.
 */
import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineQueue, type MatchInfo } from "../../src/index.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { join } from "../helpers/queue-client.js";
import { joinQueue, staysPending, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const { room: ZoneGameRoom, record: played } = recordingRoom();

describe("a 2v2 queue with zones and sides end to end", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // A long timer: games form on joins only, so the order of joins decides.
          zoned_2v2: defineQueue({
            teamSize: 2,
            gameRoom: "zone_game",
            tickMs: 60_000,
            zones: ["junior", { name: "advanced", minRating: 1800 }],
          }),
          zone_game: defineRoom(ZoneGameRoom),
        },
      }),
      testPort(6),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("refuses a zone the rating may not enter, and an unknown zone, naming the field", async () => {
    await expect(server.sdk.joinOrCreate("zoned_2v2", { rating: 1500, zones: ["advanced"] })).rejects.toThrow(
      /zones: zone "advanced" needs a rating of at least 1800/,
    );
    await expect(server.sdk.joinOrCreate("zoned_2v2", { rating: 1500, zones: ["pro"] })).rejects.toThrow(
      /zones\.0: must be one of junior, advanced/,
    );
  });

  it("forms each zone's games, gives a choice-free player to the longest wait, honours sides, and tells everyone the zone", async () => {
    const join = (rating: number, extra: Record<string, unknown> = {}) =>
      joinQueue(server, "zoned_2v2", { rating, ...extra });
    const j1 = await join(1000, { zones: ["junior"], side: "A" });
    const j2 = await join(1100, { zones: ["junior"] });
    const j3 = await join(1200, { zones: ["junior"] });
    const a1 = await join(1900, { zones: ["advanced"], side: "B" });
    const a2 = await join(2000, { zones: ["advanced"] });
    const a3 = await join(2100, { zones: ["advanced"] });
    expect(await staysPending(Promise.race([j1.seat, a1.seat]), 200)).toBe(true);

    // 1950 may enter both zones and lists none: both zones could now start a game with it;
    // junior's holds j1, who has waited longest, so junior wins.
    const c = await join(1950);
    const juniors = [j1, j2, j3, c];
    const juniorSeats = await within(Promise.all(juniors.map((p) => p.seat)), 5000, "the junior game");
    expect(new Set(juniorSeats.map((s) => s.roomId)).size).toBe(1);
    expect(juniorSeats.every((s) => s.zone === "junior")).toBe(true);
    expect(juniorSeats[0].side).toBe("A");
    expect(juniorSeats.filter((s) => s.side === "A")).toHaveLength(2);
    expect(await staysPending(a1.seat, 200)).toBe(true);

    // The choice-free player left the advanced zone: it takes one more advanced player there.
    const a4 = await join(2050, { zones: ["advanced"] });
    const advanced = [a1, a2, a3, a4];
    const advancedSeats = await within(Promise.all(advanced.map((p) => p.seat)), 5000, "the advanced game");
    expect(advancedSeats.every((s) => s.zone === "advanced")).toBe(true);
    expect(advancedSeats[0].side).toBe("B");
    expect(new Set(advancedSeats.map((s) => s.roomId)).size).toBe(1);
    expect(advancedSeats[0].roomId).not.toBe(juniorSeats[0].roomId);

    const [juniorMatch, advancedMatch] = played.matches.slice(-2);
    expect(juniorMatch.zone).toBe("junior");
    expect(advancedMatch.zone).toBe("advanced");
    const sessionsOf = (m: MatchInfo) => m.teams.flatMap((t) => t.players.map((p) => p.sessionId)).sort();
    expect(sessionsOf(juniorMatch)).toEqual(juniors.map((p: QueuedClient) => p.queue.sessionId).sort());

    const all = [...juniors, ...advanced];
    const seats = [...juniorSeats, ...advancedSeats];
    const games = await Promise.all(seats.map((s) => server.sdk.consumeSeatReservation(s)));
    expect(played.joined.filter((j) => j.seat.zone === "junior")).toHaveLength(4);
    for (const g of games) await g.leave();
    for (const p of all) await p.queue.leave();
  });

  it("a duo and two solos: the duo plays together on its leader's side in its leader's zone, the solos on the other side", async () => {
    const junior = await joinQueue(server, "zoned_2v2", { rating: 1000, zones: ["junior"] });
    const solo = await joinQueue(server, "zoned_2v2", { rating: 2000, zones: ["advanced"] });
    const leader = await join(server, "zoned_2v2", {
      rating: 1900,
      side: "B",
      zones: ["advanced"],
      party: { size: 2 },
    });
    const { code } = await within(leader.inbox.nth("party"), 5000, "the party code");
    // Members take the leader's zones and side.
    await expect(
      server.sdk.joinOrCreate("zoned_2v2", { rating: 1950, partyCode: code, zones: ["junior"] }),
    ).rejects.toThrow(/zones: a party's zones are chosen by its leader/);
    const member = await join(server, "zoned_2v2", { rating: 1950, partyCode: code });
    expect(await staysPending(solo.seat, 200)).toBe(true); // three players in advanced, one in junior

    // 1850 may enter both zones; only advanced can start a game with it.
    const choiceFree = await joinQueue(server, "zoned_2v2", { rating: 1850 });
    const [soloSeat, freeSeat, leaderSeat, memberSeat] = await within(
      Promise.all([solo.seat, choiceFree.seat, leader.inbox.nth("seat"), member.inbox.nth("seat")]),
      5000,
      "the advanced game",
    );
    for (const seat of [soloSeat, freeSeat, leaderSeat, memberSeat]) {
      expect(seat.zone).toBe("advanced");
      expect(seat.roomId).toBe(soloSeat.roomId);
    }
    expect([leaderSeat.side, memberSeat.side]).toEqual(["B", "B"]);
    expect([soloSeat.side, freeSeat.side]).toEqual(["A", "A"]);
    const match = played.matches.at(-1)!;
    expect(match.zone).toBe("advanced");
    const duoTeam = match.teams.find((t) => t.players.some((p) => p.sessionId === leader.room.sessionId))!;
    expect(duoTeam.side).toBe("B");
    expect(duoTeam.players.map((p) => p.sessionId).sort()).toEqual(
      [leader.room.sessionId, member.room.sessionId].sort(),
    );
    expect(await staysPending(junior.seat, 100)).toBe(true);

    for (const p of [junior.queue, solo.queue, leader.room, member.room, choiceFree.queue])
      if (p.connection.isOpen) await p.leave();
  });
});
