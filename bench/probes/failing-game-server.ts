/**
 * The failing-game-room probe's server (`bench/probes/issue16.ts` starts it): the example
 * server's logger and a 1v1 queue on a 100 ms heartbeat, as the probe of issue 16 ran it, whose
 * game room always fails to start; `/matchmaker/metrics` (this machine only) counts the attempts.
 * `PROBE_LOGGER=console` logs with the plain console instead of the example's folding logger.
 * Run alone: `PORT=2700 npx tsx bench/probes/failing-game-server.ts`.
 */
import "../../example-server/node20.js";
import { defineRoom, Room } from "@colyseus/core";
import config, { listen } from "@colyseus/tools";
import { aggregatingLogger, defineQueue, matchmakerMetrics, operatorAuth } from "../../src/index.js";

/** A game room whose creation always fails, as one would with its game servers out of capacity. */
class AlwaysFailingGame extends Room {
  override onCreate(): void {
    throw new Error("game servers out of capacity");
  }
}

const port = Number(process.env.PORT ?? 2700);
await listen(
  config({
    rooms: {
      duel: defineQueue({ teamSize: 1, gameRoom: "failing_game", tickMs: 100 }),
      failing_game: defineRoom(AlwaysFailingGame),
    },
    options: { logger: process.env.PROBE_LOGGER === "console" ? console : aggregatingLogger() },
    initializeExpress: (app) => {
      app.use("/matchmaker/metrics", operatorAuth(), matchmakerMetrics());
    },
  }),
  port,
);
console.log(`failing-game probe server: http://localhost:${port}`);
