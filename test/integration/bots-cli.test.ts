/**
 * The bot client's command line (`npm run client`), run as a user runs it: against the example
 * server it lands every bot; with no server it says which endpoint it tried and how to start one.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { testPort } from "../helpers/sdk.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));

function runBots(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "example-client/bots.ts", ...args], {
      cwd: repo,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run client", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, testPort(44));
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("with no server: names the endpoint and says how to start the server, exit code 1, no bot run", async () => {
    const endpoint = `ws://localhost:${testPort(43)}`;
    const { code, stderr } = await runBots(["--endpoint", endpoint, "--bots", "4"]);
    expect(code).toBe(1);
    expect(stderr).toContain(`no server answers at ${endpoint}`);
    expect(stderr).toContain("ECONNREFUSED");
    expect(stderr).toContain("npm start");
    expect(stderr).toContain("--endpoint");
    expect(stderr).not.toContain("fetch failed");
  }, 45_000);

  it("against the example server: four squad bots land in one game", async () => {
    const endpoint = `ws://localhost:${testPort(44)}`;
    const { code, stdout, stderr } = await runBots([
      "--endpoint",
      endpoint,
      "--bots",
      "4",
      "--queues",
      "squad",
      "--json",
    ]);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      total: { bots: number; matched: number; games: number; lost: number };
    };
    expect(summary.total).toMatchObject({ bots: 4, matched: 4, games: 1, lost: 0 });
  }, 45_000);
});
