/**
 * The README's complete client, runnable against example-server/minimal.ts:
 * `npx tsx example-client/minimal.ts` (ENDPOINT, default ws://localhost:2567; RATING, default 1500).
 * The README shows this file from the SDK import to the end, with "colyseus-matchmaker" for
 * "../src/index.js"; test/integration/readme.test.ts runs four of them.
 */
import { Client, type Room } from "@colyseus/sdk";
import type { RequeuedMessage, ResumeMessage, SeatMessage, StatusMessage } from "../src/index.js";

const client = new Client(process.env.ENDPOINT ?? "ws://localhost:2567");
const options = { rating: Number(process.env.RATING ?? 1500) };
let resume: string | undefined; // with Redis, the queue's resume token: a rejoin with it keeps this player's place
let seated = false;

// Join, or rejoin with the token when the queue's process died or stopped. Code 503 (the queue is
// moving, or Redis is unreachable) says "retry": so do other failures a few times, with backoff.
async function enterQueue(): Promise<Room> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.joinOrCreate("queue_2v2", resume ? { ...options, resume } : options);
    } catch (error) {
      const code = (error as { code?: number }).code;
      if (code === 525 && resume)
        resume = undefined; // the place is gone (matched or expired): join anew
      else if (code !== 503 && attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
    }
  }
}

function listen(queue: Room): void {
  queue.reconnection.maxRetries = 3; // a dead process does not come back: rejoin with the token instead
  queue.onMessage("resume", (message: ResumeMessage) => (resume = message.token));
  queue.onMessage("resumed", () => console.log("back in the queue at my place"));
  queue.onMessage("handover", () => undefined); // the queue's process is stopping: the close below rejoins
  queue.onLeave((code) => {
    if (!seated && code !== 1000 && code !== 4000) void enterQueue().then(listen);
  });

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

  // Matched: take the seat in the game room the queue created. Leave the queue only once in the
  // game: a seat that cannot be used (the game is gone, or too late) puts you back at your place.
  queue.onMessage("seat", async (seat: SeatMessage) => {
    console.log(`match ${seat.matchId}: you play side ${seat.side}`);
    try {
      const game = await client.consumeSeatReservation(seat);
      seated = true;
      await queue.leave(); // or queue.send("confirm") as with Colyseus's QueueRoom
      console.log(`in game ${game.roomId} as ${game.sessionId}`);
    } catch (error) {
      console.log(`could not enter the game: ${(error as Error).message}`); // a "requeued" follows
    }
  });
  queue.onMessage("requeued", (back: RequeuedMessage) => console.log(`back at your place (${back.reason})`));
}

listen(await enterQueue());
