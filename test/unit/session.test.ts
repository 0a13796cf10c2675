/** QueueSession and PartyBook scenarios with injected time and recorded effects (no sockets). */
import { describe, expect, it } from "vitest";
import {
  newPartyCode,
  PARTY_CODE_PATTERN,
  PartyBook,
  partyTicketId,
  type PartyMessage,
} from "../../src/colyseus/parties.js";
import { JoinRefused, type RequeuedMessage } from "../../src/colyseus/session.js";
import { recordedSession, type RecordedSessionOptions } from "../helpers/recorded-session.js";

function setup(options: RecordedSessionOptions = {}) {
  const recorded = recordedSession(options);
  const solo = (id: string, now: number, rating = 1500) =>
    recorded.session.join({ player: { sessionId: id, rating } }, now);
  return { ...recorded, solo };
}

describe("party codes", () => {
  it("are 128 random bits in base64url, distinct, and the ticket id reveals nothing of them", () => {
    const codes = new Set(Array.from({ length: 2000 }, () => newPartyCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) {
      expect(code).toMatch(PARTY_CODE_PATTERN);
      expect(Buffer.from(code, "base64url")).toHaveLength(16);
    }
    const code = [...codes][0]!;
    expect(partyTicketId(code)).toMatch(/^party-[A-Za-z0-9_-]{16}$/);
    expect(partyTicketId(code)).not.toContain(code.slice(0, 6));
    expect(partyTicketId(code)).toBe(partyTicketId(code));
  });

  it("PartyBook: wrong code, full party, leader hand-over, dissolution", () => {
    const book = new PartyBook();
    const party = book.create("lead", 2);
    expect(book.joinProblem("A".repeat(22))).toBe("no such party");
    book.join(party.code, "m1");
    expect(book.joinProblem(party.code)).toBe("the party is full");
    expect(() => book.join(party.code, "m2")).toThrow("the party is full");
    expect(book.remove("lead")).toEqual({ party, dissolved: false });
    expect(party.leader).toBe("m1");
    expect(book.remove("m1")?.dissolved).toBe(true);
    expect(book.joinProblem(party.code)).toBe("no such party");
    expect(book.of("m1")).toBeUndefined();
  });
});

describe("QueueSession", () => {
  it("a party enters matching when complete, on one team, with a ticket id that is not a player's", () => {
    const { session, last, solo, spawns, shown } = setup();
    session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, 0);
    const created = last<PartyMessage>("L", "party")!;
    expect(created).toMatchObject({ size: 2, members: 1, leader: true, status: "forming", event: "created" });
    expect(shown.size).toBe(0);
    session.join({ player: { sessionId: "M", rating: 1500 }, partyCode: created.code }, 10);
    expect(last<PartyMessage>("M", "party")).toMatchObject({
      members: 2,
      leader: false,
      status: "queued",
      event: "queued",
    });
    expect([...shown.keys()]).toEqual([partyTicketId(created.code)]);
    solo("s1", 20);
    solo("s2", 30);
    session.tick(30);
    expect(spawns).toHaveLength(1);
    const team = spawns[0]!.teams.find((t) => t.players.some((p) => p.sessionId === "L"))!;
    expect(team.players.map((p) => p.sessionId).sort()).toEqual(["L", "M"]);
  });

  it("refuses a wrong or full party code without changing anything", () => {
    const { session, last } = setup();
    session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, 0);
    const { code } = last<PartyMessage>("L", "party")!;
    expect(() => session.join({ player: { sessionId: "X", rating: 1 }, partyCode: "B".repeat(22) }, 0)).toThrow(
      new JoinRefused("partyCode: no such party", "partyCode"),
    );
    expect(() => session.join({ player: { sessionId: "X", rating: 1 }, partyCode: code, side: "A" }, 0)).toThrow(
      /^side: /,
    );
    session.join({ player: { sessionId: "M", rating: 1 }, partyCode: code }, 0);
    expect(() => session.join({ player: { sessionId: "Y", rating: 1 }, partyCode: code }, 0)).toThrow(
      "partyCode: the party is full",
    );
    expect(session.placeOf("X")).toBeUndefined();
    expect(session.placeOf("Y")).toBeUndefined();
  });

  it("a member leaving takes the ticket out of matching and tells the others; the leader restarts it", () => {
    const { session, last, shown, solo } = setup({ teamSize: 3, allowPartialParties: true });
    session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 3 } }, 0);
    const { code } = last<PartyMessage>("L", "party")!;
    session.join({ player: { sessionId: "M1", rating: 1500 }, partyCode: code }, 0);
    session.join({ player: { sessionId: "M2", rating: 1500 }, partyCode: code }, 0);
    expect(shown.size).toBe(1);
    session.leave("L", 5);
    expect(shown.size).toBe(0);
    expect(session.matchmaker.size).toBe(0);
    for (const id of ["M1", "M2"])
      expect(last<PartyMessage>(id, "party")).toMatchObject({
        event: "member_left",
        status: "held",
        members: 2,
        reason: "left",
      });
    expect(last<PartyMessage>("M1", "party")!.leader).toBe(true);
    expect(session.start("M2", 6)).toEqual({ ok: false, error: "only the party leader can start" });
    // Solos can fill a 3v3 around the restarted party of two.
    expect(session.start("M1", 6)).toEqual({ ok: true });
    expect(session.matchmaker.get(partyTicketId(code))?.players.map((p) => p.sessionId)).toEqual(["M1", "M2"]);
    for (const id of ["a", "b", "c", "d"]) solo(id, 7);
    session.tick(7);
    expect(session.placeOf("M1")).toBe("spawning");
  });

  it("start refuses an incomplete party unless the queue allows it", () => {
    const { session, last } = setup();
    session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, 0);
    expect(session.start("L", 0)).toEqual({
      ok: false,
      error: "the party has 1 of 2 players and this queue does not start incomplete parties",
    });
    expect(last<PartyMessage>("L", "party")!.status).toBe("forming");
  });

  it("ready check: a decline removes the decliner and puts the others back ahead of newcomers", () => {
    const { session, sent, removed, spawns, solo, last } = setup({ readyCheck: 5000 });
    for (const [i, id] of ["a", "b", "c", "d"].entries()) solo(id, i * 10);
    session.tick(100);
    expect(last("a", "match_found")).toEqual({ matchId: expect.any(String), timeoutMs: 5000, players: 4 });
    solo("late1", 200);
    solo("late2", 210);
    session.accept("a");
    session.accept("b");
    session.decline("d", 300);
    expect(removed.get("d")).toEqual({ reason: "declined", matchId: expect.any(String) });
    expect(spawns).toHaveLength(0);
    for (const id of ["a", "b", "c"]) expect(last<RequeuedMessage>(id, "requeued")?.reason).toBe("declined");
    expect([...session.matchmaker.waiting()].map((t) => [t.id, t.enqueuedAt])).toEqual([
      ["a", 0],
      ["b", 10],
      ["c", 20],
      ["late1", 200],
      ["late2", 210],
    ]);
    session.tick(300);
    const players = sent.filter((m) => m.type === "match_found").map((m) => m.to);
    expect(players.slice(4).sort()).toEqual(["a", "b", "c", "late1"]);
    expect(session.placeOf("late2")).toBe("waiting");
  });

  it("ready check: a timeout removes those who did not accept; all accepting spawns once", () => {
    const { session, removed, spawns, solo } = setup({ readyCheck: 1000 });
    for (const id of ["a", "b", "c", "d"]) solo(id, 0);
    session.tick(0);
    expect(session.nextWakeup(0)).toBe(1000);
    for (const id of ["a", "b", "c"]) session.accept(id);
    session.tick(999);
    expect(removed.size).toBe(0);
    session.tick(1000);
    expect(removed.get("d")?.reason).toBe("timeout");
    expect(spawns).toHaveLength(0);
    solo("e", 1001);
    session.tick(1001);
    for (const id of ["a", "b", "c", "e"]) session.accept(id);
    expect(spawns).toHaveLength(1);
    session.spawned(spawns[0]!.id, new Map(["a", "b", "c", "e"].map((id) => [id, { seat: id }])), 1002);
    for (const id of ["a", "b", "c", "e"]) expect(session.placeOf(id)).toBe("seated");
  });

  it("a dropped player keeps its place; matched meanwhile, its seat waits for it within the grace", () => {
    const { session, sent, spawns, solo } = setup();
    solo("a", 0);
    expect(session.drop("a")).toBe(true);
    for (const id of ["b", "c", "d"]) solo(id, 10);
    session.tick(10);
    // No game room for a match whose player is away.
    expect(spawns).toHaveLength(0);
    expect(session.placeOf("a")).toBe("ready-check");
    session.reconnect("a", 20);
    expect(spawns).toHaveLength(1);
    expect(spawns[0]!.teams.flatMap((t) => t.players).find((p) => p.sessionId === "a")!.waitMs).toBe(10);
    session.drop("a");
    session.spawned(spawns[0]!.id, new Map(["a", "b", "c", "d"].map((id) => [id, `seat of ${id}`])), 30);
    expect(sent.filter((m) => m.to === "a" && m.type === "seat")).toHaveLength(0);
    session.reconnect("a", 40);
    expect(sent.filter((m) => m.to === "a" && m.type === "seat").map((m) => m.payload)).toEqual(["seat of a"]);
  });

  it("a dropped player who does not return counts as declining; the others keep their place", () => {
    const { session, removed, spawns, solo, last } = setup();
    for (const id of ["a", "b", "c"]) solo(id, 0);
    session.drop("c");
    solo("d", 5);
    session.tick(5);
    session.leave("c", 50); // the grace ran out
    expect(removed.get("c")?.reason).toBe("disconnected");
    expect(last<RequeuedMessage>("a", "requeued")?.reason).toBe("disconnected");
    expect(spawns).toHaveLength(0);
    expect(session.matchmaker.get("a")?.enqueuedAt).toBe(0);
  });

  it("ready check: a party member declining holds the party and tells its other members; the rest keep their place", () => {
    const { session, removed, spawns, solo, last } = setup({ readyCheck: 5000 });
    session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, 0);
    const { code } = last<PartyMessage>("L", "party")!;
    session.join({ player: { sessionId: "M", rating: 1500 }, partyCode: code }, 1);
    solo("s1", 2);
    solo("s2", 3);
    session.tick(3);
    expect(session.placeOf("L")).toBe("ready-check");
    session.decline("M", 10);
    expect(removed.get("M")?.reason).toBe("declined");
    expect(last<PartyMessage>("L", "party")).toMatchObject({
      event: "member_left",
      reason: "declined",
      status: "held",
      members: 1,
      leader: true,
    });
    expect(session.placeOf("L")).toBe("party");
    expect(session.matchmaker.has(partyTicketId(code))).toBe(false);
    expect([...session.matchmaker.waiting()].map((t) => [t.id, t.enqueuedAt])).toEqual([
      ["s1", 2],
      ["s2", 3],
    ]);
    expect(spawns).toHaveLength(0);
  });

  it("a party member who drops is told the party's state when it reconnects", () => {
    const { session, sent, last } = setup({ teamSize: 3 });
    session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 3 } }, 0);
    const { code } = last<PartyMessage>("L", "party")!;
    session.join({ player: { sessionId: "M", rating: 1500 }, partyCode: code }, 0);
    session.drop("M");
    const before = sent.filter((m) => m.to === "M").length;
    session.join({ player: { sessionId: "N", rating: 1500 }, partyCode: code }, 5);
    expect(sent.filter((m) => m.to === "M")).toHaveLength(before); // nothing sent while away
    expect(session.placeOf("M")).toBe("waiting");
    session.reconnect("M", 6);
    expect(last<PartyMessage>("M", "party")).toMatchObject({ event: "reconnected", status: "queued", members: 3 });
  });
});
