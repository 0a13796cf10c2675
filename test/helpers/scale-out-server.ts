/**
 * One process of the scale-out test (test/integration/scale-out.test.ts), run as a child
 * process: the example server's rooms and Redis options (`example-server/scale-out.ts`, from
 * REDIS_URL and PUBLIC_ADDRESS) plus a 1v1 queue whose game room asks for a replacement when a
 * player leaves, so backfill crosses processes too, and the durable tests' `dq` queue. Prints
 * "listening" once it accepts clients.
 */
import "../../example-server/node20.js";
import { defineRoom, type Client } from "@colyseus/core";
import config, { listen } from "@colyseus/tools";
import app, { rooms } from "../../example-server/app.config.js";
import { DemoGameRoom } from "../../example-server/DemoGameRoom.js";
import { scaleOutOptions } from "../../example-server/scale-out.js";
import { defineQueue, requestBackfill } from "../../src/index.js";

/**
 * The demo game (which seats replacements too), plus: a player who leaves is replaced through the
 * queue (which may live in another process).
 */
class BackfillDemoRoom extends DemoGameRoom {
  override onLeave(client: Client): void {
    const seat = this.state.seats.get(client.sessionId);
    if (!seat) return;
    this.state.seats.delete(client.sessionId);
    requestBackfill(this.match, seat.team, 1).catch((error) => console.error("requestBackfill failed:", error));
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
      // The durable-queue tests (durable.test.ts, bench/probes/issue17.ts): 2v2 within 20 rating
      // points, so players spread over rating bands wait until the test sends them company; a
      // found match waits 30 s for every accept, so a test can catch tickets in a ready check.
      dq: defineQueue({
        teamSize: 2,
        gameRoom: "demo_game",
        policy: "expanding-window",
        params: { unit: "rating", initial: 20, growthPerSecond: 0, max: 20 },
        readyCheck: { timeoutMs: 30_000 },
        tickMs: 100,
      }),
      // The README's queue, for the README client's automatic rejoin (durable.test.ts).
      queue_2v2: defineQueue({ teamSize: 2, gameRoom: "demo_game", policy: "greedy" }),
    },
    options: { ...app.options, ...scaleOutOptions(port) },
    displayLogs: false,
  }),
  port,
);
console.log(`listening on ${port} as pid ${process.pid}`);
