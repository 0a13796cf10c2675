/**
 * Malformed WebSocket frames: each one costs its sender the connection, and a flood of them
 * leaves a bounded number of log lines, not a stack trace per frame.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import app from "../../example-server/app.config.js";
import { sendFrame } from "../helpers/join-from.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const PORT = testPort(51);

/** ROOM_DATA (13), message type "x" (msgpack fixstr), then a byte msgpack never uses. */
const GARBAGE = Buffer.from([13, 0xa1, 0x78, 0xc1, 0xc1, 0xc1]);

/** A duel player's socket that sends one bad frame; resolves with the code it is closed with. */
const sendGarbage = (): Promise<number> => sendFrame(PORT, "duel", { rating: 1500, side: "A" }, GARBAGE);

describe("malformed frames", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("disconnects each sender and logs a bounded number of lines for 60 of them, while others still queue", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const codes: number[] = [];
      for (let i = 0; i < 60; i++) codes.push(await within(sendGarbage(), 10_000, `garbage sender ${i}`));
      expect(codes.every((code) => code !== 1000)).toBe(true);
      const lines = errors.mock.calls.length;
      expect(lines).toBeGreaterThan(0); // the first is told
      expect(lines).toBeLessThanOrEqual(3); // not one stack per frame
    } finally {
      errors.mockRestore();
    }
    // The queue still serves honest players.
    const a = await joinQueue(server, "duel", { rating: 1500, side: "B" });
    const b = await joinQueue(server, "duel", { rating: 1510 });
    expect((await within(a.seat, 10_000, "seat a")).matchId).toBe((await within(b.seat, 10_000, "seat b")).matchId);
  });
});
