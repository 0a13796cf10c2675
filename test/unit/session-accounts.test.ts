/**
 * One account, one place, in the queue session (no sockets, injected time): an account
 * (`playerId`) is at most one player of the session, whatever its place (forming party, waiting,
 * ready check, game being created, seated); a second join is refused (`duplicateAccount:
 * "refuse"`) or replaces the first session where it holds no match yet (`"replace"`); a party
 * never holds an account twice; and a resumed place holds its account while it comes back.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { PartyMessage } from "../../src/colyseus/parties.js";
import { JoinRefused } from "../../src/colyseus/session.js";
import type { DuplicateAccount } from "../../src/colyseus/director/accounts.js";
import { recordedSession, type RecordedSessionOptions } from "../helpers/recorded-session.js";
import { thrown } from "../helpers/thrown.js";

function setup(options: RecordedSessionOptions = {}) {
  const recorded = recordedSession(options);
  /** A solo of `account` through session `id`. */
  const solo = (id: string, account: string | undefined, now: number, extra: Record<string, unknown> = {}) =>
    recorded.session.join(
      { player: { sessionId: id, rating: 1500, ...(account !== undefined ? { playerId: account } : {}) }, ...extra },
      now,
    );
  const refusal = (call: () => void): JoinRefused => thrown(call, JoinRefused);
  return { ...recorded, solo, refusal };
}

describe('duplicateAccount: "refuse" (the default)', () => {
  it("refuses a second session of a waiting account, naming playerId; the first keeps its place", () => {
    const { session, solo, refusal, shown } = setup({ teamSize: 1 });
    solo("s1", "acct", 0);
    const error = refusal(() => solo("s2", "acct", 5));
    expect(error.field).toBe("playerId");
    expect(error.message).toBe('playerId: account "acct" is already in this queue');
    expect(session.placeOf("s1")).toBe("waiting");
    expect(session.placeOf("s2")).toBeUndefined();
    expect([...shown.keys()]).toEqual(["s1"]);
    // Alone, it never plays itself.
    expect(session.tick(10)).toEqual([]);
  });

  it("four sessions of one account cannot fill a 2v2: one waits, three are refused", () => {
    const { session, solo, refusal } = setup({ teamSize: 2 });
    solo("a1", "acct", 0);
    for (const id of ["a2", "a3", "a4"]) refusal(() => solo(id, "acct", 1));
    expect(session.tick(2)).toEqual([]);
    expect(session.matchmaker.size).toBe(1);
  });

  it("refuses an account in any place: forming party, ready check, game being created, seat sent", () => {
    const { session, solo, refusal, spawns } = setup({ teamSize: 1, readyCheck: 1000 });
    session.join({ player: { sessionId: "lead", rating: 1500, playerId: "p" }, party: { size: 1 } }, 0);
    expect(refusal(() => solo("x", "p", 0)).field).toBe("playerId");
    solo("a", "A", 0);
    solo("b", "B", 0);
    session.tick(1);
    expect(session.placeOf("a")).toBe("ready-check");
    refusal(() => solo("a2", "A", 2));
    session.accept("a");
    session.accept("b");
    expect(session.placeOf("a")).toBe("spawning");
    refusal(() => solo("a3", "A", 3));
    session.spawned(spawns[0]!.id, new Map(["a", "b"].map((id) => [id, { seat: id }])), 4);
    expect(session.placeOf("a")).toBe("seated");
    refusal(() => solo("a4", "A", 5));
    // Gone for its game: the account may queue again.
    session.leave("a", 6);
    solo("a5", "A", 7);
    expect(session.placeOf("a5")).toBe("waiting");
  });

  it("a playerId cannot join its own party as a second member", () => {
    const { session, refusal, last } = setup({ teamSize: 2 });
    session.join({ player: { sessionId: "lead", rating: 1500, playerId: "me" }, party: { size: 2 } }, 0);
    const code = last<PartyMessage>("lead", "party")!.code;
    const error = refusal(() =>
      session.join({ player: { sessionId: "alt", rating: 1500, playerId: "me" }, partyCode: code }, 1),
    );
    expect(error.message).toContain("playerId");
    expect(session.parties.of("lead")!.members).toEqual(["lead"]);
    expect(session.joinRefusal({ partyCode: code, playerId: "me" })?.field).toBe("playerId");
    expect(session.joinRefusal({ partyCode: code, playerId: "friend" })).toBeUndefined();
  });

  it("players without playerId are their own accounts", () => {
    const { session, solo } = setup({ teamSize: 1 });
    solo("a", undefined, 0);
    solo("b", undefined, 0);
    expect(session.tick(1)).toHaveLength(1);
  });
});

