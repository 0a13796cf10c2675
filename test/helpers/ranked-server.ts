/**
 * A ranked server for test/integration/ratings.test.ts, run as its own process: a ranked 1v1 queue
 * whose players come from signed tokens (JWT, secret JWT_SECRET) and whose ratings come from a
 * `Ratings` on the store RATINGS_STORE names (memory, or sqlite in RATINGS_FILE, or redis at
 * REDIS_URL under RATINGS_PREFIX), and the game room that reports each match's result with that
 * same `Ratings`. It prints one line per report (`report <matchId> <who> <status>`) for the test to read.
 *
 * The game: the first player to send `done` wins. The game room then reports the result twice, and
 * a second instance of the game room, created by the server for the same match, reports it again:
 * the result must count once. `open_game` is a room type that lets clients create it (Colyseus's
 * default static onAuth): it reports `{ winner: 0 }` for whatever `match` a client gives it.
 */
import "../../example-server/node20.js";
import { defineRoom, defineServer, JWT, matchMaker, Room, type Client } from "colyseus";
import { Redis } from "ioredis";
import {
  closeUnknownMessage,
  defineQueue,
  MemoryRatingStore,
  playerArrived,
  PlayerRefused,
  queueSeatsOnly,
  Ratings,
  RedisRatingStore,
  SqliteRatingStore,
  type MatchInfo,
  type MatchResult,
  type RatingStore,
  type SeatOptions,
} from "../../src/index.js";

JWT.settings.secret = process.env.JWT_SECRET ?? "ranked test server";

/** The store RATINGS_STORE names. */
function ratingStore(): RatingStore {
  const kind = process.env.RATINGS_STORE ?? "memory";
  if (kind === "memory") return new MemoryRatingStore();
  if (kind === "sqlite") return new SqliteRatingStore({ path: process.env.RATINGS_FILE! });
  if (kind === "redis")
    return new RedisRatingStore({ client: new Redis(process.env.REDIS_URL!), prefix: process.env.RATINGS_PREFIX! });
  throw new Error(`RATINGS_STORE=${kind}: memory, sqlite or redis`);
}

/** The ratings the queue reads and the game room reports to: one object for both. */
export const ratings = new Ratings({ store: ratingStore() });

/** Report `result` for `match` and print what it did. */
async function report(match: MatchInfo, who: string, result: MatchResult): Promise<string> {
  let status: string;
  try {
    status = (await ratings.reportResult(match, result)).status;
  } catch (error) {
    status = `refused (${error instanceof Error ? error.message : String(error)})`;
  }
  console.log(`report ${match?.id} ${who} ${status}`);
  return status;
}

/** The ranked game: the first `done` wins; the result is reported twice, and again by a second instance. */
class RankedGameRoom extends Room {
  static override onAuth = queueSeatsOnly;
  override messages = {
    done: (client: Client) => void this.finish(this.seats.get(client.sessionId)!.team),
    // A player asks what its seat says: its rating (from the ratings, at its join) and whether the match is rated.
    seat: (client: Client) => ({ ...this.seats.get(client.sessionId)!, rated: this.match.rated === true }),
    _: closeUnknownMessage,
  };
  private match!: MatchInfo;
  private readonly seats = new Map<string, SeatOptions>();
  private over = false;

  override async onCreate(options: { match: MatchInfo; echo?: MatchResult }) {
    this.match = options.match;
    // The second instance for the same match: it reports at once, as a game room that restarted might.
    if (options.echo) await report(this.match, "second-room", options.echo);
  }

  override onJoin(client: Client, seat: SeatOptions) {
    playerArrived(this.match, client.sessionId);
    this.seats.set(client.sessionId, seat);
  }

  private async finish(winner: number) {
    if (this.over) return;
    this.over = true;
    const result = { winner };
    await report(this.match, "game-room", result);
    await report(this.match, "game-room-again", result);
    await matchMaker.createRoom("ranked_game", { match: this.match, echo: result });
    this.broadcast("over", winner);
  }
}

/** A room type clients can create themselves, with a `match` of their own making: it reports for it. */
class OpenGameRoom extends Room {
  override messages = { _: closeUnknownMessage };
  private status = "";
  override async onCreate(options: { match?: MatchInfo }) {
    this.status = await report(options.match as MatchInfo, "client-created-room", { winner: 0 });
  }
  override onJoin(client: Client) {
    client.send("report", this.status);
  }
}

const server = defineServer({
  rooms: {
    ranked_1v1: defineQueue({
      teamSize: 1,
      gameRoom: "ranked_game",
      rating: { min: 0, max: 5000 },
      tickMs: 100,
      ratings,
      players: {
        // The account is the signed token's: a client can neither choose it nor send a rating.
        resolve: async ({ token }) => {
          if (!token) throw new PlayerRefused("sign in first");
          const { id } = await JWT.verify<{ id: string }>(token);
          return { playerId: id };
        },
      },
    }),
    ranked_game: defineRoom(RankedGameRoom),
    open_game: defineRoom(OpenGameRoom),
  },
});

const port = Number(process.env.PORT);
await server.listen(port);
console.log(`listening on ${port}`);
