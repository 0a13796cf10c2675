/** The words the player page shows for a rated game's result (src/client/rating-change.ts). */
import { describe, expect, it } from "vitest";
import { describeRatingChange } from "../../src/client/index.js";

const figures = (rating: number, uncertainty: number) => ({ rating, uncertainty });

describe("describeRatingChange", () => {
  it.each([
    ["a gain with its sign", [1500, 500], [1523, 431], "1500 → 1523 (+23), uncertainty 500 → 431"],
    ["a loss with a minus sign", [1500, 500], [1477, 431], "1500 → 1477 (-23), uncertainty 500 → 431"],
    // 1500.4 → 1523.6 is +23.2, but the line shows 1500 → 1524: it says +24, and adds up.
    [
      "rounded figures, and the difference of the rounded ones",
      [1500.4, 499.6],
      [1523.6, 431.2],
      "1500 → 1524 (+24), uncertainty 500 → 431",
    ],
    ["no change as ±0", [1612.2, 80], [1611.8, 79.9], "1612 → 1612 (±0), uncertainty 80 → 80"],
  ] as const)("says %s", (_what, [rating, uncertainty], [after, afterUncertainty], words) => {
    expect(
      describeRatingChange({ before: figures(rating, uncertainty), after: figures(after, afterUncertainty) }),
    ).toBe(words);
  });
});
