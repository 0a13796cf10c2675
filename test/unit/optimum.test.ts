import { fc, test } from "@fast-check/vitest";
import highsModule from "highs";
import { describe, expect, it } from "vitest";
import {
  SCHLUP_BOT_GAME_COST,
  schlupOptimum,
  schlupPairCost,
  type OfflineArrival,
  type SchlupOptimum,
} from "../../src/sim/optimum.js";
import { Random } from "../../src/sim/random.js";

/**
 * `highs` ships an ES module at run time but CommonJS-style typings, so under NodeNext the
 * default import is typed as the module object: take the loader from whichever it is.
 */
type HighsLoader = typeof highsModule.default;
const loadHighs = (typeof highsModule === "function" ? highsModule : highsModule.default) as HighsLoader;

const at = (time: number, rating: number): OfflineArrival => ({ time, rating });

/** Schlup's pair cost written out again, independently of the module under test. */
function pairCost(a: OfflineArrival, b: OfflineArrival, tauMax: number): number {
  return 2 * Math.abs(a.rating - b.rating) + Math.abs(a.time - b.time) / tauMax;
}

/** Independent brute force: every way to pair players (within tauMax) or give them a bot. */
function bruteForceCost(arrivals: readonly OfflineArrival[], tauMax: number): number {
  const n = arrivals.length;
  const used = new Uint8Array(n);
  const best = (from: number): number => {
    let i = from;
    while (i < n && used[i] === 1) i++;
    if (i >= n) return 0;
    used[i] = 1;
    let result = 4 + best(i + 1); // i plays a bot: 2·1 + τmax/τmax + τmax/τmax
    for (let j = i + 1; j < n; j++) {
      if (used[j] === 1 || Math.abs(arrivals[i].time - arrivals[j].time) > tauMax) continue;
      used[j] = 1;
      result = Math.min(result, pairCost(arrivals[i], arrivals[j], tauMax) + best(i + 1));
      used[j] = 0;
    }
    used[i] = 0;
    return result;
  };
  return best(0);
}

/** The result is a consistent assignment of every player, and its cost adds up. */
function expectWellFormed(arrivals: readonly OfflineArrival[], tauMax: number, result: SchlupOptimum): void {
  const seen = new Array<number>(arrivals.length).fill(0);
  let cost = 0;
  let lastStart = -Infinity;
  for (const [x, y] of result.pairs) {
    seen[x]++;
    seen[y]++;
    expect(arrivals[x].time).toBeLessThanOrEqual(arrivals[y].time);
    expect(arrivals[y].time - arrivals[x].time).toBeLessThanOrEqual(tauMax);
    expect(arrivals[y].time).toBeGreaterThanOrEqual(lastStart); // in the order games start
    lastStart = arrivals[y].time;
    cost += pairCost(arrivals[x], arrivals[y], tauMax);
  }
  let lastBot = -Infinity;
  for (const x of result.botGames) {
    seen[x]++;
    expect(arrivals[x].time).toBeGreaterThanOrEqual(lastBot); // in arrival order
    lastBot = arrivals[x].time;
    cost += 4;
  }
  expect(seen.every((count) => count === 1)).toBe(true);
  expect(result.games).toBe(result.pairs.length + result.botGames.length);
  expect(Math.abs(result.cost - cost)).toBeLessThanOrEqual(1e-9 * Math.max(1, cost));
}

describe("Schlup's cost model", () => {
  it("a bot game costs 4", () => {
    expect(SCHLUP_BOT_GAME_COST).toBe(4);
  });

  it("prices a pair as 2·|rating gap| + wait / tauMax, and forbids waits over tauMax", () => {
    expect(schlupPairCost(at(0, 0.2), at(1, 0.5), 5)).toBeCloseTo(0.8, 12);
    expect(schlupPairCost(at(1, 0.5), at(0, 0.2), 5)).toBeCloseTo(0.8, 12);
    expect(schlupPairCost(at(0, 0.2), at(5, 0.2), 5)).toBe(1);
    expect(schlupPairCost(at(0, 0.2), at(5.000001, 0.2), 5)).toBe(Infinity);
  });
});

