/**
 * A message type the room has no handler for. Colyseus 0.18 closes such a client with a reason
 * naming the type (`room onMessage for "<type>" not registered.`), and `ws` throws on a close reason
 * over 123 bytes, outside any handler: before, one message with a type of 100 characters from any
 * client, in a queue or in a game, shut the whole example server down (503, then exit). Now each
 * room's fallback handler closes the client (code 4002) with a fixed reason.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import type { Room as SdkRoom } from "@colyseus/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const PORT = testPort(160);
const LONG = "x".repeat(200);
const LONG_UTF8 = "é".repeat(60); // 120 bytes: over the limit with the words around it, not in characters

/** The code `room` is closed with after it sent `send(room)`. */
async function closedAfter(room: SdkRoom, send: (room: SdkRoom) => void): Promise<number> {
  const closed = new Promise<number>((resolve) => room.onLeave((code) => resolve(code)));
  send(room);
  return within(closed, 10_000, "the sender's close");
}

describe("message types a room has no handler for", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("close the sender (4002) whatever the type's length, in the queue and in the game room; the server keeps serving", async () => {
    const codes: number[] = [];
    for (const send of [
      (r: SdkRoom) => r.send(LONG, { any: 1 }),
      (r: SdkRoom) => r.send(LONG_UTF8),
      (r: SdkRoom) => r.sendBytes(LONG, new Uint8Array([1, 2, 3])),
      (r: SdkRoom) => r.send("nope"),
    ]) {
      const { queue } = await joinQueue(server, "squad", { rating: 1500 });
      codes.push(await closedAfter(queue, send));
    }
    expect(codes).toEqual([4002, 4002, 4002, 4002]);

    // A player in a game room (the demo's, seated by the queue).
    const a = await joinQueue(server, "duel", { rating: 1500 });
    const b = await joinQueue(server, "duel", { rating: 1500 });
    const [seatA, seatB] = await Promise.all([within(a.seat, 10_000, "seat a"), within(b.seat, 10_000, "seat b")]);
    const gameA = await server.sdk.consumeSeatReservation(seatA);
    const gameB = await server.sdk.consumeSeatReservation(seatB);
    for (const room of [gameA, gameB]) room.onMessage("*", () => undefined);
    expect(await closedAfter(gameA, (r) => r.send(LONG))).toBe(4002);
    await gameB.leave();

    // Still serving: two honest players are matched.
    const c = await joinQueue(server, "duel", { rating: 1500 });
    const d = await joinQueue(server, "duel", { rating: 1500 });
    expect((await within(c.seat, 10_000, "seat c")).matchId).toBe((await within(d.seat, 10_000, "seat d")).matchId);
  });
});
