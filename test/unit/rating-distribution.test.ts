/** The dashboard's rating distribution, bounded (src/web/rating-distribution.ts). */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import type { RatingBin } from "../../src/ratings/store.js";
import { boundBins, DISTRIBUTION_LIMITS, parseBinWidth } from "../../src/web/rating-distribution.js";

const total = (bins: readonly RatingBin[]) => bins.reduce((sum, bin) => sum + bin.count, 0);

describe("parseBinWidth", () => {
  it("takes a whole width within the limits, and the default when none is asked", () => {
    expect(parseBinWidth(null)).toBe(DISTRIBUTION_LIMITS.defaultWidth);
    expect(parseBinWidth("")).toBe(DISTRIBUTION_LIMITS.defaultWidth);
    expect(parseBinWidth("10")).toBe(10);
    expect(parseBinWidth("1000")).toBe(1000);
  });

  it.each(["9", "1001", "25.5", "abc", "1e9", "-50", "Infinity"])("refuses %j as the request's fault", (width) => {
    expect(() => parseBinWidth(width)).toThrow(MatchmakerError);
    expect(() => parseBinWidth(width)).toThrow("width: must be a whole number from 10 to 1000");
  });
});

describe("boundBins", () => {
  it("keeps bins that fit as they are", () => {
    const bins = [
      { from: 1400, count: 2 },
      { from: 1500, count: 3 },
    ];
    expect(boundBins(bins, 100, 2)).toEqual({ width: 100, bins });
  });

  it("merges too many bins into bands of the smallest multiple of the width that fits", () => {
    // Ten bins of 10 from 0 to 90: at most 4 bins takes bands of 30 (0, 30, 60, 90), not 25 or 20.
    const bins = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, count: i + 1 }));
    const bounded = boundBins(bins, 10, 4);
    expect(bounded.width).toBe(30);
    expect(bounded.bins).toEqual([
      { from: 0, count: 1 + 2 + 3 },
      { from: 30, count: 4 + 5 + 6 },
      { from: 60, count: 7 + 8 + 9 },
      { from: 90, count: 10 },
    ]);
  });

  it("aligns the merged bands to multiples of the new width, with negative ratings too, losing nobody", () => {
    // From -50 to 40 in bins of 10 (some empty): bands of 20 would need 6 bins (-60 to 40); 30 fits in 4.
    const bins = [-50, -40, -10, 0, 10, 40].map((from, i) => ({ from, count: i + 1 }));
    const bounded = boundBins(bins, 10, 4);
    expect(bounded.width).toBe(30);
    expect(bounded.bins.map((b) => b.from)).toEqual([-60, -30, 0, 30]);
    expect(bounded.bins.length).toBeLessThanOrEqual(4);
    expect(total(bounded.bins)).toBe(total(bins));
    for (const bin of bounded.bins) expect(Math.abs(bin.from % 30)).toBe(0);
  });

  it("bounds the span, not only the count: two far-apart players take wide bands", () => {
    const bins = [
      { from: 0, count: 1 },
      { from: 100_000, count: 1 },
    ];
    const bounded = boundBins(bins, 10, 100);
    // 100,000 / 1,010 is 99.0: bands 0 to 99, a hundred of them; 1,000 would take 101.
    expect(bounded).toEqual({
      width: 1010,
      bins: [
        { from: 0, count: 1 },
        { from: 99_990, count: 1 },
      ],
    });
  });

  it("answers no players as no bins", () => {
    expect(boundBins([], 50, 100)).toEqual({ width: 50, bins: [] });
  });

  it("bounds a wide spread to the answer's limit", () => {
    const bins = Array.from({ length: 500 }, (_, i) => ({ from: i * 10 - 1000, count: 1 }));
    const bounded = boundBins(bins, 10, DISTRIBUTION_LIMITS.maxBins);
    expect(bounded.bins.length).toBeLessThanOrEqual(DISTRIBUTION_LIMITS.maxBins);
    expect(bounded.width).toBe(50);
    expect(total(bounded.bins)).toBe(500);
  });
});
