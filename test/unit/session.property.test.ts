/**
 * Random sequences of joins (solos, party leaders, members with right and wrong codes), leaves,
 * drops, reconnects, grace expiries, party starts, accepts, declines, ready-check timeouts and
 * game-room successes and failures, arrivals in the game room, seats expiring unused and game
 * rooms lost, driven through `QueueSession` (the class MatchmakerRoom runs) with a real engine,
 * its seat watch and injected time. After every step: every player is in exactly one place, the
 * engine and the shown waiting list agree with the session, no party is split, nobody holds two
 * seats at once or gets a message while disconnected, and a re-queued solo keeps its enqueue time
 * (with penalties, an offender's may move to the back: to the time it was re-queued).
 * Policies (greedy, lifo, packing, two-queue), bot-filled games and penalties (players sharing three
 * accounts, so that offences add up to cooldowns) vary between runs.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { JoinRefused, QueueSession, type OffenceJudge, type RemovedMessage } from "../../src/colyseus/session.js";
import { OffenceLedger, PENALTY_DEFAULTS } from "../../src/colyseus/offences.js";
import type { PartyMessage } from "../../src/colyseus/parties.js";

type Op =
  | { kind: "solo"; rating: number }
  | { kind: "lead"; size: number; rating: number }
  | { kind: "member"; pick: number; rating: number }
  | { kind: "wrongCode"; rating: number }
  | { kind: "leave" | "drop" | "reconnect" | "expire" | "accept" | "decline" | "start"; pick: number }
  | { kind: "acceptAll" }
  | { kind: "advance"; ms: number }
  | { kind: "spawnOk" | "spawnFail"; pick: number }
  | { kind: "arrive" | "gameLost"; pick: number };

const rating = fc.integer({ min: 1000, max: 2000 });
const pick = fc.nat({ max: 50 });

const opArb = (teamSize: number): fc.Arbitrary<Op> => {
  const on = (kind: "leave" | "drop" | "reconnect" | "expire" | "accept" | "decline" | "start", weight: number) => ({
    weight,
    arbitrary: fc.record({ kind: fc.constant(kind), pick }),
  });
  return fc.oneof(
    { weight: 10, arbitrary: fc.record({ kind: fc.constant("solo" as const), rating }) },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant("lead" as const), size: fc.integer({ min: 2, max: teamSize }), rating }),
    },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("member" as const), pick, rating }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("wrongCode" as const), rating }) },
    on("leave", 2),
    on("drop", 2),
    on("reconnect", 2),
    on("expire", 1),
    on("accept", 3),
    on("decline", 1),
    on("start", 2),
    { weight: 4, arbitrary: fc.constant({ kind: "acceptAll" as const }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("advance" as const),
        ms: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 3000 })),
      }),
    },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant("spawnOk" as const), pick }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("spawnFail" as const), pick }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("arrive" as const), pick }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("gameLost" as const), pick }) },
  );
};

const scenarioArb = fc
  .record({
    teamSize: fc.integer({ min: 1, max: 3 }),
    readyCheck: fc.boolean(),
    allowPartialParties: fc.boolean(),
    policy: fc.constantFrom("greedy", "lifo", "packing", "two-queue"),
    // Bot-filled games after a maximum wait: matches with fewer humans than seats.
    fillWithBots: fc.boolean(),
    penalties: fc.boolean(),
  })
  .chain((config) =>
    fc.record({
      config: fc.constant(config),
      ops: fc.array(opArb(Math.max(2, config.teamSize)), { minLength: 20, maxLength: 100, size: "max" }),
    }),
  );

const TIMEOUT_MS = 2000;
/** The game rooms' seat reservation time: "advance" steps reach it. */
const RESERVATION_MS = 1500;

