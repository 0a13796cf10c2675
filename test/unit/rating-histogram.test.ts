/** The dashboard's histogram bars (web/dashboard/histogram.ts). */
import { describe, expect, it } from "vitest";
import { histogramBars } from "../../web/dashboard/histogram.js";

describe("histogramBars", () => {
  it("draws every band from the lowest to the highest, the empty ones at 0", () => {
    expect(
      histogramBars(
        [
          { from: 1400, count: 1 },
          { from: 1550, count: 3 },
        ],
        50,
      ),
    ).toEqual({ from: [1400, 1450, 1500, 1550], count: [1, 0, 0, 3] });
  });

  it("draws one bar for one band, and none for no players", () => {
    expect(histogramBars([{ from: -100, count: 2 }], 100)).toEqual({ from: [-100], count: [2] });
    expect(histogramBars([], 100)).toEqual({ from: [], count: [] });
  });
});
