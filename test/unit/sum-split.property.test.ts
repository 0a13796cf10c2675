import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { assembleTeams, ratingSumDifference, type Ticket } from "../../src/core/index.js";
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
