/**
 * Malformed WebSocket frames: each one costs its sender the connection, and a flood of them
 * leaves a bounded number of log lines, not a stack trace per frame.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import app from "../../example-server/app.config.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const PORT = testPort(51);

/** Reserve a seat in the duel queue over HTTP, connect a raw socket to it, send one bad frame. */
async function sendGarbage(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${PORT}/matchmake/joinOrCreate/duel`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rating: 1500, side: "A" }),
  });
  const seat = (await res.json()) as { roomId: string; processId: string; sessionId: string };
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/${seat.processId}/${seat.roomId}?sessionId=${seat.sessionId}`);
  return new Promise((resolve, reject) => {
    ws.on("error", reject);
    ws.on("close", (code) => resolve(code));
    // ROOM_DATA (13), message type "x" (msgpack fixstr), then a byte msgpack never uses.
    ws.on("open", () => ws.send(Buffer.from([13, 0xa1, 0x78, 0xc1, 0xc1, 0xc1])));
  });
}

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
