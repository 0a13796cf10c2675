/**
 * Every registered policy, with random parameters, under random sessions with a maximum wait
 * and bots: enqueues (parties, sides), cancellations, ticks and re-queues at non-decreasing
 * times, in every shape of game the policy serves (two teams, more teams, a free-for-all). The
 * engine's guarantees must hold whatever the policy decides.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { hasSides, kindOf, maxPartyOf, twoTeams, type GameShape } from "../../src/core/shape.js";
import { reachedMaxWait, type Match, type Ticket } from "../../src/core/types.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { expectEachTicketOnce, expectValidMatch, expectValidShapedMatch } from "../helpers/match-checks.js";
import { party, sideArb, ticketSpecArb, type TicketSpec } from "../helpers/tickets.js";

const policyArb = fc.oneof(
  fc.constant({ policy: "greedy", params: {} }),
  fc.record({
    policy: fc.constant("periodic"),
    params: fc.record({ x: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant("auto")) }),
  }),
  fc.record({
    policy: fc.constant("multi-queue"),
    params: fc.record({ r: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant("auto")) }),
  }),
  fc.record({
    policy: fc.constant("difference-wait"),
    params: fc.record({ fWait: fc.double({ min: 0, max: 20, noNaN: true }) }),
  }),
  fc.record({
    policy: fc.constant("patient"),
    params: fc.record({
      mode: fc.constantFrom("patient", "greedy", "auto"),
      maxExtraArrivals: fc.integer({ min: 0, max: 3 }),
    }),
  }),
  fc.constantFrom(...["fifo", "lifo", "packing", "two-queue"].map((policy) => ({ policy, params: {} }))),
  fc.record({
    policy: fc.constant("best-game"),
    params: fc.record({
      threshold: fc.double({ min: 0, max: 500, noNaN: true }),
      thresholdGrowthPerSecond: fc.double({ min: 0, max: 200, noNaN: true }),
    }),
  }),
  fc.record({
    policy: fc.constant("expanding-window"),
    params: fc.record({
      unit: fc.constantFrom("rating", "relative", "percentile"),
      initial: fc.double({ min: 0, max: 0.3, noNaN: true }),
      growthPerSecond: fc.double({ min: 0, max: 0.5, noNaN: true }),
      stepMs: fc.constantFrom(0, 500, 1000),
    }),
  }),
  fc.record({
    policy: fc.constant("brackets"),
    params: fc.record({
      width: fc.integer({ min: 100, max: 3000 }),
      period: fc.constantFrom(0.5, 1, 3),
      splitAt: fc.integer({ min: 1, max: 4 }),
      mergeBelow: fc.integer({ min: 1, max: 4 }),
      idlePeriods: fc.integer({ min: 1, max: 3 }),
    }),
  }),
  fc.record({
    policy: fc.constant("density-window"),
    params: fc.record(
      {
        c: fc.double({ min: 0.2, max: 3, noNaN: true }),
        population: fc.integer({ min: 20, max: 200 }),
        m: fc.integer({ min: 2, max: 20 }),
        lookahead: fc.integer({ min: 1, max: 16 }),
      },
      { requiredKeys: [] },
    ),
  }),
);

type Op =
  | { kind: "enqueue"; dt: number; spec: TicketSpec; zones: string[] }
  | { kind: "cancel"; dt: number; pick: number }
  | { kind: "tick"; dt: number }
  | { kind: "requeue"; dt: number; pick: number };

const MAX_WAIT = 2000;
/** With zones on, each ticket lists a subset of these (none: every zone). */
const ZONES = ["x", "y", "z"];
const dtArb = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1500 }));

/** Mostly two teams of 1 to 3; else three or four teams of 1 or 2, or a free-for-all of 2 to 6. */
const shapeArb: fc.Arbitrary<GameShape> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }).map((k) => twoTeams(k)) },
  {
    weight: 1,
    arbitrary: fc
      .record({ teams: fc.integer({ min: 3, max: 4 }), teamSize: fc.integer({ min: 1, max: 2 }) })
      .map(({ teams, teamSize }): GameShape => ({ kind: "teams", teams, teamSize, minTeamSize: teamSize })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 2, max: 6 })
      .map((players): GameShape => ({ kind: "free-for-all", players, minPlayers: players, countMultiple: 1 })),
  },
);

/** The queue options that state `shape`. */
const shapeOptions = (shape: GameShape) =>
  shape.kind === "free-for-all"
    ? { maxPlayers: shape.players }
    : { teamSize: shape.teamSize, ...(shape.teams !== 2 ? { teams: shape.teams } : {}) };

