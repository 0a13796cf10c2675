/**
 * Join options keyed by an `Object.prototype` member's name, on queues not created yet: before,
 * `{ hasOwnProperty: 1 }` broke Colyseus's merge of the options into the new room's (523
 * "b.hasOwnProperty is not a function" and a logged TypeError). The queue's static `onAuth`
 * refuses them first: a 400 naming the key, nothing logged, the queue not even created.
 */
import { matchMaker } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import app from "../../example-server/app.config.js";
import { postJoin as postJoinTo } from "../helpers/join-from.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const PORT = testPort(150);
const WHY = "it names a member of every JavaScript object (Object.prototype)";

const postJoin = (queue: string, body: string) => postJoinTo(PORT, queue, body);

describe("join option keys named after Object.prototype members", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("refuses each on a queue not created yet with a 400 naming the key, logging nothing", async () => {
    const errors = vi.spyOn(console, "error");
    const warnings = vi.spyOn(console, "warn");
    try {
      const queues = ["duel", "squad", "arena5", "squad_ready", "duel_zones"];
      const keys = ["hasOwnProperty", "toString", "constructor", "__proto__", "valueOf"];
      for (const [i, key] of keys.entries()) {
        const refused = await postJoin(queues[i], `{"rating":1500,"${key}":1}`);
        const error = `invalid join options: ${key}: refused as a key: ${WHY}`;
        expect(refused).toEqual({ status: 400, json: { code: 400, error } });
      }
      // Deeper down too, naming the top-level field and the key.
      const nested = await postJoin("duel", `{"rating":1500,"party":{"size":2,"hasOwnProperty":1}}`);
      expect(nested).toEqual({
        status: 400,
        json: { code: 400, error: `invalid join options: party: the key "hasOwnProperty" is refused: ${WHY}` },
      });
      // The SDK's join rejects the same way.
      await expect(
        server.sdk.joinOrCreate("duel", JSON.parse('{"rating":1500,"__proto__":{"x":1}}')),
      ).rejects.toMatchObject({ code: 400, message: `invalid join options: __proto__: refused as a key: ${WHY}` });
      // Refused before any queue room was created, and nothing was logged.
      expect(await matchMaker.query({})).toEqual([]);
      expect(errors).not.toHaveBeenCalled();
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      warnings.mockRestore();
    }
  });

  it("keeps serving everyone else: two players join the same queue and are matched", async () => {
    expect((await postJoin("duel", `{"rating":1500,"hasOwnProperty":1}`)).status).toBe(400);
    const a = await joinQueue(server, "duel", { rating: 1500 });
    const b = await joinQueue(server, "duel", { rating: 1500, playerId: "hasOwnProperty" }); // a value, not a key
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 5000, "both seats");
    expect(seatA.roomId).toBe(seatB.roomId);
    for (const p of [a, b]) await p.queue.leave();
  });
});
