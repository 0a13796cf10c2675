/**
 * A cost for wrecking games (issue 32), with real SDK clients and queues on a manual clock: a
 * ready-check griefer is held back after a couple of broken checks while the honest players keep
 * their places and are seated once enough of them wait; a seat hoarder spoils at most two games;
 * the cooldown outlives the queue room and the connection; and the message rate limit never
 * closes a client for answering the queue's prompts, while a flood of unprompted answers still is.
 * Every assertion is a count or a state; time moves only when a test advances the clock.
 */
import { defineRoom, Room, type Client } from "@colyseus/core";
import { Client as SdkClient } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { playerArrived, type MatchInfo, type MatchmakerRoom, type SeatOptions } from "../../src/index.js";
import type { RemovedMessage, RequeuedMessage, SeatMessage } from "../../src/client/index.js";
import { SEAT_WATCH_DEFAULTS } from "../../src/colyseus/director/seat-watch.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { join, track, type Player } from "../helpers/queue-client.js";
import { testPort, within } from "../helpers/sdk.js";

const RESERVATION_S = 2;
const COOLDOWN_MS = 60_000; // the default first cooldown

/** A game room as the README's: it reports each arrival, so a seat taken never expires. */
class GriefGame extends Room {
  match!: MatchInfo;
  override onCreate(options: { match: MatchInfo }): void {
    this.seatReservationTimeout = RESERVATION_S;
    this.match = options.match;
    this.maxClients = options.match.teamSize * 2;
  }
  override onJoin(client: Client, _seat: SeatOptions): void {
    playerArrived(this.match, client.sessionId);
  }
}