describe('duplicateAccount: "replace"', () => {
  it("a waiting solo: the new session takes its place (same enqueue time), the first is told replaced", () => {
    const { session, solo, removed, shown } = setup({ teamSize: 1, duplicateAccount: "replace" });
    solo("early", "E", 0);
    solo("s1", "acct", 10, { side: "A" });
    solo("s2", "acct", 50);
    expect(removed.get("s1")).toEqual({ reason: "replaced" });
    expect(session.placeOf("s1")).toBeUndefined();
    expect(session.placeOf("s2")).toBe("waiting");
    expect([...session.matchmaker.waiting()].map((t) => [t.id, t.enqueuedAt, t.side])).toEqual([
      ["early", 0, undefined],
      ["s2", 10, undefined],
    ]);
    expect([...shown.keys()].sort()).toEqual(["early", "s2"]);
    const [match] = session.tick(60);
    expect(match!.tickets.map((t) => t.id).sort()).toEqual(["early", "s2"]);
  });

  it("a party member rejoining with the party's code takes its slot; a queued party keeps its place", () => {
    const { session, last, removed, sent } = setup({ teamSize: 3, duplicateAccount: "replace" });
    session.join({ player: { sessionId: "L", rating: 1500, playerId: "lead" }, party: { size: 2 } }, 0);
    const code = last<PartyMessage>("L", "party")!.code;
    session.join({ player: { sessionId: "M1", rating: 1500, playerId: "mem" }, partyCode: code }, 5);
    const party = session.parties.of("L")!;
    expect(party.status).toBe("queued");
    expect(session.matchmaker.get(party.id)!.enqueuedAt).toBe(5);
    session.join({ player: { sessionId: "M2", rating: 1600, playerId: "mem" }, partyCode: code }, 40);
    expect(removed.get("M1")).toEqual({ reason: "replaced" });
    expect(party.members).toEqual(["L", "M2"]);
    expect(party.status).toBe("queued");
    const ticket = session.matchmaker.get(party.id)!;
    expect(ticket.enqueuedAt).toBe(5);
    expect(ticket.players.map((p) => p.sessionId)).toEqual(["L", "M2"]);
    expect(last<PartyMessage>("L", "party")!.event).toBe("queued");
    expect(sent.some((m) => m.to === "L" && (m.payload as PartyMessage).event === "member_replaced")).toBe(true);
    expect(last<PartyMessage>("M2", "party")).toMatchObject({ code, leader: false, members: 2 });
  });

  it("an account joining its own party takes the leader's slot: the party never holds it twice", () => {
    const { session, last, removed } = setup({ teamSize: 2, duplicateAccount: "replace" });
    session.join({ player: { sessionId: "old", rating: 1500, playerId: "me" }, party: { size: 2 } }, 0);
    const code = last<PartyMessage>("old", "party")!.code;
    session.join({ player: { sessionId: "new", rating: 1500, playerId: "me" }, partyCode: code }, 1);
    expect(removed.get("old")?.reason).toBe("replaced");
    const party = session.parties.of("new")!;
    expect(party.members).toEqual(["new"]);
    expect(party.leader).toBe("new");
    expect(party.status).toBe("forming");
  });

  it("a join asking for another place: the first session leaves (its party told why), the join goes on", () => {
    const { session, last, removed } = setup({ teamSize: 2, duplicateAccount: "replace" });
    session.join({ player: { sessionId: "L", rating: 1500, playerId: "lead" }, party: { size: 2 } }, 0);
    const code = last<PartyMessage>("L", "party")!.code;
    session.join({ player: { sessionId: "M", rating: 1500, playerId: "mem" }, partyCode: code }, 1);
    // The member's account comes back as a solo.
    session.join({ player: { sessionId: "M-solo", rating: 1500, playerId: "mem" } }, 2);
    expect(removed.get("M")?.reason).toBe("replaced");
    expect(last<PartyMessage>("L", "party")).toMatchObject({
      event: "member_left",
      reason: "replaced",
      status: "held",
    });
    expect(session.placeOf("M-solo")).toBe("waiting");
    expect(session.parties.of("L")!.members).toEqual(["L"]);
  });

  it("never replaces a session that holds a match: ready check, game being created, seat sent", () => {
    const { session, solo, refusal, spawns, removed } = setup({
      teamSize: 1,
      readyCheck: 1000,
      duplicateAccount: "replace",
    });
    solo("a", "A", 0);
    solo("b", "B", 0);
    session.tick(1);
    expect(refusal(() => solo("a2", "A", 2)).message).toContain("has a match in progress");
    session.accept("a");
    session.accept("b");
    refusal(() => solo("a3", "A", 3));
    session.spawned(spawns[0]!.id, new Map(["a", "b"].map((id) => [id, { seat: id }])), 4);
    refusal(() => solo("a4", "A", 5));
    expect(removed.size).toBe(0);
  });
});

