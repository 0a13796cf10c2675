/**
 * The shapes guide's server (docs/shapes.md), runnable: `npx tsx example-server/shapes.ts` (PORT,
 * default 2567). The guide shows this file from the `colyseus` import to the end;
 * test/integration/shapes-guide.test.ts runs it as a process, with SDK clients.
 */
import "./node20.js";
import { defineRoom, defineServer, Room, type Client } from "colyseus";
import {
  closeUnknownMessage,
  defineQueue,
  playerArrived,
  queueSeatsOnly,
  type MatchInfo,
  type SeatOptions,
} from "../src/index.js";

// One game room for every shape: it takes the players the queue seats, by team index.
class TableRoom extends Room {
  static override onAuth = queueSeatsOnly;
  override messages = { _: closeUnknownMessage };
  match!: MatchInfo;
  override onCreate(options: { match: MatchInfo }) {
    this.match = options.match;
    // A seat per human: bots take none, and a game that started short-handed has fewer.
    this.maxClients = options.match.teams.reduce((n, team) => n + team.players.filter((p) => !p.bot).length, 0);
  }
  override onJoin(client: Client, seat: SeatOptions) {
    playerArrived(this.match, client.sessionId);
    const players = this.maxClients;
    // A free-for-all has one team per player; only a game of two teams has sides.
    const where = seat.side ? `side ${seat.side}` : `team ${seat.team}`;
    console.log(`${client.sessionId} plays ${where} of ${this.match.queue}, ${players} players, in ${seat.matchId}`);
  }
}

const server = defineServer({
  rooms: {
    // A card game for three: every game has exactly three players.
    cards_3: defineQueue({ maxPlayers: 3, gameRoom: "table" }),
    // A free-for-all of four.
    ffa_4: defineQueue({ maxPlayers: 4, gameRoom: "table" }),
    // Two to four players: four as soon as they wait, or, once the first has waited 10 s, all
    // who wait (at least two).
    party_2to4: defineQueue({ maxPlayers: 4, minPlayers: 2, shortHandedAfterMs: 10_000, gameRoom: "table" }),
    // Four teams of two.
    teams_4x2: defineQueue({ teamSize: 2, teams: 4, gameRoom: "table" }),
    table: defineRoom(TableRoom),
  },
});

await server.listen(Number(process.env.PORT ?? 2567));
