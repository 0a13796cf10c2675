/**
 * The ratings guide's server (docs/ratings.md), runnable: `npx tsx example-server/ratings.ts` (PORT,
 * default 2567; JWT_SECRET signs the players' tokens; RATINGS_FILE, default ratings.sqlite). The
 * guide shows this file from the `colyseus` import to the end; test/integration/ratings.test.ts runs it.
 */
import "./node20.js";
import { defineRoom, defineServer, JWT, Room, type Client } from "colyseus";
import { createSecretKey } from "node:crypto";
import {
  closeUnknownMessage,
  defineQueue,
  playerArrived,
  PlayerRefused,
  queueSeatsOnly,
  Ratings,
  SqliteRatingStore,
  type MatchInfo,
  type SeatOptions,
} from "../src/index.js";

// A key object, not the string, which jsonwebtoken tries as a public key at every verify (with
// @colyseus/auth's OAuth routes, set SESSION_SECRET too: they read a string secret only).
JWT.settings.secret = createSecretKey(Buffer.from(process.env.JWT_SECRET!));

// One Ratings for the queue (it reads them at every join) and the game room (it reports results).
const ratings = new Ratings({
  store: new SqliteRatingStore({ path: process.env.RATINGS_FILE ?? "ratings.sqlite" }),
  adjustForGrownWindow: true, // the forum's rule: a game that formed only by a grown window moves ratings less
});

// A duel: the first player to send "done" wins. The game's rule, judged on the server.
class DuelRoom extends Room {
  static override onAuth = queueSeatsOnly; // players enter only through the queue's seats
  override messages = {
    done: (client: Client) => void this.finish(this.seats.get(client.sessionId)!.team),
    _: closeUnknownMessage,
  };
  private match!: MatchInfo;
  private readonly seats = new Map<string, SeatOptions>();
  private over = false;

  override onCreate(options: { match: MatchInfo }) {
    this.match = options.match;
  }

  override onJoin(client: Client, seat: SeatOptions) {
    playerArrived(this.match, client.sessionId);
    this.seats.set(client.sessionId, seat);
  }

  private async finish(winner: number) {
    if (this.over) return;
    this.over = true;
    // The result, in one line: it counts once, and the next joins read the new ratings.
    const report = await ratings.reportResult(this.match, { winner });
    if (report.status !== "unknown") this.broadcast("result", { winner, changes: report.changes });
    // Close a second later: a player still finishing its join gets the result once it has joined.
    this.clock.setTimeout(() => void this.disconnect(), 1000);
  }
}

const server = defineServer({
  rooms: {
    ranked_1v1: defineQueue({
      teamSize: 1,
      gameRoom: "duel",
      policy: "expanding-window",
      params: { unit: "rating", initial: 100, growthPerSecond: 25, max: 1000 },
      rating: { min: 0, max: 5000 },
      ratings,
      // Who the player is comes from its token; its rating then comes from the ratings.
      players: {
        resolve: async ({ token }) => {
          if (!token) throw new PlayerRefused("sign in first");
          const { id } = await JWT.verify<{ id: string }>(token);
          return { playerId: id };
        },
      },
    }),
    duel: defineRoom(DuelRoom),
  },
  // A profile page: the rating, its uncertainty and the last games.
  express: (app) => {
    app.get("/players/:id", async (req, res) => {
      const id = String(req.params.id).slice(0, 128);
      res.json({ ...(await ratings.rating(id)), history: await ratings.history(id, { limit: 10 }) });
    });
  },
});

await server.listen(Number(process.env.PORT ?? 2567));