/** One simulated queue: the session under test and everything its effects told the outside world. */
function harness(config: {
  teamSize: number;
  readyCheck: boolean;
  allowPartialParties: boolean;
  policy: string;
  fillWithBots: boolean;
  penalties: boolean;
}) {
  let codeSeq = 0;
  const mm = new Matchmaker({
    teamSize: config.teamSize,
    policy: config.policy,
    ...(config.fillWithBots ? { maxWaitMs: 2500, fillWithBots: true } : {}),
  });
  const connected = new Set<string>();
  const gone = new Set<string>();
  const shown = new Set<string>();
  const spawns: Match[] = [];
  const seats = new Map<string, number>();
  const removed = new Map<string, RemovedMessage>();
  const codes: string[] = [];
  const firstEnqueuedAt = new Map<string, number>();
  const messages: Array<{ to: string; type: string; payload: unknown }> = [];
  /**
   * Seats taken back from a player: a seated player back in the engine was re-queued by the seat
   * watch (its seat expired or its game room was lost), told so or not (it may be away).
   */
  const seatRequeues = new Map<string, number>();
  const clock = { now: 0 };
  const timers: Array<{ at: number; fn: () => void; cleared: boolean }> = [];
  const lostRooms = new Set<string>();
  // Players p1, p2, … share three accounts; a window and cooldowns short enough for the runs' clocks.
  const ledger = new OffenceLedger();
  const judge: OffenceJudge = {
    offence: (id, kind, now) => {
      const options = { ...PENALTY_DEFAULTS, windowMs: 5000, cooldownMs: 1000, maxCooldownMs: 4000 };
      const { judgement } = ledger.record(`account${Number(id.slice(1)) % 3}`, kind, now, options);
      return judgement.outcome === "forgiven" ? undefined : { ...judgement, text: judgement.outcome };
    },
  };
  const session = new QueueSession({
    ...(config.penalties ? { offences: judge } : {}),
    matchmaker: mm,
    ...(config.readyCheck ? { readyCheck: { timeoutMs: TIMEOUT_MS } } : {}),
    allowPartialParties: config.allowPartialParties,
    // Deterministic, well-formed codes so that failures replay; uniqueness is what matters here.
    partyCodes: () => `code${String(++codeSeq).padStart(18, "0")}`,
    onError: (message) => {
      throw new Error(`session reported an internal error: ${message}`);
    },
    effects: {
      send: (to, type, payload) => {
        expect(connected.has(to), `message "${type}" sent to disconnected or gone ${to}`).toBe(true);
        messages.push({ to, type, payload });
        if (type === "seat") seats.set(to, (seats.get(to) ?? 0) + 1);
        if (type === "party") {
          const code = (payload as PartyMessage).code;
          if (!codes.includes(code)) codes.push(code);
        }
      },
      waiting: (ticket: Ticket) => {
        expect(shown.has(ticket.id), `ticket ${ticket.id} shown twice`).toBe(false);
        shown.add(ticket.id);
        for (const p of ticket.players)
          if ((seats.get(p.sessionId) ?? 0) > (seatRequeues.get(p.sessionId) ?? 0))
            seatRequeues.set(p.sessionId, (seatRequeues.get(p.sessionId) ?? 0) + 1);
        if (ticket.players.length === 1 && !ticket.id.startsWith("party-")) {
          const first = firstEnqueuedAt.get(ticket.id);
          // An offender moved to the back waits from now on: that is its place from then on.
          if (first === undefined || (config.penalties && ticket.enqueuedAt === clock.now && ticket.enqueuedAt > first))
            firstEnqueuedAt.set(ticket.id, ticket.enqueuedAt);
          else expect(ticket.enqueuedAt, `solo ${ticket.id} re-queued with a new enqueue time`).toBe(first);
        }
      },
      notWaiting: (id) => {
        shown.delete(id);
      },
      spawn: (match) => spawns.push(match),
      remove: (id, message) => {
        expect(gone.has(id), `${id} removed twice`).toBe(false);
        removed.set(id, message);
        gone.add(id);
        connected.delete(id);
      },
    },
    // The seat watch on the test's clock: answers at once (no promises), game rooms lost on demand.
    seatWatch: {
      now: () => clock.now,
      setTimeout: (fn, ms) => {
        const timer = { at: clock.now + ms, fn, cleared: false };
        timers.push(timer);
        return { clear: () => void (timer.cleared = true) };
      },
      reservationMs: () => RESERVATION_MS,
      roomAlive: (roomId) => !lostRooms.has(roomId),
      tellGameRoom: () => undefined,
      options: { probeMs: 500, graceMs: 200 },
    },
  });
  /** Move the clock to `now`, running the watch's timers that fall due, in order. */
  const advanceTo = (now: number) => {
    for (;;) {
      const due = timers.filter((t) => !t.cleared && t.at <= now).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      clock.now = Math.max(clock.now, due.at);
      due.cleared = true;
      due.fn();
    }
    clock.now = now;
    for (let i = timers.length - 1; i >= 0; i--) if (timers[i]!.cleared) timers.splice(i, 1);
  };
  return {
    session,
    mm,
    connected,
    gone,
    shown,
    spawns,
    seats,
    removed,
    codes,
    messages,
    seatRequeues,
    lostRooms,
    advanceTo,
  };
}