describe("schlupOptimum: hand-computed cases", () => {
  it("pairs two players 1 s apart: 2·0.3 + 1/5 = 0.8", () => {
    const result = schlupOptimum([at(0, 0.2), at(1, 0.5)], 5);
    expect(result.cost).toBeCloseTo(0.8, 12);
    expect(result.games).toBe(1);
    expect(result.pairs).toEqual([[0, 1]]);
    expect(result.botGames).toEqual([]);
  });

  it("gives two players 6 s apart a bot each: cost 8", () => {
    const result = schlupOptimum([at(0, 0.2), at(6, 0.5)], 5);
    expect(result.cost).toBe(8);
    expect(result.games).toBe(2);
    expect(result.pairs).toEqual([]);
    expect(result.botGames).toEqual([0, 1]);
  });

  it("allows a wait of exactly tauMax", () => {
    const result = schlupOptimum([at(0, 0.4), at(5, 0.4)], 5);
    expect(result.cost).toBe(1);
    expect(result.pairs).toEqual([[0, 1]]);
  });

  it("handles no players and one player", () => {
    expect(schlupOptimum([], 5)).toEqual({ cost: 0, games: 0, pairs: [], botGames: [] });
    expect(schlupOptimum([at(3, 0.9)], 5)).toEqual({ cost: 4, games: 1, pairs: [], botGames: [0] });
  });

  it("pairs the two close ratings and leaves the outlier to a bot", () => {
    // A-B: 1.6 + 0.2 = 1.8, A-C: 0.1 + 0.4 = 0.5, B-C: 1.5 + 0.2 = 1.7; best A-C + bot for B = 4.5.
    const result = schlupOptimum([at(0, 0.1), at(1, 0.9), at(2, 0.15)], 5);
    expect(result.cost).toBeCloseTo(4.5, 12);
    expect(result.pairs).toEqual([[0, 2]]);
    expect(result.botGames).toEqual([1]);
  });

  it("returns indices into the input, whatever its order", () => {
    // Same three players as above, listed as C, B, A.
    const result = schlupOptimum([at(2, 0.15), at(1, 0.9), at(0, 0.1)], 5);
    expect(result.cost).toBeCloseTo(4.5, 12);
    expect(result.pairs).toEqual([[2, 0]]);
    expect(result.botGames).toEqual([1]);
  });

  it("is not greedy: it skips the first possible partner when that pays", () => {
    // 0.5@0, 0.9@1, 0.5@2, 0.9@3 (tauMax 5): pairing equal ratings, 2 × 0.4 = 0.8, beats
    // pairing neighbours in time, (0.8 + 0.2) + (0.8 + 0.2) = 2.
    const arrivals = [at(0, 0.5), at(1, 0.9), at(2, 0.5), at(3, 0.9)];
    const result = schlupOptimum(arrivals, 5);
    expect(result.cost).toBeCloseTo(0.8, 12);
    expect(result.pairs).toEqual([
      [0, 2],
      [1, 3],
    ]);
  });

  it("solves the blocks between gaps longer than tauMax separately", () => {
    const arrivals = [at(0, 0.3), at(1, 0.35), at(10, 0.9), at(10.5, 0.2), at(30, 0.5), at(31, 0.1), at(33, 0.12)];
    const result = schlupOptimum(arrivals, 5);
    expectWellFormed(arrivals, 5, result);
    expect(result.cost).toBeCloseTo(bruteForceCost(arrivals, 5), 12);
    expect(result.pairs).toEqual([
      [0, 1],
      [2, 3],
      [5, 6],
    ]);
    expect(result.botGames).toEqual([4]);
  });

  it("rejects invalid input with a clear error", () => {
    expect(() => schlupOptimum([], 0)).toThrow(/tauMax/);
    expect(() => schlupOptimum([], -1)).toThrow(/tauMax/);
    expect(() => schlupOptimum([], Number.NaN)).toThrow(/tauMax/);
    expect(() => schlupOptimum([], Infinity)).toThrow(/tauMax/);
    expect(() => schlupOptimum([at(0, 0.5), at(Number.NaN, 0.5)], 5)).toThrow(/arrival 1 has time NaN/);
    expect(() => schlupOptimum([at(Infinity, 0.5)], 5)).toThrow(/arrival 0 has time Infinity/);
    expect(() => schlupOptimum([at(0, -0.1)], 5)).toThrow(/arrival 0 has rating -0.1/);
    expect(() => schlupOptimum([at(0, 1.5)], 5)).toThrow(/rating 1.5/);
    expect(() => schlupOptimum([at(0, Number.NaN)], 5)).toThrow(/rating NaN/);
  });
});

