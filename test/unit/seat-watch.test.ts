/**
 * The seat watch (src/colyseus/director/seat-watch.ts) on a manual clock, alone and inside a
 * QueueSession: a seat taken closes, a seat unused at expiry goes back to the queue at its
 * original place (a party as a party) or out when its player left, a lost game room re-queues at
 * once, and the game room hears who never came. No sockets, no wall clock.
 */
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import {
  SeatWatch,
  type NoShowReport,
  type SeatWatchHost,
  type SettledSeats,
} from "../../src/colyseus/director/seat-watch.js";
import type { PartyMessage } from "../../src/colyseus/parties.js";
import { QueueSession, type RequeuedMessage, type SeatOutcome } from "../../src/colyseus/session.js";
import { ManualClock } from "../helpers/manual-clock.js";

/** Timers on a ManualClock: `advance` moves its time and runs what fell due, in order. */
class ManualTimers {
  private queue: Array<{ at: number; seq: number; fn: () => void; cleared: boolean }> = [];
  private seq = 0;
  constructor(readonly clock: ManualClock) {}

  setTimeout = (fn: () => void, ms: number) => {
    const timer = { at: this.clock.now + ms, seq: this.seq++, fn, cleared: false };
    this.queue.push(timer);
    return { clear: () => void (timer.cleared = true) };
  };

  /** Timers not cleared and not yet run. */
  get pending(): number {
    return this.queue.filter((t) => !t.cleared).length;
  }

