import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";

describe("multi-queue acceptance window", () => {
  it("is the ticket's own rating range, and the whole range once it reached tau_max", () => {
    const mm = new Matchmaker({
      teamSize: 1,
      policy: "multi-queue",
      params: { r: 4 },
      ratingRange: { min: 0, max: 1000 },
      maxWaitMs: 5000,
    });
    mm.enqueue({ id: "low", players: [{ sessionId: "a", rating: 100 }], enqueuedAt: 0 }, 0);
    mm.enqueue({ id: "top", players: [{ sessionId: "b", rating: 1000 }], enqueuedAt: 1000 }, 1000);
    const window = (id: string, now: number) => mm.policy.acceptanceWindow?.(id, now);
    expect(window("low", 1000)).toEqual({ min: 0, max: 250 });
    expect(window("top", 1000)).toEqual({ min: 750, max: 1000 });
    expect(window("low", 5000)).toEqual({ min: 0, max: 1000 });
    expect(window("top", 5000)).toEqual({ min: 750, max: 1000 });
    expect(window("nobody", 5000)).toBeUndefined();
    mm.cancel("low");
    expect(window("low", 1000)).toBeUndefined();
  });

  it("is absent for policies without a window", () => {
    const mm = new Matchmaker({ teamSize: 1, policy: "greedy" });
    expect(mm.policy.acceptanceWindow).toBeUndefined();
  });
});
