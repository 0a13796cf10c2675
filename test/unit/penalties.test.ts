/**
 * The cost of wrecking games, without sockets: the rule on an injected clock, the bounded ledger,
 * the queue option, the room-side judge (accounts, refusals, what the player is told, the record
 * shared through presence), and the session applying it to ready checks and unused seats.
 */
import { LocalPresence } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match } from "../../src/core/types.js";
import { MatchmakerError } from "../../src/core/errors.js";
import {
  cooldownFor,
  judge,
  mergeRecords,
  OffenceLedger,
  OffenceLedgers,
  parseRecord,
  PENALTY_DEFAULTS,
  type OffenceRecord,
  type PenaltyOptions,
} from "../../src/colyseus/offences.js";
import { offenderOf, offenceKey, QueuePenalties } from "../../src/colyseus/penalties.js";
import { parseRoomOptions, penaltiesOf } from "../../src/options/queue-options.js";
import type { PartyMessage } from "../../src/colyseus/parties.js";
import {
  QueueSession,
  type OffenceJudge,
  type RemovedMessage,
  type RequeuedMessage,
} from "../../src/colyseus/session.js";

const MIN = 60_000;
/** The seat watch's probe interval in these tests: its timers are told apart from the expiries by it. */
const PROBE_MS = 1e9;
const options: PenaltyOptions = PENALTY_DEFAULTS;

/** Apply offences of `kinds` at `times` to one record; the judgements in order. */
function run(events: Array<[kind: Parameters<typeof judge>[1], at: number]>, o: PenaltyOptions = options) {
  let record: OffenceRecord | undefined;
  return events.map(([kind, at]) => {
    const result = judge(record, kind, at, o);
    record = result.record;
    return result.judgement;
  });
}

describe("the offence rule", () => {
  it("costs the place first, then a cooldown that doubles per offence in the window up to its cap", () => {
    const at = (i: number) => 1000 + i * 1000;
    const judgements = run([...Array(8).keys()].map((i) => ["declined", at(i)] as const).map(([k, t]) => [k, t]));
    expect(
      judgements.map((j) => (j.outcome === "forgiven" ? "forgiven" : [j.outcome, j.offences, j.cooldownMs])),
    ).toEqual([
      ["place", 1, 0],
      ["cooldown", 2, 1 * MIN],
      ["cooldown", 3, 2 * MIN],
      ["cooldown", 4, 4 * MIN],
      ["cooldown", 5, 8 * MIN],
      ["cooldown", 6, 15 * MIN],
      ["cooldown", 7, 15 * MIN],
      ["cooldown", 8, 15 * MIN],
    ]);
    expect(cooldownFor(1000, options)).toBe(15 * MIN); // no overflow past the cap
  });

  it("forgets offences older than the window; the cooldown ends when it says", () => {
    const first = judge(undefined, "timeout", 0, options);
    expect(first.judgement).toEqual({ outcome: "place", offences: 1, cooldownMs: 0 });
    // Just inside the window: a cooldown, until then + 60 s.
    const second = judge(first.record, "seat_expired", 10 * MIN - 1, options);
    expect(second.judgement).toMatchObject({ outcome: "cooldown", offences: 2 });
    expect(second.record.cooldownUntil).toBe(11 * MIN - 1);
    // At the window's end the first no longer counts.
    expect(judge(first.record, "declined", 10 * MIN, options).judgement).toMatchObject({ offences: 1 });
    // Both out of the window: the next offence is a first one again.
    expect(judge(second.record, "declined", 20 * MIN + 1, options).judgement).toMatchObject({ offences: 1 });
  });

  it("forgives the first drop of a window; later drops count like any offence", () => {
    const judgements = run([
      ["gone", 0],
      ["gone", 1000],
      ["gone", 2000],
      ["gone", 10 * MIN + 1], // the first drop left the window: forgiven again
    ]);
    expect(judgements.map((j) => j.outcome)).toEqual(["forgiven", "place", "cooldown", "forgiven"]);
    expect(run([["gone", 0]], { ...options, forgivenDrops: 0 })[0]).toMatchObject({ outcome: "place" });
  });

  it("with offencesBeforeCooldown 0, the first offence already holds the player out", () => {
    expect(run([["declined", 0]], { ...options, offencesBeforeCooldown: 0 })[0]).toEqual({
      outcome: "cooldown",
      offences: 1,
      cooldownMs: MIN,
    });
  });

  it("records read back from storage are checked; two views merge into every offence either saw", () => {
    const a: OffenceRecord = { offences: [1, 5], forgiven: [], cooldownUntil: 100 };
    const b: OffenceRecord = { offences: [5, 9], forgiven: [3], cooldownUntil: 50 };
    expect(mergeRecords(a, b)).toEqual({ offences: [1, 5, 9], forgiven: [3], cooldownUntil: 100 });
    expect(parseRecord(JSON.stringify(a))).toEqual(a);
    for (const bad of [
      undefined,
      42,
      "{",
      "null",
      '{"offences":["x"],"forgiven":[],"cooldownUntil":0}',
      "x".repeat(5000),
    ])
      expect(parseRecord(bad)).toBeUndefined();
    const many = { offences: [...Array(100).keys()], forgiven: [], cooldownUntil: 0 };
    expect(parseRecord(JSON.stringify(many))!.offences).toHaveLength(32);
  });
});

