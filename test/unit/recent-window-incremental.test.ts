import { fc, test } from "@fast-check/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RecentWindow } from "../../src/core/stats.js";

function nearestRank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p * values.length) / 100)) - 1];
}

describe("RecentWindow, incremental", () => {
  afterEach(() => vi.restoreAllMocks());

  it("never sorts: pushes and reads keep an ordered copy", () => {
    const sort = vi.spyOn(Float64Array.prototype, "sort");
    const arraySort = vi.spyOn(Array.prototype, "sort");
    const w = new RecentWindow(100);
    for (let i = 0; i < 1000; i++) {
      w.push((i * 7919) % 1000);
      w.percentiles([50, 95, 99]);
      w.mean();
    }
    expect(sort).not.toHaveBeenCalled();
    expect(arraySort).not.toHaveBeenCalled();
  });

  it("a window larger than the sorted-array limit (a treap) gives the same figures", () => {
    const capacity = 20_000;
    const w = new RecentWindow(capacity);
    const pushed: number[] = [];
    for (let i = 0; i < 30_000; i++) {
      const v = (i * 104_729) % 50_000;
      pushed.push(v);
      w.push(v);
    }
    const kept = pushed.slice(-capacity);
    for (const p of [0, 1, 50, 95, 99, 100]) expect(w.percentile(p)).toBe(nearestRank(kept, p));
    expect(w.mean()).toBeCloseTo(kept.reduce((s, v) => s + v, 0) / kept.length, 6);
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 30 }),
      fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 }),
    ],
    { numRuns: 200 },
  )("fractional values, ties and evictions: every percentile matches a direct computation", (capacity, pushed) => {
    const w = new RecentWindow(capacity);
    for (const v of [...pushed, ...pushed.slice(0, 5)]) w.push(v);
    const all = [...pushed, ...pushed.slice(0, 5)];
    const kept = all.slice(-capacity);
    for (const p of [0, 10, 50, 90, 100]) expect(w.percentile(p)).toBe(nearestRank(kept, p));
  });
});