describe("a resumed place holds its account", () => {
  it("while it comes back, a fresh join of the account is refused (in either mode); restored, it is the account's place", () => {
    for (const mode of ["refuse", "replace"] as const) {
      const { session, solo, refusal } = setup({ teamSize: 1, duplicateAccount: mode });
      session.claimAccount("acct", "resumer", 0);
      expect(refusal(() => solo("fresh", "acct", 1)).message).toContain("being resumed");
      session.restore(
        { id: "resumer", players: [{ sessionId: "resumer", rating: 1500, playerId: "acct" }], enqueuedAt: -500 },
        undefined,
        2,
      );
      expect(session.placeOf("resumer")).toBe("waiting");
      expect(session.matchmaker.get("resumer")!.enqueuedAt).toBe(-500);
      // From here on, as any place of the account: refused, or replaced (keeping its enqueue time).
      if (mode === "refuse") expect(refusal(() => solo("fresh2", "acct", 3)).field).toBe("playerId");
      else {
        solo("fresh2", "acct", 3);
        expect(session.matchmaker.get("fresh2")!.enqueuedAt).toBe(-500);
      }
    }
  });

  it("a resume of an account already here: refused, or (replace) the fresh session makes way", () => {
    const refuse = setup({ teamSize: 1 });
    refuse.solo("fresh", "acct", 0);
    expect(() => refuse.session.claimAccount("acct", "resumer", 1)).toThrow(JoinRefused);
    expect(refuse.session.placeOf("fresh")).toBe("waiting");

    const replace = setup({ teamSize: 1, duplicateAccount: "replace" });
    replace.solo("fresh", "acct", 0);
    replace.session.claimAccount("acct", "resumer", 1);
    expect(replace.removed.get("fresh")?.reason).toBe("replaced");
    expect(replace.session.matchmaker.size).toBe(0);
  });

  it("a resume whose session goes frees the account", () => {
    const { session, solo } = setup({ teamSize: 1 });
    session.claimAccount("acct", "resumer", 0);
    session.releaseAccount("resumer");
    solo("fresh", "acct", 1);
    expect(session.placeOf("fresh")).toBe("waiting");
  });
});

type Op =
  | { kind: "solo" | "lead"; account: number }
  | { kind: "member"; account: number; pick: number }
  | { kind: "leave" | "decline"; pick: number }
  | { kind: "acceptAll" | "spawnOk" | "spawnFail" | "tick" };

