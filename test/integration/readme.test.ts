/**
 * The README's complete server and client, run as a user runs them: the server
 * (`tsx example-server/minimal.ts`, PORT) and four client processes (`tsx example-client/minimal.ts`)
 * play one 2v2 game. Its game room takes players only through the queue's seats: once a player
 * left, a client's own `joinById` (claiming a replacement seat) or `create` is refused.
 */
import { Client } from "@colyseus/sdk";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testPort } from "../helpers/sdk.js";

const SERVER = fileURLToPath(new URL("../../example-server/minimal.ts", import.meta.url));
const CLIENT = fileURLToPath(new URL("../../example-client/minimal.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url));
const PORT = testPort(0);

interface Run {
  readonly child: ChildProcess;
  output: string;
}

function run(file: string, env: Record<string, string>): Run {
  const child = spawn(process.execPath, [TSX, file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const started: Run = { child, output: "" };
  child.stdout!.on("data", (chunk) => (started.output += chunk));
  child.stderr!.on("data", (chunk) => (started.output += chunk));
  return started;
}

describe("the README's complete server and client", () => {
  const processes: Run[] = [];
  afterAll(() => {
    for (const p of processes) p.child.kill();
  });

  it("seats four client processes of the 2v2 queue in one arena, two per side", async () => {
    const server = run(SERVER, { PORT: String(PORT) });
    processes.push(server);
    await vi.waitFor(
      async () => {
        if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output}`);
        await fetch(`http://127.0.0.1:${PORT}/`);
      },
      { timeout: 60_000, interval: 200 },
    );

    const clients = [1500, 1520, 1480, 1510].map((rating) =>
      run(CLIENT, { ENDPOINT: `ws://localhost:${PORT}`, RATING: String(rating) }),
    );
    processes.push(...clients);
    const seated = (c: Run) => /match \S+: you play side ([AB])\n[\s\S]*in game (\S+) as (\S+)/.exec(c.output);
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
    // The server's game room saw the same four players join.
    for (const r of results) expect(server.output).toContain(`${r[3]} plays side`);

    // A player leaves: a place is free, and a client asks for it itself, as a replacement would come.
    clients[0]!.child.kill();
    const forger = new Client(`ws://127.0.0.1:${PORT}`);
    const gameRoomId = results[0]![2]!;
    const refused = "this game room takes players only through the seats its queue reserves: join the queue instead";
    await vi.waitFor(
      async () => {
        // While the game is full Colyseus answers "locked"; once the place is free, the room's own answer.
        const answer = await forger.joinById(gameRoomId, { backfill: true, side: "A", team: 0, rating: 1500 }).then(
          async (room) => (await room.leave(), { code: 0, message: "seated" }),
          (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
        );
        expect(answer.message).not.toMatch(/locked/);
        expect(answer).toEqual({ code: 525, message: refused });
      },
      { timeout: 10_000, interval: 100 },
    );
    await expect(forger.create("arena", { match: { id: "x", teamSize: 1, teams: [] } })).rejects.toMatchObject({
      code: 525,
      message: refused,
    });
    expect(server.output).not.toMatch(/plays side \S+ in match x\b/);
  }, 120_000);
});
