/**
 * The simulator and the room run the same engine: a trace recorded by the simulator, replayed
 * through a real MatchmakerRoom by real clients (with the room's clock set to the trace's
 * times), forms exactly the same games with the same sides.
 */
import { defineRoom, Room } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MatchmakerRoom } from "../../src/index.js";
import type { Match } from "../../src/engine.js";
import { simulate } from "../../src/sim/simulator.js";
import { joinQueue, testPort, within, type QueuedClient } from "../helpers/sdk.js";
import { uniformSolos } from "../helpers/traffic.js";

/** A queue whose clock is the replayed trace's. */
class ReplayRoom extends MatchmakerRoom {
  static clock = 0;
  protected override now(): number {
    return ReplayRoom.clock;
  }
}

/** The games only need to exist. */
class ReplayGame extends Room {}

const CASES = [
  { queue: "replay_greedy_1v1", policy: "greedy", params: {}, teamSize: 1 },
  { queue: "replay_periodic_1v1", policy: "periodic", params: { x: 3 }, teamSize: 1 },
  { queue: "replay_multiqueue_2v2", policy: "multi-queue", params: { r: 3 }, teamSize: 2 },
] as const;

/** A game as "side A indices | side B indices", players named by their arrival index. */
type GameKey = string;
const key = (a: number[], b: number[]): GameKey =>
  `${a.sort((x, y) => x - y).join(",")}|${b.sort((x, y) => x - y).join(",")}`;

describe("a simulator trace replayed through the room", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    const rooms = Object.fromEntries(
      CASES.map((c) => [
        c.queue,
        defineRoom(ReplayRoom, {
          teamSize: c.teamSize,
          gameRoom: "game",
          policy: c.policy,
          params: c.params,
          tickMs: 60_000,
          // The simulator runs the policy on every arrival; so does this room (no join batching).
          joinBatchMs: 0,
          rating: { min: 0, max: 1 },
        }),
      ]),
    );
    server = await boot(config({ rooms: { ...rooms, game: defineRoom(ReplayGame) } }), testPort(4));
  });
  afterAll(async () => {
    await server.shutdown();
  });

  for (const c of CASES) {
    it(`forms the same games as the simulator (${c.policy}, ${c.teamSize}v${c.teamSize})`, async () => {
      const trace = simulate({
        policy: c.policy,
        params: c.params,
        teamSize: c.teamSize,
        traffic: uniformSolos(2),
        tickets: 36,
        seed: 11,
      });
      const simGames = trace.matches.map((m: Match) => {
        const index = (id: string) => Number(id.slice(1).split(".")[0]);
        return key(
          m.teams[0].players.map((p) => index(p.sessionId)),
          m.teams[1].players.map((p) => index(p.sessionId)),
        );
      });
      expect(simGames.length).toBeGreaterThan(3);

      const clients: QueuedClient[] = [];
      for (const arrival of trace.arrivals) {
        ReplayRoom.clock = arrival.ticket.enqueuedAt;
        clients.push(await joinQueue(server, c.queue, { rating: arrival.ticket.players[0].rating }));
      }
      const matched = trace.matches.flatMap((m) => m.tickets.map((t) => Number(t.id.slice(1))));
      const seats = await within(Promise.all(matched.map((i) => clients[i].seat)), 5000, "the replayed seats");
      const byMatch = new Map<string, { A: number[]; B: number[] }>();
      seats.forEach((seat, n) => {
        const game = byMatch.get(seat.matchId) ?? { A: [], B: [] };
        game[seat.side!].push(matched[n]);
        byMatch.set(seat.matchId, game);
      });
      const roomGames = [...byMatch.values()].map((g) => key(g.A, g.B));
      expect(roomGames.sort()).toEqual([...simGames].sort());
      for (const client of clients) await client.queue.leave();
    });
  }
});
