import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { assembleTeams, canAssemble, EXACT_SPLIT_LIMIT, subsetSums, type TeamSplit } from "../../src/core/assembly.js";
import { ratingSumDifference, type ImbalanceFn } from "../../src/core/imbalance.js";
import { ratingSum, type Side, type Ticket } from "../../src/core/types.js";
import { bruteFeasible, bruteMinImbalance } from "../helpers/brute-force.js";
import { ids, party, ratingArb, solo, ticketSpecArb, ticketsFromSpecs, type TicketSpec } from "../helpers/tickets.js";

const players = (tickets: readonly Ticket[]) => tickets.flatMap((t) => t.players);
const seatCount = (tickets: readonly Ticket[]) => players(tickets).length;

/** Every ticket exactly once, k players per team, sides honoured, imbalance as reported. */
function expectValidSplit(
  split: TeamSplit,
  tickets: readonly Ticket[],
  k: number,
  imbalance: ImbalanceFn = ratingSumDifference,
) {
  expect(seatCount(split.teamA)).toBe(k);
  expect(seatCount(split.teamB)).toBe(k);
  // Same ticket objects, each on exactly one team (so no party is split).
  const placed = [...split.teamA, ...split.teamB];
  expect(placed).toHaveLength(tickets.length);
  for (const t of tickets) expect(placed.filter((p) => p === t)).toHaveLength(1);
  for (const t of split.teamA) expect(t.side).not.toBe("B");
  for (const t of split.teamB) expect(t.side).not.toBe("A");
  expect(split.imbalance).toBe(imbalance(players(split.teamA), players(split.teamB)));
}

