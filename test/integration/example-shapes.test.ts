/**
 * The example server's queues of other shapes (example-server/app.config.ts), with SDK clients
 * through the client helper, into its demo game room: the 4-player free-for-all seats four in one
 * game, the 2-to-4-player one starts a game of two once they have waited its 10 s, and four teams
 * of two seat eight; every seat by team index, none with a side.
 */
import { matchMaker } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { joinQueue, type Matchmaking } from "../../src/client/index.js";
import type { MatchInfo } from "../../src/index.js";
import { testPort, within } from "../helpers/sdk.js";

const PORT = testPort(231);

describe("the example server's free-for-alls and four teams of two", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  /** Players of these ratings in `queue`, once all are in their game rooms: their seats, and the one game's match. */
  async function play(queue: string, ratings: number[], ms = 10_000) {
    const players: Matchmaking[] = ratings.map((rating) =>
      joinQueue(new Client(`ws://127.0.0.1:${PORT}`), queue, { rating }),
    );
    const games = await within(Promise.all(players.map((p) => p.game)), ms, `${ratings.length} players in ${queue}`);
    expect(new Set(games.map((g) => g.roomId)).size).toBe(1);
    const match = (matchMaker.getLocalRoomById(games[0]!.roomId) as unknown as { match: MatchInfo }).match;
    const seats = players.map((p) => p.seat!);
    await Promise.all(games.map((g) => g.leave()));
    return { seats, match };
  }

  it("a free-for-all of four: one game of four, team indices 0 to 3, no sides", async () => {
    const { seats, match } = await play("ffa4", [1300, 1400, 1500, 1600]);
    expect(match.shape).toEqual({ kind: "free-for-all", players: 4, minPlayers: 4, countMultiple: 1 });
    expect(match.teams.map((t) => t.players.length)).toEqual([1, 1, 1, 1]);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2, 3]);
    expect(seats.every((s) => s.side === undefined)).toBe(true);
  });

  it("two to four players: two who waited 10 s play a game of two, two seats left empty", async () => {
    const { seats, match } = await play("ffa2to4", [1450, 1550], 20_000);
    expect(match.teams.map((t) => t.players.length)).toEqual([1, 1]);
    expect(match.emptySeats).toBe(2);
    // It started once the first of them had waited the queue's shortHandedAfterMs.
    expect(Math.max(...match.teams.flatMap((t) => t.players.map((p) => p.waitMs)))).toBeGreaterThanOrEqual(10_000);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1]);
  }, 30_000);

  it("four teams of two: eight players, two to a team, by team index", async () => {
    const { seats, match } = await play("teams4x2", [1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]);
    expect(match.shape).toEqual({ kind: "teams", teams: 4, teamSize: 2, minTeamSize: 2 });
    expect(match.teams.map((t) => t.players.length)).toEqual([2, 2, 2, 2]);
    expect(match.teams.every((t) => t.side === undefined)).toBe(true);
    const perTeam = [0, 1, 2, 3].map((team) => seats.filter((s) => s.team === team).length);
    expect(perTeam).toEqual([2, 2, 2, 2]);
    expect(seats.every((s) => s.side === undefined)).toBe(true);
  });
});
