/**
 * One account, one place, and blocks, with real SDK clients against a booted server (the example
 * server's `duel` and `squad` queues, as the probes used, plus queues of this file): a
 * second session of a `playerId` is refused (525 naming `playerId`) or replaces the first, never
 * both seated; four sessions of one account cannot fill a 2v2; an account cannot join its own
 * party; two blocked accounts never share a match. Counts and states, no timings.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rooms } from "../../example-server/app.config.js";
import { BlockList, defineQueue, type MatchmakerRoom } from "../../src/index.js";
import type { SeatMessage, StatusMessage } from "../../src/client/index.js";
import { Client } from "@colyseus/sdk";
import { join, joinError, track, type Player } from "../helpers/queue-client.js";
import { staysPending, testPort, within } from "../helpers/sdk.js";

const blocks = new BlockList();
blocks.block("acct-ann", "acct-bob");

describe("one account, one place (real clients)", () => {
  let server: ColyseusTestServer;
  const players: Player[] = [];

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          ...rooms,
          // Matching runs on joins only, so each test controls when it happens.
          acct_replace: defineQueue({
            teamSize: 1,
            gameRoom: "demo_game",
            tickMs: 60_000,
            duplicateAccount: "replace",
          }),
          // Accounts from the server (t-identity's `players`): the client's token names it here.
          acct_trusted: defineQueue({
            teamSize: 1,
            gameRoom: "demo_game",
            tickMs: 60_000,
            players: { resolve: (request) => ({ playerId: `srv-${request.token ?? "anon"}`, rating: 1500 }) },
          }),
          acct_blocked: defineQueue({
            teamSize: 1,
            gameRoom: "demo_game",
            tickMs: 60_000,
            blocked: (a, b) => blocks.has(a, b),
          }),
          acct_blocked_best: defineQueue({
            teamSize: 1,
            gameRoom: "demo_game",
            policy: "best-game",
            tickMs: 60_000,
            blocked: (a, b) => blocks.has(a, b),
          }),
        },
      }),
      testPort(130),
    );
  });
  afterAll(async () => {
    for (const p of players) if (p.room.connection.isOpen) await p.room.leave().catch(() => undefined);
    await server.shutdown();
  });

  const enter = async (queue: string, options: Record<string, unknown>) => {
    const p = await join(server, queue, options);
    players.push(p);
    return p;
  };
  const leave = async (...ps: Player[]) => {
    for (const p of ps) if (p.room.connection.isOpen) await p.room.leave();
  };
  const queueOf = (p: Player) => server.getRoomById<MatchmakerRoom>(p.room.roomId);

  it("duel: a second session of a waiting playerId is refused naming playerId; only one is ever seated", async () => {
    const first = await enter("duel", { rating: 1500, playerId: "acct-duel" });
    const second = await joinError(server, "duel", { rating: 1500, playerId: "acct-duel" });
    expect(second).toEqual({
      code: 525,
      message: 'invalid join options: playerId: account "acct-duel" is already in this queue',
    });
    expect(queueOf(first).matchmaker.size).toBe(1);
    // Another account plays the first session.
    const other = await enter("duel", { rating: 1500, playerId: "acct-other" });
    const seats: SeatMessage[] = await within(
      Promise.all([first.inbox.nth("seat"), other.inbox.nth("seat")]),
      5000,
      "both seats",
    );
    expect(seats[0]!.matchId).toBe(seats[1]!.matchId);
    await leave(first, other);
  });

  it("squad: two sessions of one playerId joining at once: exactly one gets in", async () => {
    // A player already waits, so both joins reach the same queue room.
    const holder = await enter("squad", { rating: 1500, playerId: "acct-holder" });
    const tries = await Promise.allSettled(
      [1, 2].map(() => server.sdk.joinOrCreate("squad", { rating: 1500, playerId: "acct-race" })),
    );
    const joined = tries.flatMap((t) => (t.status === "fulfilled" ? [t.value] : []));
    const refused = tries.flatMap((t) => (t.status === "rejected" ? [t.reason as Error & { code?: number }] : []));
    expect(joined).toHaveLength(1);
    expect(refused.map((e) => [e.code, e.message.includes("playerId")])).toEqual([[525, true]]);
    expect(joined[0]!.roomId).toBe(holder.room.roomId);
    expect(queueOf(holder).matchmaker.size).toBe(2);
    await joined[0]!.leave();
    await leave(holder);
  });

  it("squad: four sessions of one playerId cannot fill a 2v2 (one waits, three refused)", async () => {
    const one = await enter("squad", { rating: 1500, playerId: "acct-squad" });
    const more = await Promise.all(
      [1, 2, 3].map(() => joinError(server, "squad", { rating: 1500, playerId: "acct-squad" })),
    );
    expect(more.map((e) => e?.code)).toEqual([525, 525, 525]);
    expect(queueOf(one).matchmaker.size).toBe(1);
    expect(await staysPending(one.inbox.nth("seat"), 300)).toBe(true);
    await leave(one);
  });

  it("squad: a playerId cannot join its own party as a second member", async () => {
    const leader = await enter("squad", { rating: 1500, playerId: "acct-me", party: { size: 2 } });
    const { code } = await within(leader.inbox.nth("party"), 5000, "the party code");
    const alt = await joinError(server, "squad", { rating: 1500, playerId: "acct-me", partyCode: code });
    expect(alt).toEqual({
      code: 525,
      message: 'invalid join options: playerId: account "acct-me" is already in this queue',
    });
    const party = queueOf(leader).session.parties.of(leader.room.sessionId)!;
    expect(party.members).toHaveLength(1);
    // A friend's account joins it.
    const friend = await enter("squad", { rating: 1500, playerId: "acct-friend", partyCode: code });
    expect((await within(friend.inbox.nth("party"), 5000, "the friend's party")).members).toBe(2);
    await leave(leader, friend);
  });

  it('duplicateAccount "replace": the new session takes the place (same enqueue time), the first is told and closed', async () => {
    const first = await enter("acct_replace", { rating: 1500, playerId: "acct-swap" });
    const firstStatus: StatusMessage[] = [];
    first.room.onMessage("status", (s: StatusMessage) => firstStatus.push(s));
    const queue = queueOf(first);
    const enqueuedAt = queue.matchmaker.get(first.room.sessionId)!.enqueuedAt;
    const second = await enter("acct_replace", { rating: 1500, playerId: "acct-swap" });
    expect(await within(first.inbox.nth("removed"), 5000, "the first session's removal")).toEqual({
      reason: "replaced",
    });
    expect(await within(first.left, 5000, "the first session's close")).toBeGreaterThanOrEqual(1000);
    expect(queue.matchmaker.size).toBe(1);
    expect(queue.matchmaker.get(second.room.sessionId)!.enqueuedAt).toBe(enqueuedAt);
    // Not a decline: the figures do not count it.
    expect(queue.state.figures.declines).toBe(0);
    const other = await enter("acct_replace", { rating: 1500, playerId: "acct-x" });
    const [seat] = await within(Promise.all([second.inbox.nth("seat"), other.inbox.nth("seat")]), 5000, "seats");
    expect(seat.matchId).toBeDefined();
    expect(first.inbox.all("seat")).toHaveLength(0);
    await leave(second, other);
  });

  it("an account the server sets (players.resolve): a second session of it is refused naming playerId", async () => {
    const signed = new Client(`ws://127.0.0.1:${testPort(130)}`);
    signed.auth.token = "token-7";
    try {
      const first = track(await signed.joinOrCreate("acct_trusted", {}));
      players.push(first);
      const second = await signed.joinOrCreate("acct_trusted", {}).then(
        () => undefined,
        (e: Error & { code?: number }) => ({ code: e.code, message: e.message }),
      );
      expect(second).toEqual({
        code: 525,
        message: 'invalid join options: playerId: account "srv-token-7" is already in this queue',
      });
      expect(queueOf(first).matchmaker.size).toBe(1);
      await leave(first);
    } finally {
      signed.auth.token = undefined as unknown as string;
    }
  });

  for (const queue of ["acct_blocked", "acct_blocked_best"]) {
    it(`blocked (${queue}): two blocked accounts wait rather than meet; each plays someone else`, async () => {
      const ann = await enter(queue, { rating: 1500, playerId: "acct-ann" });
      const bob = await enter(queue, { rating: 1500, playerId: "acct-bob" });
      expect(await staysPending(Promise.race([ann.inbox.nth("seat"), bob.inbox.nth("seat")]), 300)).toBe(true);
      expect(queueOf(ann).matchmaker.size).toBe(2);
      const cid = await enter(queue, { rating: 1500, playerId: "acct-cid" });
      const [annSeat, cidSeat] = await within(
        Promise.all([ann.inbox.nth("seat"), cid.inbox.nth("seat")]),
        5000,
        "ann's game",
      );
      expect(annSeat.matchId).toBe(cidSeat.matchId);
      expect(bob.inbox.all("seat")).toHaveLength(0);
      const dan = await enter(queue, { rating: 1500, playerId: "acct-dan" });
      const [bobSeat, danSeat] = await within(
        Promise.all([bob.inbox.nth("seat"), dan.inbox.nth("seat")]),
        5000,
        "bob's game",
      );
      expect(bobSeat.matchId).toBe(danSeat.matchId);
      expect(bobSeat.matchId).not.toBe(annSeat.matchId);
      expect(queueOf(ann).matchmaker.stats(Date.now()).blockedGames).toBeGreaterThan(0);
      await leave(ann, bob, cid, dan);
    });
  }
});