describe("assembleTeams: examples", () => {
  it("puts two solos against each other in a 1v1, the first on side A", () => {
    const a = solo("a", 1500);
    const b = solo("b", 1420);
    expect(assembleTeams([a, b], 1, ratingSumDifference)).toEqual({ teamA: [a], teamB: [b], imbalance: 80 });
  });

  it("pairs 1400 with 1700 against 1500 and 1600 (imbalance 0)", () => {
    const tickets = [solo("r1500", 1500), solo("r1600", 1600), solo("r1400", 1400), solo("r1700", 1700)];
    const split = assembleTeams(tickets, 2, ratingSumDifference)!;
    expectValidSplit(split, tickets, 2);
    expect(split.imbalance).toBe(0);
    // With nobody bound to a side, the first ticket (r1500) plays A; ticket order is kept.
    expect(ids(split.teamA)).toEqual(["r1500", "r1600"]);
    expect(ids(split.teamB)).toEqual(["r1400", "r1700"]);
  });

  it("among equally balanced splits keeps the first in ticket order", () => {
    // Four equal solos: {t0,t1}, {t0,t2} and {t0,t3} all have imbalance 0.
    const tickets = ["t0", "t1", "t2", "t3"].map((id) => solo(id, 1500));
    const split = assembleTeams(tickets, 2, ratingSumDifference)!;
    expect(ids(split.teamA)).toEqual(["t0", "t1"]);
    expect(ids(split.teamB)).toEqual(["t2", "t3"]);
    // Sides first: the tie is broken among the choice-free tickets, in their order.
    const sided = [solo("b", 1500, { side: "B" }), ...tickets.slice(0, 3)];
    expect(ids(assembleTeams(sided, 2, ratingSumDifference)!.teamA)).toEqual(["t0", "t1"]);
  });

  it("keeps a duo together against two solos", () => {
    const duo = party("duo", [1000, 2000]);
    const tickets = [solo("s1", 1200), duo, solo("s2", 1300)];
    const split = assembleTeams(tickets, 2, ratingSumDifference)!;
    expectValidSplit(split, tickets, 2);
    expect(ids(split.teamB)).toEqual(["duo"]);
    expect(split.imbalance).toBe(500);
  });

  it("refuses the wrong number of players", () => {
    expect(assembleTeams([solo("a"), solo("b"), solo("c")], 2, ratingSumDifference)).toBeUndefined();
    expect(
      assembleTeams([solo("a"), solo("b"), solo("c"), solo("d"), solo("e")], 2, ratingSumDifference),
    ).toBeUndefined();
    expect(assembleTeams([], 1, ratingSumDifference)).toBeUndefined();
  });

  it("refuses a party larger than a team and a ticket without players", () => {
    expect(assembleTeams([party("trio", [1, 2, 3]), solo("a")], 2, ratingSumDifference)).toBeUndefined();
    expect(canAssemble([party("trio", [1, 2, 3]), solo("a")], 2)).toBe(false);
    const empty = party("empty", []);
    expect(assembleTeams([empty, solo("a"), solo("b")], 1, ratingSumDifference)).toBeUndefined();
    expect(canAssemble([empty, solo("a"), solo("b")], 1)).toBe(false);
  });

  it("refuses party sizes that cannot fill a team exactly (three duos for 3v3)", () => {
    const tickets = [party("d1", [1, 1]), party("d2", [1, 1]), party("d3", [1, 1])];
    expect(assembleTeams(tickets, 3, ratingSumDifference)).toBeUndefined();
    expect(canAssemble(tickets, 3)).toBe(false);
  });

  it("never matches two side-A solos in a 1v1, but matches A with B", () => {
    const a1 = solo("a1", 1500, { side: "A" });
    const a2 = solo("a2", 1500, { side: "A" });
    const b = solo("b", 1500, { side: "B" });
    expect(assembleTeams([a1, a2], 1, ratingSumDifference)).toBeUndefined();
    expect(canAssemble([a1, a2], 1)).toBe(false);
    expect(assembleTeams([b, a1], 1, ratingSumDifference)).toMatchObject({ teamA: [a1], teamB: [b] });
  });

  it("puts a choice-free ticket on the side its opponent left open", () => {
    const b = solo("b", 1500, { side: "B" });
    const free = solo("free", 1500);
    expect(assembleTeams([b, free], 1, ratingSumDifference)).toMatchObject({ teamA: [free], teamB: [b] });
  });

  it("honours sides even when the other split is better balanced", () => {
    // Balance would want 1000+2000 vs 1500+1500, but both strong players insist on A.
    const tickets = [solo("x", 2000, { side: "A" }), solo("y", 1000, { side: "A" }), solo("p", 1500), solo("q", 1500)];
    const split = assembleTeams(tickets, 2, ratingSumDifference)!;
    expectValidSplit(split, tickets, 2);
    expect(ids(split.teamA)).toEqual(["x", "y"]);
    expect(split.imbalance).toBe(0);
    const lopsided = [solo("x", 3000, { side: "A" }), solo("y", 3000, { side: "A" }), solo("p", 1000), solo("q", 1000)];
    expect(assembleTeams(lopsided, 2, ratingSumDifference)!.imbalance).toBe(4000);
  });

  it("refuses more than a team's worth of players bound to one side", () => {
    const tickets = [
      solo("a1", 1, { side: "A" }),
      solo("a2", 1, { side: "A" }),
      solo("a3", 1, { side: "A" }),
      solo("f", 1),
    ];
    expect(assembleTeams(tickets, 2, ratingSumDifference)).toBeUndefined();
    expect(canAssemble(tickets, 2)).toBe(false);
  });

  it("minimises the imbalance function it is given, and reports its value", () => {
    // Imbalance = difference of the teams' best players: the best two must be split.
    const bestDiff: ImbalanceFn = (a, b) =>
      Math.abs(Math.max(...a.map((p) => p.rating)) - Math.max(...b.map((p) => p.rating)));
    const tickets = [solo("a", 100), solo("b", 200), solo("c", 2000), solo("d", 1900)];
    const split = assembleTeams(tickets, 2, bestDiff)!;
    expectValidSplit(split, tickets, 2, bestDiff);
    expect(split.imbalance).toBe(100);
    expect(ids(split.teamA).includes("c")).not.toBe(ids(split.teamA).includes("d"));
  });
});