describe("OffenceLedger", () => {
  it("keeps a record until its window and cooldown are over, counts what it judged", () => {
    const ledger = new OffenceLedger();
    expect(ledger.record("a", "declined", 0, options).judgement.outcome).toBe("place");
    expect(ledger.cooldownLeft("a", 0)).toBe(0);
    expect(ledger.record("a", "declined", 1000, options).judgement.outcome).toBe("cooldown");
    expect(ledger.cooldownLeft("a", 1000)).toBe(MIN);
    expect(ledger.cooldownLeft("a", 31_000)).toBe(30_000);
    expect(ledger.cooldownLeft("a", 61_000)).toBe(0);
    expect(ledger.record("b", "gone", 0, options).judgement.outcome).toBe("forgiven");
    ledger.refused();
    expect(ledger.counts).toEqual({ offences: 2, forgiven: 1, cooldowns: 1, refusedJoins: 1 });
    expect(ledger.get("a", 10 * MIN + 999)).toBeDefined();
    expect(ledger.get("a", 10 * MIN + 1000)).toBeUndefined();
  });

  it("is bounded: past its size the account that changed longest ago goes; expired ones are swept as it is used", () => {
    const ledger = new OffenceLedger(3);
    for (const [i, account] of ["a", "b", "c", "d"].entries()) ledger.record(account, "declined", i, options);
    expect(ledger.size).toBe(3);
    expect(ledger.get("a", 10)).toBeUndefined();
    expect(ledger.get("d", 10)).toBeDefined();
    ledger.record("e", "declined", 20 * MIN, options); // the others expired: swept from the front
    expect(ledger.size).toBe(1);
  });

  it("is one per queue name in a process, outliving any room", () => {
    const ledgers = new OffenceLedgers();
    ledgers.of("q").record("a", "declined", 0, options);
    expect(ledgers.of("q").get("a", 1)).toBeDefined();
    expect(ledgers.of("other").get("a", 1)).toBeUndefined();
    ledgers.forget("q");
    expect(ledgers.of("q").get("a", 1)).toBeUndefined();
  });
});

describe("the queue option penalties", () => {
  const base = { teamSize: 1, gameRoom: "game" };
  it("defaults on; false turns it off; an object sets some fields", () => {
    expect(penaltiesOf(parseRoomOptions(base))).toEqual(PENALTY_DEFAULTS);
    expect(penaltiesOf(parseRoomOptions({ ...base, penalties: false }))).toBeUndefined();
    expect(penaltiesOf(parseRoomOptions({ ...base, penalties: { cooldownMs: 30 * MIN, forgivenDrops: 0 } }))).toEqual({
      ...PENALTY_DEFAULTS,
      cooldownMs: 30 * MIN,
      maxCooldownMs: 30 * MIN, // the cap follows a longer first cooldown
      forgivenDrops: 0,
    });
  });

  it("refuses bad values, naming the field", () => {
    const bad = (penalties: unknown) => () => parseRoomOptions({ ...base, penalties });
    expect(bad(true)).toThrow(/penalties/);
    expect(bad({ windowMs: 10 })).toThrow("penalties.windowMs: must be at least 1000");
    expect(bad({ cooldownMs: 1.5 })).toThrow("penalties.cooldownMs: must be an integer");
    expect(bad({ offencesBeforeCooldown: 101 })).toThrow("penalties.offencesBeforeCooldown: must be at most 100");
    expect(bad({ cooldownMs: 5000, maxCooldownMs: 4000 })).toThrow(
      "penalties.maxCooldownMs: must be at least cooldownMs",
    );
    expect(bad({ cooldown: 5 })).toThrow("penalties.cooldown: unknown field");
  });
});

