/**
 * A client written for Colyseus's built-in `QueueRoom`, exactly as its protocol goes: join with
 * `{ rank }`, hear `clients` (how many players are grouped with you), take the `seat`
 * reservation as it is, then `confirm`. It works unchanged against a `MatchmakerRoom`; only the
 * room name differs (see the README's migration section and test/integration/queue-room.test.ts).
 */
import { Client, type Room } from "@colyseus/sdk";

export interface QueueOutcome {
  /** The game room this client landed in. */
  game: Room;
  /** Every `clients` count the queue sent. */
  clients: number[];
  /** Resolves with the close code once the queue let this client go after `confirm`. */
  queueClosed: Promise<number>;
}

export async function playFromQueue(endpoint: string, queueName: string, rank: number): Promise<QueueOutcome> {
  const client = new Client(endpoint);
  const queue = await client.joinOrCreate(queueName, { rank });
  const clients: number[] = [];
  const queueClosed = new Promise<number>((resolve) => queue.onLeave((code) => resolve(code)));

  queue.onMessage("clients", (count: number) => clients.push(count));

  return new Promise<QueueOutcome>((resolve, reject) => {
    queue.onMessage("seat", async (reservation) => {
      try {
        const game = await client.consumeSeatReservation(reservation);
        queue.send("confirm");
        resolve({ game, clients, queueClosed });
      } catch (error) {
        reject(error);
      }
    });
  });
}
