/**
 * The demo game's rated games, with SDK clients on the example server: a ranked 1v1 is played to a
 * result (the winner drawn by the weighted coin), reported once to the queue's ratings, each player
 * told its own change, and the game closed; a report that fails is logged and the game ends all
 * the same; an unrated game is not played to a result.
 */
import { matchMaker } from "@colyseus/core";
import { Client, type Room } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import app, { rooms } from "../../example-server/app.config.js";
import { ratings } from "../../example-server/ranked-ratings.js";
import { coinOf, drawWinner } from "../../example-server/demo-result.js";
import { defineDemoGame } from "../../example-server/DemoGameRoom.js";
import { joinQueue, RATING_CHANGE_MESSAGE, type RatingChangeMessage } from "../../src/client/index.js";
import { testPort } from "../helpers/sdk.js";

const PORT = testPort(246);
const RANKED = "ranked_1v1";

interface DemoState {
  matchId: string;
  rated: boolean;
  winner: number;
  winChances: { toArray(): number[] };
}

/** A player in its game room: what it was told and whether the room closed. */
interface Played {
  game: Room<unknown, DemoState>;
  told: RatingChangeMessage[];
  closed: Promise<number>;
  team: number;
  accountId: string;
  /** The server's own room's state (kept after the room closes; a client's may not have caught up by then). */
  state: DemoState;
}

describe("the demo game's rated games", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({ ...app, rooms: { ...rooms, demo_game: defineDemoGame({ playMs: 100, reportTimeoutMs: 300 }) } }),
      PORT,
    );
  }, 30_000);
  afterAll(async () => {
    await server?.shutdown();
  });
  afterEach(() => vi.restoreAllMocks());

  /** Two players in one game of `queue` (signed in: a ranked queue takes accounts). */
  async function playTogether(queue: string, options: Record<string, unknown> = {}): Promise<Played[]> {
    return Promise.all(
      [0, 1].map(async () => {
        const client = new Client(`ws://localhost:${PORT}`);
        const { user } = await client.auth.signInAnonymously<{ id: string }>();
        const matchmaking = joinQueue<DemoState>(client, queue, options);
        const game = await matchmaking.game;
        const told: RatingChangeMessage[] = [];
        game.onMessage(RATING_CHANGE_MESSAGE, (change: RatingChangeMessage) => told.push(change));
        const closed = new Promise<number>((resolve) => game.onLeave((code) => resolve(code)));
        const { state } = matchMaker.getLocalRoomById(game.roomId) as unknown as { state: DemoState };
        return { game, told, closed, team: matchmaking.seat!.team, accountId: user.id, state };
      }),
    );
  }

  it("plays a ranked 1v1 to a result: the coin's winner up, the loser down, each told its own, then closed", async () => {
    const players = await playTogether(RANKED);
    await Promise.all(players.map((p) => p.closed));
    const { state } = players[0]!;
    expect(state.rated).toBe(true);
    // Two newcomers: even chances; the winner is the coin's, seeded by the match id.
    expect(state.winChances.toArray()).toEqual([0.5, 0.5]);
    expect(state.winner).toBe(drawWinner([0.5, 0.5], coinOf(state.matchId)));
    for (const p of players) {
      expect(p.told).toHaveLength(1);
      const [change] = p.told;
      expect(change!.outcome).toBe(p.team === state.winner ? "won" : "lost");
      expect(change!.before).toEqual({ rating: 1500, uncertainty: 350 });
      if (change!.outcome === "won") expect(change!.after.rating).toBeGreaterThan(1500);
      else expect(change!.after.rating).toBeLessThan(1500);
      expect(change!.after.uncertainty).toBeLessThan(350);
    }
    // What each was told is what the ledger now holds for its account.
    for (const p of players) expect((await ratings.rating(p.accountId)).rating).toBe(p.told[0]!.after.rating);
  }, 30_000);

  it("a report that fails is logged, and the game ends all the same, telling nobody a change", async () => {
    const failed = vi.spyOn(ratings, "reportResult").mockRejectedValue(new Error("the store is down"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const players = await playTogether(RANKED);
    await Promise.all(players.map((p) => p.closed));
    expect(failed).toHaveBeenCalledTimes(1);
    expect(players.flatMap((p) => p.told)).toEqual([]);
    const { matchId } = players[0]!.state;
    expect(logged.mock.calls.map((call) => String(call[0]))).toContainEqual(
      expect.stringMatching(
        new RegExp(`match ${matchId}: the result could not be reported \\(Error: the store is down\\)`),
      ),
    );
  }, 30_000);

  it("a report that hangs ends the game after reportTimeoutMs, logged", async () => {
    vi.spyOn(ratings, "reportResult").mockReturnValue(new Promise(() => undefined));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const players = await playTogether(RANKED);
    await Promise.all(players.map((p) => p.closed));
    expect(players.flatMap((p) => p.told)).toEqual([]);
    expect(logged.mock.calls.map((call) => String(call[0]))).toContainEqual(
      expect.stringMatching(/the result could not be reported \(Error: no answer within 300 ms\)/),
    );
  }, 30_000);

  it("an unrated game is not played to a result", async () => {
    const players = await playTogether("duel", { rating: 1500 });
    const { state } = players[0]!;
    expect(state.rated).toBe(false);
    expect(state.winner).toBe(-1);
    expect(state.winChances.toArray()).toEqual([]);
    for (const p of players) await p.game.leave();
  }, 30_000);
});
