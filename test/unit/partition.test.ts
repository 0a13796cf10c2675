import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { almanMcKay } from "../../src/core/imbalance.js";
import { partition } from "../../src/core/partition.js";
import type { Player } from "../../src/core/types.js";

const players = (ratings: readonly number[]): Player[] => ratings.map((rating, i) => ({ sessionId: `p${i}`, rating }));

/** Every way to cut `items` into groups of `size` (order of groups and within groups ignored). */
function* groupings<T>(items: readonly T[], size: number): Generator<T[][]> {
  if (items.length === 0) return yield [];
  const [first, ...rest] = items;
  for (const others of combinations(rest, size - 1)) {
    const remaining = rest.filter((x) => !others.includes(x));
    for (const tail of groupings(remaining, size)) yield [[first, ...others], ...tail];
  }
}

function* combinations<T>(items: readonly T[], size: number, start = 0): Generator<T[]> {
  if (size === 0) return yield [];
  for (let i = start; i <= items.length - size; i++)
    for (const tail of combinations(items, size - 1, i + 1)) yield [items[i], ...tail];
}

/** The least imbalance of any split of a group of 2k into two teams of k. */
function bestSplit(group: readonly Player[], k: number, f: (a: Player[], b: Player[]) => number): number {
  let best = Infinity;
  for (const a of combinations(group, k))
    best = Math.min(
      best,
      f(
        a,
        group.filter((p) => !a.includes(p)),
      ),
    );
  return best;
}

describe("partition", () => {
  it("sorts, cuts into runs of 2k and splits each run into the fairest teams", () => {
    const result = partition(players([50, 10, 40, 20, 30, 60, 70, 80, 5]), 2);
    expect(result.games).toHaveLength(2);
    const ratings = (ps: readonly Player[]) => ps.map((p) => p.rating).sort((a, b) => a - b);
    // Run 5, 10, 20, 30: 5 + 30 against 10 + 20.
    expect([ratings(result.games[0].teamA), ratings(result.games[0].teamB)].sort()).toEqual(
      [
        [10, 20],
        [5, 30],
      ].sort(),
    );
    expect(result.games[0].imbalance).toBe(5);
    // Run 40, 50, 60, 70: 40 + 70 against 50 + 60, perfectly fair.
    expect(result.games[1].imbalance).toBe(0);
    expect(result.leftover.map((p) => p.rating)).toEqual([80]);
    expect(result.maxImbalance).toBe(5);
  });

  it("refuses bad input, naming the problem", () => {
    expect(() => partition(players([1, 2]), 0)).toThrow(MatchmakerError);
    expect(() => partition([{ sessionId: "a", rating: NaN }], 1)).toThrow(/non-finite rating/);
    expect(() =>
      partition(
        [
          { sessionId: "a", rating: 1 },
          { sessionId: "a", rating: 2 },
        ],
        1,
      ),
    ).toThrow(/appears twice/);
    expect(partition([], 3)).toEqual({ games: [], leftover: [], maxImbalance: 0 });
  });

  // Theorem 5: the worst game is within rho = 2k^(1/q)(1 + alpha) of the best possible worst game.
  test.prop(
    [
      fc.record({
        k: fc.integer({ min: 1, max: 2 }),
        games: fc.integer({ min: 1, max: 2 }),
        alpha: fc.double({ min: 0, max: 3, noNaN: true }),
        p: fc.oneof(fc.constant(1), fc.constant(2), fc.constant(Infinity)),
        q: fc.oneof(fc.constant(1), fc.constant(2), fc.constant(Infinity)),
        ratings: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 8, maxLength: 8 }),
      }),
    ],
    { numRuns: 300 },
  )(
    "is a rho-approximation of the best min-max partition (brute force over all partitions)",
    ({ k, games, alpha, p, q, ratings }) => {
      const pool = players(ratings.slice(0, games * 2 * k));
      const f = almanMcKay({ alpha, p, q, floor: 0 });
      const ours = partition(pool, k, f);
      expect(ours.games).toHaveLength(games);
      expect(ours.leftover).toHaveLength(0);
      let optimum = Infinity;
      for (const grouping of groupings(pool, 2 * k))
        optimum = Math.min(optimum, Math.max(...grouping.map((g) => bestSplit(g, k, f))));
      const rho = 2 * k ** (q === Infinity ? 0 : 1 / q) * (1 + alpha);
      expect(ours.maxImbalance).toBeGreaterThanOrEqual(optimum - 1e-9);
      expect(ours.maxImbalance).toBeLessThanOrEqual(rho * optimum + 1e-9);
    },
  );
});
