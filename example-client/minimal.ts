/**
 * The README's complete client, runnable against example-server/minimal.ts:
 * `npx tsx example-client/minimal.ts` (ENDPOINT, default ws://localhost:2567; RATING, default 1500).
 * The README shows this file from the SDK import to the end, with "colyseus-matchmaker/client" for
 * "../src/client/index.js"; test/integration/readme.test.ts runs four of them.
 */
import { Client } from "@colyseus/sdk";
import { joinQueue } from "../src/client/index.js";

const client = new Client(process.env.ENDPOINT ?? "ws://localhost:2567");
// One call for the queue's whole protocol: joins retried as the queue says, the place kept (with
// Redis: rejoined with its resume token when the queue's process stops or dies), the seat taken.
const queue = joinQueue(client, "queue_2v2", { rating: Number(process.env.RATING ?? 1500) });

// A status comes only when something moved: the waited time is derived on this client's clock.
queue.on("status", (status) => {
  const estimate = status.estimatedWaitMs === null ? "unknown" : `${status.estimatedWaitMs / 1000} s`;
  console.log(`${status.waiting} waiting; waited ${Math.round(queue.waitedMs() / 1000)} s, estimated ${estimate}`);
});
queue.on("resumed", () => console.log("back in the queue at my place"));
queue.on("matched", (seat) => console.log(`match ${seat.matchId}: you play side ${seat.side}`));
// A seat that cannot be used (the game is gone, or too late) puts the player back at its place.
queue.on("seatFailed", (error) => console.log(`could not enter the game: ${error.message}`));
queue.on("requeued", (back) => console.log(`back at your place (${back.reason})`));

// Rejects if the player leaves (queue.leave()), is removed (declined, ...) or the join is refused.
const game = await queue.game;
console.log(`in game ${game.roomId} as ${game.sessionId}`);
