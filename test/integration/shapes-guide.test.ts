/**
 * The shapes guide's server (docs/shapes.md, example-server/shapes.ts) as a user runs it: a
 * separate process, and SDK clients through the queue's client helper. A 3-player free-for-all,
 * a 4-player one, a 2-to-4-player one that starts short-handed after its wait, and four teams of
 * two each seat their players in one game, by team index, with sides only where a game has two
 * teams (none of these).
 */
import { Client } from "@colyseus/sdk";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { joinQueue, type Matchmaking } from "../../src/client/index.js";
import { testPort } from "../helpers/sdk.js";

const SERVER = fileURLToPath(new URL("../../example-server/shapes.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url));
const PORT = testPort(238);

interface Seated {
  readonly matchId: string;
  readonly team: number;
  readonly side: string | undefined;
  readonly roomId: string;
  readonly sessionId: string;
}

/** Join `queue` and resolve once in the game room, with the seat's facts. */
async function play(queue: string, rating: number, players: Matchmaking[]): Promise<Seated> {
  const client = new Client(`ws://127.0.0.1:${PORT}`);
  const matchmaking = joinQueue(client, queue, { rating });
  players.push(matchmaking);
  let seat: { matchId: string; team: number; side?: string } | undefined;
  matchmaking.on("matched", (s) => (seat = s));
  const game = await matchmaking.game;
  return { matchId: seat!.matchId, team: seat!.team, side: seat!.side, roomId: game.roomId, sessionId: game.sessionId };
}

describe("the shapes guide's server", () => {
  let server: ChildProcess;
  let output = "";
  const players: Matchmaking[] = [];

  beforeAll(async () => {
    server = spawn(process.execPath, [TSX, SERVER], {
      env: { ...process.env, PORT: String(PORT) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk) => (output += chunk));
    server.stderr!.on("data", (chunk) => (output += chunk));
    await vi.waitFor(
      async () => {
        if (server.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        await fetch(`http://127.0.0.1:${PORT}/`);
      },
      { timeout: 60_000, interval: 200 },
    );
  }, 70_000);

  afterAll(() => {
    for (const p of players) void p.leave().catch(() => undefined);
    server?.kill();
  });

  const oneGame = (seats: readonly Seated[]) => {
    expect(new Set(seats.map((s) => s.matchId)).size).toBe(1);
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(seats.every((s) => s.side === undefined)).toBe(true);
  };

  it("a card game for three: three players, teams 0, 1 and 2", async () => {
    const seats = await Promise.all([1500, 1600, 1700].map((r) => play("cards_3", r, players)));
    oneGame(seats);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2]);
    // The game room's own log, as the server prints it (it may come a moment after the seat).
    await vi.waitFor(() => {
      for (const s of seats) expect(output).toContain(`${s.sessionId} plays team ${s.team} of cards_3, 3 players`);
    });
  }, 60_000);

  it("a free-for-all of four", async () => {
    const seats = await Promise.all([1400, 1500, 1600, 1700].map((r) => play("ffa_4", r, players)));
    oneGame(seats);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2, 3]);
  }, 60_000);

  it("two to four players: two who wait start short-handed once the first waited its 10 s", async () => {
    const seats = await Promise.all([1500, 1550].map((r) => play("party_2to4", r, players)));
    oneGame(seats);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1]);
    await vi.waitFor(() => {
      for (const s of seats) expect(output).toContain(`${s.sessionId} plays team ${s.team} of party_2to4, 2 players`);
    });
  }, 60_000);

  it("four teams of two", async () => {
    const seats = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => play("teams_4x2", 1400 + 25 * i, players)));
    oneGame(seats);
    const perTeam = [0, 1, 2, 3].map((t) => seats.filter((s) => s.team === t).length);
    expect(perTeam).toEqual([2, 2, 2, 2]);
  }, 60_000);
});