/** A client as QueuePenalties sees it (an object with a session id). */
const client = (sessionId: string) => ({ sessionId }) as never;

describe("QueuePenalties", () => {
  it("keys accounts on the playerId, else the address (an IPv6 one by its /64)", () => {
    expect(offenderOf("p1", "10.0.0.1")).toBe("player:p1");
    expect(offenderOf(undefined, "10.0.0.1")).toBe("address:10.0.0.1");
    // An IPv6 address by its /64, as the per-address limits count it: a host cannot dodge a cooldown by its next address.
    expect(offenderOf(undefined, "2001:db8:1:2::7")).toBe("address:2001:db8:1:2::/64");
    expect(offenderOf(undefined, "2001:db8:1:2:aaaa::9")).toBe(offenderOf(undefined, "2001:db8:1:2::7"));
    expect(offenceKey("q", "player:p1")).toMatch(/^mm:offences:q:[A-Za-z0-9_-]{22}$/);
    expect(offenceKey("q", "player:p1")).not.toContain("p1");
  });

  it("tells the player what it cost, refuses its joins while it cools down, and counts", () => {
    const ledger = new OffenceLedger();
    const p = new QueuePenalties("q", options, ledger);
    let now = 0;
    const c1 = client("s1");
    p.admit(c1, "player:g", () => now);
    p.joined(c1);
    expect(p.offence("s1", "declined", now)).toEqual({
      offences: 1,
      cooldownMs: 0,
      text: "You declined the match: you lost your place; join again to wait at the back of the queue. Another broken match within 10 min keeps you out for 60 s.",
    });
    p.left("s1");
    expect(p.offence("s1", "declined", now)).toBeUndefined(); // gone: no account known
    const c2 = client("s2");
    p.admit(c2, "player:g", () => now);
    p.joined(c2);
    now = 5000;
    expect(p.offence("s2", "seat_expired", now)).toEqual({
      offences: 2,
      cooldownMs: MIN,
      text: "Your seat expired unused: that is 2 broken matches within 10 min; you lost your place and may join this queue again in 60 s.",
    });
    now = 35_500;
    const refused = () => p.admit(client("s3"), "player:g", () => now);
    expect(refused).toThrow(MatchmakerError);
    expect(refused).toThrow("cooldown: 2 broken matches within 10 min; you may join this queue again in 30 s");
    expect(() => p.admit(client("s4"), "player:other", () => now)).not.toThrow();
    now = 65_000;
    expect(() => p.admit(client("s5"), "player:g", () => now)).not.toThrow();
    expect(p.counts).toEqual({ offences: 2, forgiven: 0, cooldowns: 1, refusedJoins: 2 });
  });

  it("admitJoin: a join as onAuth has it (options or their promise) passes once its offender may join; else refused() is thrown", async () => {
    const p = new QueuePenalties("q", options, new OffenceLedger());
    const now = 0;
    for (const id of ["g1", "g2"]) {
      const c = client(id);
      p.admit(c, "player:g", () => now);
      p.joined(c);
      p.offence(id, "declined", now);
    }
    const offender = (join: { playerId: string }) => `player:${join.playerId}`;
    const refused = (error: unknown) => new Error(`refused: ${(error as MatchmakerError).code}`);
    const free = { playerId: "other" };
    expect(p.admitJoin(client("a"), free, offender, () => now, refused)).toBe(free);
    await expect(p.admitJoin(client("b"), Promise.resolve(free), offender, () => now, refused)).resolves.toBe(free);
    expect(() => p.admitJoin(client("c"), { playerId: "g" }, offender, () => now, refused)).toThrow(
      "refused: cooldown",
    );
    await expect(
      p.admitJoin(client("d"), Promise.resolve({ playerId: "g" }), offender, () => now, refused),
    ).rejects.toThrow("refused: cooldown");
    // A join that failed its own checks is not counted: its error passes as it is.
    await expect(
      p.admitJoin(client("e"), Promise.reject(new Error("bad options")), offender, () => now, refused),
    ).rejects.toThrow("bad options");
    expect(p.counts.refusedJoins).toBe(2);
  });

  it("with shared presence, a queue room on another process (its own ledger) sees the cooldown", async () => {
    const presence = new LocalPresence(); // stands for Redis: both "processes" read and write it
    const here = new QueuePenalties("q", options, new OffenceLedger(), presence);
    const there = new QueuePenalties("q", options, new OffenceLedger(), presence);
    const now = 1000;
    for (const id of ["a", "b"]) {
      const c = client(id);
      await here.admit(c, "player:g", () => now);
      here.joined(c);
      here.offence(id, "declined", now);
    }
    await new Promise((r) => setImmediate(r)); // the write is not awaited by the offence
    await expect(there.admit(client("c"), "player:g", () => now + 1000)).rejects.toThrow(
      "you may join this queue again in 59 s",
    );
    // Another queue's name does not share it.
    const other = new QueuePenalties("q2", options, new OffenceLedger(), presence);
    await expect(other.admit(client("d"), "player:g", () => now + 1000)).resolves.toBeUndefined();
  });
});