type Harness = ReturnType<typeof harness>;

/** Throw with `message` unless `condition` (cheaper than `expect` in the per-step loops). */
function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

const sorted = (ids: Iterable<string>) => [...ids].sort().join(",");

/** Seats a player was sent and not taken back (a seat that expired or whose game was lost is taken back). */
const openSeats = (h: Harness, id: string) => (h.seats.get(id) ?? 0) - (h.seatRequeues.get(id) ?? 0);

function checkInvariants(h: Harness, joined: readonly string[]): void {
  const { session, mm } = h;
  const live = joined.filter((id) => !h.gone.has(id));
  const liveSet = new Set(live);
  const views = new Map([...session.players()].map((p) => [p.id, p]));
  // The session holds exactly the players who joined and are not gone.
  check(sorted(views.keys()) === sorted(live), () => `session holds ${sorted(views.keys())}, expected ${sorted(live)}`);
  for (const id of live)
    check(
      views.get(id)!.connected === h.connected.has(id),
      () => `${id}: session and client disagree on the connection`,
    );

  // Count every appearance of every player across the places a player can be.
  const seen = new Map<string, string[]>();
  const note = (id: string, where: string) => seen.set(id, [...(seen.get(id) ?? []), where]);
  const waitingTickets = [...mm.waiting()];
  for (const t of waitingTickets) for (const p of t.players) note(p.sessionId, `waiting:${t.id}`);
  for (const pm of session.pending.all())
    for (const id of pm.humans) if (!pm.gone.has(id)) note(id, `${pm.stage}:${pm.match.id}`);
  for (const party of session.parties.all()) {
    if (party.status === "forming" || party.status === "held")
      for (const id of party.members) note(id, `party:${party.id}`);
  }
  for (const id of live) {
    const view = views.get(id)!;
    const where = seen.get(id) ?? [];
    if (view.place === "seated") {
      check(where.length === 0, () => `seated ${id} is still in ${where.join(", ")}`);
      // A connected seated player has had its seat; one away may have it held.
      if (view.connected) check(openSeats(h, id) === 1, () => `seated ${id} holds ${openSeats(h, id)} seats`);
    } else {
      check(
        where.length === 1,
        () => `${id} (${view.place}) must be in exactly one place, is in [${where.join(", ")}]`,
      );
      check(
        where[0]!.startsWith(view.place === "party" ? "party:" : view.place),
        () => `${id} is ${view.place} but found in ${where[0]}`,
      );
    }
  }
  for (const [id] of seen) check(liveSet.has(id), () => `${id} is gone but still placed`);
  for (const [id] of h.seats) check(openSeats(h, id) <= 1, () => `${id} holds ${openSeats(h, id)} seats`);

  // The waiting list shown to clients and the monitor is the engine's.
  check(
    sorted(h.shown) === sorted(waitingTickets.map((t) => t.id)),
    () => `shown ${sorted(h.shown)} but the engine has ${sorted(waitingTickets.map((t) => t.id))}`,
  );

  // Parties are never split: all members share one place, one ticket, one team.
  for (const party of session.parties.all()) {
    const places = new Set(party.members.map((id) => views.get(id)?.place));
    check(places.size === 1, () => `party ${party.id} split across ${[...places].join(", ")}`);
    if (party.status === "queued") {
      const ticket = mm.get(party.id);
      check(
        sorted(ticket?.players.map((p) => p.sessionId) ?? []) === sorted(party.members),
        () => `party ${party.id}'s ticket does not hold its members`,
      );
    }
    if (party.status === "matched") {
      const pm = session.pending.of(party.members[0]!)!;
      const team = pm.match.teams.find((t) => t.ticketIds.includes(party.id));
      check(
        team !== undefined && party.members.every((id) => team.players.some((p) => p.sessionId === id)),
        () => `party ${party.id} is not whole on one team`,
      );
    }
  }
  // Every pending match is whole: 2k distinct players.
  for (const pm of session.pending.all()) {
    const players = pm.match.teams.flatMap((t) => t.players.map((p) => p.sessionId));
    check(new Set(players).size === 2 * mm.teamSize, () => `match ${pm.match.id} is not whole`);
  }
}

