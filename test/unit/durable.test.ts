/**
 * The durable queue without sockets: lease, stored places, resume tokens and handover, on
 * Colyseus's in-memory presence (the same calls Redis answers), with a fake room as host, manual
 * timers and an injected clock.
 */
import { LocalPresence, ServerError } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import { isSharedPresence } from "../../src/colyseus/durable/durable-queue.js";
import { failFastDriver } from "../../src/colyseus/durable/fail-fast.js";
import { QueueLease } from "../../src/colyseus/durable/lease.js";
import {
  newResumeToken,
  RESUME_TOKEN_PATTERN,
  resumeKey,
  splitResume,
} from "../../src/colyseus/durable/resume-token.js";
import { parseStoredPlace, TicketStore, type StoredPlace } from "../../src/colyseus/durable/ticket-store.js";
import { isRetryLater, RETRY_LATER } from "../../src/colyseus/durable/unavailable.js";
import type { MatchMakerDriver } from "@colyseus/core";
import { fakeDurableRoom as fakeRoom } from "../helpers/durable-room.js";

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
}

describe("resume tokens", () => {
  it("are 192 random bits in base64url, distinct, stored only as their SHA-256", () => {
    const tokens = new Set(Array.from({ length: 2000 }, () => newResumeToken()));
    expect(tokens.size).toBe(2000);
    for (const t of tokens) expect(t).toMatch(RESUME_TOKEN_PATTERN);
    const t = [...tokens][0]!;
    expect(resumeKey(t)).not.toContain(t.slice(0, 8));
    expect(resumeKey(t)).toBe(resumeKey(t));
  });

  it("are checked as untrusted input before any lookup", () => {
    expect(splitResume({ rating: 1 })).toEqual({ rest: { rating: 1 } });
    expect(splitResume(null)).toEqual({ rest: null });
    const token = newResumeToken();
    expect(splitResume({ rating: 1, resume: token })).toEqual({ token, rest: { rating: 1 } });
    for (const bad of [42, "short", "x".repeat(33), "../../etc/passwd/aaaaaaaaaaaaaaaaaaaa", { a: 1 }, null])
      expect(() => splitResume({ rating: 1, resume: bad })).toThrow("resume: must be the token");
  });
});

describe("QueueLease", () => {
  it("one holder at a time; renewal keeps it; a release frees it; a dead holder is taken over", async () => {
    const presence = new LocalPresence();
    const alive = new Set(["A", "B"]);
    const lease = (id: string) => new QueueLease(presence, "q", id, { ownerAlive: async (o) => alive.has(o) });
    const a = lease("A");
    const b = lease("B");
    expect(await a.claim()).toEqual({ held: true, reasserted: false });
    expect(await b.claim()).toEqual({ held: false, owner: "A" });
    expect(await a.claim()).toEqual({ held: true, reasserted: false });
    await a.release();
    expect(await b.claim()).toEqual({ held: true, reasserted: false });
    alive.delete("B");
    expect(await a.claim()).toEqual({ held: true, reasserted: false });
    expect(await b.claim()).toEqual({ held: false, owner: "A" });
    presence.shutdown();
  });

  it("re-asserted by its holder after the store lost it (a Redis restart)", async () => {
    const presence = new LocalPresence();
    const a = new QueueLease(presence, "q", "A");
    await a.claim();
    presence.del(a.key);
    expect(await a.claim()).toEqual({ held: true, reasserted: true });
    expect(await new QueueLease(presence, "q", "B").claim()).toEqual({ held: false, owner: "A" });
    presence.shutdown();
  });
});

describe("TicketStore", () => {
  const place = (ticket: string): StoredPlace => ({
    v: 1,
    room: "R",
    ticket,
    size: 1,
    enqueuedAt: 5,
    player: { rating: 1500 },
  });

  it("writes in bounded batches; a later change of a record wins over an earlier one", async () => {
    const presence = new LocalPresence();
    const store = new TicketStore(presence, "q", { maxPerFlush: 3 });
    for (let i = 0; i < 7; i++) store.put(`k${i}`, place(`t${i}`));
    store.forget("k6");
    expect(store.pending).toBe(7);
    expect(await store.flush()).toBe(3);
    expect(store.pending).toBe(4);
    expect(await store.flush()).toBe(3);
    expect(await store.flush()).toBe(1);
    expect(await store.flush()).toBe(0);
    const all = await store.all();
    expect([...all.keys()].sort()).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    expect(await store.get("k3")).toEqual(place("t3"));
    presence.shutdown();
  });

  it("ignores malformed records (presence is shared; nothing read from it is trusted)", () => {
    expect(parseStoredPlace(JSON.stringify(place("t")))).toEqual(place("t"));
    for (const bad of ["{", "null", "[]", JSON.stringify({ ...place("t"), size: 0 })])
      expect(parseStoredPlace(bad)).toBeUndefined();
    expect(parseStoredPlace(JSON.stringify({ ...place("t"), player: { rating: "x" } }))).toBeUndefined();
    expect(parseStoredPlace(JSON.stringify({ ...place("t"), side: "C" }))).toBeUndefined();
  });
});

