/**
 * best-game 1v1 with the rating-sum imbalance runs on its own layout (`BestPairs`: rows in the
 * leaves of a `RowTree`, the least priority kept per subtree, anchors searched again at once).
 * Whatever the joins, leaves, games and clock, it must hold what the general search holds when
 * every pair is scored through the shared assembly (the same imbalance behind a function the
 * policy cannot recognise): the same best game and priority, the same count of candidates,
 * the same games formed and the same wake-up; and what a fresh build holds. Pools grow to a
 * thousand tickets and more, so leaves and inner nodes split and empty again; integer ratings
 * (coarse ones: many ties) keep the priorities exact.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type { PolicyParams } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import type { BestGamePolicy } from "../../src/policies/best-game.js";
import { fastBestGame, generalBestGame } from "../helpers/rating-sum-best-game.js";
import { ids, solo, sideArb } from "../helpers/tickets.js";

type Op =
  | { kind: "add"; rating: number; side: "A" | "B" | undefined; wait: number }
  | { kind: "remove"; pick: number }
  | { kind: "poll"; advance: number };

const paramsArb = fc.constantFrom<PolicyParams>(
  {},
  { window: 9 },
  { window: 1 },
  { budget: 1 },
  { budget: 5 },
  { window: 40, budget: 30 },
  { beta: 0.5 },
  { beta: 2, window: 6 },
  { threshold: 40 },
  { threshold: 0 },
  { threshold: 0, window: 3, beta: 1 },
  { threshold: 10, thresholdGrowthPerSecond: 20 },
  { threshold: 5, thresholdGrowthPerSecond: 3, beta: 0.1 },
);

const opsArb = (coarse: boolean, grow: boolean): fc.Arbitrary<Op[]> => {
  const rating = coarse ? fc.integer({ min: 0, max: 12 }).map((x) => 1400 + 25 * x) : fc.integer({ min: 0, max: 3000 });
  return fc.array(
    fc.oneof(
      {
        weight: grow ? 12 : 6,
        arbitrary: fc.record({
          kind: fc.constant("add" as const),
          rating,
          side: sideArb,
          wait: fc.integer({ min: 0, max: 5000 }),
        }),
      },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("poll" as const), advance: fc.nat(3000) }) },
    ),
    { minLength: grow ? 1500 : 0, maxLength: grow ? 2500 : 400 },
  );
};

/** A case: the policy's parameters, and a run of operations sized by them. */
const caseArb = fc
  .record({ params: paramsArb, coarse: fc.boolean(), grow: fc.boolean() })
  .chain((c) => fc.record({ c: fc.constant(c), ops: opsArb(c.coarse, c.grow) }));

/** What the properties compare of a policy at `now`: its best game, candidates, size and next wake-up. */
const view = (p: BestGamePolicy, now: number) => {
  const got = p.peek();
  return {
    best: got && { tickets: ids(got.tickets), priority: got.priority, imbalance: got.imbalance },
    oldest: got?.oldestEnqueuedAt,
    candidates: p.heapSize,
    size: p.size,
    wakeup: p.nextWakeup(now),
  };
};

describe("best-game 1v1: BestPairs holds the general search's games", () => {
  test.prop([caseArb], { numRuns: 40 })(
    "same best game, priority, candidates, games and wake-ups as through the assembly",
    ({ c, ops }) => {
      const fast = fastBestGame(1, c.params);
      const general = generalBestGame(1, c.params);
      const waiting: Ticket[] = [];
      let seq = 0;
      let now = 0;
      const check = () => {
        const got = view(fast, now);
        expect(got).toEqual(view(general, now));
        // With beta the priorities count from the first ticket added, which a fresh build need not share.
        if (!c.params.beta) {
          const fresh = fastBestGame(1, c.params);
          for (const t of waiting) fresh.add(t, now);
          expect(got).toEqual(view(fresh, now));
        }
      };
      ops.forEach((op, step) => {
        if (op.kind === "add") {
          const t = solo(`t${seq++}`, op.rating, { at: now - op.wait, side: op.side });
          fast.add(t, now);
          general.add(t, now);
          waiting.push(t);
        } else if (op.kind === "remove") {
          if (waiting.length === 0) return;
          const [gone] = waiting.splice(op.pick % waiting.length, 1);
          fast.remove(gone.id);
          general.remove(gone.id);
        } else {
          check();
          now += op.advance;
          const games = fast.poll(now);
          expect(games.map(ids)).toEqual(general.poll(now).map(ids));
          for (const game of games) for (const t of game) waiting.splice(waiting.indexOf(t), 1);
        }
        // Every step in small pools; in large ones every 25th (the fresh build is the slow part).
        if (waiting.length < 100 || step % 25 === 0) check();
      });
      check();
    },
  );
});
