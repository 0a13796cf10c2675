/**
 * Random sessions against the engine with the greedy policy: enqueues (parties of 1..k with
 * sides), cancellations, ticks and re-queues of formed matches, at non-decreasing times. After
 * every step the engine's state is checked against a simple model of who is where.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { canAssemble } from "../../src/core/assembly.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { bruteMinImbalance } from "../helpers/brute-force.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { idSet, ids, party, ticketSpecArb, type TicketSpec } from "../helpers/tickets.js";

type Op =
  | { kind: "enqueue"; dt: number; spec: TicketSpec }
  | { kind: "cancel"; dt: number; pick: number }
  | { kind: "tick"; dt: number }
  | { kind: "requeue"; dt: number; pick: number };

/** Time steps, often 0 so that enqueue times tie. */
const dtArb = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1000 }));

const sessionArb = fc.integer({ min: 1, max: 4 }).chain((k) =>
  fc.record({
    k: fc.constant(k),
    ops: fc.array<Op>(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({ kind: fc.constant("enqueue" as const), dt: dtArb, spec: ticketSpecArb(k) }),
        },
        { weight: 2, arbitrary: fc.record({ kind: fc.constant("cancel" as const), dt: dtArb, pick: fc.nat() }) },
        { weight: 3, arbitrary: fc.record({ kind: fc.constant("tick" as const), dt: dtArb }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant("requeue" as const), dt: dtArb, pick: fc.nat() }) },
      ),
      { maxLength: 40 },
    ),
  }),
);

/** Is there any subset of `pool` (exactly 2k players) that canAssemble accepts? */
function someGameIn(pool: readonly Ticket[], k: number): Ticket[] | undefined {
  const chosen: Ticket[] = [];
  const visit = (i: number, players: number): boolean => {
    if (players === 2 * k) return canAssemble(chosen, k);
    if (i >= pool.length) return false;
    const size = pool[i].players.length;
    if (players + size <= 2 * k) {
      chosen.push(pool[i]);
      if (visit(i + 1, players + size)) return true;
      chosen.pop();
    }
    return visit(i + 1, players);
  };
  return visit(0, 0) ? [...chosen] : undefined;
}

