/**
 * One account, one place across a lost queue room (durable queues, on Colyseus's in-memory
 * presence with a fake room as host): a resumed place and a fresh join of the same account never
 * both hold a place. Whichever comes first keeps it (`refuse`), or the resume replaces the fresh
 * session (`replace`); a place being resumed holds its account until it is back.
 */
import { LocalPresence, ServerError } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/core/index.js";
import { DurableQueue, type DurableHost } from "../../src/colyseus/durable/durable-queue.js";
import { QueueSession, type RemovedMessage, type SessionJoin } from "../../src/colyseus/session.js";
import type { DuplicateAccount } from "../../src/colyseus/director/accounts.js";

/** A queue room as the durable queue sees it; joins carry `playerId` from their options. */
function fakeRoom(presence: LocalPresence, roomId: string, clock: { now: number }, mode?: DuplicateAccount) {
  const sent: Array<{ to: string; type: string; payload: unknown }> = [];
  const removed = new Map<string, RemovedMessage>();
  const session: QueueSession = new QueueSession({
    matchmaker: new Matchmaker({ teamSize: 2 }),
    ...(mode ? { duplicateAccount: mode } : {}),
    effects: {
      send: (to, type, payload) => sent.push({ to, type, payload }),
      waiting: (t) => durable.waiting(t),
      notWaiting: () => undefined,
      spawn: () => undefined,
      remove: (id, message) => {
        removed.set(id, message);
        durable.gone(id);
      },
    },
  });
  const host: DurableHost = {
    roomId,
    roomName: "q",
    presence,
    session,
    now: () => clock.now,
    send: (to, type, payload) => sent.push({ to, type, payload }),
    runEngine: () => session.tick(clock.now),
    every: () => () => undefined,
    isListed: async (id) => id === roomId,
    relist: async () => undefined,
    lock: () => undefined,
    closeAll: async () => undefined,
  };
  const durable: DurableQueue = new DurableQueue(host, { graceMs: 10_000, announceMs: 20 });
  const join = async (sessionId: string, options: Record<string, unknown>, extra: Partial<SessionJoin> = {}) => {
    const check = (rest: unknown) => {
      const refusal = session.joinRefusal({ ...extra, playerId: (rest as { playerId?: string }).playerId });
      if (refusal) throw refusal;
      return rest;
    };
    await durable.authorize(sessionId, options, check, (rest) => rest);
    const playerId = options.playerId as string | undefined;
    durable.join(sessionId, () =>
      session.join(
        {
          player: { sessionId, rating: Number(options.rating), ...(playerId !== undefined ? { playerId } : {}) },
          ...extra,
        },
        clock.now,
      ),
    );
  };
  const tokenOf = (id: string) =>
    (sent.filter((m) => m.to === id && m.type === "resume").at(-1)?.payload as { token: string } | undefined)?.token;
  /** The room is lost (its process died): its places stay in presence for a new room. */
  const lose = async () => {
    await durable.flushAll();
    durable.stop();
    await durable.lease.release();
  };
  return { durable, session, sent, removed, join, tokenOf, lose };
}

describe("a resumed place and a fresh join of one account", () => {
  it("refuse: the fresh join came first and keeps the place; the resume is refused naming playerId", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const old = fakeRoom(presence, "R1", clock);
    await old.durable.start();
    await old.join("s1", { rating: 1500, playerId: "acct" });
    const token = old.tokenOf("s1")!;
    await old.lose();

    const next = fakeRoom(presence, "R2", clock);
    await next.durable.start();
    clock.now = 5000;
    await next.join("fresh", { rating: 1500, playerId: "acct" });
    const error = await next.join("s1-back", { rating: 1500, resume: token }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).code).toBe(525);
    expect((error as Error).message).toContain('playerId: account "acct" is already in this queue');
    expect(next.session.placeOf("fresh")).toBe("waiting");
    expect(next.session.placeOf("s1-back")).toBeUndefined();
    expect([...next.session.players()].map((p) => p.id)).toEqual(["fresh"]);
    presence.shutdown();
  });

  it("refuse: the resume came first; a fresh join of the account is refused while the place is back or coming back", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const old = fakeRoom(presence, "R1", clock);
    await old.durable.start();
    // A party of two: its place comes back once both members are back.
    await old.join("L", { rating: 1500, playerId: "lead" }, { party: { size: 2 } });
    const code = (old.sent.find((m) => m.to === "L" && m.type === "party")!.payload as { code: string }).code;
    await old.join("M", { rating: 1510, playerId: "mem" }, { partyCode: code });
    const tokens = { L: old.tokenOf("L")!, M: old.tokenOf("M")! };
    await old.lose();

    const next = fakeRoom(presence, "R2", clock);
    await next.durable.start();
    await next.join("L2", { rating: 1500, resume: tokens.L });
    // Coming back (the member is not back yet): the leader's account is held for the place.
    expect(next.session.placeOf("L2")).toBeUndefined();
    await expect(next.join("L-fresh", { rating: 1500, playerId: "lead" })).rejects.toThrow("being resumed");
    await next.join("M2", { rating: 1510, resume: tokens.M });
    expect(next.session.placeOf("L2")).toBe("waiting");
    await expect(next.join("M-fresh", { rating: 1500, playerId: "mem" })).rejects.toThrow(
      'account "mem" is already in this queue',
    );
    expect([...next.session.players()].map((p) => p.id).sort()).toEqual(["L2", "M2"]);
    presence.shutdown();
  });

  it("replace: the resume takes the account back from the fresh session, which is told why", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const old = fakeRoom(presence, "R1", clock, "replace");
    await old.durable.start();
    await old.join("s1", { rating: 1500, playerId: "acct" });
    const token = old.tokenOf("s1")!;
    await old.lose();

    const next = fakeRoom(presence, "R2", clock, "replace");
    await next.durable.start();
    clock.now = 5000;
    await next.join("fresh", { rating: 1500, playerId: "acct" });
    await next.join("s1-back", { rating: 1500, resume: token });
    expect(next.removed.get("fresh")).toEqual({ reason: "replaced" });
    expect(next.session.placeOf("fresh")).toBeUndefined();
    expect(next.session.matchmaker.get("s1-back")!.enqueuedAt).toBe(1000);
    await next.durable.flushAll();
    // The fresh session's stored place is gone: one place for the account.
    expect((await next.durable.store.all()).size).toBe(1);
    presence.shutdown();
  });

  it("a resume that leaves before its place is back frees the account", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const old = fakeRoom(presence, "R1", clock);
    await old.durable.start();
    await old.join("L", { rating: 1500, playerId: "lead" }, { party: { size: 2 } });
    const code = (old.sent.find((m) => m.to === "L" && m.type === "party")!.payload as { code: string }).code;
    await old.join("M", { rating: 1510, playerId: "mem" }, { partyCode: code });
    const tokenL = old.tokenOf("L")!;
    await old.lose();

    const next = fakeRoom(presence, "R2", clock);
    await next.durable.start();
    await next.join("L2", { rating: 1500, resume: tokenL });
    next.session.leave("L2", clock.now); // the room's onLeave: not in the session yet
    next.durable.gone("L2");
    await next.join("L-fresh", { rating: 1500, playerId: "lead" });
    expect(next.session.placeOf("L-fresh")).toBe("waiting");
    presence.shutdown();
  });
});