describe("DurableQueue", () => {
  it("the authority writes each waiting player's place once per change and deletes it when the player leaves", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const room = fakeRoom(presence, "R1", clock);
    await room.durable.start();
    expect(room.durable.isAuthority).toBe(true);
    await room.join("p1", { rating: 1500 });
    await room.join("p2", { rating: 1700 });
    await room.durable.flushAll();
    const stored = await room.durable.store.all();
    expect(stored.size).toBe(2);
    const p1 = stored.get(resumeKey(room.tokenOf("p1")!))!;
    expect(p1).toMatchObject({ room: "R1", ticket: "p1", size: 1, enqueuedAt: 1000, player: { rating: 1500 } });
    room.session.leave("p1", clock.now);
    room.durable.gone("p1");
    await room.durable.flushAll();
    expect([...(await room.durable.store.all()).keys()]).toEqual([resumeKey(room.tokenOf("p2")!)]);
    presence.shutdown();
  });

  it("a second room for the queue refuses joins with the retryable error and locks itself", async () => {
    const presence = new LocalPresence();
    const clock = { now: 0 };
    const first = fakeRoom(presence, "R1", clock);
    await first.durable.start();
    const second = fakeRoom(presence, "R2", clock);
    second.listed.add("R1");
    await second.durable.start();
    expect(second.durable.isAuthority).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(second.locked()).toBe(true);
    const refusal = await second.join("x", { rating: 1 }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ServerError);
    expect(isRetryLater(refusal)).toBe(true);
    expect((refusal as ServerError).code).toBe(RETRY_LATER);
    expect((refusal as Error).message).toMatch(/^queue unavailable \(queue_moving\): .*; retry in 1 s$/);
    presence.shutdown();
  });

  it("after Redis lost the lease, a new room that claims it steps back when the live authority answers its announcement", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const live = fakeRoom(presence, "R1", clock);
    await live.durable.start();
    await live.join("p1", { rating: 1500 });
    presence.del(live.durable.lease.key); // Redis restarted empty
    presence.del(live.durable.store.key);
    const newcomer = fakeRoom(presence, "R2", clock);
    newcomer.listed.add("R1");
    await newcomer.durable.start();
    expect(newcomer.durable.isAuthority).toBe(false);
    expect(await presence.hget(live.durable.lease.key, "owner")).toBe("R1");
    await live.durable.flushAll();
    expect((await live.durable.store.all()).size).toBe(1); // its places written again
    presence.shutdown();
  });

  it("an authority that finds another live room holding its lease hands its players over (`moved`), places written", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const room = fakeRoom(presence, "R1", clock);
    await room.durable.start();
    await room.join("p1", { rating: 1500 });
    presence.del(room.durable.store.key); // Redis lost everything...
    await presence.hset(room.durable.lease.key, "owner", "R2"); // ...and another room got the lease first
    room.listed.add("R2");
    await room.beat();
    await until(() => room.closed() !== undefined);
    expect(room.sent.filter((m) => m.type === "handover").map((m) => m.payload)).toEqual([
      { reason: "moved", retryInMs: 500 },
    ]);
    expect([...(await room.durable.store.all()).keys()]).toEqual([resumeKey(room.tokenOf("p1")!)]);
    presence.shutdown();
  });

  it("after the room is lost, its players rejoin a new room with their tokens: original places, the party as a party, a ready check back to waiting", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const old = fakeRoom(presence, "R1", clock, { readyCheck: 30_000 });
    await old.durable.start();
    // Four solos (enqueued at 1000) form a match in a ready check; then a party of two waits (2000).
    for (const id of ["a", "b", "c", "d"]) await old.join(id, { rating: 3000 });
    old.session.tick(clock.now);
    expect(old.session.placeOf("a")).toBe("ready-check");
    clock.now = 2000;
    await old.join("L", { rating: 1500 }, { party: { size: 2 } });
    await old.join("M", { rating: 1510 }, { partyCode: old.partyCodeOf("L") });
    expect(old.session.placeOf("L")).toBe("waiting");
    await old.durable.flushAll();
    const tokens = Object.fromEntries(["L", "M", "a", "b", "c", "d"].map((id) => [id, old.tokenOf(id)!]));

    // The old room's process dies (no handover); its lease expires; a new room takes the queue.
    old.durable.stop();
    await old.durable.lease.release();
    clock.now = 9000;
    const next = fakeRoom(presence, "R2", clock, { readyCheck: 30_000 });
    await next.durable.start();
    expect(next.durable.isAuthority).toBe(true);

    // The four from the ready check wait again at their original place (and meet again).
    for (const id of ["a", "b", "c"]) await next.join(`${id}2`, { rating: 3000, resume: tokens[id] });
    for (const id of ["a2", "b2", "c2"]) expect(next.session.matchmaker.get(id)!.enqueuedAt).toBe(1000);
    await next.join("d2", { rating: 3000, resume: tokens.d });
    expect(next.session.placeOf("d2")).toBe("ready-check");

    // A token is single-use: a second rejoin with it while the first holds the place is refused.
    await next.join("L2", { rating: 1500, resume: tokens.L });
    await expect(next.join("X", { rating: 1500, resume: tokens.L })).rejects.toThrow("already back in the queue");
    await expect(next.join("Y", { rating: 1500, resume: newResumeToken() })).rejects.toThrow("no place to resume");
    // The party waits for its member before it is back in matching, as a party, at its place.
    expect(next.session.placeOf("L2")).toBeUndefined();
    await next.join("M2", { rating: 1510, resume: tokens.M });
    expect(next.session.placeOf("L2")).toBe("waiting");
    expect(next.session.placeOf("M2")).toBe("waiting");
    const party = next.session.parties.of("L2")!;
    expect(party.leader).toBe("L2");
    expect(party.members).toEqual(["L2", "M2"]);
    expect(next.session.matchmaker.get(party.id)!.enqueuedAt).toBe(2000);
    presence.shutdown();
  });

  it("a party whose members do not all come back is restored held after the grace; unclaimed places expire", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const old = fakeRoom(presence, "R1", clock);
    await old.durable.start();
    await old.join("L", { rating: 1500 }, { party: { size: 2 } });
    await old.join("M", { rating: 1510 }, { partyCode: old.partyCodeOf("L") });
    await old.join("s", { rating: 2000 });
    const tokenL = old.tokenOf("L")!;
    await old.lose();

    const next = fakeRoom(presence, "R2", clock);
    await next.durable.start();
    await next.join("L2", { rating: 1500, resume: tokenL });
    clock.now += 10_001; // the grace
    await next.beat();
    expect(next.session.placeOf("L2")).toBe("party");
    expect(next.session.parties.of("L2")!.status).toBe("held");
    await next.durable.flushAll();
    // M's and s's places were never claimed: gone after the grace; L's is L2's now.
    expect([...(await next.durable.store.all()).keys()]).toEqual([resumeKey(tokenL)]);
    presence.shutdown();
  });

  it("a graceful stop writes every place, releases the lease, tells every player `handover` and closes", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const room = fakeRoom(presence, "R1", clock);
    await room.durable.start();
    await room.join("p1", { rating: 1500 });
    await room.join("p2", { rating: 1800 });
    await room.durable.handover("shutdown");
    expect(room.sent.filter((m) => m.type === "handover").map((m) => m.to)).toEqual(["p1", "p2"]);
    expect(room.closed()).toBe(4001);
    expect((await room.durable.store.all()).size).toBe(2);
    // Leaving because of the handover keeps the place.
    room.durable.gone("p1");
    await room.durable.flushAll();
    expect((await room.durable.store.all()).size).toBe(2);
    const next = fakeRoom(presence, "R2", clock);
    await next.durable.start();
    expect(next.durable.isAuthority).toBe(true);
    presence.shutdown();
  });

  it("is off in memory: only shared presence makes a queue durable", () => {
    const presence = new LocalPresence();
    expect(isSharedPresence(presence)).toBe(false);
    expect(isSharedPresence(Object.create(presence))).toBe(false); // Colyseus's scoped presence
    expect(isSharedPresence({} as LocalPresence)).toBe(true);
    presence.shutdown();
  });
});

