/**
 * `expanding-window` against brute force on random sessions: every game is mutually
 * acceptable (every ticket accepts every other when it forms), 1v1 games form closest first,
 * and no mutually acceptable 1v1 pair is left waiting after a tick.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { canAssemble } from "../../src/core/assembly.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { meanRating, type Ticket } from "../../src/core/types.js";
import { ExpandingWindowPolicy } from "../../src/policies/expanding-window.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { party, sideArb } from "../helpers/tickets.js";

const paramsArb = fc.record({
  unit: fc.constantFrom("rating", "relative", "percentile"),
  initial: fc.constantFrom(0, 0.02, 0.1, 50),
  growthPerSecond: fc.constantFrom(0, 0.01, 5),
  stepMs: fc.constantFrom(0, 1000, 3000),
});

const opArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("enqueue" as const),
      dt: fc.integer({ min: 0, max: 4000 }),
      rating: fc.integer({ min: 1, max: 3000 }),
      side: sideArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("cancel" as const),
      dt: fc.integer({ min: 0, max: 4000 }),
      pick: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("wait" as const), dt: fc.integer({ min: 1, max: 20_000 }) }) },
);

/** The smallest spread of a mutually acceptable, assemblable pair among `pool` at `now`. */
function closestAcceptable(policy: ExpandingWindowPolicy, pool: readonly Ticket[], now: number): number {
  let best = Infinity;
  for (let i = 0; i < pool.length; i++) {
    for (let j = i + 1; j < pool.length; j++) {
      const [a, b] = [pool[i], pool[j]];
      if (policy.accepts(a, b, now) && policy.accepts(b, a, now) && canAssemble([a, b], 1)) {
        best = Math.min(best, Math.abs(meanRating(a) - meanRating(b)));
      }
    }
  }
  return best;
}

describe("expanding-window keeps mutual acceptance and forms the closest game first", () => {
  test.prop([paramsArb, fc.array(opArb, { maxLength: 40 })], { numRuns: 300 })(
    "1v1 against brute force",
    (params, ops) => {
      const mm = new Matchmaker({
        teamSize: 1,
        policy: "expanding-window",
        params,
        ratingRange: { min: 0, max: 3000 },
      });
      const policy = mm.policy as ExpandingWindowPolicy;
      const issued: Ticket[] = [];
      let now = 0;
      // Between events, tick at every wake-up the engine asks for, as the room and simulator do.
      const advance = (to: number) => {
        for (let wake = mm.nextWakeup(now); wake !== undefined && wake <= to; wake = mm.nextWakeup(now)) {
          now = wake;
          check();
        }
        now = to;
      };
      const check = () => {
        // Percentile windows follow the distribution, so brute force reads it at the same instant.
        const before = closestAcceptable(policy, [...mm.waiting()], now);
        const matches = mm.tick(now);
        if (matches.length > 0) expect(matches[0].quality.spread).toBe(before);
        for (const m of matches) {
          expectValidMatch(m, 1);
          const [a, b] = m.tickets;
          expect(policy.accepts(a, b, now) && policy.accepts(b, a, now)).toBe(true);
        }
        expect(closestAcceptable(policy, [...mm.waiting()], now)).toBe(Infinity);
        const wake = mm.nextWakeup(now);
        if (wake !== undefined) expect(wake).toBeGreaterThan(now);
      };
      for (const op of ops) {
        advance(now + op.dt);
        if (op.kind === "enqueue") {
          const t = party(`t${issued.length}`, [op.rating], { at: now, side: op.side });
          issued.push(t);
          mm.enqueue(t, now);
        } else if (op.kind === "cancel" && issued.length > 0) {
          mm.cancel(issued[op.pick % issued.length].id, now);
        }
        check();
      }
    },
  );

  test.prop(
    [
      fc.integer({ min: 2, max: 3 }),
      paramsArb,
      fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: 3000 }),
          fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 2 }),
        ),
        { maxLength: 30 },
      ),
    ],
    { numRuns: 150 },
  )("teams: every pair of tickets in a game accepts each other", (k, params, arrivals) => {
    const mm = new Matchmaker({ teamSize: k, policy: "expanding-window", params, ratingRange: { min: 0, max: 3000 } });
    const policy = mm.policy as ExpandingWindowPolicy;
    let now = 0;
    arrivals.forEach(([dt, ratings], i) => {
      now += dt;
      mm.enqueue(party(`t${i}`, ratings, { at: now }), now);
      for (;;) {
        for (const m of mm.tick(now)) {
          expectValidMatch(m, k);
          for (const a of m.tickets) for (const b of m.tickets) expect(policy.accepts(a, b, now)).toBe(true);
        }
        const wake = mm.nextWakeup(now);
        if (wake === undefined || wake > now + 5000) break;
        now = wake;
      }
    });
  });
});
