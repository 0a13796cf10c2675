/**
 * Closed by default: the example server's operator routes (monitor, metrics, playground) refuse
 * anonymous operators, and oversized matchmaking bodies are refused from their headers, before
 * they are read. Without credentials the operator routes are open to a direct request from this
 * machine only: a request that carries any header a proxy or CDN sets, or that comes from another
 * address (127.0.0.2), is a stranger and gets 403; with credentials configured, the same proxied
 * request gets in with them.
 */
import { request } from "node:http";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../src/server/body-limit.js";
import { joinQueue, testPort } from "../helpers/sdk.js";

const PORT = testPort(50);
const url = (path: string) => `http://127.0.0.1:${PORT}${path}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

const OPERATOR_ROUTES = ["/monitor/api", "/playground/", "/playground/rooms"];

/** Every header a proxy commonly adds, with a value as it would send it. */
const PROXY_HEADERS: Record<string, string> = {
  "X-Forwarded-For": "203.0.113.9",
  Forwarded: "for=203.0.113.9;proto=https",
  "X-Real-IP": "203.0.113.9",
  "X-Client-IP": "203.0.113.9",
  "True-Client-IP": "203.0.113.9",
  "X-Forwarded-Host": "games.example",
  "X-Forwarded-Proto": "https",
  "X-Forwarded-Port": "443",
  "CF-Connecting-IP": "203.0.113.9",
  "Fastly-Client-IP": "203.0.113.9",
  "X-Cluster-Client-IP": "203.0.113.9",
  Via: "1.1 proxy.example",
};

/** GET `path` with `headers`, from `localAddress` (default 127.0.0.1); resolves with the status. */
function get(path: string, headers: Record<string, string> = {}, localAddress?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: PORT, path, headers, ...(localAddress ? { localAddress } : {}) });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

/** POST that announces `announced` bytes, sends only `sent` of them, and resolves with the status. */
function postAnnouncing(path: string, headers: Record<string, string>, sent: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url(path), { method: "POST", headers: { "Content-Type": "application/json", ...headers } });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.flushHeaders();
    if (sent > 0) req.write(Buffer.alloc(sent, 32));
    // Never end a body whose announced length was not sent: the answer must come from the headers.
    if (headers["Content-Length"] === String(sent)) req.end();
  });
}

describe("operator routes and request bodies", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });
  afterEach(() => {
    delete process.env.MATCHMAKER_OPERATOR_USER;
    delete process.env.MATCHMAKER_OPERATOR_PASSWORD;
  });

  it("without credentials configured, serves this machine and refuses a proxied request", async () => {
    expect((await fetch(url("/matchmaker/metrics"))).status).toBe(200);
    expect((await fetch(url("/monitor/api"))).status).toBe(200);
    for (const path of [
      "/monitor/api",
      "/matchmaker/metrics",
      "/matchmaker/metrics/prometheus",
      "/matchmaker/metrics/sample",
      "/dashboard/",
    ]) {
      const res = await fetch(url(path), { headers: { "X-Forwarded-For": "203.0.113.9" } });
      expect(res.status).toBe(403);
      expect(await res.text()).toMatch(/MATCHMAKER_OPERATOR_PASSWORD/);
    }
  });

  it("with credentials configured, asks everyone for them and runs no room method for an anonymous caller", async () => {
    process.env.MATCHMAKER_OPERATOR_USER = "ops";
    process.env.MATCHMAKER_OPERATOR_PASSWORD = "s3cret-for-the-test";
    const waiting = await joinQueue(server, "duel", { rating: 1500, side: "A" });
    const roomId = waiting.queue.roomId;

    const anonymous = await fetch(url(`/monitor/api/room/call?roomId=${roomId}&method=disconnect`));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic /);
    const wrong = await fetch(url("/matchmaker/metrics"), { headers: { Authorization: basic("ops", "guess") } });
    expect(wrong.status).toBe(401);
    expect((await fetch(url("/monitor/api/room?roomId=" + roomId))).status).toBe(401);

    const right = await fetch(url("/matchmaker/metrics"), {
      headers: { Authorization: basic("ops", "s3cret-for-the-test") },
    });
    expect(right.status).toBe(200);
    // The anonymous disconnect did nothing: the player still waits in the queue.
    const queues = ((await right.json()) as { queues: Array<{ queue: string; waitingPlayers: number }> }).queues;
    expect(queues.find((q) => q.queue === "duel")?.waitingPlayers).toBe(1);
    await waiting.queue.leave();
  });

  it("refuses a 64 MiB matchmaking body with 413 from its headers, having read none of it", async () => {
    const status = await postAnnouncing("/matchmake/joinOrCreate/duel", { "Content-Length": String(64 << 20) }, 1024);
    expect(status).toBe(413);
    expect(
      await postAnnouncing("/matchmake/joinOrCreate/duel", { "Content-Length": String(DEFAULT_MAX_BODY_BYTES + 1) }, 0),
    ).toBe(413);
  });

  it("refuses a matchmaking body of unstated length with 411, and still serves a small one", async () => {
    expect(await postAnnouncing("/matchmake/joinOrCreate/duel", { "Transfer-Encoding": "chunked" }, 16)).toBe(411);
    // A join body within the limit reaches Colyseus, which answers with a seat reservation.
    const res = await fetch(url("/matchmake/joinOrCreate/duel"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rating: 1500 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe("duel");
  });

  it("without credentials: a direct request from this machine gets in; any proxy header, or another address, gets 403", async () => {
    for (const path of OPERATOR_ROUTES) {
      expect(await get(path), `${path} direct`).toBe(200);
      for (const [name, value] of Object.entries(PROXY_HEADERS))
        expect(await get(path, { [name]: value }), `${path} with ${name}`).toBe(403);
      expect(await get(path, {}, "127.0.0.2"), `${path} from 127.0.0.2`).toBe(403);
    }
  });

  it("with credentials: a proxied operator gets in with them and not without", async () => {
    process.env.MATCHMAKER_OPERATOR_USER = "ops";
    process.env.MATCHMAKER_OPERATOR_PASSWORD = "proxied-operator-secret";
    const authorization = basic("ops", "proxied-operator-secret");
    for (const path of OPERATOR_ROUTES) {
      expect(await get(path, { "X-Real-IP": "203.0.113.9" }), `${path} anonymous`).toBe(401);
      expect(await get(path), `${path} direct, anonymous`).toBe(401);
      expect(await get(path, { "X-Real-IP": "203.0.113.9", Authorization: authorization }), path).toBe(200);
    }
  });
});
