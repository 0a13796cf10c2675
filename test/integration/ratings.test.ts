/**
 * Ratings learned from results, as a user runs them: a ranked server as its own process
 * (test/helpers/ranked-server.ts), SDK clients signed in with tokens, a game room that reports each
 * match's result. The rating a player's next match seats it with reflects the result, counted once
 * however often and by however many game rooms it is reported; a client can report nothing; and the
 * ratings outlive a restart of the server with the SQLite and the Redis stores.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { Client, type Room } from "@colyseus/sdk";
import { JWT } from "colyseus";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { joinQueue, type Matchmaking } from "../../src/client/index.js";
import { openskillSystem, rateGame } from "../../src/ratings/rating-system.js";
import { redisForTests } from "../helpers/redis.js";
import { testPort, within } from "../helpers/sdk.js";
import { startServerProcess, stopServerProcess } from "../helpers/server-process.js";

const SERVER = "test/helpers/ranked-server.ts";
const SECRET = "ratings test secret";
JWT.settings.secret = SECRET;

/** One game between newcomers, counted once: the winner's and the loser's ratings after it. */
const system = openskillSystem();
const [[winnerAfter], [loserAfter]] = rateGame(
  system,
  [[{ rating: system.newcomer }], [{ rating: system.newcomer }]],
  [0, 1],
);

/** A ranked server process and everything it printed. */
class RankedServer {
  child!: ChildProcess;
  output = "";
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    const { child, ready } = startServerProcess(SERVER, this.port, { JWT_SECRET: SECRET, ...this.env });
    this.child = child;
    child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk));
    await ready;
  }

  stop(): Promise<void> {
    return stopServerProcess(this.child);
  }

  /** The statuses the server printed for `matchId`'s reports, by who reported. */
  reports(matchId: string): Record<string, string> {
    const lines = [...this.output.matchAll(new RegExp(`^report ${matchId} (\\S+) (.+)$`, "gm"))];
    return Object.fromEntries(lines.map((m) => [m[1], m[2]]));
  }
}

/** A client signed in as `account` (a token the server verifies), on `server`. */
async function signedIn(server: RankedServer, account: string): Promise<Client> {
  const client = new Client(`ws://127.0.0.1:${server.port}`);
  client.auth.token = await JWT.sign({ id: account });
  return client;
}

interface Seated {
  readonly matchmaking: Matchmaking;
  readonly game: Room;
  readonly matchId: string;
  readonly team: number;
  /** What the game room's seat says: the rating the queue read at the join, and whether the match is rated. */
  readonly seat: { rating: number; rated: boolean };
}

/** `accounts` join the ranked queue together and take their seats in one game. */
async function playTogether(server: RankedServer, accounts: readonly string[]): Promise<Seated[]> {
  const seated = await Promise.all(
    accounts.map(async (account) => {
      const matchmaking = joinQueue(await signedIn(server, account), "ranked_1v1", {});
      const game = await within(matchmaking.game, 10_000, `${account}'s game`);
      const seat = matchmaking.seat!;
      return { matchmaking, game, matchId: seat.matchId, team: seat.team, seat: await game.request("seat") };
    }),
  );
  expect(new Set(seated.map((s) => s.matchId)).size).toBe(1);
  return seated;
}

/** `winner` sends `done` (the game's rule: first wins); resolves once the game room reported. */
async function win(server: RankedServer, winner: Seated): Promise<void> {
  winner.game.send("done");
  await vi.waitFor(() => expect(server.reports(winner.matchId)["second-room"]).toBeDefined(), { timeout: 10_000 });
}

/** Every client leaves its game. */
async function leaveAll(seated: readonly Seated[]): Promise<void> {
  await Promise.all(seated.map((s) => s.game.leave().catch(() => undefined)));
}

const fresh = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

describe("a ranked queue on a server of its own (memory store)", () => {
  const server = new RankedServer(testPort(240), {});

  beforeAll(() => server.start(), 20_000);
  afterAll(() => server.stop());

  it("seats the next match with the ratings the result gave, counted once though reported three times", async () => {
    const [alice, bob] = [fresh("alice"), fresh("bob")];
    const first = await playTogether(server, [alice, bob]);
    for (const s of first) expect(s.seat).toMatchObject({ rating: system.newcomer.mu, rated: true });
    await win(server, first[0]!);
    // Reported twice by the game room and once by a second game room for the same match: counted once.
    expect(server.reports(first[0]!.matchId)).toEqual({
      "game-room": "applied",
      "game-room-again": "already",
      "second-room": "already",
    });
    await leaveAll(first);

    const next = await playTogether(server, [alice, bob]);
    expect(next[0]!.matchId).not.toBe(first[0]!.matchId);
    expect(next[0]!.seat.rating).toBeCloseTo(winnerAfter!.mu, 9);
    expect(next[1]!.seat.rating).toBeCloseTo(loserAfter!.mu, 9);
    await leaveAll(next);
  }, 40_000);

  it("takes no result from a client: messages to the queue or the game room, or a game room it creates", async () => {
    const [carol, dave] = [fresh("carol"), fresh("dave")];
    // To the queue: an unknown message type closes the sender, and nothing is reported.
    const queue = await (await signedIn(server, carol)).joinOrCreate("ranked_1v1", {});
    const closed = new Promise<number>((resolve) => queue.onLeave((code) => resolve(code)));
    queue.send("result", { winner: 0 });
    queue.send("reportResult", { match: "any", result: { winner: 0 } });
    await within(closed, 10_000, "the queue to close the sender");

    // To the game room: the same.
    const game = await playTogether(server, [carol, dave]);
    for (const s of game) s.game.send("result", { winner: s.team });
    await vi.waitFor(() => expect(game.every((s) => s.game.connection.isOpen)).toBe(false), { timeout: 10_000 });
    expect(server.reports(game[0]!.matchId)).toEqual({});

    // A game room a client creates: refused for the ranked game's type (players only through the
    // queue's seats). A room type that lets clients create it reports for the match it is given: one
    // the queue never made, or the real one the client copied from its seat (still open, never
    // reported), without the key only the queue's game room received: neither counts.
    const client = await signedIn(server, carol);
    await expect(client.create("ranked_game", { match: { id: game[0]!.matchId } })).rejects.toThrow(
      /takes players only through the seats its queue reserves/,
    );
    const made = `made-up-${randomUUID()}`;
    const rooms = [
      await client.create("open_game", { match: { id: made } }),
      await client.create("open_game", { match: { id: game[0]!.matchId, teams: [] } }),
    ];
    await vi.waitFor(() => {
      expect(server.reports(made)).toEqual({ "client-created-room": "unknown" });
      expect(server.reports(game[0]!.matchId)).toEqual({ "client-created-room": "unknown" });
    });
    await Promise.all(rooms.map((room) => room.leave()));

    // The next match seats both as the newcomers they still are.
    const next = await playTogether(server, [carol, dave]);
    for (const s of next) expect(s.seat.rating).toBe(system.newcomer.mu);
    await leaveAll(next);
  }, 40_000);
});

