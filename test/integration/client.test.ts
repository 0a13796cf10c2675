/**
 * The client helper (`colyseus-matchmaker/client`, src/client/) with real SDK clients against real
 * queue rooms: what each player sees, in order, from the join to its game room, through a ready
 * check, a partner's decline, a removal, a refused join retried as the refusal says, a lost queue
 * connection rejoined, and a leave. Every player has its own SDK `Client`.
 */
import { defineRoom, matchMaker, type Room as ServerRoom } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { joinQueue, MatchmakingEnded, type Matchmaking, type MatchmakingEvents } from "../../src/client/index.js";
import { defineQueue } from "../../src/index.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { testPort, within } from "../helpers/sdk.js";

const PORT = testPort(210);
const { room: ClientGameRoom, record: played } = recordingRoom();

/** Every event one player's matchmaking emitted, in order. */
type Seen = Array<
  { [K in keyof MatchmakingEvents]: { event: K; payload: MatchmakingEvents[K] } }[keyof MatchmakingEvents]
>;

const EVENTS: Array<keyof MatchmakingEvents> = [
  "joined",
  "status",
  "party",
  "matchFound",
  "matched",
  "seatFailed",
  "requeued",
  "removed",
  "resumed",
  "reconnecting",
  "retrying",
];

/** A player: its own SDK client (its requests carrying `headers`), joined through the helper, every event recorded. */
function player(
  queue: string,
  options: Parameters<typeof joinQueue>[2],
  headers: Record<string, string> = {},
): { queue: Matchmaking; seen: Seen } {
  const matchmaking = joinQueue(new Client(`ws://127.0.0.1:${PORT}`, { headers }), queue, options);
  const seen: Seen = [];
  for (const event of EVENTS) matchmaking.on(event, (payload) => seen.push({ event, payload } as Seen[number]));
  return { queue: matchmaking, seen };
}

const names = (seen: Seen) => seen.map((s) => s.event);
const payloadOf = <K extends keyof MatchmakingEvents>(seen: Seen, event: K) =>
  seen.find((s) => s.event === event)?.payload as MatchmakingEvents[K] | undefined;
const ended = (queue: Matchmaking) =>
  within(
    queue.game.then(
      () => undefined,
      (error: unknown) => error,
    ),
    10_000,
    "the end of matchmaking",
  );

/** The queue room of `name` in this process (the one room a queue has), if it has one now. */
async function queueRoom(name: string): Promise<ServerRoom | undefined> {
  const [listing] = await matchMaker.query({ name });
  return listing && matchMaker.getLocalRoomById(listing.roomId);
}

/** Players in the queue room of `name` (0 once it is disposed). */
const inQueue = async (name: string) => (await queueRoom(name))?.clients.length ?? 0;

/** Joins from this one address (loopback joins are not rate-limited: the test's connection plays a trusted proxy). */
const ELSEWHERE = { "X-Forwarded-For": "203.0.113.7" };