describe("failFastDriver", () => {
  it("refuses listing reads at once with the retryable error while the connection is not ready; passes them otherwise", async () => {
    let reads = 0;
    const driver = {
      findOne: async () => {
        reads++;
        return { roomId: "r" };
      },
      remove: async () => true,
    } as unknown as MatchMakerDriver;
    const connection = { status: "reconnecting" };
    const guarded = failFastDriver(driver, connection);
    const error = await guarded.findOne({ name: "q" }).catch((e: unknown) => e);
    expect(isRetryLater(error)).toBe(true);
    expect((error as Error).message).toBe(
      "queue unavailable (redis_unreachable): the matchmaker cannot reach its Redis; retry in 2 s",
    );
    expect(reads).toBe(0);
    expect(await guarded.remove("r")).toBe(true); // writes go to ioredis's offline queue
    connection.status = "ready";
    expect(await guarded.findOne({ name: "q" })).toEqual({ roomId: "r" });
  });

  it("forgets the driver's shared in-flight read after a failure, so later joins read again", async () => {
    const connection = { status: "ready" };
    const driver = {
      _concurrentRoomCacheRequest: Promise.resolve({}),
      _roomCacheRequestByName: { q: Promise.resolve([]) },
      findOne: async () => {
        connection.status = "reconnecting";
        throw new Error("Connection is closed.");
      },
    };
    const guarded = failFastDriver(driver as unknown as MatchMakerDriver, connection);
    expect(isRetryLater(await guarded.findOne({}).catch((e: unknown) => e))).toBe(true);
    expect(driver._concurrentRoomCacheRequest).toBeUndefined();
    expect(driver._roomCacheRequestByName).toEqual({});
  });
});
