/**
 * best-game's block layout ({@link BestBlocks}: 5v5 at the default budget, or any game whose
 * searches score only the 2k-block, over plain solos) against the same policy after it left the
 * layout (a side-bound party added and removed first: the queue is then held by the general
 * structures, whose block search scores with the same splitter): the same best game, priority,
 * imbalance, oldest wait, candidates, games formed and wake-ups, to the bit, with fractional
 * ratings and ties, with tickets moved by a second add, and
 * across the move out of the layout (a party or a side-bound solo joining midway).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { PolicyParams } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import type { BestGamePolicy } from "../../src/policies/best-game.js";
import { ROW_TREE_WIDTH } from "../../src/policies/shared/row-tree.js";
import { fastBestGame } from "../helpers/rating-sum-best-game.js";
import { ids, party } from "../helpers/tickets.js";

type Op =
  | { kind: "add"; rating: number }
  | { kind: "many"; ratings: number[] }
  | { kind: "move"; pick: number; rating: number }
  | { kind: "remove"; pick: number }
  | { kind: "poll"; dt: number }
  | { kind: "leave"; party: boolean };

const casesArb = fc.record({
  k: fc.constantFrom(5, 5, 3),
  params: fc.constantFrom<PolicyParams>(
    {},
    { threshold: 0 },
    { threshold: 40 },
    { threshold: 10, thresholdGrowthPerSecond: 5 },
    { beta: 0.5 },
    { beta: 2, threshold: 30, thresholdGrowthPerSecond: 1 },
  ),
  coarse: fc.boolean(),
});

const opsArb = (coarse: boolean): fc.Arbitrary<Op[]> => {
  // Coarse ratings make ties (in rating and in priority); fine ones make rounded sums.
  const rating = coarse
    ? fc.integer({ min: 0, max: 6 }).map((x) => 1400 + 50 * x)
    : fc.integer({ min: 0, max: 30000 }).map((x) => x / 7);
  return fc.array(
    fc.oneof(
      { weight: 10, arbitrary: fc.record({ kind: fc.constant("add" as const), rating }) },
      // Many at once: pools of several leaves (rows and leaf boundaries to leave from).
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("many" as const),
          ratings: fc.array(rating, { minLength: 10, maxLength: 60 }),
        }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), rating }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant("poll" as const), dt: fc.integer({ min: 0, max: 5000 }) }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("leave" as const), party: fc.boolean() }) },
    ),
    { maxLength: 150 },
  );
};

describe("best-game: the block layout holds the general structures' candidate", () => {
  test.prop([casesArb.chain((c) => fc.record({ c: fc.constant(c), ops: opsArb(c.coarse) }))], { numRuns: 150 })(
    "same candidate, games and wake-ups, to the bit",
    ({ c, ops }) => {
      // 3v3 scores only its block under a budget of 16 (a block costs 11 evaluations).
      const params = c.k === 3 ? { ...c.params, budget: 16 } : c.params;
      const blocks = fastBestGame(c.k, params);
      const general = fastBestGame(c.k, params);
      // A side-bound party moves `general` out of the layout for good; it leaves no trace but
      // the epoch beta counts from (the first ticket's enqueuedAt), which a solo sets in both.
      const origin = party("origin", [1500], { at: 0 });
      const away = party("away", [1500, 1500], { at: 0, side: "A" });
      for (const t of [origin, away]) general.add(t, 0);
      blocks.add(origin, 0);
      for (const t of [origin, away]) general.remove(t.id);
      blocks.remove(origin.id);
      const policies: BestGamePolicy[] = [blocks, general];
      const waiting: Ticket[] = [];
      let seq = 0;
      let now = 0;
      const add = (t: Ticket) => {
        for (const p of policies) p.add(t, now);
      };
      const remove = (t: Ticket) => {
        for (const p of policies) p.remove(t.id);
      };
      const view = (p: BestGamePolicy) => {
        const got = p.peek();
        return {
          size: p.size,
          candidates: p.heapSize,
          wakeup: p.nextWakeup(now),
          best: got && { ...got, tickets: ids(got.tickets) },
        };
      };
      for (const op of ops) {
        now += 10;
        if (op.kind === "add") {
          const t = party(`t${seq++}`, [op.rating], { at: now });
          add(t);
          waiting.push(t);
        } else if (op.kind === "many") {
          for (const r of op.ratings) {
            const t = party(`t${seq++}`, [r], { at: now });
            add(t);
            waiting.push(t);
          }
        } else if (op.kind === "move") {
          if (waiting.length === 0) continue;
          // The same ticket added again (a new rating): it moves, never held twice.
          const i = op.pick % waiting.length;
          const t = party(waiting[i].id, [op.rating], { at: waiting[i].enqueuedAt });
          add(t);
          waiting[i] = t;
        } else if (op.kind === "remove") {
          if (waiting.length === 0) continue;
          const [gone] = waiting.splice(op.pick % waiting.length, 1);
          remove(gone);
        } else if (op.kind === "poll") {
          now += op.dt;
          const games = policies.map((p) => p.poll(now).map(ids));
          expect(games[0]).toEqual(games[1]);
          for (const game of games[0]) {
            for (const id of game) {
              waiting.splice(
                waiting.findIndex((t) => t.id === id),
                1,
              );
            }
          }
        } else {
          const t = op.party
            ? party(`t${seq++}`, [1500, 1520], { at: now })
            : party(`t${seq++}`, [1500], { at: now, side: "B" });
          add(t);
          waiting.push(t);
        }
        expect(view(blocks)).toEqual(view(general));
      }
      expect(blocks.size).toBe(waiting.length);
    },
  );
});

describe("best-game's block layout at a leaf's first row", () => {
  it("a leaver that was its leaf's first row and the best game's anchor leaves no stale best behind", () => {
    // W + 1 solos added in rating order fill a leaf and split it in halves: the row at W/2 is the
    // second leaf's first. Its block is the only perfectly fair one (offsets 0..8 and 10 from
    // 2000: 2000 + 10 + 8 + 4 + 1 is half the total); the rows around it are far apart.
    const half = ROW_TREE_WIDTH / 2;
    const block = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10].map((x) => 2000 + x);
    // Fractions keep every other block from a fair split.
    const fraction = (i: number) => Math.sqrt(i + 2) % 1;
    const ratings = [
      ...Array.from({ length: half }, (_, i) => 100 * i + fraction(i)),
      ...block,
      ...Array.from({ length: ROW_TREE_WIDTH + 1 - half - block.length }, (_, i) => 3000 + 100 * i + fraction(i + 50)),
    ];
    const p = fastBestGame(5, { threshold: 0 });
    ratings.forEach((r, i) => p.add(party(`t${i}`, [r]), 0));
    expect(p.peek()?.imbalance).toBe(0);
    expect(ids(p.peek()!.tickets)[0]).toBe(`t${half}`);
    p.remove(`t${half}`);
    const general = fastBestGame(5, { threshold: 0 });
    const away = party("away", [1500, 1500], { side: "A" });
    general.add(away, 0);
    general.remove(away.id);
    ratings.forEach((r, i) => i !== half && general.add(party(`t${i}`, [r]), 0));
    expect(p.peek()).toEqual(general.peek());
    expect(p.peek()!.imbalance).toBeGreaterThan(0);
  });
});