const arrivalArb = fc.record({
  time: fc.oneof(
    fc.double({ min: 0, max: 20, noNaN: true }),
    fc.integer({ min: 0, max: 40 }).map((half) => half / 2), // ties in time
  ),
  rating: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.25, 0.5, 1)),
});

describe("schlupOptimum against brute force (<= 10 players)", () => {
  test.prop([fc.array(arrivalArb, { maxLength: 10 }), fc.constantFrom(1, 2.5, 5, 12)], { numRuns: 1500 })(
    "same optimal cost, and a well-formed assignment",
    (arrivals, tauMax) => {
      const result = schlupOptimum(arrivals, tauMax);
      expectWellFormed(arrivals, tauMax, result);
      const expected = bruteForceCost(arrivals, tauMax);
      expect(Math.abs(result.cost - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, expected));
    },
  );
});

/**
 * OPT written directly as the minimum-cost problem (not through the max-weight reduction):
 * binary p_xy per allowed pair and b_x per bot game, each player in exactly one game.
 */
function optimumMip(arrivals: readonly OfflineArrival[], tauMax: number): string {
  const terms: string[] = [];
  const rows: string[][] = arrivals.map(() => []);
  const binaries: string[] = [];
  arrivals.forEach((_, x) => {
    terms.push(`+ 4 b${x}`);
    rows[x].push(`b${x}`);
    binaries.push(`b${x}`);
  });
  for (let x = 0; x < arrivals.length; x++) {
    for (let y = x + 1; y < arrivals.length; y++) {
      if (Math.abs(arrivals[x].time - arrivals[y].time) > tauMax) continue;
      const name = `p${x}_${y}`;
      terms.push(`+ ${pairCost(arrivals[x], arrivals[y], tauMax)} ${name}`);
      rows[x].push(name);
      rows[y].push(name);
      binaries.push(name);
    }
  }
  const lines = ["Minimize", " cost:"];
  for (let i = 0; i < terms.length; i += 8) lines.push(`  ${terms.slice(i, i + 8).join(" ")}`);
  lines.push("Subject To");
  rows.forEach((names, x) => lines.push(` once${x}: ${names.join(" + ")} = 1`));
  lines.push("Binary");
  for (let i = 0; i < binaries.length; i += 12) lines.push(` ${binaries.slice(i, i + 12).join(" ")}`);
  lines.push("End");
  return lines.join("\n");
}

describe("schlupOptimum against HiGHS (the min-cost formulation as a MIP)", () => {
  it("agrees on Poisson sequences of 60 players", async () => {
    const highs = await loadHighs();
    const rng = new Random(5); // seeded: the same cases on every run
    const random = () => rng.uniform();
    for (const rate of [0.4, 1, 3]) {
      const arrivals: OfflineArrival[] = [];
      let time = 0;
      for (let i = 0; i < 60; i++) {
        time += -Math.log1p(-random()) / rate;
        arrivals.push(at(time, random()));
      }
      const result = schlupOptimum(arrivals, 5);
      expectWellFormed(arrivals, 5, result);
      const mip = highs.solve(optimumMip(arrivals, 5), { output_flag: false, mip_rel_gap: 0, mip_abs_gap: 0 });
      expect(mip.Status).toBe("Optimal");
      expect(Math.abs(result.cost - mip.ObjectiveValue)).toBeLessThanOrEqual(1e-6 * Math.max(1, mip.ObjectiveValue));
    }
  });
});
