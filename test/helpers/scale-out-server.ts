/**
 * One process of the scale-out test (test/integration/scale-out.test.ts), run as a child
 * process: the example server's rooms and Redis options (`example-server/scale-out.ts`, from
 * REDIS_URL and PUBLIC_ADDRESS) plus a 1v1 queue whose game room asks for a replacement when a
 * player leaves, so backfill crosses processes too. Prints "listening" once it accepts clients.
 */
import "../../example-server/node20.js";
import { defineRoom, type Client } from "@colyseus/core";
import config, { listen } from "@colyseus/tools";
import app, { rooms } from "../../example-server/app.config.js";
import { DemoGameRoom, Seat } from "../../example-server/DemoGameRoom.js";
import { scaleOutOptions } from "../../example-server/scale-out.js";
import { defineQueue, requestBackfill, type MatchInfo, type SeatOptions } from "../../src/index.js";

/** The demo game, plus: a player who leaves is replaced through the queue (which may live in another process). */
class BackfillDemoRoom extends DemoGameRoom {
  private match!: MatchInfo;

  override onCreate(options: { match: MatchInfo }): void {
    super.onCreate(options);
    this.match = options.match;
  }

  override onJoin(client: Client, options: SeatOptions): void {
    if (!options.backfill) return super.onJoin(client, options);
    const seat = new Seat();
    seat.sessionId = client.sessionId;
    seat.side = options.side;
    seat.rating = options.rating;
    seat.arrived = true;
    this.state.seats.set(client.sessionId, seat);
  }

  override onLeave(client: Client): void {
    const seat = this.state.seats.get(client.sessionId);
    if (!seat) return;
    this.state.seats.delete(client.sessionId);
    requestBackfill(this.match, seat.side === "A" ? 0 : 1, 1).catch((error) =>
      console.error("requestBackfill failed:", error),
    );
  }
}

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || !process.env.REDIS_URL)
  throw new Error("scale-out-server: PORT and REDIS_URL are required");
await listen(
  config({
    ...app,
    rooms: {
      ...rooms,
      bf_duel: defineQueue({ teamSize: 1, gameRoom: "bf_game", policy: "greedy", tickMs: 100 }),
      bf_game: defineRoom(BackfillDemoRoom),
    },
    options: { ...app.options, ...scaleOutOptions(port) },
    displayLogs: false,
  }),
  port,
);
console.log(`listening on ${port} as pid ${process.pid}`);
