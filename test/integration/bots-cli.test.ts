/**
 * The bot client's command line (`npm run client`), run as a user runs it: against the example
 * server it lands every bot, in every shape of game (a free-for-all of 3, four teams of two with
 * parties); with no server it says which endpoint it tried and how to start one; a queue the server
 * lacks, or bots cannot play, is named.
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

  interface Summary {
    queues: Record<
      string,
      { bots: number; matched: number; games: number; lost: number; meanImbalance: number | null }
    >;
  }
  const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Summary;
  const endpoint = () => `ws://localhost:${testPort(44)}`;

  it("against the 3-player free-for-all: six bots fill two games of three, no side asked or seated", async () => {
    const { code, stdout, stderr } = await runBots([
      "--endpoint",
      endpoint(),
      "--bots",
      "6",
      "--queues",
      "ffa3",
      "--json",
    ]);
    expect(code, stderr).toBe(0);
    // A free-for-all has no teams to balance: its measure is the spread.
    expect(summaryOf(stdout).queues.ffa3).toMatchObject({
      bots: 6,
      matched: 6,
      games: 2,
      lost: 0,
      meanImbalance: null,
    });
    // The queue agrees: two games, six players seated (the bots check each seat's side and team).
    const metrics = (await (await fetch(`http://localhost:${testPort(44)}/matchmaker/metrics`)).json()) as {
      queues: Array<{ queue: string; matchesFormed: number; playersMatched: number }>;
    };
    expect(metrics.queues.find((q) => q.queue === "ffa3")).toMatchObject({ matchesFormed: 2, playersMatched: 6 });
  }, 45_000);

  it("four teams of two, every bot in a party of two: eight bots, one game, each party one team", async () => {
    const { code, stdout, stderr } = await runBots([
      "--endpoint",
      endpoint(),
      "--bots",
      "8",
      "--queues",
      "teams4x2",
      "--parties",
      "1",
      "--json",
    ]);
    // A party split over teams would be lost (the bots check it).
    expect(code, stderr).toBe(0);
    expect(summaryOf(stdout).queues.teams4x2).toMatchObject({ bots: 8, matched: 8, games: 1, lost: 0 });
  }, 45_000);

  it("names a queue the server lacks, or one bots cannot play, before any bot runs (exit code 2)", async () => {
    const unknown = await runBots(["--endpoint", endpoint(), "--queues", "ffa3,nonesuch"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--queues: unknown queue "nonesuch" (this server\'s: duel, squad,');
    const ranked = await runBots(["--endpoint", endpoint(), "--queues", "ranked"]);
    expect(ranked.code).toBe(2);
    expect(ranked.stderr).toContain(
      '--queues: bots cannot play "ranked": its players come from the server\'s accounts',
    );
  }, 45_000);
});
