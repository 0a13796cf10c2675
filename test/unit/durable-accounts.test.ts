/**
 * One account, one place across a lost queue room (durable queues, on Colyseus's in-memory
 * presence with a fake room as host): a resumed place and a fresh join of the same account never
 * both hold a place. Whichever comes first keeps it (`refuse`), or the resume replaces the fresh
 * session (`replace`); a place being resumed holds its account until it is back.
 */
import { LocalPresence, ServerError } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import { fakeDurableRoom as fakeRoom, type FakeRoomOptions } from "../helpers/durable-room.js";

/** A party of two (accounts "lead" and "mem") waiting in a room that is then lost; their resume tokens. */
async function lostParty(presence: LocalPresence, clock: { now: number }): Promise<{ L: string; M: string }> {
  const old = fakeRoom(presence, "R1", clock);
  await old.durable.start();
  await old.join("L", { rating: 1500, playerId: "lead" }, { party: { size: 2 } });
  await old.join("M", { rating: 1510, playerId: "mem" }, { partyCode: old.partyCodeOf("L") });
  const tokens = { L: old.tokenOf("L")!, M: old.tokenOf("M")! };
  await old.lose();
  return tokens;
}

/** A solo of account "acct" waiting (enqueued at 1000) in a room that is then lost; its resume token. */
async function lostSolo(
  presence: LocalPresence,
  clock: { now: number },
  options: FakeRoomOptions = {},
): Promise<string> {
  const old = fakeRoom(presence, "R1", clock, options);
  await old.durable.start();
  await old.join("s1", { rating: 1500, playerId: "acct" });
  const token = old.tokenOf("s1")!;
  await old.lose();
  return token;
}

describe("a resumed place and a fresh join of one account", () => {
  it("refuse: the fresh join came first and keeps the place; the resume is refused naming playerId", async () => {
    const presence = new LocalPresence();
    const clock = { now: 1000 };
    const token = await lostSolo(presence, clock);

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
    // A party of two: its place comes back once both members are back.
    const tokens = await lostParty(presence, clock);

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
    const token = await lostSolo(presence, clock, { duplicateAccount: "replace" });

    const next = fakeRoom(presence, "R2", clock, { duplicateAccount: "replace" });
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
    const { L: tokenL } = await lostParty(presence, clock);

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
