import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineQueue } from "../../src/index.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { joinQueue, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const LANES = ["top", "jungle", "mid", "bot", "support"];

const { room: LaneGameRoom, record: played } = recordingRoom();

describe("a 5v5 role queue end to end", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          lanes_5v5: defineQueue({
            teamSize: 5,
            gameRoom: "lane_game",
            roles: LANES,
            tickMs: 500,
            imbalance: { kind: "alman-mckay", alpha: 1, p: 2, q: 2 },
          }),
          plain_1v1: defineQueue({ teamSize: 1, gameRoom: "lane_game", tickMs: 500 }),
          lane_game: defineRoom(LaneGameRoom),
        },
      }),
      testPort(5),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("seats ten players whose preferences admit one role assignment in one game, one per role per team, each told its role", async () => {
    // Two players per chain link: the support-only pair must play support, which forces the
    // bot/support pair onto bot, the mid/bot pair onto mid, and so on up to top.
    const players: Array<{ rating: number; roles: string[]; role: string }> = [
      { rating: 1510, roles: ["support"], role: "support" },
      { rating: 1490, roles: ["support"], role: "support" },
      { rating: 1530, roles: ["bot", "support"], role: "bot" },
      { rating: 1470, roles: ["support", "bot"], role: "bot" },
      { rating: 1550, roles: ["mid", "bot"], role: "mid" },
      { rating: 1450, roles: ["mid", "bot"], role: "mid" },
      { rating: 1520, roles: ["jungle", "mid"], role: "jungle" },
      { rating: 1480, roles: ["mid", "jungle"], role: "jungle" },
      { rating: 1500, roles: ["top", "jungle"], role: "top" },
      { rating: 1500, roles: ["jungle", "top"], role: "top" },
    ];
    const clients: QueuedClient[] = [];
    for (const p of players.slice(0, 5))
      clients.push(await joinQueue(server, "lanes_5v5", { rating: p.rating, roles: p.roles }));

    // Bad roles are refused at the door, naming the field, while the queue keeps going.
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ rating: 1500 }, /roles: is required/],
      [{ rating: 1500, roles: ["tank"] }, /roles\.0: must be one of top, jungle, mid, bot, support/],
      [{ rating: 1500, roles: [] }, /roles: must list at least one of top, jungle, mid, bot, support/],
      [{ rating: 1500, roles: ["mid", "mid"] }, /roles: must not list a role twice/],
      [{ rating: 1500, roles: [...LANES, "top"] }, /roles: must list at most 5 roles/],
      [{ rating: 1500, roles: "mid" }, /roles: must be a list of roles/],
    ];
    for (const [options, message] of bad) {
      const error = await server.sdk.joinOrCreate("lanes_5v5", options).then(
        () => undefined,
        (e: Error & { code?: number }) => e,
      );
      expect(error?.message).toMatch(message);
      expect(error?.message).toMatch(/^invalid join options: /);
      expect(error?.code).toBe(525);
    }

    for (const p of players.slice(5))
      clients.push(await joinQueue(server, "lanes_5v5", { rating: p.rating, roles: p.roles }));
    const seats = await within(Promise.all(clients.map((c) => c.seat)), 5000, "ten seats");

    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    seats.forEach((seat, i) => {
      expect(seat.sessionId).toBe(clients[i].queue.sessionId);
      expect(seat.role, `player ${i} plays the only role left to them`).toBe(players[i].role);
    });
    for (const side of ["A", "B"]) {
      expect(
        seats
          .filter((s) => s.side === side)
          .map((s) => s.role)
          .sort(),
      ).toEqual([...LANES].sort());
    }

    // The game room learns every player's role at creation and again with each seat.
    const match = played.matches.find((m) => m.id === seats[0].matchId)!;
    for (const team of match.teams) expect(team.players.map((p) => p.role).sort()).toEqual([...LANES].sort());
    const roleOf = new Map(match.teams.flatMap((t) => t.players.map((p) => [p.sessionId, p.role] as const)));
    seats.forEach((seat) => expect(roleOf.get(seat.sessionId)).toBe(seat.role));

    const games = [];
    for (const seat of seats) games.push(await server.sdk.consumeSeatReservation(seat));
    await vi.waitFor(() => expect(played.joined.filter((j) => j.seat.matchId === match.id)).toHaveLength(10));
    for (const j of played.joined.filter((j) => j.seat.matchId === match.id))
      expect(j.seat.role).toBe(roleOf.get(j.sessionId));
    for (const g of games) await g.leave();
    for (const c of clients) await c.queue.leave();
  });

  it("refuses roles in a queue without roles", async () => {
    const error = await server.sdk.joinOrCreate("plain_1v1", { rating: 1500, roles: ["mid"] }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(error?.code).toBe(525);
    expect(error?.message).toBe("invalid join options: roles: this queue has no roles");
  });

  it("checks a role queue's configuration at start-up, naming the field", () => {
    expect(() => defineQueue({ teamSize: 5, gameRoom: "lane_game", roles: ["top", "mid"] })).toThrow(
      "MatchmakerRoom options: roles: must name exactly teamSize = 5 roles, got 2",
    );
    expect(() => defineQueue({ teamSize: 2, gameRoom: "lane_game", roles: ["a", "a"] })).toThrow(
      /roles: "a" is listed twice/,
    );
    expect(() => defineQueue({ teamSize: 2, gameRoom: "lane_game", roles: ["a", "b"], policy: "greedy" })).toThrow(
      /roles: policy "greedy" does not form role-valid games; use policy "roles"/,
    );
  });
});
