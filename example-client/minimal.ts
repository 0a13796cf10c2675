/**
 * The README's complete client, runnable against example-server/minimal.ts:
 * `npx tsx example-client/minimal.ts` (ENDPOINT, default ws://localhost:2567; RATING, default 1500).
 * The README shows this file from the SDK import to the end, with "colyseus-matchmaker" for
 * "../src/index.js"; test/integration/readme.test.ts runs four of them.
 */
import { Client } from "@colyseus/sdk";
import type { SeatMessage, StatusMessage } from "../src/index.js";

const client = new Client(process.env.ENDPOINT ?? "ws://localhost:2567");
const queue = await client.joinOrCreate("queue_2v2", { rating: Number(process.env.RATING ?? 1500) });

// While waiting: how many wait and the estimated wait. A status comes only when something moved,
// so the waited time is derived here from the pair the server sent (its clock and the entry time).
let enteredAt = Date.now(); // this player's entry in the queue, on this client's clock
queue.onMessage("status", (status: StatusMessage) => {
  if (status.waitingSince !== undefined) enteredAt = Date.now() - (status.serverTime! - status.waitingSince);
  const estimate = status.estimatedWaitMs === null ? "unknown" : `${status.estimatedWaitMs / 1000} s`;
  const waited = Math.round((Date.now() - enteredAt) / 1000);
  console.log(`${status.waiting} waiting; waited ${waited} s, estimated ${estimate}`);
});
queue.onMessage("clients", () => undefined); // QueueRoom's count; the status says more

// Matched: take the seat in the game room the queue created.
queue.onMessage("seat", async (seat: SeatMessage) => {
  console.log(`match ${seat.matchId}: you play side ${seat.side}`);
  const game = await client.consumeSeatReservation(seat);
  await queue.leave(); // or queue.send("confirm") as with Colyseus's QueueRoom
  console.log(`in game ${game.roomId} as ${game.sessionId}`);
});
