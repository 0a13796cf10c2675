/**
 * The README's complete server and client, run as a user runs them: the server module listens on
 * PORT, and four client processes (`tsx example-client/minimal.ts`) play one 2v2 game.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testPort } from "../helpers/sdk.js";

const CLIENT = fileURLToPath(new URL("../../example-client/minimal.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url));

interface ClientRun {
  readonly child: ChildProcess;
  output: string;
}

function runClient(rating: number): ClientRun {
  const child = spawn(process.execPath, [TSX, CLIENT], {
    env: { ...process.env, ENDPOINT: `ws://localhost:${testPort(0)}`, RATING: String(rating) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: ClientRun = { child, output: "" };
  child.stdout!.on("data", (chunk) => (run.output += chunk));
  child.stderr!.on("data", (chunk) => (run.output += chunk));
  return run;
}

describe("the README's complete server and client", () => {
  let server: ColyseusTestServer;
  const clients: ClientRun[] = [];

  beforeAll(async () => {
    // The README's server listens on PORT when its module loads.
    process.env.PORT = String(testPort(0));
    const { server: minimalServer } = await import("../../example-server/minimal.js");
    server = new ColyseusTestServer(minimalServer);
  });
  afterAll(async () => {
    for (const c of clients) c.child.kill();
    await server.shutdown();
  });

  it("seats four client processes of the 2v2 queue in one arena, two per side", async () => {
    clients.push(...[1500, 1520, 1480, 1510].map(runClient));
    const seated = (c: ClientRun) => /match \S+: you play side ([AB])\n[\s\S]*in game (\S+) as (\S+)/.exec(c.output);
    await vi.waitFor(
      () => {
        for (const c of clients) if (!seated(c)) throw new Error(`not seated yet:\n${c.output}`);
      },
      { timeout: 60_000, interval: 200 },
    );
    const results = clients.map((c) => seated(c)!);
    expect(new Set(results.map((r) => r[2])).size).toBe(1); // one game room
    expect(results.filter((r) => r[1] === "A")).toHaveLength(2);
    expect(new Set(results.map((r) => r[3])).size).toBe(4); // four players in it
  }, 90_000);
});
