import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";

describe("engine wait percentiles", () => {
  it("reports p50, p95 and p99 of recent players' waits by nearest rank", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    expect(mm.stats(0)).toMatchObject({ p50WaitMs: 0, p95WaitMs: 0, p99WaitMs: 0 });
    // Ten matches of two solos: waits 0 and 100·i for i = 1..10 (twenty waits).
    for (let i = 1; i <= 10; i++) {
      const now = i * 10_000;
      mm.enqueue({ id: `a${i}`, players: [{ sessionId: `a${i}`, rating: 1000 }], enqueuedAt: now - 100 * i }, now);
      mm.enqueue({ id: `b${i}`, players: [{ sessionId: `b${i}`, rating: 1000 }], enqueuedAt: now }, now);
      expect(mm.tick(now)).toHaveLength(1);
    }
    // Sorted: ten 0s, then 100..1000. Ranks: p50 -> 10th (0), p95 -> 19th (900), p99 -> 20th (1000).
    expect(mm.stats(200_000)).toMatchObject({ p50WaitMs: 0, p95WaitMs: 900, p99WaitMs: 1000 });
  });
});