describe("subsetSums", () => {
  it("marks the sums reachable from the sizes, capped", () => {
    expect(subsetSums([], 5)).toBe(0b1n);
    expect(subsetSums([2, 3], 10)).toBe(0b101101n); // 0, 2, 3, 5
    expect(subsetSums([4, 4], 5)).toBe(0b10001n); // 0, 4 (8 is above the cap)
    expect(subsetSums([1, 1, 1], 2)).toBe(0b111n);
  });

  test.prop([fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 8 }), fc.integer({ min: 0, max: 20 })], {
    numRuns: 200,
  })("agrees with enumerating every subset", (sizes, cap) => {
    let expected = 0n;
    for (let mask = 0; mask < 1 << sizes.length; mask++) {
      const sum = sizes.reduce((s, size, i) => (mask & (1 << i) ? s + size : s), 0);
      if (sum <= cap) expected |= 1n << BigInt(sum);
    }
    expect(subsetSums(sizes, cap)).toBe(expected);
  });
});

/**
 * Random small assembly inputs: teamSize 1..5, parties of 1..k with sides. Most draws total
 * exactly 2k players (padded with solos), some are cut short or overfull.
 */
const smallCase = fc.integer({ min: 1, max: 5 }).chain((k) =>
  fc
    .record({
      k: fc.constant(k),
      specs: fc.array(ticketSpecArb(k), { minLength: 1, maxLength: 10 }),
      shape: fc.constantFrom("exact", "exact", "exact", "raw"),
      padRatings: fc.array(ratingArb, { minLength: 10, maxLength: 10 }),
    })
    .map(({ k, specs, shape, padRatings }) => {
      let kept: TicketSpec[] = specs;
      if (shape === "exact") {
        kept = [];
        let total = 0;
        for (const s of specs) {
          if (total + s.ratings.length > 2 * k) continue;
          kept.push(s);
          total += s.ratings.length;
        }
        for (let i = 0; total < 2 * k; i++, total++) kept.push({ ratings: [padRatings[i]] });
      }
      return { k, tickets: ticketsFromSpecs(kept) };
    }),
);

describe("assembleTeams and canAssemble against a brute force over every assignment", () => {
  test.prop([smallCase], { numRuns: 400 })(
    "finds a split exactly when one exists, and the least imbalanced one",
    ({ k, tickets }) => {
      const feasible = bruteFeasible(tickets, k);
      expect(canAssemble(tickets, k)).toBe(feasible);
      const split = assembleTeams(tickets, k, ratingSumDifference);
      expect(split !== undefined).toBe(feasible);
      if (!split) return;
      expectValidSplit(split, tickets, k);
      expect(split.imbalance).toBe(bruteMinImbalance(tickets, k));
      // With nobody bound to a side, the first ticket plays A.
      if (tickets.every((t) => !t.side)) expect(split.teamA).toContain(tickets[0]);
    },
  );

  test.prop([smallCase], { numRuns: 150 })(
    "also minimises a non-additive imbalance (spread of team means)",
    ({ k, tickets }) => {
      const meanDiff: ImbalanceFn = (a, b) =>
        Math.abs(a.reduce((s, p) => s + p.rating, 0) / a.length - b.reduce((s, p) => s + p.rating, 0) / b.length);
      const split = assembleTeams(tickets, k, meanDiff);
      expect(split !== undefined).toBe(bruteFeasible(tickets, k));
      if (!split) return;
      expectValidSplit(split, tickets, k, meanDiff);
      expect(split.imbalance).toBe(bruteMinImbalance(tickets, k, meanDiff));
    },
  );
});

/**
 * Games of 5v5 up to 8v8 made mostly of choice-free tickets (9 to 16 of them, the sizes where
 * the search changes shape): solos, a few duos or trios, now and then a ticket bound to a side.
 * Always exactly 2k players, so a split exists unless the sides clash.
 */
