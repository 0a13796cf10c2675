/**
 * The README's complete client, runnable against example-server/minimal.ts:
 * `npx tsx example-client/minimal.ts`.
 */
import { Client } from "@colyseus/sdk";
import type { SeatMessage, StatusMessage } from "../src/index.js";

/** Join the 2v2 queue and resolve with the game room once the queue seats this player. */
export async function playOneGame(endpoint: string, rating: number) {
  const client = new Client(endpoint);
  const queue = await client.joinOrCreate("queue_2v2", { rating });

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

  return new Promise<{ seat: SeatMessage; game: Awaited<ReturnType<Client["consumeSeatReservation"]>> }>(
    (resolve, reject) => {
      queue.onMessage("seat", async (seat: SeatMessage) => {
        try {
          console.log(`match ${seat.matchId}: you play side ${seat.side}`);
          const game = await client.consumeSeatReservation(seat);
          await queue.leave(); // or queue.send("confirm") as with Colyseus's QueueRoom
          resolve({ seat, game });
        } catch (error) {
          reject(error);
        }
      });
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const endpoint = process.env.ENDPOINT ?? "ws://localhost:2567";
  const games = await Promise.all([1500, 1520, 1480, 1510].map((r) => playOneGame(endpoint, r)));
  for (const { game } of games) await game.leave();
}