describe("QueueSession under random sessions", () => {
  test.prop([scenarioArb], { numRuns: 200 })(
    "never loses or duplicates a player, never splits a party, seats each player once",
    ({ config, ops }) => {
      const h = harness(config);
      const { session } = h;
      const joined: string[] = [];
      let now = 0;
      let seq = 0;
      const live = () => joined.filter((id) => !h.gone.has(id));
      const pickOf = <T>(list: readonly T[], n: number): T | undefined =>
        list.length ? list[n % list.length] : undefined;
      const join = (extra: { party?: { size: number }; partyCode?: string }, r: number): boolean => {
        const id = `p${++seq}`;
        h.connected.add(id); // the client is connected while it joins
        try {
          session.join({ player: { sessionId: id, rating: r }, ...extra }, now);
        } catch (error) {
          h.connected.delete(id);
          expect(error).toBeInstanceOf(JoinRefused);
          expect((error as Error).message).toMatch(/^partyCode: /);
          expect(session.placeOf(id)).toBeUndefined();
          return false;
        }
        joined.push(id);
        return true;
      };

      for (const op of ops) {
        switch (op.kind) {
          case "solo":
            join({}, op.rating);
            session.tick(now);
            break;
          case "lead":
            if (config.teamSize >= 2) join({ party: { size: Math.min(op.size, config.teamSize) } }, op.rating);
            break;
          case "member": {
            const code = pickOf(h.codes, op.pick);
            if (code === undefined) break;
            const problem = session.joinProblem({ partyCode: code });
            expect(join({ partyCode: code }, op.rating)).toBe(problem === undefined);
            session.tick(now);
            break;
          }
          case "wrongCode":
            expect(join({ partyCode: "x".repeat(22) }, op.rating)).toBe(false);
            break;
          case "leave": {
            const id = pickOf(live(), op.pick);
            if (id === undefined || !h.connected.has(id)) break;
            session.leave(id, now);
            h.gone.add(id);
            h.connected.delete(id);
            break;
          }
          case "drop": {
            const id = pickOf(live(), op.pick);
            if (id === undefined || !h.connected.has(id)) break;
            if (session.drop(id)) h.connected.delete(id);
            else {
              // Not held (seated): Colyseus calls onLeave at once.
              session.leave(id, now);
              h.gone.add(id);
              h.connected.delete(id);
            }
            break;
          }
          case "reconnect":
          case "expire": {
            const id = pickOf(
              live().filter((x) => !h.connected.has(x)),
              op.pick,
            );
            if (id === undefined) break;
            if (op.kind === "reconnect") {
              h.connected.add(id);
              session.reconnect(id, now);
            } else {
              session.leave(id, now);
              if (!h.gone.has(id)) {
                h.gone.add(id);
              }
            }
            break;
          }
          case "accept":
          case "decline":
          case "start": {
            const id = pickOf(live(), op.pick);
            if (id === undefined || !h.connected.has(id)) break;
            if (op.kind === "accept") session.accept(id);
            else if (op.kind === "decline") {
              const wasInCheck = config.readyCheck && session.placeOf(id) === "ready-check";
              session.decline(id, now);
              if (wasInCheck) expect(h.removed.get(id)?.reason).toBe("declined");
            } else {
              const result = session.start(id, now);
              const party = session.parties.of(id);
              if (result.ok) expect(party?.status === "queued" || party?.status === "matched").toBe(true);
            }
            session.tick(now);
            break;
          }
          case "acceptAll":
            for (const id of live()) if (h.connected.has(id)) session.accept(id);
            break;
          case "advance":
            now += op.ms;
            h.advanceTo(now);
            session.tick(now);
            break;
          case "arrive": {
            // A seated player enters its game room, which reports it.
            const id = pickOf(
              live().filter((x) => session.placeOf(x) === "seated" && h.connected.has(x)),
              op.pick,
            );
            const seat =
              id &&
              (h.messages.filter((m) => m.to === id && m.type === "seat").at(-1)?.payload as
                { matchId: string } | undefined);
            if (id && seat) session.arrived(seat.matchId, id);
            break;
          }
          case "gameLost": {
            // A game room (or its process) is gone; the next probe finds out.
            const match = pickOf(
              h.spawns.filter((m) => !h.lostRooms.has(m.id)),
              op.pick,
            );
            if (match) h.lostRooms.add(match.id);
            break;
          }
          case "spawnOk":
          case "spawnFail": {
            const match = pickOf(
              h.spawns.filter((m) => session.pending.get(m.id)?.stage === "spawning"),
              op.pick,
            );
            if (match === undefined) break;
            if (op.kind === "spawnFail") session.spawnFailed(match.id, now);
            else {
              const humans = match.teams.flatMap((t) => t.players.filter((p) => !p.bot).map((p) => p.sessionId));
              const before = new Set(humans.filter((id) => !h.gone.has(id)));
              const team = (id: string) => match.teams.findIndex((t) => t.players.some((p) => p.sessionId === id));
              const outcome = session.spawned(
                match.id,
                new Map(
                  humans.map((id) => [id, { roomId: match.id, matchId: match.id, team: team(id), sessionId: id }]),
                ),
                now,
              );
              expect(outcome).toBe(before.size === humans.length ? "seated" : "abandoned");
            }
            session.tick(now);
            break;
          }
        }
        checkInvariants(h, joined);
      }

      // Everyone removed was told why, with a reason that matches how they went.
      for (const [, message] of h.removed) {
        expect(["declined", "timeout", "disconnected", ...(config.penalties ? ["seat_expired"] : [])]).toContain(
          message.reason,
        );
        // Removed for a seat left to expire only with a cooldown.
        if (message.reason === "seat_expired") expect(message.penalty?.cooldownMs).toBeGreaterThan(0);
      }
      // Past every reservation, no seat is open: each was taken, or settled back to the queue or out.
      now += RESERVATION_MS + 1000;
      h.advanceTo(now);
      expect(session.seatWatch!.open).toBe(0);
      for (const id of live())
        if (session.placeOf(id) === "seated") expect(h.connected.has(id) && openSeats(h, id) === 1).toBe(true);
      checkInvariants(h, joined);
      // Seats only go to players of a match whose game room was created, in that match.
      for (const m of h.messages.filter((x) => x.type === "seat")) {
        const seat = m.payload as { roomId: string; sessionId: string };
        expect(seat.sessionId).toBe(m.to);
        expect(
          h.spawns.find((s) => s.id === seat.roomId)?.teams.some((t) => t.players.some((p) => p.sessionId === m.to)),
        ).toBe(true);
      }
    },
  );
});