describe("engine invariants under random sessions (greedy)", () => {
  test.prop([sessionArb], { numRuns: 300 })(
    "nobody is lost or duplicated; every match is whole and fair to sides",
    ({ k, ops }) => {
      const mm = new Matchmaker({ teamSize: k });
      // The model: where each ticket is, by the engine's own answers.
      const waiting = new Map<string, Ticket>();
      const cancelled = new Map<string, Ticket>();
      const active: Match[] = []; // matches returned and not re-queued
      const issued = new Map<string, Ticket>(); // every ticket that ever joined
      const matchIds: string[] = [];
      let now = 0;
      let formed = 0;
      let requeued = 0;

      const checkState = () => {
        // Waiting tickets, oldest first, are the model's.
        const pool = [...mm.waiting()];
        expect(idSet(pool)).toEqual([...waiting.keys()].sort());
        for (const t of pool) expect(t).toBe(waiting.get(t.id));
        for (let i = 1; i < pool.length; i++) expect(pool[i - 1].enqueuedAt).toBeLessThanOrEqual(pool[i].enqueuedAt);
        expect(mm.size).toBe(waiting.size);
        expect(mm.waitingPlayers).toBe(pool.reduce((n, t) => n + t.players.length, 0));

        // Every player that ever entered is in exactly one place.
        const places = new Map<string, string[]>();
        const put = (playerId: string, place: string) => places.set(playerId, [...(places.get(playerId) ?? []), place]);
        for (const t of pool) for (const p of t.players) put(p.sessionId, "waiting");
        for (const t of cancelled.values()) for (const p of t.players) put(p.sessionId, "cancelled");
        for (const m of active) for (const team of m.teams) for (const p of team.players) put(p.sessionId, m.id);
        const entered = [...issued.values()].flatMap((t) => t.players);
        expect(places.size).toBe(entered.length);
        for (const p of entered) expect(places.get(p.sessionId), `player ${p.sessionId}`).toHaveLength(1);

        expect(mm.stats(now)).toMatchObject({
          waitingTickets: waiting.size,
          waitingPlayers: mm.waitingPlayers,
          matchesFormed: formed,
          playersMatched: 2 * k * formed,
          ticketsCancelled: cancelled.size,
          ticketsRequeued: requeued,
          policyErrors: 0,
          oldestWaitMs: pool.length ? now - pool[0].enqueuedAt : 0,
        });
      };

      for (const op of ops) {
        now += op.dt;
        switch (op.kind) {
          case "enqueue": {
            const ticket = party(`t${issued.size}`, op.spec.ratings, { at: now, side: op.spec.side });
            issued.set(ticket.id, ticket);
            mm.enqueue(ticket, now);
            waiting.set(ticket.id, ticket);
            break;
          }
          case "cancel": {
            // Any ticket ever issued (waiting, matched or cancelled), or one never seen.
            const id = [...issued.keys(), "never-seen"][op.pick % (issued.size + 1)];
            const ticket = waiting.get(id);
            expect(mm.cancel(id, now)).toBe(ticket !== undefined);
            if (ticket) {
              waiting.delete(id);
              cancelled.set(id, ticket);
            }
            break;
          }
          case "tick": {
            const matches = mm.tick(now);
            for (const m of matches) {
              expectValidMatch(m, k);
              expect(m.bots).toBe(0);
              expect(m.createdAt).toBe(now);
              for (const t of m.tickets) {
                expect(t, `matched ticket ${t.id} was waiting`).toBe(waiting.get(t.id));
                waiting.delete(t.id);
              }
              // Assembly chose the best split of the tickets it was given.
              expect(m.quality.imbalance).toBe(bruteMinImbalance(m.tickets, k));
              active.push(m);
              matchIds.push(m.id);
              formed++;
            }
            // Greedy leaves no game behind (checked exhaustively for pools up to 14 tickets).
            if (waiting.size <= 14) expect(someGameIn([...mm.waiting()], k)).toBeUndefined();
            break;
          }
          case "requeue": {
            // A formed game failed to start: its tickets go back.
            if (active.length === 0) break;
            const [m] = active.splice(op.pick % active.length, 1);
            expect(mm.requeue(m.tickets, now)).toEqual([]);
            for (const t of m.tickets) waiting.set(t.id, t);
            requeued += m.tickets.length;
            break;
          }
        }
        checkState();
      }
      // Match ids never repeat, even across re-queues.
      expect(new Set(matchIds).size).toBe(matchIds.length);
    },
  );

  test.prop(
    [
      fc
        .integer({ min: 1, max: 4 })
        .chain((k) => fc.tuple(fc.constant(k), fc.array(ticketSpecArb(k), { maxLength: 30 }))),
    ],
    {
      numRuns: 200,
    },
  )("one tick after a burst of joins forms games until none is left, and loses nobody", ([k, specs]) => {
    const mm = new Matchmaker({ teamSize: k });
    const tickets = specs.map((spec, i) => party(`t${i}`, spec.ratings, { at: i, side: spec.side }));
    for (const t of tickets) mm.enqueue(t, t.enqueuedAt);
    const matches = mm.tick(specs.length);
    for (const m of matches) expectValidMatch(m, k);
    // Matched and waiting tickets are disjoint and together are everything that joined.
    const matched = matches.flatMap((m) => ids(m.tickets));
    expect(new Set(matched).size).toBe(matched.length);
    expect([...matched, ...ids(mm.waiting())].sort()).toEqual(idSet(tickets));
    if (mm.size <= 14) expect(someGameIn([...mm.waiting()], k)).toBeUndefined();
  });
});
