import { ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playOneGame } from "../../example-client/minimal.js";
import { server as minimalServer } from "../../example-server/minimal.js";
import { testPort, within } from "../helpers/sdk.js";

describe("the README's complete server and client", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    // @colyseus/testing's boot() always puts a Server instance on 2568; listen on our own port.
    await minimalServer.listen(testPort(0));
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
