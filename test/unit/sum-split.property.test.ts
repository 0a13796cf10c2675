import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { assembleTeams } from "../../src/core/assembly.js";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import type { Ticket } from "../../src/core/types.js";
import { RatingSumSplitter } from "../../src/policies/sum-split.js";

/** A set of tickets filling exactly 2k seats: parties of 1..k, some bound to a side. */
const ticketSets = fc.integer({ min: 1, max: 5 }).chain((k) =>
  fc
    .array(
      fc.record({
        size: fc.integer({ min: 1, max: k }),
        side: fc.constantFrom(undefined, undefined, undefined, "A" as const, "B" as const),
        ratings: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: k, maxLength: k }),
      }),
      { minLength: 2 * k, maxLength: 2 * k },
    )
    .map((parts) => {
      const tickets: Ticket[] = [];
      let seats = 0;
      for (const [i, p] of parts.entries()) {
        const size = Math.min(p.size, 2 * k - seats);
        if (size === 0) break;
        const id = `t${i}`;
        const players = p.ratings.slice(0, size).map((rating, j) => ({ sessionId: `${id}.${j}`, rating }));
        tickets.push({ id, players, enqueuedAt: i, ...(p.side ? { side: p.side } : {}) });
        seats += size;
      }
      return { k, tickets };
    }),
);

describe("RatingSumSplitter", () => {
  test.prop([ticketSets], { numRuns: 500 })(
    "scores the same splits as the assembly (count and best rating-sum imbalance)",
    ({ k, tickets }) => {
      let evaluations = 0;
      const split = assembleTeams(tickets, k, (a, b) => (evaluations++, ratingSumDifference(a, b)));
      const splitter = new RatingSumSplitter();
      splitter.reset();
      for (const t of tickets) {
        splitter.add(
          t.players.reduce((s, p) => s + p.rating, 0),
          t.players.length,
          t.side,
        );
      }
      const splits = splitter.solve(k);
      if (!split) {
        expect(splits).toBe(0);
        return;
      }
      // The assembly evaluates every split once and the returned one again.
      expect(splits + 1).toBe(evaluations);
      expect(Math.abs(splitter.best - split.imbalance)).toBeLessThanOrEqual(1e-9);
    },
  );
});

describe("RatingSumSplitter over 3v3 to 5v5 solos in ascending order (its two-pointer search)", () => {
  test.prop(
    [
      fc.integer({ min: 3, max: 5 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          ratings: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 2 * k, maxLength: 2 * k }),
          fraction: fc.boolean(),
        }),
      ),
    ],
    { numRuns: 500 },
  )("the same count and least imbalance as every split scored one by one", ({ k, ratings, fraction }) => {
    // Fractional ratings make the rounded sums differ from the exact ones; the least must still match.
    const sorted = ratings.map((r) => (fraction ? r / 7 : r)).sort((a, b) => a - b);
    const splitter = new RatingSumSplitter();
    splitter.reset();
    for (const r of sorted) splitter.add(r, 1, undefined);
    const splits = splitter.solve(k);
    // Every split with the first ticket on A, each scored as the splitter sums it: the first
    // ticket, then the chosen ones in index order, in pairs.
    const total = sorted.reduce((s, r) => s + r, 0);
    let best = Infinity;
    let count = 0;
    const pick: number[] = [];
    const walk = (from: number): void => {
      if (pick.length === k - 1) {
        count++;
        let sumA = sorted[0];
        for (let j = 0; j < pick.length; j += 2) {
          sumA += j + 1 < pick.length ? sorted[pick[j]] + sorted[pick[j + 1]] : sorted[pick[j]];
        }
        best = Math.min(best, Math.abs(2 * sumA - total));
        return;
      }
      for (let i = from; i < sorted.length; i++) {
        pick.push(i);
        walk(i + 1);
        pick.pop();
      }
    };
    walk(1);
    expect(splits).toBe(count);
    expect(splitter.best).toBe(best);
  });
});
