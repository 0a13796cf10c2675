/**
 * Join options nested too deep or too large are refused on the matchmaking request, at once and
 * naming the limit: before, 5,000 levels in an unknown field made Colyseus fail to copy them
 * when reserving the seat and retry for 8 to 16 s before answering "already full". The example
 * server, raw HTTP and the SDK.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { postJoin as postJoinTo } from "../helpers/join-from.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const PORT = testPort(66);
const DEEP = "extra: nested deeper than 8 levels (the join options' limit)";

const postJoin = (queue: string, body: string) => postJoinTo(PORT, queue, body);

describe("join options too deep or too large", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("refuses 5,000 levels of nesting on the first answer, naming the field and the limit", async () => {
    const depth = 5000;
    const refused = await postJoin("duel", `{"rating":1000,"extra":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    expect(refused).toEqual({ status: 525, json: { code: 525, error: `invalid join options: ${DEEP}` } });

    // Too many values: the limit, not a list of a thousand unknown fields.
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`f${i}`, 0])));
    const tooWide = await postJoin("duel", wide);
    expect(tooWide.status).toBe(525);
    expect(tooWide.json.error).toMatch(/^invalid join options: f\d+: join options may hold at most 1000 values$/);

    // The SDK's join rejects the same way.
    const deepObject = JSON.parse(`{"rating":1000,"extra":${"[".repeat(50)}${"]".repeat(50)}}`);
    await expect(server.sdk.joinOrCreate("duel", deepObject)).rejects.toMatchObject({
      code: 525,
      message: `invalid join options: ${DEEP}`,
    });
  });

  it("keeps serving everyone else: two players join and are matched", async () => {
    const depth = 5000;
    const refusals = await Promise.all(
      [1, 2, 3].map(() => postJoin("duel", `{"rating":1000,"extra":${"[".repeat(depth)}${"]".repeat(depth)}}`)),
    );
    expect(refusals.map((r) => r.status)).toEqual([525, 525, 525]);
    const a = await joinQueue(server, "duel", { rating: 1500 });
    const b = await joinQueue(server, "duel", { rating: 1500 });
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 5000, "both seats");
    expect(seatA.roomId).toBe(seatB.roomId);
    for (const p of [a, b]) await p.queue.leave();
  });
});
