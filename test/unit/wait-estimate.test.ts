import { describe, expect, it } from "vitest";
import type { Ticket } from "../../src/core/types.js";
import { WaitEstimator } from "../../src/core/wait-estimate.js";

let seq = 0;
function ticket(rating: number, extra: Partial<Ticket> & { party?: number } = {}): Ticket {
  const { party = 1, ...rest } = extra;
  const id = `t${++seq}`;
  return {
    id,
    players: Array.from({ length: party }, (_, i) => ({ sessionId: `${id}p${i}`, rating })),
    enqueuedAt: 0,
    ...rest,
  };
}

describe("WaitEstimator", () => {
  it("knows nothing before any wait is recorded", () => {
    expect(new WaitEstimator({ bandWidth: 100 }).estimate(ticket(1500))).toBeUndefined();
  });

  it("estimates the median recent wait of the exact class once it has enough samples", () => {
    const e = new WaitEstimator({ bandWidth: 100, minSamples: 3 });
    for (const w of [1000, 5000, 3000]) e.record(ticket(1510), w);
    e.record(ticket(1900), 60_000); // another band: not part of the exact class
    expect(e.estimate(ticket(1550))).toEqual({ waitMs: 3000, samples: 3, basis: "exact" });
  });

  it("falls back to coarser classes: band, then zone, then side, then party size, then the queue", () => {
    const e = new WaitEstimator({ bandWidth: 100, minSamples: 2 });
    e.record(ticket(1500, { side: "A", zones: ["eu"] }), 1000);
    e.record(ticket(1800, { side: "A", zones: ["eu"] }), 3000);
    // band 15 has 1 sample < 2; the zone class (side A, eu) has 2.
    expect(e.estimate(ticket(1500, { side: "A", zones: ["eu"] }))).toEqual({ waitMs: 1000, samples: 2, basis: "zone" });
    // Another zone: no zone data, but side A (any zone) has 2.
    expect(e.estimate(ticket(1500, { side: "A", zones: ["us"] }))?.basis).toBe("side");
    // Side B: only party size 1 has data.
    expect(e.estimate(ticket(1500, { side: "B" }))?.basis).toBe("party");
    // A party of 2: only the whole queue.
    expect(e.estimate(ticket(1500, { party: 2 }))).toEqual({ waitMs: 1000, samples: 2, basis: "queue" });
  });

  it("uses the most specific class with any data when none has enough", () => {
    const e = new WaitEstimator({ bandWidth: 100, minSamples: 10 });
    e.record(ticket(1500), 4000);
    e.record(ticket(2500), 8000);
    expect(e.estimate(ticket(1550))).toEqual({ waitMs: 4000, samples: 1, basis: "exact" });
  });

  it("keeps only the most recent waits of a class (bounded window)", () => {
    const e = new WaitEstimator({ bandWidth: 100, window: 3, minSamples: 1 });
    for (const w of [100_000, 100_000, 100_000, 1000, 2000, 3000]) e.record(ticket(1500), w);
    expect(e.estimate(ticket(1500))).toEqual({ waitMs: 2000, samples: 3, basis: "exact" });
  });

  it("gives a ticket with several zones its fastest zone", () => {
    const e = new WaitEstimator({ bandWidth: 100, minSamples: 1 });
    e.record(ticket(1500, { zones: ["eu"] }), 9000);
    e.record(ticket(1500, { zones: ["us"] }), 2000);
    expect(e.estimate(ticket(1500, { zones: ["eu", "us"] }))?.waitMs).toBe(2000);
    // The zone it played in may be given explicitly.
    e.record(ticket(1500, { zones: ["eu", "us"] }), 500, "eu");
    e.record(ticket(1500, { zones: ["eu", "us"] }), 500, "eu");
    expect(e.estimate(ticket(1500, { zones: ["eu"] }))?.waitMs).toBe(500);
  });

  it("forgets the least recently fed classes beyond maxClasses, and ignores bad waits", () => {
    const e = new WaitEstimator({ bandWidth: 1, minSamples: 1, maxClasses: 5 });
    e.record(ticket(0), 111);
    e.record(ticket(50), 222); // pushes band 0's exact class (the oldest) out
    expect(e.estimate(ticket(0))?.basis).not.toBe("exact");
    e.record(ticket(50), Number.NaN);
    e.record(ticket(50), -5);
    expect(e.estimate(ticket(50))).toEqual({ waitMs: 222, samples: 1, basis: "exact" });
    expect(() => new WaitEstimator({ bandWidth: 0 })).toThrow(/bandWidth/);
  });
});