const bigFreeCase = fc.integer({ min: 5, max: 8 }).chain((k) =>
  fc
    .record({
      k: fc.constant(k),
      groups: fc.array(
        fc.record({
          size: fc.oneof(
            { weight: 6, arbitrary: fc.constant(1) },
            { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) },
          ),
          side: fc.oneof(
            { weight: 8, arbitrary: fc.constant<Side | undefined>(undefined) },
            { weight: 1, arbitrary: fc.constantFrom<Side>("A", "B") },
          ),
        }),
        { maxLength: 16 },
      ),
      // A narrow band as well as the full range: many near-ties make the best split harder to hit.
      ratings: fc.array(fc.oneof(ratingArb, fc.integer({ min: 1490, max: 1510 })), { minLength: 16, maxLength: 16 }),
    })
    .map(({ k, groups, ratings }) => {
      const specs: TicketSpec[] = [];
      let total = 0;
      let r = 0;
      const rating = () => ratings[r++ % ratings.length] + r; // distinct-ish ratings, still near-ties
      for (const g of groups) {
        if (total + g.size > 2 * k) continue;
        specs.push({ ratings: Array.from({ length: g.size }, rating), side: g.side });
        total += g.size;
      }
      while (total < 2 * k) {
        specs.push({ ratings: [rating()] });
        total++;
      }
      return { k, tickets: ticketsFromSpecs(specs) };
    })
    .filter(({ tickets }) => tickets.filter((t) => !t.side).length > 8),
);

describe("assembleTeams on 5v5 to 8v8 games with more than 8 choice-free tickets, against brute force", () => {
  test.prop([bigFreeCase], { numRuns: 120 })("finds the least imbalanced split", ({ k, tickets }) => {
    const split = assembleTeams(tickets, k, ratingSumDifference);
    const best = bruteMinImbalance(tickets, k); // undefined: no valid split
    expect(split?.imbalance).toBe(best);
    if (split) expectValidSplit(split, tickets, k);
  });
});

/** Independent feasibility for large inputs: reachable team-A sizes as a set of numbers. */
function feasibleBySets(tickets: readonly Ticket[], k: number): boolean {
  if (tickets.some((t) => t.players.length < 1 || t.players.length > k)) return false;
  const sizeOn = (side: Side) => seatCount(tickets.filter((t) => t.side === side));
  if (seatCount(tickets) !== 2 * k || sizeOn("A") > k || sizeOn("B") > k) return false;
  let reach = new Set([sizeOn("A")]);
  for (const t of tickets.filter((t) => !t.side))
    reach = new Set([...reach, ...[...reach].map((s) => s + t.players.length)]);
  return reach.has(k);
}

/**
 * Exact optimum of the rating-sum difference over every subset of choice-free tickets sent to
 * team A (up to 2^20 subsets, so only for a handful of cases).
 */
function exactOptimum(tickets: readonly Ticket[], k: number): number | undefined {
  const free = tickets.filter((t) => !t.side);
  const forcedA = tickets.filter((t) => t.side === "A");
  const total = tickets.reduce((s, t) => s + ratingSum(t), 0);
  const size = new Int32Array(1 << free.length);
  const sum = new Float64Array(1 << free.length);
  size[0] = seatCount(forcedA);
  sum[0] = forcedA.reduce((s, t) => s + ratingSum(t), 0);
  let best = size[0] === k ? Math.abs(2 * sum[0] - total) : Infinity;
  for (let mask = 1; mask < 1 << free.length; mask++) {
    const low = 31 - Math.clz32(mask & -mask);
    const rest = mask & (mask - 1);
    size[mask] = size[rest] + free[low].players.length;
    sum[mask] = sum[rest] + ratingSum(free[low]);
    if (size[mask] === k) best = Math.min(best, Math.abs(2 * sum[mask] - total));
  }
  return best === Infinity ? undefined : best;
}