describe("QueueSession with penalties", () => {
  /**
   * A 2v2 session with a ready check, judged by a QueuePenalties whose accounts are the player ids
   * (a `#n` suffix is the same account's n-th session), following its seats: `expireSeats` runs the
   * reservations' expiry as the seat watch's timer would.
   */
  function setup() {
    const sent: Array<{ to: string; type: string; payload: unknown }> = [];
    const removed = new Map<string, RemovedMessage>();
    const spawns: Match[] = [];
    const clock = { now: 0 };
    const expiries: Array<{ fn: () => void; cleared: boolean }> = [];
    const penalties = new QueuePenalties("q", options, new OffenceLedger());
    const session = new QueueSession({
      matchmaker: new Matchmaker({ teamSize: 2 }),
      readyCheck: { timeoutMs: 1000 },
      offences: penalties satisfies OffenceJudge,
      effects: {
        send: (to, type, payload) => sent.push({ to, type, payload }),
        waiting: () => undefined,
        notWaiting: () => undefined,
        spawn: (m) => spawns.push(m),
        remove: (id, m) => removed.set(id, m),
      },
      seatWatch: {
        now: () => clock.now,
        setTimeout: (fn, ms) => {
          const timer = { fn, cleared: ms >= PROBE_MS }; // the game-room probes never run here
          expiries.push(timer);
          return { clear: () => void (timer.cleared = true) };
        },
        reservationMs: () => 3000,
        roomAlive: () => true,
        tellGameRoom: () => undefined,
        options: { probeMs: PROBE_MS, graceMs: 0 },
      },
    });
    const enter = (id: string, now: number) => {
      const c = client(id);
      penalties.admit(c, `player:${id.replace(/#.*/, "")}`, () => now);
      penalties.joined(c);
    };
    const solo = (id: string, now: number) => {
      enter(id, now);
      session.join({ player: { sessionId: id, rating: 1500 } }, now);
    };
    /** Everyone accepts the last match; its game room "r-<match>" seats them. */
    const seatLast = (now: number) => {
      const match = spawns.at(-1)!;
      const seats = new Map(
        match.teams.flatMap((t, i) =>
          t.players.map((p) => [p.sessionId, { roomId: `r-${match.id}`, matchId: match.id, team: i }] as const),
        ),
      );
      expect(session.spawned(match.id, seats, now)).toBe("seated");
      return match;
    };
    const expireSeats = (now: number) => {
      clock.now = now;
      for (const t of expiries.splice(0)) if (!t.cleared) t.fn();
    };
    const of = <T>(to: string, type: string) =>
      sent.filter((m) => m.to === to && m.type === type).map((m) => m.payload as T);
    return { session, sent, removed, spawns, penalties, enter, solo, seatLast, expireSeats, of };
  }

  it("a decliner is out and told its cost; the honest keep their places and hear no penalty", () => {
    const s = setup();
    for (const [i, id] of ["h1", "h2", "h3", "g"].entries()) s.solo(id, i);
    s.session.tick(10);
    s.session.decline("g", 20);
    expect(s.removed.get("g")).toMatchObject({ reason: "declined", penalty: { offences: 1, cooldownMs: 0 } });
    for (const [i, id] of ["h1", "h2", "h3"].entries()) {
      expect(s.session.matchmaker.get(id)?.enqueuedAt).toBe(i);
      expect(s.of<RequeuedMessage>(id, "requeued")).toEqual([{ matchId: expect.any(String), reason: "declined" }]);
    }
  });

  it("a time-out while connected is an offence; while away, the first is forgiven", () => {
    const s = setup();
    for (const [i, id] of ["h1", "h2", "t", "d"].entries()) s.solo(id, i);
    s.session.tick(10);
    s.session.accept("h1");
    s.session.accept("h2");
    s.session.drop("d"); // its connection dropped (a grace holds its place)
    s.session.tick(2000); // the ready check times out
    expect(s.removed.get("t")).toMatchObject({ reason: "timeout", penalty: { offences: 1 } });
    expect(s.removed.get("d")).toEqual({ reason: "timeout", matchId: expect.any(String) });
    expect(s.penalties.counts).toMatchObject({ offences: 1, forgiven: 1 });
  });

  it("leaving during the ready check or the game's creation is a drop: forgiven once, then counted", () => {
    const s = setup();
    for (const [i, id] of ["h1", "h2", "h3", "l#1"].entries()) s.solo(id, i);
    s.session.tick(10);
    s.session.leave("l#1", 20);
    s.solo("l#2", 30);
    s.session.tick(30);
    for (const id of ["h1", "h2", "h3", "l#2"]) s.session.accept(id);
    expect(s.session.placeOf("l#2")).toBe("spawning");
    s.session.leave("l#2", 40);
    expect(s.penalties.counts).toMatchObject({ forgiven: 1, offences: 1 });
  });

  it("a seat left to expire while connected: back at the back of the queue, a party with it; then out with a cooldown", () => {
    const s = setup();
    // A party of two hoards its seats; two honest players take theirs.
    s.solo("x", 0);
    s.solo("y", 0);
    s.enter("L", 5);
    s.session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, 5);
    const code = s.of<PartyMessage>("L", "party")[0]!.code;
    s.enter("M", 5);
    s.session.join({ player: { sessionId: "M", rating: 1500 }, partyCode: code }, 5);
    const partyId = [...s.session.parties.all()][0]!.id;
    const game = (players: string[], honest: string[], now: number) => {
      s.session.tick(now);
      for (const id of players) s.session.accept(id);
      const match = s.seatLast(now);
      for (const id of honest) expect(s.session.arrived(match.id, id)).toBe(true);
      return match;
    };

    game(["x", "y", "L", "M"], ["x", "y"], 10);
    s.expireSeats(3010);
    // The party is back together, waiting since the expiry; both told it was their first offence.
    expect(s.session.parties.get(partyId)).toMatchObject({ status: "queued", members: ["L", "M"] });
    expect(s.session.matchmaker.get(partyId)?.enqueuedAt).toBe(3010);
    for (const id of ["L", "M"])
      expect(s.of<RequeuedMessage>(id, "requeued")).toEqual([
        { matchId: expect.any(String), reason: "seat_expired", penalty: expect.objectContaining({ offences: 1 }) },
      ]);

    // The first game's honest players left for it; two more come, and the seats expire again.
    s.session.leave("x", 3100);
    s.session.leave("y", 3100);
    s.solo("x2", 3200);
    s.solo("y2", 3200);
    game(["x2", "y2", "L", "M"], ["x2", "y2"], 3300);
    s.expireSeats(6300);
    for (const id of ["L", "M"]) {
      expect(s.removed.get(id)).toMatchObject({ reason: "seat_expired", penalty: { offences: 2, cooldownMs: MIN } });
      expect(s.session.placeOf(id)).toBeUndefined();
    }
    expect(s.session.matchmaker.get(partyId)).toBeUndefined();
    expect(s.session.placeOf("x2")).toBe("seated"); // the honest keep their seats
    expect(s.penalties.counts).toMatchObject({ offences: 4, cooldowns: 2 });
  });

  it("a seat expiring while its player is away (held for its return) is not an offence", () => {
    const s = setup();
    for (const id of ["a", "b", "c", "d"]) s.solo(id, 0);
    s.session.tick(10);
    for (const id of ["a", "b", "c", "d"]) s.session.accept(id);
    s.session.drop("d"); // away while the game room is being created: its seat is held
    s.seatLast(20);
    for (const id of ["a", "b", "c"]) s.session.arrived(s.spawns[0]!.id, id);
    s.expireSeats(3020);
    expect(s.session.placeOf("d")).toBe("waiting");
    expect(s.penalties.counts.offences).toBe(0);
  });
});