  async advance(ms: number): Promise<void> {
    const end = this.clock.now + ms;
    for (;;) {
      await flush(); // promises (the probe, the reservation time) settle between timers
      const due = this.queue.filter((t) => !t.cleared && t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.clock.now = Math.max(this.clock.now, due.at);
      due.cleared = true;
      due.fn();
    }
    this.clock.now = end;
    this.queue = this.queue.filter((t) => !t.cleared);
    await flush();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

const ticket = (id: string, enqueuedAt = 0, players = [id]): Ticket => ({
  id,
  enqueuedAt,
  players: players.map((sessionId) => ({ sessionId, rating: 1500 })),
});
const seat = (sessionId: string, team: 0 | 1 = 0, backfill = false) => ({ sessionId, team, backfill });

function watchAlone(reservationMs = 3000) {
  const clock = new ManualClock();
  const timers = new ManualTimers(clock);
  const alive = new Map<string, boolean>();
  const settled: Array<SettledSeats & { at: number }> = [];
  const told: Array<{ roomId: string; report: NoShowReport }> = [];
  const entered: string[] = [];
  let probes = 0;
  const host: SeatWatchHost = {
    now: () => clock.now,
    setTimeout: timers.setTimeout,
    reservationMs: async () => reservationMs,
    roomAlive: async (roomId) => {
      probes++;
      return alive.get(roomId) ?? true;
    },
    settle: (s, now) => settled.push({ ...s, at: now }),
    tellGameRoom: (roomId, report) => told.push({ roomId, report }),
    entered: (id) => entered.push(id),
  };
  const watch = new SeatWatch(host, { probeMs: 500, graceMs: 1000 });
  return { clock, timers, alive, settled, told, entered, watch, probes: () => probes };
}

describe("SeatWatch", () => {
  it("closes a batch when every player arrived: no settlement, no timer, no probe left", async () => {
    const w = watchAlone();
    w.watch.watch("m1", "room1", [ticket("a"), ticket("b")], [seat("a"), seat("b", 1)]);
    expect(w.watch.open).toBe(2);
    expect(w.watch.arrived("m1", "a")).toBe(true);
    expect(w.watch.arrived("m1", "a")).toBe(false); // twice: no longer open
    await w.timers.advance(400);
    expect(w.watch.arrived("m1", "b")).toBe(true);
    expect(w.entered).toEqual(["a", "b"]);
    expect(w.watch.open).toBe(0);
    expect(w.watch.watchedRooms).toBe(0);
    await w.timers.advance(10_000);
    expect(w.settled).toEqual([]);
    expect(w.told).toEqual([]);
    expect(w.timers.pending).toBe(0);
  });

  it("refuses untrusted arrivals: wrong types, unknown match or player", () => {
    const w = watchAlone();
    w.watch.watch("m1", "room1", [ticket("a")], [seat("a")]);
    for (const [m, s] of [
      [1, "a"],
      ["m1", { toString: () => "a" }],
      ["m2", "a"],
      ["m1", "z"],
      [null, undefined],
      ["m1\u0000a", ""],
    ] as const)
      expect(w.watch.arrived(m, s)).toBe(false);
    expect(w.watch.open).toBe(1);
  });

  it("settles the seats still open at the room's reservation time plus the grace, and tells the game room", async () => {
    const w = watchAlone(3000);
    const seatedAt = w.clock.now;
    w.watch.watch("m1", "room1", [ticket("a", 100), ticket("b", 200)], [seat("a"), seat("b", 1)]);
    w.watch.arrived("m1", "b");
    await w.timers.advance(3999);
    expect(w.settled).toHaveLength(0);
    await w.timers.advance(1);
    expect(w.settled).toHaveLength(1);
    expect(w.settled[0]).toMatchObject({ matchId: "m1", roomId: "room1", reason: "seat_expired", at: seatedAt + 4000 });
    expect(w.settled[0]!.noShows).toEqual([seat("a")]);
    expect([...w.settled[0]!.arrived]).toEqual(["b"]);
    expect(w.told).toEqual([
      { roomId: "room1", report: { matchId: "m1", reason: "seat_expired", players: [seat("a")] } },
    ]);
    expect(w.watch.open).toBe(0);
    expect(w.watch.watchedRooms).toBe(0);
    await w.timers.advance(10_000);
    expect(w.settled).toHaveLength(1);
    expect(w.timers.pending).toBe(0);
  });

  it("settles at once (game_lost) when the game room is gone before the seats ran out; the room is not told", async () => {
    const w = watchAlone(15_000);
    w.watch.watch("m1", "room1", [ticket("a"), ticket("b")], [seat("a"), seat("b", 1)]);
    w.watch.watch("m2", "room2", [ticket("c"), ticket("d")], [seat("c"), seat("d", 1)]);
    w.watch.arrived("m1", "a");
    await w.timers.advance(1000);
    expect(w.settled).toHaveLength(0);
    w.alive.set("room1", false);
    await w.timers.advance(500); // the next probe
    expect(w.settled.map((s) => [s.matchId, s.reason, s.noShows.map((n) => n.sessionId)])).toEqual([
      ["m1", "game_lost", ["b"]],
    ]);
    expect(w.told).toEqual([]);
    expect(w.watch.open).toBe(2); // m2 still waits
    expect(w.watch.watchedRooms).toBe(1);
  });

  it("calls a room gone after the seats ran out an expiry (Colyseus disposes a room nobody entered)", async () => {
    const w = watchAlone(3000);
    w.watch.watch("m1", "room1", [ticket("a")], [seat("a")]);
    await w.timers.advance(3000);
    w.alive.set("room1", false);
    await w.timers.advance(500);
    expect(w.settled.map((s) => s.reason)).toEqual(["seat_expired"]);
  });

  it("probes each game room with open seats once per interval, and stops with its last seat", async () => {
    const w = watchAlone(15_000);
    w.watch.watch("m1", "room1", [ticket("a")], [seat("a")]);
    w.watch.watch("m2", "room2", [ticket("b")], [seat("b")]);
    await w.timers.advance(2000);
    expect(w.probes()).toBe(8); // two rooms, every 500 ms
    w.watch.arrived("m1", "a");
    w.watch.arrived("m2", "b");
    await w.timers.advance(2000);
    expect(w.probes()).toBe(8);
    expect(w.timers.pending).toBe(0);
  });

  it("stops every timer on dispose and settles nothing afterwards", async () => {
    const w = watchAlone(3000);
    w.watch.watch("m1", "room1", [ticket("a")], [seat("a")]);
    await w.timers.advance(100);
    w.watch.dispose();
    expect(w.timers.pending).toBe(0);
    await w.timers.advance(10_000);
    expect(w.settled).toEqual([]);
    expect(w.watch.open).toBe(0);
  });
});

/** A QueueSession following its seats on a manual clock (1v1 unless `teamSize`). */
function sessionWithWatch(teamSize = 1, reservationMs = 3000) {
  const clock = new ManualClock();
  const timers = new ManualTimers(clock);
  const sent: Array<{ to: string; type: string; payload: unknown }> = [];
  const outcomes = new Map<SeatOutcome, number>();
  const spawns: Match[] = [];
  const alive = new Map<string, boolean>();
  const told: NoShowReport[] = [];
  const session = new QueueSession({
    matchmaker: new Matchmaker({ teamSize }),
    effects: {
      send: (to, type, payload) => sent.push({ to, type, payload }),
      waiting: () => undefined,
      notWaiting: () => undefined,
      spawn: (m) => spawns.push(m),
      remove: () => undefined,
      seatOutcome: (o, n) => outcomes.set(o, (outcomes.get(o) ?? 0) + n),
    },
    seatWatch: {
      now: () => clock.now,
      setTimeout: timers.setTimeout,
      reservationMs: async () => reservationMs,
      roomAlive: async (roomId) => alive.get(roomId) ?? true,
      tellGameRoom: (_roomId, report) => told.push(report),
      options: { probeMs: 500, graceMs: 1000 },
    },
  });
  /** Seat the last match formed in game room `roomId`: every human gets a seat message naming it. */
  const seatLast = (roomId: string) => {
    const match = spawns.at(-1)!;
    const seats = new Map(
      match.teams.flatMap((team, i) =>
        team.players.map((p) => [p.sessionId, { roomId, matchId: match.id, team: i, sessionId: p.sessionId }] as const),
      ),
    );
    expect(session.spawned(match.id, seats, clock.now)).toBe("seated");
    return match;
  };
  const of = <T>(to: string, type: string) =>
    sent.filter((m) => m.to === to && m.type === type).map((m) => m.payload as T);
  return { clock, timers, session, sent, outcomes, alive, told, seatLast, of, spawns };
}

describe("QueueSession with the seat watch", () => {
  it("a seat left unused re-queues its player at the original place, told why; the one who entered stays out", async () => {
    const s = sessionWithWatch(1, 3000);
    s.session.join({ player: { sessionId: "idle", rating: 1500 } }, s.clock.now);
    const since = s.clock.now;
    s.clock.now += 5000;
    s.session.join({ player: { sessionId: "good", rating: 1500 } }, s.clock.now);
    s.session.tick(s.clock.now);
    const match = s.seatLast("game1");
    expect(s.session.placeOf("idle")).toBe("seated");
    expect(s.session.arrived(match.id, "good")).toBe(true);

    await s.timers.advance(4000); // 3 s reservation + 1 s grace
    expect(s.session.placeOf("idle")).toBe("waiting");
    expect(s.session.matchmaker.get("idle")?.enqueuedAt).toBe(since);
    expect(s.of<RequeuedMessage>("idle", "requeued")).toEqual([{ matchId: match.id, reason: "seat_expired" }]);
    expect(s.session.placeOf("good")).toBe("seated");
    expect(s.of("good", "requeued")).toEqual([]);
    expect(s.told).toEqual([
      {
        matchId: match.id,
        reason: "seat_expired",
        players: [{ sessionId: "idle", team: expect.any(Number), backfill: false }],
      },
    ]);
    expect(Object.fromEntries(s.outcomes)).toEqual({ entered: 1, expired_requeued: 1 });

    // Ahead of a newcomer: the next match seats it, and the old seat's report no longer counts.
    s.clock.now += 100;
    s.session.join({ player: { sessionId: "new", rating: 1500 } }, s.clock.now);
    s.session.tick(s.clock.now);
    const next = s.seatLast("game2");
    expect(next.teams.flatMap((t) => t.players.map((p) => p.sessionId)).sort()).toEqual(["idle", "new"]);
    expect(s.session.arrived(match.id, "idle")).toBe(false);
    expect(s.session.arrived(next.id, "idle")).toBe(true);
  });

  it("a party whose seats went unused goes back as the same party, at its place", async () => {
    const s = sessionWithWatch(2, 3000);
    s.session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, s.clock.now);
    const code = s.of<PartyMessage>("L", "party")[0]!.code;
    s.session.join({ player: { sessionId: "M", rating: 1500 }, partyCode: code }, s.clock.now);
    const partyId = [...s.session.parties.all()][0]!.id;
    const since = s.session.matchmaker.get(partyId)!.enqueuedAt;
    s.clock.now += 1000;
    for (const id of ["x", "y"]) s.session.join({ player: { sessionId: id, rating: 1500 } }, s.clock.now);
    s.session.tick(s.clock.now);
    const match = s.seatLast("game1");
    expect(s.session.parties.get(partyId)).toBeUndefined(); // seated: dissolved
    s.session.arrived(match.id, "x");
    s.session.arrived(match.id, "y");

    await s.timers.advance(4000);
    const party = s.session.parties.get(partyId)!;
    expect(party).toMatchObject({ status: "queued", members: ["L", "M"], leader: "L", code });
    expect(s.session.matchmaker.get(partyId)).toMatchObject({ enqueuedAt: since });
    expect(s.session.placeOf("L")).toBe("waiting");
    expect(s.session.placeOf("M")).toBe("waiting");
    expect(s.of<RequeuedMessage>("M", "requeued")).toEqual([{ matchId: match.id, reason: "seat_expired" }]);
    expect(Object.fromEntries(s.outcomes)).toEqual({ entered: 2, expired_requeued: 2 });
  });

  it("a player who left the queue with its seat unused is out, counted; a party with one member left is held", async () => {
    const s = sessionWithWatch(2, 3000);
    s.session.join({ player: { sessionId: "L", rating: 1500 }, party: { size: 2 } }, s.clock.now);
    const code = s.of<PartyMessage>("L", "party")[0]!.code;
    s.session.join({ player: { sessionId: "M", rating: 1500 }, partyCode: code }, s.clock.now);
    for (const id of ["x", "y"]) s.session.join({ player: { sessionId: id, rating: 1500 } }, s.clock.now);
    s.session.tick(s.clock.now);
    const match = s.seatLast("game1");
    s.session.leave("M", s.clock.now); // left without entering
    s.session.leave("x", s.clock.now); // left without entering
    s.session.arrived(match.id, "y");

    await s.timers.advance(4000);
    expect(s.session.placeOf("M")).toBeUndefined();
    expect(s.session.placeOf("x")).toBeUndefined();
    expect(s.session.placeOf("L")).toBe("party");
    expect(s.of<PartyMessage>("L", "party").at(-1)).toMatchObject({ status: "held", event: "member_left", members: 1 });
    expect(s.session.matchmaker.size).toBe(0);
    expect(Object.fromEntries(s.outcomes)).toEqual({ entered: 1, expired_requeued: 1, expired_removed: 2 });
    expect(s.told[0]!.players.map((p) => p.sessionId).sort()).toEqual(["L", "M", "x"]);
  });

  it("a lost game room re-queues everyone who had not entered at once, not at expiry", async () => {
    const s = sessionWithWatch(2, 15_000);
    for (const id of ["a", "b", "c", "d"]) s.session.join({ player: { sessionId: id, rating: 1500 } }, s.clock.now);
    s.session.tick(s.clock.now);
    const match = s.seatLast("game1");
    s.session.arrived(match.id, "a");
    s.alive.set("game1", false);
    await s.timers.advance(500);
    for (const id of ["b", "c", "d"]) {
      expect(s.session.placeOf(id)).toBe("waiting");
      expect(s.of<RequeuedMessage>(id, "requeued")).toEqual([{ matchId: match.id, reason: "game_lost" }]);
    }
    expect(s.session.placeOf("a")).toBe("seated");
    expect(Object.fromEntries(s.outcomes)).toEqual({ entered: 1, lost_requeued: 3 });
    expect(s.told).toEqual([]);
    expect(s.session.seatWatch!.open).toBe(0);
  });

  it("a backfill seat left unused sends its ticket back to waiting at its place", async () => {
    const s = sessionWithWatch(1, 3000);
    s.session.join({ player: { sessionId: "r", rating: 1500 } }, s.clock.now);
    const since = s.clock.now;
    const taken = s.session.takeForBackfill("r", s.clock.now)!;
    expect(s.session.placeOf("r")).toBe("backfill");
    s.session.backfillSeated(
      taken,
      new Map([["r", { roomId: "game9", matchId: "m9", team: 1, backfill: true, sessionId: "r" }]]),
    );
    expect(s.session.placeOf("r")).toBe("seated");
    await s.timers.advance(4000);
    expect(s.session.placeOf("r")).toBe("waiting");
    expect(s.session.matchmaker.get("r")?.enqueuedAt).toBe(since);
    expect(s.of<RequeuedMessage>("r", "requeued")).toEqual([{ matchId: "m9", reason: "seat_expired" }]);
    expect(s.told).toEqual([
      { matchId: "m9", reason: "seat_expired", players: [{ sessionId: "r", team: 1, backfill: true }] },
    ]);
  });
});