const account = fc.integer({ min: 0, max: 4 });
const pick = fc.nat({ max: 30 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("solo" as const), account }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("lead" as const), account }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("member" as const), account, pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("leave" as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("decline" as const), pick }) },
  { weight: 2, arbitrary: fc.constant({ kind: "acceptAll" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "spawnOk" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "spawnFail" as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: "tick" as const }) },
);

describe("one account, one place under random sessions", () => {
  test.prop(
    [fc.constantFrom<DuplicateAccount>("refuse", "replace"), fc.boolean(), fc.array(opArb, { maxLength: 80 })],
    {
      numRuns: 300,
    },
  )(
    "no account is two players of the session, twice in a party, a ticket or a match; every refusal names playerId",
    (mode, readyCheck, ops) => {
      const h = setup({ teamSize: 2, duplicateAccount: mode, ...(readyCheck ? { readyCheck: 1000 } : {}) });
      const { session } = h;
      const accountOf = new Map<string, string>();
      const codes: string[] = [];
      let seq = 0;
      let now = 0;
      const live = () => [...session.players()].map((p) => p.id);
      const join = (acct: number, extra: { party?: { size: number }; partyCode?: string }) => {
        const id = `s${++seq}`;
        const playerId = `acct${acct}`;
        const holder = [...session.players()].find((p) => accountOf.get(p.id) === playerId);
        try {
          session.join({ player: { sessionId: id, rating: 1500, playerId }, ...extra }, now);
        } catch (error) {
          expect(error).toBeInstanceOf(JoinRefused);
          expect((error as JoinRefused).field === "playerId" || (error as JoinRefused).field === "partyCode").toBe(
            true,
          );
          if ((error as JoinRefused).field === "playerId") expect(holder).toBeDefined();
          return;
        }
        accountOf.set(id, playerId);
        if (holder) {
          expect(mode).toBe("replace");
          expect(h.removed.get(holder.id)?.reason).toBe("replaced");
        }
        const code = h.last<PartyMessage>(id, "party")?.code;
        if (code && !codes.includes(code)) codes.push(code);
      };
      for (const op of ops) {
        now += 10;
        switch (op.kind) {
          case "solo":
            join(op.account, {});
            break;
          case "lead":
            join(op.account, { party: { size: 2 } });
            break;
          case "member":
            if (codes.length > 0) join(op.account, { partyCode: codes[op.pick % codes.length]! });
            break;
          case "leave":
          case "decline": {
            const ids = live();
            const id = ids[op.pick % Math.max(1, ids.length)];
            if (id === undefined) break;
            if (op.kind === "leave") session.leave(id, now);
            else session.decline(id, now);
            break;
          }
          case "acceptAll":
            for (const id of live()) session.accept(id);
            break;
          case "spawnOk":
          case "spawnFail": {
            const pending = [...session.pending.all()].find((p) => p.stage === "spawning");
            if (!pending) break;
            if (op.kind === "spawnFail") session.spawnFailed(pending.match.id, now);
            else session.spawned(pending.match.id, new Map(pending.humans.map((id) => [id, { seat: id }])), now);
            break;
          }
          case "tick":
            session.tick(now);
            break;
        }
        // The session's players: distinct accounts.
        const accounts = live().map((id) => accountOf.get(id)!);
        expect(new Set(accounts).size, `an account is two players: ${accounts.join(",")}`).toBe(accounts.length);
        for (const party of session.parties.all()) {
          const own = party.members.map((id) => accountOf.get(id));
          expect(new Set(own).size).toBe(own.length);
        }
        for (const pending of session.pending.all()) {
          const own = pending.humans.map((id) => accountOf.get(id));
          expect(new Set(own).size).toBe(own.length);
        }
      }
      // Every match ever formed seated distinct accounts.
      for (const match of h.spawns) {
        const own = match.teams.flatMap((t) => t.players.map((p) => p.playerId));
        expect(new Set(own).size).toBe(own.length);
      }
    },
  );
});