const serves = (policy: string, shape: GameShape): boolean =>
  (defaultPolicies.get(policy).shapes ?? ["two-teams"]).includes(kindOf(shape));

const sessionArb = shapeArb.chain((shape) =>
  fc.record({
    shape: fc.constant(shape),
    setup: policyArb.filter((p) => serves(p.policy, shape)),
    zoned: fc.boolean(),
    ops: fc.array<Op>(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant("enqueue" as const),
            dt: dtArb,
            spec: ticketSpecArb(Math.min(3, maxPartyOf(shape)), hasSides(shape) ? sideArb : fc.constant(undefined)),
            zones: fc.subarray(ZONES),
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), dt: dtArb, pick: fc.nat() }) },
        { weight: 3, arbitrary: fc.record({ kind: fc.constant("tick" as const), dt: dtArb }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant("requeue" as const), dt: dtArb, pick: fc.nat() }) },
      ),
      { maxLength: 50 },
    ),
  }),
);

describe("every policy keeps the engine's guarantees", () => {
  test.prop([sessionArb], { numRuns: 600 })(
    "nobody lost or duplicated, matches whole, sides and zones honoured, nobody past the maximum wait, no wake-up already due",
    ({ shape, setup, zoned, ops }) => {
      const mm = new Matchmaker({
        ...shapeOptions(shape),
        policy: setup.policy,
        params: setup.params,
        maxWaitMs: MAX_WAIT,
        fillWithBots: true,
        ratingRange: { min: 0, max: 3000 },
        ...(zoned ? { zones: ZONES } : {}),
      });
      const issued: Ticket[] = [];
      const cancelled = new Set<string>();
      const active: Match[] = [];
      let now = 0;

      const afterTick = (matches: Match[]) => {
        for (const m of matches) {
          if (kindOf(shape) === "two-teams") expectValidMatch(m, shape.kind === "teams" ? shape.teamSize : 0);
          else expectValidShapedMatch(m, shape);
          expect(m.tickets.length).toBeGreaterThan(0);
          if (zoned) {
            expect(ZONES).toContain(m.zone);
            for (const t of m.tickets) if (t.zones?.length) expect(t.zones).toContain(m.zone);
          } else expect(m.zone).toBeUndefined();
          active.push(m);
        }
        expect(mm.stats(now).policyErrors).toBe(0);
        // Bots guarantee that nobody still waits once they reached the maximum wait.
        for (const t of mm.waiting()) expect(reachedMaxWait(t, MAX_WAIT, now), `ticket ${t.id} overdue`).toBe(false);
        // The engine keeps its per-side and per-zone waiting counts as tickets come and go: they match a recount.
        const stats = mm.stats(now);
        const waiting = [...mm.waiting()];
        for (const side of ["A", "B", "any"] as const) {
          const here = waiting.filter((t) => (t.side ?? "any") === side);
          expect(stats.bySide[side].waitingTickets).toBe(here.length);
          expect(stats.bySide[side].waitingPlayers).toBe(here.reduce((n, t) => n + t.players.length, 0));
        }
        if (zoned) {
          for (const zone of ZONES) {
            const here = waiting.filter((t) => mm.zonesOfTicket(t.id)!.includes(zone));
            expect(stats.byZone![zone].waitingTickets).toBe(here.length);
          }
        }
        const wake = mm.nextWakeup(now);
        if (wake !== undefined) expect(wake).toBeGreaterThan(now);
      };

      for (const op of ops) {
        now += op.dt;
        if (op.kind === "enqueue") {
          const ticket = party(`t${issued.length}`, op.spec.ratings, {
            at: now,
            side: op.spec.side,
            ...(zoned ? { zones: op.zones } : {}),
          });
          issued.push(ticket);
          mm.enqueue(ticket, now);
        } else if (op.kind === "cancel") {
          const id = issued.length ? issued[op.pick % issued.length].id : "none";
          if (mm.cancel(id, now)) cancelled.add(id);
        } else if (op.kind === "requeue") {
          if (active.length === 0) continue;
          const [m] = active.splice(op.pick % active.length, 1);
          expect(mm.requeue(m.tickets, now)).toEqual([]);
        }
        afterTick(mm.tick(now));

        expectEachTicketOnce(issued, { waiting: mm.waiting(), cancelled, matched: active });
      }
    },
  );
});
