import { ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playOneGame } from "../../example-client/minimal.js";
import { testPort, within } from "../helpers/sdk.js";

describe("the README's complete server and client", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    // The README's server listens on PORT when its module loads.
    process.env.PORT = String(testPort(0));
    const { server: minimalServer } = await import("../../example-server/minimal.js");
    server = new ColyseusTestServer(minimalServer);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("seats four clients of the 2v2 queue in one arena, two per side", async () => {
    const results = await within(
      Promise.all([1500, 1520, 1480, 1510].map((rating) => playOneGame(`ws://localhost:${testPort(0)}`, rating))),
      10_000,
      "four games",
    );
    expect(new Set(results.map((r) => r.game.roomId)).size).toBe(1);
    expect(results.filter((r) => r.seat.side === "A")).toHaveLength(2);
    for (const r of results) expect(r.game.sessionId).toBe(r.seat.sessionId);
    for (const r of results) await r.game.leave();
  });
});
