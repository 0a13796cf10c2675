/** The words the player page shows for a rated game's result (src/client/rating-change.ts). */
import { describe, expect, it } from "vitest";
import { describeRatingChange } from "../../src/client/index.js";

const figures = (rating: number, uncertainty: number) => ({ rating, uncertainty });

describe("describeRatingChange", () => {
  it("says a gain with its sign, and the uncertainty before and after", () => {
    expect(describeRatingChange({ before: figures(1500, 500), after: figures(1523, 431) })).toBe(
      "1500 → 1523 (+23), uncertainty 500 → 431",
    );
  });

  it("says a loss with a minus sign", () => {
    expect(describeRatingChange({ before: figures(1500, 500), after: figures(1477, 431) })).toBe(
      "1500 → 1477 (-23), uncertainty 500 → 431",
    );
  });

  it("rounds each figure, and the difference is that of the rounded figures", () => {
    // 1500.4 → 1523.6 is +23.2, but the line shows 1500 → 1524: it says +24.
    expect(describeRatingChange({ before: figures(1500.4, 499.6), after: figures(1523.6, 431.2) })).toBe(
      "1500 → 1524 (+24), uncertainty 500 → 431",
    );
  });

  it("says no change as ±0", () => {
    expect(describeRatingChange({ before: figures(1612.2, 80), after: figures(1611.8, 79.9) })).toBe(
      "1612 → 1612 (±0), uncertainty 80 → 80",
    );
  });
});