describe("the client helper against a real queue", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          cl_duel: defineQueue({ teamSize: 1, gameRoom: "cl_game", tickMs: 60_000 }),
          cl_ffa3: defineQueue({ maxPlayers: 3, gameRoom: "cl_game", tickMs: 60_000 }),
          cl_ready: defineQueue({
            teamSize: 1,
            gameRoom: "cl_game",
            tickMs: 60_000,
            readyCheck: { timeoutMs: 10_000 },
          }),
          cl_replace: defineQueue({ teamSize: 1, gameRoom: "cl_game", tickMs: 60_000, duplicateAccount: "replace" }),
          // One join at once per address, then one a second: the second join in a row is refused (429) for a second.
          cl_limited: defineQueue({
            teamSize: 1,
            gameRoom: "cl_game",
            tickMs: 60_000,
            joinRateLimit: { perSecond: 1, burst: 1 },
            trustedProxies: ["127.0.0.1"],
          }),
          cl_game: defineRoom(ClientGameRoom),
        },
      }),
      PORT,
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("joined, status, matched: both game rooms resolve in one game, and the queue is let go", async () => {
    const a = player("cl_duel", { rating: 1500 });
    await vi.waitFor(() => expect(names(a.seen)).toEqual(["joined", "status"]), { timeout: 5000 });
    expect(a.queue.state).toBe("waiting");
    expect(payloadOf(a.seen, "joined")?.rejoin).toBe(false);
    expect(payloadOf(a.seen, "status")?.waiting).toBe(1);

    const b = player("cl_duel", { rating: 1510 });
    const [gameA, gameB] = await within(Promise.all([a.queue.game, b.queue.game]), 10_000, "both game rooms");
    expect(gameA.roomId).toBe(gameB.roomId);
    expect(new Set([gameA.sessionId, gameB.sessionId]).size).toBe(2);
    expect(names(a.seen)).toEqual(["joined", "status", "matched"]);
    expect(names(b.seen).at(0)).toBe("joined");
    expect(names(b.seen).at(-1)).toBe("matched");
    expect(names(b.seen).filter((n) => n !== "status")).toEqual(["joined", "matched"]);
    const seats = [payloadOf(a.seen, "matched")!, payloadOf(b.seen, "matched")!];
    // In a game of two teams: side A is team 0, side B team 1; the helper keeps the seat.
    expect(seats.map((s) => `${s.side}${s.team}`).sort()).toEqual(["A0", "B1"]);
    expect([a.queue.seat, b.queue.seat]).toEqual(seats);
    expect(seats[0]!.matchId).toBe(seats[1]!.matchId);
    expect(played.joined.filter((j) => j.seat.matchId === seats[0]!.matchId)).toHaveLength(2);
    for (const p of [a, b]) expect(p.queue.state).toBe("in-game");

    // `confirm` sent: the queue closed both connections (1000); nobody is left in it.
    await vi.waitFor(() => expect([a.queue.room, b.queue.room]).toEqual([undefined, undefined]), { timeout: 5000 });
    expect(await inQueue("cl_duel")).toBe(0);
    // Leaving after the game started leaves the game alone.
    await a.queue.leave();
    expect(a.queue.state).toBe("in-game");
    await Promise.all([gameA.leave(), gameB.leave()]);
  });

  it("a free-for-all of three: one game, each seat its own team index and no side", async () => {
    const players = [1400, 1500, 1600].map((rating) => player("cl_ffa3", { rating }));
    const games = await within(Promise.all(players.map((p) => p.queue.game)), 10_000, "three game rooms");
    expect(new Set(games.map((g) => g.roomId)).size).toBe(1);
    const seats = players.map((p) => p.queue.seat!);
    expect(seats.map((s) => s.team).sort()).toEqual([0, 1, 2]);
    expect(seats.every((s) => s.side === undefined)).toBe(true);
    // What each game room's onJoin received is the seat its player was sent.
    for (const seat of seats)
      expect(played.joined.find((j) => j.seat.matchId === seat.matchId && j.seat.team === seat.team)?.seat.side).toBe(
        undefined,
      );
    await Promise.all(games.map((g) => g.leave()));
  });

  it("a ready check: both accept on matchFound and land in one game", async () => {
    const players = [player("cl_ready", { rating: 1500 }), player("cl_ready", { rating: 1500 })];
    for (const p of players) p.queue.on("matchFound", () => p.queue.accept());
    const games = await within(Promise.all(players.map((p) => p.queue.game)), 10_000, "both game rooms");
    expect(games[0]!.roomId).toBe(games[1]!.roomId);
    for (const p of players) {
      const seen = names(p.seen).filter((n) => n !== "status");
      expect(seen).toEqual(["joined", "matchFound", "matched"]);
      expect(payloadOf(p.seen, "matchFound")).toMatchObject({ players: 2, timeoutMs: 10_000 });
    }
    await Promise.all(games.map((g) => g.leave()));
  });

  it("a partner declines: the decliner is removed with the reason, the other requeued, then leaves", async () => {
    const keen = player("cl_ready", { rating: 1500 });
    const reluctant = player("cl_ready", { rating: 1500 });
    keen.queue.on("matchFound", () => keen.queue.accept());
    reluctant.queue.on("matchFound", () => reluctant.queue.decline());

    const out = await ended(reluctant.queue);
    expect(out).toBeInstanceOf(MatchmakingEnded);
    expect(out).toMatchObject({ reason: "removed", removed: { reason: "declined" } });
    expect((out as MatchmakingEnded).removed?.penalty?.offences).toBe(1);
    expect(reluctant.queue.state).toBe("ended");
    expect(names(reluctant.seen).filter((n) => n !== "status")).toEqual(["joined", "matchFound", "removed"]);

    await vi.waitFor(() => expect(names(keen.seen)).toContain("requeued"), { timeout: 5000 });
    expect(payloadOf(keen.seen, "requeued")).toMatchObject({ reason: "declined" });
    expect(keen.queue.state).toBe("waiting");
    expect(names(keen.seen).filter((n) => n !== "status")).toEqual(["joined", "matchFound", "requeued"]);

    await keen.queue.leave();
    expect(await ended(keen.queue)).toMatchObject({ reason: "left" });
    expect(keen.queue.state).toBe("ended");
    await vi.waitFor(async () => expect(await inQueue("cl_ready")).toBe(0), { timeout: 5000 });
  });

  it("removed with a reason: the account joins again elsewhere and the first session is replaced", async () => {
    const first = player("cl_replace", { rating: 1500, playerId: "acct-1" });
    await vi.waitFor(() => expect(first.queue.state).toBe("waiting"), { timeout: 5000 });
    const second = player("cl_replace", { rating: 1500, playerId: "acct-1" });
    expect(await ended(first.queue)).toMatchObject({ reason: "removed", removed: { reason: "replaced" } });
    await vi.waitFor(() => expect(second.queue.state).toBe("waiting"), { timeout: 5000 });
    expect(names(first.seen).filter((n) => n !== "status")).toEqual(["joined", "removed"]);
    await second.queue.leave();
  });

  it("a join refused with 429 is retried after the stated wait, then joins; a leave while retrying stops it", async () => {
    const first = player("cl_limited", { rating: 1500 }, ELSEWHERE);
    await vi.waitFor(() => expect(first.queue.state).toBe("waiting"), { timeout: 5000 });

    const second = player("cl_limited", { rating: 1500 }, ELSEWHERE);
    const [gameA, gameB] = await within(Promise.all([first.queue.game, second.queue.game]), 15_000, "both games");
    expect(gameA.roomId).toBe(gameB.roomId);
    const retries = second.seen.filter((s) => s.event === "retrying").map((s) => s.payload);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    for (const r of retries)
      expect(r).toEqual({
        code: 429,
        message: expect.stringMatching(/^too many joins from your address; try again in 1 s$/),
        inMs: 1000,
        placeGone: false,
      });
    expect(names(second.seen).filter((n) => n !== "retrying" && n !== "status")).toEqual(["joined", "matched"]);
    await Promise.all([gameA.leave(), gameB.leave()]);

    // Refused again at once (the allowance is spent): the player leaves while the helper waits to retry.
    const third = player("cl_limited", { rating: 1500 }, ELSEWHERE);
    const leaver = player("cl_limited", { rating: 1500 }, ELSEWHERE);
    await vi.waitFor(() => expect(names(leaver.seen)).toContain("retrying"), { timeout: 5000 });
    await leaver.queue.leave();
    expect(await ended(leaver.queue)).toMatchObject({ reason: "left" });
    expect(names(leaver.seen)).not.toContain("joined");
    await vi.waitFor(() => expect(third.queue.state).toBe("waiting"), { timeout: 5000 });
    // The leaver never entered the queue: the third player waits there alone.
    expect(await inQueue("cl_limited")).toBe(1);
    await third.queue.leave();
  });

  it("a refusal no retry changes ends it at once: 'refused', with the code and the queue's message", async () => {
    const p = player("cl_duel", { rating: 20_000 });
    const out = await ended(p.queue);
    expect(out).toMatchObject({ reason: "refused", code: 525 });
    expect((out as Error).message).toMatch(/^invalid join options: rating: must be at most 10000/);
    expect(p.seen).toEqual([]);
  });

  it("a lost queue connection (handover, 4001) is rejoined with the resume token; a token whose place is gone is dropped", async () => {
    const p = player("cl_duel", { rating: 3000 });
    await vi.waitFor(() => expect(p.queue.state).toBe("waiting"), { timeout: 5000 });
    const firstSession = p.queue.room!.sessionId;
    const token = "T".repeat(32);
    // What a durable queue says at join and on a graceful stop (docs/scale-out.md).
    const gone = (await queueRoom("cl_duel"))!.clients.getById(firstSession)!;
    gone.send("resume", { token, graceMs: 60_000 });
    await vi.waitFor(() => expect(p.queue.resumeToken).toBe(token), { timeout: 5000 });
    gone.send("handover", { reason: "shutdown", retryInMs: 0 });
    gone.leave(4001);

    await vi.waitFor(() => expect(names(p.seen).filter((n) => n === "joined")).toHaveLength(2), { timeout: 10_000 });
    expect(payloadOf(p.seen, "reconnecting")).toEqual({ code: 4001, handover: { reason: "shutdown", retryInMs: 0 } });
    // This queue keeps no places (no Redis): the rejoin with the token is refused (525), so the helper joins anew.
    const retry = payloadOf(p.seen, "retrying")!;
    expect(retry).toMatchObject({ code: 525, placeGone: true, inMs: 0 });
    expect(retry.message).toMatch(/resume/);
    expect(p.queue.resumeToken).toBeUndefined();
    expect(p.seen.filter((s) => s.event === "joined").map((s) => (s.payload as { rejoin: boolean }).rejoin)).toEqual([
      false,
      true,
    ]);
    expect(p.queue.room!.sessionId).not.toBe(firstSession);
    expect(p.queue.state).toBe("waiting");
    expect([...(await queueRoom("cl_duel"))!.clients].map((c) => c.sessionId)).toEqual([p.queue.room!.sessionId]);
    await p.queue.leave();
    expect(await ended(p.queue)).toMatchObject({ reason: "left" });
  });
});