const REDIS_URL = "redis://127.0.0.1:6379";
const redis = await redisForTests(REDIS_URL, "ratings on the Redis store");
afterAll(() => redis?.disconnect());

describe.each([
  ["SQLite", 241],
  ["Redis", 242],
] as const)("ratings on the %s store", (name, offset) => {
  const dir = mkdtempSync(join(tmpdir(), "rroom-"));
  const prefix = `test:rroom:${randomUUID().slice(0, 8)}:`;
  const env: Record<string, string> =
    name === "SQLite"
      ? { RATINGS_STORE: "sqlite", RATINGS_FILE: join(dir, "ratings.sqlite") }
      : { RATINGS_STORE: "redis", REDIS_URL, RATINGS_PREFIX: prefix };
  const server = new RankedServer(testPort(offset), env);

  afterAll(async () => {
    await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    const keys = (await redis?.keys(`${prefix}*`)) ?? [];
    if (keys.length > 0) await redis!.del(...keys);
  });

  it.skipIf(name === "Redis" && !redis)(
    "survive a restart of the server",
    async () => {
      const [frank, gina] = [fresh("frank"), fresh("gina")];
      await server.start();
      const first = await playTogether(server, [frank, gina]);
      await win(server, first[0]!);
      expect(server.reports(first[0]!.matchId)["game-room"]).toBe("applied");
      await leaveAll(first);
      await server.stop();

      server.output = "";
      await server.start();
      const next = await playTogether(server, [frank, gina]);
      expect(next[0]!.seat.rating).toBeCloseTo(winnerAfter!.mu, 9);
      expect(next[1]!.seat.rating).toBeCloseTo(loserAfter!.mu, 9);
      await leaveAll(next);
    },
    60_000,
  );
});

describe("the ratings guide's server (example-server/ratings.ts)", () => {
  const port = testPort(243);
  const dir = mkdtempSync(join(tmpdir(), "rroom-guide-"));
  let child: ChildProcess;
  let output = "";

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "tsx", "example-server/ratings.ts"], {
      env: { ...process.env, PORT: String(port), JWT_SECRET: SECRET, RATINGS_FILE: join(dir, "ratings.sqlite") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    await vi.waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        await fetch(`http://127.0.0.1:${port}/players/nobody`);
      },
      { timeout: 30_000, interval: 200 },
    );
  }, 40_000);

  afterAll(async () => {
    console.log("GUIDE OUTPUT<<" + output + ">>");
    await stopServerProcess(child);
    rmSync(dir, { recursive: true, force: true });
  });

  it("rates a duel's winner and loser once, and the profile route shows the rating and the game", async () => {
    const accounts = [fresh("hana"), fresh("ivan")];
    const players = await Promise.all(
      accounts.map(async (account) => {
        const client = new Client(`ws://127.0.0.1:${port}`);
        client.auth.token = await JWT.sign({ id: account });
        const matchmaking = joinQueue(client, "ranked_1v1", {});
        return { matchmaking, game: await within(matchmaking.game, 10_000, `${account}'s game`) };
      }),
    );
    const result = new Promise((resolve) => players[1]!.game.onMessage("result", resolve));
    players[0]!.game.send("done");
    expect(await within(result, 10_000, "the result")).toMatchObject({ winner: players[0]!.matchmaking.seat!.team });
    const profile = async (id: string) => (await fetch(`http://127.0.0.1:${port}/players/${id}`)).json();
    const [winner, loser] = await Promise.all(accounts.map(profile));
    expect(winner).toMatchObject({ games: 1, history: [{ matchId: players[0]!.matchmaking.seat!.matchId }] });
    expect(winner.rating).toBeCloseTo(winnerAfter!.mu, 9);
    expect(loser.rating).toBeCloseTo(loserAfter!.mu, 9);
    expect(winner.uncertainty).toBeLessThan(system.newcomer.sigma);
  }, 30_000);
});
