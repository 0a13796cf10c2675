/** `RatingRanks` against a sorted-array model: inserts, deletes, ties, the sliding capacity. */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { RatingRanks } from "../../src/core/rating-ranks.js";

const opArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      rating: fc.integer({ min: -5, max: 5 }).map((x) => x * 0.5),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("delete" as const),
      rating: fc.integer({ min: -5, max: 5 }).map((x) => x * 0.5),
    }),
  },
);

describe("RatingRanks", () => {
  test.prop([fc.array(opArb, { maxLength: 200 }), fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined })], {
    numRuns: 300,
  })("percentile and counts equal a sorted list's", (ops, capacity) => {
    const ranks = new RatingRanks(capacity ?? Infinity);
    let model: number[] = [];
    for (const op of ops) {
      if (op.kind === "add") {
        ranks.add(op.rating);
        model.push(op.rating);
        if (capacity !== undefined && model.length > capacity) model = model.slice(1);
      } else if (capacity === undefined) {
        const at = model.indexOf(op.rating);
        expect(ranks.delete(op.rating)).toBe(at >= 0);
        if (at >= 0) model.splice(at, 1);
      }
      expect(ranks.size).toBe(model.length);
      for (const r of [-3, -0.5, 0, 1, 2.5, 9]) {
        const below = model.filter((x) => x < r).length;
        const equal = model.filter((x) => x === r).length;
        expect(ranks.countBelowAndEqual(r)).toEqual({ below, equal });
        expect(ranks.percentile(r)).toBe(model.length === 0 ? 0.5 : (below + equal / 2) / model.length);
      }
    }
  });

  it("is non-decreasing in the rating and refuses non-finite ratings", () => {
    const ranks = new RatingRanks();
    for (const r of [3, 1, 4, 1, 5, 9, 2, 6]) ranks.add(r);
    let last = -1;
    for (let r = 0; r <= 10; r += 0.25) {
      expect(ranks.percentile(r)).toBeGreaterThanOrEqual(last);
      last = ranks.percentile(r);
    }
    expect(() => ranks.add(Number.NaN)).toThrow(RangeError);
    expect(() => new RatingRanks(0)).toThrow(RangeError);
  });
});