describe("a cost for wrecking games", () => {
  let server: ColyseusTestServer;
  const clock = new ManualClock();
  const open: Player[] = [];

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          grief_ready: manualQueue({ teamSize: 2, gameRoom: "grief_game", readyCheck: { timeoutMs: 10_000 } }, clock),
          grief_hoard: manualQueue({ teamSize: 2, gameRoom: "grief_game", tickMs: 100 }, clock),
          // Without penalties, so the griefer's loop goes on; a low limit, with time standing still.
          grief_flood: manualQueue(
            {
              teamSize: 2,
              gameRoom: "grief_game",
              readyCheck: { timeoutMs: 10_000 },
              penalties: false,
              maxMessagesPerSecond: 5,
            },
            clock,
          ),
          // Trusted players: the account is the one the server resolves (here, the client's token).
          grief_ranked: manualQueue(
            {
              teamSize: 2,
              gameRoom: "grief_game",
              readyCheck: { timeoutMs: 10_000 },
              players: { resolve: (request) => ({ playerId: `acct-${request.token}`, rating: 1500 }) },
            },
            clock,
          ),
          grief_game: defineRoom(GriefGame),
        },
      }),
      testPort(140),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });
  beforeEach(async () => {
    for (const p of open.splice(0)) if (p.room.connection.isOpen) await p.room.leave().catch(() => undefined);
    await server.cleanup();
  });

  /** An honest player: accepts every `match_found` at once. */
  async function honest(queue: string, playerId: string): Promise<Player> {
    const p = await join(server, queue, { rating: 1500, playerId });
    p.room.onMessage("match_found", () => p.room.send("accept"));
    open.push(p);
    return p;
  }

  /** The join error's code and message, or undefined (and the player, kept open) when it joined. */
  async function tryJoin(queue: string, options: Record<string, unknown>) {
    try {
      const p = track(await server.sdk.joinOrCreate(queue, options));
      open.push(p);
      return { player: p };
    } catch (e) {
      const error = e as Error & { code?: number };
      return { error: { code: error.code, message: error.message } };
    }
  }

  /**
   * A griefer with a fixed account: joins, declines every `match_found`, rejoins at once when
   * removed; stops when a join is refused (or after `maxJoins`). Returns what it broke and heard.
   */
  async function griefer(queue: string, playerId: string, maxJoins = 10) {
    const removals: RemovedMessage[] = [];
    let broken = 0;
    for (let i = 0; i < maxJoins; i++) {
      const joined = await tryJoin(queue, { rating: 1500, playerId });
      if (!joined.player) return { broken, removals, refusal: joined.error };
      const p = joined.player;
      p.room.onMessage("match_found", () => {
        broken++;
        p.room.send("decline");
      });
      removals.push(await within(p.inbox.nth("removed"), 5000, "the griefer's removal"));
      await within(p.left, 5000, "the griefer's disconnection");
    }
    return { broken, removals, refusal: undefined };
  }

  const queueOf = (p: Player) => server.getRoomById<MatchmakerRoom>(p.room.roomId);

  it("holds a ready-check griefer back after two broken checks; the honest keep their places and are seated once four wait", async () => {
    const honestOnes = [await honest("grief_ready", "h1"), await honest("grief_ready", "h2")];
    honestOnes.push(await honest("grief_ready", "h3"));
    const queue = queueOf(honestOnes[0]!);
    const since = honestOnes.map((h) => queue.matchmaker.get(h.room.sessionId)!.enqueuedAt);

    const grief = await griefer("grief_ready", "griefer-1");
    expect(grief.broken).toBe(2);
    expect(grief.removals.map((r) => [r.reason, r.penalty?.offences, r.penalty?.cooldownMs])).toEqual([
      ["declined", 1, 0],
      ["declined", 2, COOLDOWN_MS],
    ]);
    expect(grief.removals[0]!.penalty!.text).toContain("join again to wait at the back");
    expect(grief.removals[1]!.penalty!.text).toContain("may join this queue again in 60 s");
    expect(grief.refusal?.code).toBe(429);
    expect(grief.refusal?.message).toMatch(
      /^cooldown: 2 broken matches within 10 min; you may join this queue again in 60 s$/,
    );

    // The honest three heard two ready checks, kept their places, and wait (no seat: three cannot fill a game).
    for (const [i, h] of honestOnes.entries()) {
      await vi.waitFor(() => expect(h.inbox.all("requeued")).toHaveLength(2));
      expect(h.inbox.all("match_found")).toHaveLength(2);
      expect(h.inbox.all("requeued").every((r: RequeuedMessage) => r.penalty === undefined)).toBe(true);
      expect(queue.matchmaker.get(h.room.sessionId)?.enqueuedAt).toBe(since[i]);
    }

    // A fourth honest player: a game at once, seats for the four.
    honestOnes.push(await honest("grief_ready", "h4"));
    const seats: SeatMessage[] = await within(
      Promise.all(honestOnes.map((h) => h.inbox.nth("seat"))),
      5000,
      "the honest players' seats",
    );
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(queue.getMetrics()).toMatchObject({ offences: 2, cooldowns: 1, cooldownRefusals: 1, offencesForgiven: 0 });
    for (const h of honestOnes) expect(h.room.connection.isOpen).toBe(true);
  });

  it("lets a seat hoarder spoil two games: the first expiry costs its place, the second a cooldown", async () => {
    const hoarder = await tryJoin("grief_hoard", { rating: 1500, playerId: "hoarder" });
    const h = hoarder.player!;
    const queue = queueOf(h);
    const hoarderSince = queue.matchmaker.get(h.room.sessionId)!.enqueuedAt;
    const spoiled: string[] = [];
    h.room.onMessage("seat", (seat: SeatMessage) => spoiled.push(seat.matchId));
    let honestCount = 0;
    /** Three honest players who take their seats (and leave the queue for their game). */
    const threeHonest = async () => {
      const players = [];
      for (let i = 0; i < 3; i++) players.push(await honest("grief_hoard", `honest-${honestCount++}`));
      return Promise.all(
        players.map(async (p) => {
          const seat: SeatMessage = await within(p.inbox.nth("seat"), 5000, "an honest seat");
          await server.sdk.consumeSeatReservation(seat);
          await p.room.leave();
          return seat.matchId;
        }),
      );
    };
    clock.advance(1000, 100);
    const first = await threeHonest();
    await vi.waitFor(() => expect(spoiled).toHaveLength(1));
    expect(new Set([...first, spoiled[0]])).toEqual(new Set([spoiled[0]]));

    // The seat expires with the hoarder still connected: back in the queue, at the back.
    clock.advance(RESERVATION_S * 1000 + SEAT_WATCH_DEFAULTS.graceMs, 100);
    const requeued: RequeuedMessage = await within(h.inbox.nth("requeued"), 5000, "requeued");
    expect(requeued).toMatchObject({ reason: "seat_expired", penalty: { offences: 1, cooldownMs: 0 } });
    expect(requeued.penalty!.text).toContain("wait again at the back of the queue");
    expect(queue.matchmaker.get(h.room.sessionId)!.enqueuedAt).toBe(clock.now);
    expect(queue.matchmaker.get(h.room.sessionId)!.enqueuedAt).toBeGreaterThan(hoarderSince);

    // Three more honest players: the hoarder spoils a second game, then is out with a cooldown.
    const second = await threeHonest();
    await vi.waitFor(() => expect(spoiled).toHaveLength(2));
    expect(new Set(second)).toEqual(new Set([spoiled[1]]));
    clock.advance(RESERVATION_S * 1000 + SEAT_WATCH_DEFAULTS.graceMs, 100);
    const removed: RemovedMessage = await within(h.inbox.nth("removed"), 5000, "removed");
    expect(removed).toMatchObject({ reason: "seat_expired", penalty: { offences: 2, cooldownMs: COOLDOWN_MS } });
    await within(h.left, 5000, "the hoarder's disconnection");
    expect((await tryJoin("grief_hoard", { rating: 1500, playerId: "hoarder" })).error?.code).toBe(429);

    // Three more honest players and one: a game without the hoarder; it spoiled two in all.
    const third = threeHonest();
    await honest("grief_hoard", "honest-last");
    expect(new Set(await third).size).toBe(1);
    expect(spoiled).toHaveLength(2);
    expect(queue.getMetrics()).toMatchObject({
      seatsExpiredRequeued: 1,
      seatsExpiredRemoved: 1,
      offences: 2,
      cooldowns: 1,
      cooldownRefusals: 1,
      declines: 0,
    });
  });

  it("keeps the cooldown through the queue room's disposal and a new connection, and lifts it when it is over", async () => {
    const company = [await honest("grief_ready", "c1"), await honest("grief_ready", "c2")];
    company.push(await honest("grief_ready", "c3"));
    const firstRoom = company[0]!.room.roomId;
    const g = await griefer("grief_ready", "griefer-3");
    expect(g.broken).toBe(2);
    expect(g.refusal?.code).toBe(429);

    // Everyone leaves: the queue room is disposed; a new one refuses the account, by a new connection.
    for (const p of open.splice(0)) if (p.room.connection.isOpen) await p.room.leave();
    await vi.waitFor(() => expect(server.getRoomById(firstRoom)).toBeUndefined());
    const refused = await tryJoin("grief_ready", { rating: 1500, playerId: "griefer-3" });
    expect(refused.error).toMatchObject({ code: 429 });
    expect(refused.error!.message).toMatch(/again in 60 s$/);
    const newcomer = await honest("grief_ready", "c4");
    expect(newcomer.room.roomId).not.toBe(firstRoom);
    expect((await tryJoin("grief_ready", { rating: 1500, playerId: "griefer-3" })).error?.code).toBe(429);
    // The counts are the queue name's: test 1's griefer was refused once, this one three times.
    expect(queueOf(newcomer).getMetrics()).toMatchObject({ offences: 4, cooldowns: 2, cooldownRefusals: 4 });

    // The cooldown over, the account joins again (at the back, like anyone new).
    clock.advance(COOLDOWN_MS, 1000);
    const back = await tryJoin("grief_ready", { rating: 1500, playerId: "griefer-3" });
    expect(back.player).toBeDefined();
  });

  it("in a queue whose players come from the server, counts the resolved account, not the address", async () => {
    /** An SDK client whose joins carry `token` (the resolver makes it the account). */
    const as = (token: string) => {
      const sdk = new SdkClient(`ws://127.0.0.1:${testPort(140)}`);
      sdk.auth.token = token;
      return sdk;
    };
    const joinAs = async (token: string) => {
      try {
        const p = track(await as(token).joinOrCreate("grief_ranked", {}));
        open.push(p);
        return p;
      } catch (e) {
        return (e as Error & { code?: number }).code;
      }
    };
    for (const token of ["r1", "r2", "r3"]) {
      const p = await joinAs(token);
      if (typeof p !== "object") throw new Error(`honest ${token} refused`);
      p.room.onMessage("match_found", () => p.room.send("accept"));
    }
    const breaks: RemovedMessage[] = [];
    for (let i = 0; i < 2; i++) {
      const g = await joinAs("griefer");
      if (typeof g !== "object") throw new Error(`the griefer was refused at join ${i + 1}`);
      g.room.onMessage("match_found", () => g.room.send("decline"));
      breaks.push(await within(g.inbox.nth("removed"), 5000, "removed"));
      await within(g.left, 5000, "the griefer's disconnection");
    }
    expect(breaks.map((b) => b.penalty?.cooldownMs)).toEqual([0, COOLDOWN_MS]);
    // The same account from a new connection is refused; another account from the same address is not.
    expect(await joinAs("griefer")).toBe(429);
    expect(typeof (await joinAs("r4"))).toBe("object");
  });

  it("never closes a client for answering every prompt, however fast they come; unprompted answers are still limited", async () => {
    // A client sending accepts nobody asked for is closed with 4002, as the limit says.
    const flooder = (await tryJoin("grief_flood", { rating: 1500, playerId: "flooder" })).player!;
    for (let i = 0; i < 20; i++) flooder.room.send("accept");
    expect(await within(flooder.left, 5000, "the flooder's disconnection")).toBe(4002);
    expect(flooder.inbox.all("match_found")).toHaveLength(0);

    // Three honest players and a griefer who declines and rejoins: every match has the griefer, so
    // each honest player is prompted again and again with time standing still (one rate window).
    const honestOnes = [await honest("grief_flood", "f1"), await honest("grief_flood", "f2")];
    honestOnes.push(await honest("grief_flood", "f3"));
    const grief = await griefer("grief_flood", "griefer-4", 12);
    expect(grief.broken).toBe(12);
    expect(grief.removals.every((r) => r.penalty === undefined)).toBe(true);
    for (const h of honestOnes) {
      await vi.waitFor(() => expect(h.inbox.all("requeued")).toHaveLength(12));
      expect(h.inbox.all("match_found")).toHaveLength(12);
      expect(h.room.connection.isOpen).toBe(true);
    }

    // So is an honest answer followed by repeats of it: only the answer to the prompt is free.
    const repeater = (await tryJoin("grief_flood", { rating: 1500, playerId: "repeater" })).player!;
    await within(repeater.inbox.nth("match_found"), 5000, "match_found");
    for (let i = 0; i < 20; i++) repeater.room.send("accept");
    expect(await within(repeater.left, 5000, "the repeater's disconnection")).toBe(4002);
    for (const h of honestOnes) expect(h.room.connection.isOpen).toBe(true);
  });
});
