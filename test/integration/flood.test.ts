/**
 * One client cannot slow the others down: a client that floods the queue with messages is
 * disconnected (and so leaves the queue), while honest players keep being matched.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import type { MatchmakerRoom } from "../../src/index.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

describe("a flooding client", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, testPort(52));
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("is disconnected after the queue's message limit, and the others are still matched", async () => {
    const flooder = await joinQueue(server, "duel", { rating: 1500, side: "A" });
    const room = server.getRoomById<MatchmakerRoom>(flooder.queue.roomId);
    expect(room.maxMessagesPerSecond).toBe(20); // the default
    const closed = new Promise<number>((resolve) => flooder.queue.onLeave((code) => resolve(code)));
    // 10,000 `start` messages as fast as the socket takes them (each would run the engine).
    for (let i = 0; i < 10_000 && flooder.queue.connection.isOpen; i++) flooder.queue.send("start");
    const code = await within(closed, 10_000, "the flooder's disconnection");
    expect(code).not.toBe(1000);
    // Gone from the queue: an honest pair is matched with each other, not with the flooder.
    const a = await joinQueue(server, "duel", { rating: 1500, side: "A" });
    const b = await joinQueue(server, "duel", { rating: 1510, side: "B" });
    const [sa, sb] = await within(Promise.all([a.seat, b.seat]), 10_000, "honest seats");
    expect(sa.matchId).toBe(sb.matchId);
    expect(room.getMetrics().waitingPlayers).toBe(0);
    await a.queue.leave();
    await b.queue.leave();
  });
});
