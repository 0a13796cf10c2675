/**
 * The example server's operator routes (`/monitor`, `/playground`) without credentials: open to a
 * direct request from this machine only. A request that carries any header a proxy or CDN sets,
 * or that comes from another address (127.0.0.2), is a stranger and gets 403; with credentials
 * configured, the same proxied request gets in with them.
 */
import { request } from "node:http";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { testPort } from "../helpers/sdk.js";

const PORT = testPort(111);
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

describe("operator routes behind a proxy", () => {
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
    const authorization = `Basic ${Buffer.from("ops:proxied-operator-secret").toString("base64")}`;
    for (const path of OPERATOR_ROUTES) {
      expect(await get(path, { "X-Real-IP": "203.0.113.9" }), `${path} anonymous`).toBe(401);
      expect(await get(path), `${path} direct, anonymous`).toBe(401);
      expect(await get(path, { "X-Real-IP": "203.0.113.9", Authorization: authorization }), path).toBe(200);
    }
  });
});