describe(`assembleTeams above ${EXACT_SPLIT_LIMIT} choice-free tickets (rating-greedy fallback)`, () => {
  it("uses the fallback for 20 solos and still seats 10 per team", () => {
    const tickets = Array.from({ length: 20 }, (_, i) => solo(`s${i}`, 1000 + 10 * i));
    const split = assembleTeams(tickets, 10, ratingSumDifference)!;
    expectValidSplit(split, tickets, 10);
    // Ratings 1000..1190 in steps of 10: an even split exists, the greedy is within one step pair.
    expect(split.imbalance).toBeLessThanOrEqual(100);
  });

  it("finds the only valid split when a big party forces everyone else to the other team", () => {
    // 16 solos rated 100 and one party of 16 rated 1: the solos must all play together.
    const big = party("big", Array(16).fill(1));
    const solos = Array.from({ length: 16 }, (_, i) => solo(`s${i}`, 100));
    const tickets = [...solos.slice(0, 8), big, ...solos.slice(8)];
    const split = assembleTeams(tickets, 16, ratingSumDifference)!;
    expectValidSplit(split, tickets, 16);
    expect(ids(split.teamA).includes("big") ? split.teamB : split.teamA).toHaveLength(16);
    expect(split.imbalance).toBe(1600 - 16);
  });

  /**
   * Solos only: the greedy (highest rating first, onto the lighter team while both have room)
   * is never worse than the simple alternating split of the sorted ratings (1st, 3rd, 5th, ...
   * against 2nd, 4th, 6th, ...), which is itself at most highest − lowest rating.
   */
  test.prop(
    [
      fc.integer({ min: 9, max: 16 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          ratings: fc.array(fc.oneof(ratingArb, fc.integer({ min: 1400, max: 1600 })), {
            minLength: 2 * k,
            maxLength: 2 * k,
          }),
        }),
      ),
    ],
    { numRuns: 300 },
  )("with solos, is valid and no worse than the alternating split of sorted ratings", ({ k, ratings }) => {
    const tickets = ratings.map((r, i) => solo(`s${i}`, r));
    const split = assembleTeams(tickets, k, ratingSumDifference)!;
    expectValidSplit(split, tickets, k);
    const sorted = [...ratings].sort((a, b) => b - a);
    const alternating = Math.abs(sorted.reduce((s, r, i) => (i % 2 === 0 ? s + r : s - r), 0));
    expect(split.imbalance).toBeLessThanOrEqual(alternating);
    expect(alternating).toBeLessThanOrEqual(sorted[0] - sorted[sorted.length - 1]);
  });

  /** Mixed parties (1..4 players) with some side preferences, teamSize 10..14. */
  const largeMixed = fc.integer({ min: 10, max: 14 }).chain((k) =>
    fc
      .array(
        fc.record({
          size: fc.oneof(
            { weight: 3, arbitrary: fc.constant(1) },
            { weight: 2, arbitrary: fc.integer({ min: 2, max: 4 }) },
          ),
          rating: ratingArb,
          side: fc.constantFrom<Side | undefined>(
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            "A",
            "B",
          ),
        }),
        { minLength: 2 * k, maxLength: 2 * k },
      )
      .map((draws) => {
        const tickets: Ticket[] = [];
        let total = 0;
        for (const [i, d] of draws.entries()) {
          if (total === 2 * k) break;
          const size = Math.min(d.size, 2 * k - total);
          tickets.push(
            party(
              `t${i}`,
              Array.from({ length: size }, (_, j) => d.rating + 7 * j),
              { side: d.side },
            ),
          );
          total += size;
        }
        return { k, tickets };
      }),
  );

  test.prop([largeMixed], { numRuns: 300 })(
    "with mixed parties and sides, returns a valid split exactly when one exists",
    ({ k, tickets }) => {
      const feasible = feasibleBySets(tickets, k);
      expect(canAssemble(tickets, k)).toBe(feasible);
      const split = assembleTeams(tickets, k, ratingSumDifference);
      expect(split !== undefined).toBe(feasible);
      if (split) expectValidSplit(split, tickets, k);
    },
  );

  /**
   * Against the exact optimum (2^n subsets, so few runs): the fallback's imbalance exceeds the
   * optimum by less than the rating sum of the heaviest ticket.
   */
  test.prop(
    [
      largeMixed.filter(
        ({ tickets }) =>
          tickets.filter((t) => !t.side).length > EXACT_SPLIT_LIMIT && tickets.filter((t) => !t.side).length <= 19,
      ),
    ],
    {
      numRuns: 25,
    },
  )("with mixed parties, stays within one heaviest ticket of the optimum", ({ k, tickets }) => {
    const split = assembleTeams(tickets, k, ratingSumDifference);
    const optimum = exactOptimum(tickets, k);
    expect(split?.imbalance === undefined).toBe(optimum === undefined);
    if (!split) return;
    expect(split.imbalance).toBeGreaterThanOrEqual(optimum!);
    expect(split.imbalance).toBeLessThanOrEqual(optimum! + Math.max(...tickets.map(ratingSum)));
  });
});
