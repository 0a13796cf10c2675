/**
 * The README's complete server, runnable: `npx tsx example-server/minimal.ts` (PORT, default 2567).
 * The README shows this file from the `colyseus` import to the end, with "colyseus-matchmaker"
 * for "../src/index.js" and "colyseus-matchmaker/web" for "../src/web/index.js";
 * test/docs/snippets.test.ts keeps the two identical and test/integration/readme.test.ts runs it
 * as a process, with four client processes.
 */
import "./node20.js";
import { defineRoom, defineServer, Room, type Client } from "colyseus";
import { monitor } from "@colyseus/monitor";
import {
  defineQueue,
  matchmakerMetrics,
  closeUnknownMessage,
  operatorAuth,
  playerArrived,
  queueSeatsOnly,
  type MatchInfo,
  type SeatOptions,
} from "../src/index.js";
import { dashboardPage, playPage } from "../src/web/index.js";

// Your game. The queue creates one per match and reserves a seat for every player.
class ArenaRoom extends Room {
  static override onAuth = queueSeatsOnly; // players enter only through the queue's seats, never a client's own join
  override messages = { _: closeUnknownMessage }; // your message types here; any other closes its sender, not the server
  match!: MatchInfo;
  override onCreate(options: { match: MatchInfo }) {
    // options.match.teams[0] plays side "A", teams[1] side "B"; each player has its sessionId.
    this.match = options.match;
    this.maxClients = options.match.teamSize * 2;
  }
  override onJoin(client: Client, seat: SeatOptions) {
    playerArrived(this.match, client.sessionId); // the queue stops waiting for this player
    console.log(client.sessionId, "plays side", seat.side, "in match", seat.matchId);
  }
}

const server = defineServer({
  rooms: {
    queue_2v2: defineQueue({ teamSize: 2, gameRoom: "arena", policy: "greedy" }),
    arena: defineRoom(ArenaRoom),
  },
  express: (app) => {
    // The player page: four browser tabs at http://localhost:2567/play/ make a 2v2.
    app.use("/play", playPage());
    // Operators only: credentials from MATCHMAKER_OPERATOR_USER / _PASSWORD, else this machine only.
    app.use("/monitor", operatorAuth(), monitor());
    app.use("/matchmaker/metrics", operatorAuth(), matchmakerMetrics());
    app.use("/dashboard", operatorAuth(), dashboardPage());
  },
});

await server.listen(Number(process.env.PORT ?? 2567));
