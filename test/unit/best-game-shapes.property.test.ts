/**
 * `best-game` beyond two teams: a free-for-all of k ranked by its players' rating spread (v_q with
 * the Alman–McKay imbalance), and three or four small teams ranked by the shared assembly's split.
 *
 * - Free-for-all, solos, any window and budget: the best game is the pool's best k-subset by
 *   spread (k consecutive players in rating order), checked against every k-subset.
 * - Parties (a party of p counts p seats), window ≥ n − 1 and an exhaustive budget: the pool's
 *   best set of tickets seating exactly k, by spread and by v_q.
 * - v_q with the default window and budget: the k consecutive players from every anchor are
 *   always scored, so the game is within 2·(k/2)^(1/q) of the pool's best.
 * - Three teams of two: the pool's best game by the assembly's imbalance (window ≥ n − 1).
 * - A join's work (rows read, search steps, evaluations) does not grow with the pool. (That the
 *   incremental candidate equals a fresh build's, in these shapes too, is in
 *   best-game-incremental.property.test.ts.)
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { assembleGame } from "../../src/core/game-assembly.js";
import { imbalanceFunction, qUniformity, resolveImbalance, type ImbalanceSpec } from "../../src/core/imbalance.js";
import type { PolicyParams } from "../../src/core/policy.js";
import { maxPartyOf, seatsOf, teamSizeOf, type GameShape } from "../../src/core/shape.js";
import type { Ticket } from "../../src/core/types.js";
import type { BestGamePolicy } from "../../src/policies/best-game.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { idSet as idsOf, ids, party, solo } from "../helpers/tickets.js";

const ffa = (players: number): GameShape => ({ kind: "free-for-all", players, minPlayers: players, countMultiple: 1 });
const teams = (count: number, teamSize: number): GameShape => ({
  kind: "teams",
  teams: count,
  teamSize,
  minTeamSize: teamSize,
});

const SPREAD: ImbalanceSpec = { kind: "rating-sum" };

function make(shape: GameShape, spec: ImbalanceSpec, params: PolicyParams = {}): BestGamePolicy {
  const imbalanceSpec = resolveImbalance(spec);
  return defaultPolicies.create(
    "best-game",
    {
      shape,
      seats: seatsOf(shape),
      teamSize: teamSizeOf(shape),
      imbalance: imbalanceFunction(imbalanceSpec),
      imbalanceSpec,
    },
    params,
  ) as BestGamePolicy;
}

const ratingsOf = (tickets: readonly Ticket[]): number[] => tickets.flatMap((t) => t.players.map((p) => p.rating));
const spreadOf = (tickets: readonly Ticket[]): number => {
  const r = ratingsOf(tickets);
  return Math.max(...r) - Math.min(...r);
};
const seatCount = (tickets: readonly Ticket[]): number => tickets.reduce((n, t) => n + t.players.length, 0);
/** v_q with the default floor 0 (the ratings here are not negative). */
const vq = (q: number) => (tickets: readonly Ticket[]) => qUniformity(ratingsOf(tickets), q);
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** The least `value` over every set of `pool`'s tickets seating exactly `seats` (undefined: none). */
function bruteBest(
  pool: readonly Ticket[],
  seats: number,
  value: (tickets: Ticket[]) => number | undefined,
): number | undefined {
  let best: number | undefined;
  for (let m = 1; m < 1 << pool.length; m++) {
    const chosen = pool.filter((_, i) => m & (1 << i));
    if (seatCount(chosen) !== seats) continue;
    const x = value(chosen);
    if (x !== undefined && (best === undefined || x < best)) best = x;
  }
  return best;
}

/** A pool of up to `n` tickets of at most `maxParty` players, ratings 0..3000 (coarse: many ties). */
const poolArb = (n: number, maxParty: number) =>
  fc
    .record({
      coarse: fc.boolean(),
      specs: fc.array(fc.record({ size: fc.integer({ min: 1, max: maxParty }), seed: fc.nat() }), {
        minLength: 1,
        maxLength: n,
      }),
    })
    .chain(({ coarse, specs }) =>
      fc.tuple(
        ...specs.map(({ size }) =>
          fc.array(
            coarse ? fc.integer({ min: 0, max: 6 }).map((x) => 1400 + 50 * x) : fc.integer({ min: 0, max: 3000 }),
            {
              minLength: size,
              maxLength: size,
            },
          ),
        ),
      ),
    )
    .map((ratings) => ratings.map((r, i) => party(`t${i}`, r, { at: i })));

function addAll(p: BestGamePolicy, pool: readonly Ticket[]): void {
  for (const t of pool) p.add(t, t.enqueuedAt);
}

describe("best-game, a free-for-all: the best game against every set of the pool", () => {
  test.prop([fc.integer({ min: 2, max: 6 }).chain((k) => fc.tuple(fc.constant(k), poolArb(14, 1))), fc.boolean()], {
    numRuns: 300,
  })("solos, default or narrowest window: the least spread of any k players", ([k, pool], narrow) => {
    const p = make(ffa(k), SPREAD, narrow ? { window: k - 1, budget: 1 } : {});
    addAll(p, pool);
    const want = bruteBest(pool, k, spreadOf);
    const got = p.peek();
    expect(got?.imbalance).toBe(want);
    if (got) {
      expect(seatCount(got.tickets)).toBe(k);
      expect(spreadOf(got.tickets)).toBe(got.imbalance);
    }
  });

  test.prop([fc.integer({ min: 2, max: 6 }).chain((k) => fc.tuple(fc.constant(k), poolArb(12, Math.min(k, 3))))], {
    numRuns: 300,
  })("parties, the whole pool in the window, exhaustive budget: the least spread of any set seating k", ([k, pool]) => {
    const p = make(ffa(k), SPREAD, { window: 1024, budget: "inf" });
    addAll(p, pool);
    const got = p.peek();
    expect(got?.imbalance).toBe(bruteBest(pool, k, spreadOf));
    if (got) expect(seatCount(got.tickets)).toBe(k);
  });

  test.prop(
    [
      fc.integer({ min: 2, max: 5 }).chain((k) => fc.tuple(fc.constant(k), poolArb(11, Math.min(k, 2)))),
      fc.constantFrom(1, 2, Infinity),
    ],
    { numRuns: 200 },
  )(
    "v_q, parties, the whole pool in the window, exhaustive budget: the least v_q of any set seating k",
    ([k, pool], q) => {
      const p = make(
        ffa(k),
        { kind: "alman-mckay", alpha: 1, p: 1, q: q === Infinity ? "inf" : q },
        {
          window: 1024,
          budget: "inf",
        },
      );
      addAll(p, pool);
      const want = bruteBest(pool, k, vq(q));
      const got = p.peek();
      if (want === undefined) expect(got).toBeUndefined();
      else expect(close(got!.imbalance, want)).toBe(true);
    },
  );

  test.prop(
    [fc.integer({ min: 2, max: 6 }).chain((k) => fc.tuple(fc.constant(k), poolArb(14, 1))), fc.constantFrom(1, 2, 3)],
    { numRuns: 200 },
  )("v_q, solos, default window and budget: within 2·(k/2)^(1/q) of the pool's best", ([k, pool], q) => {
    const p = make(ffa(k), { kind: "alman-mckay", alpha: 1, p: 1, q });
    addAll(p, pool);
    const want = bruteBest(pool, k, vq(q));
    const got = p.peek();
    if (want === undefined) {
      expect(got).toBeUndefined();
      return;
    }
    const rho = 2 * (k / 2) ** (1 / q);
    expect(got!.imbalance).toBeLessThanOrEqual(rho * want + 1e-9);
    // Never worse than the best run of k consecutive players, which every anchor scores.
    const sorted = [...pool].sort((a, b) => a.players[0].rating - b.players[0].rating);
    let run = Infinity;
    for (let i = 0; i + k <= sorted.length; i++) run = Math.min(run, vq(q)(sorted.slice(i, i + k)));
    expect(got!.imbalance).toBeLessThanOrEqual(run + 1e-9);
  });
});

describe("best-game, a free-for-all larger than a row's bits (60 players)", () => {
  it("forms the best run of 60 solos, and with parties the best set within the window", () => {
    const k = 60;
    let seed = 9;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pool = Array.from({ length: 300 }, (_, i) => solo(`s${i}`, Math.round(random() * 30_000), { at: i }));
    const p = make(ffa(k), SPREAD, { threshold: 0 });
    addAll(p, pool);
    const sorted = pool.map((t) => t.players[0].rating).sort((a, b) => a - b);
    let best = Infinity;
    for (let i = 0; i + k <= sorted.length; i++) best = Math.min(best, sorted[i + k - 1] - sorted[i]);
    const game = p.peek()!;
    expect(game.imbalance).toBe(best);
    expect(spreadOf(game.tickets)).toBe(best);
    expect(new Set(ids(game.tickets)).size).toBe(k);
    // Parties beside the solos: a set that is not a run from its anchor, seating exactly k.
    for (let i = 0; i < 20; i++) p.add(party(`p${i}`, [100 * i, 100 * i + 7, 100 * i + 9], { at: 300 + i }), 300 + i);
    const withParties = p.peek()!;
    expect(seatCount(withParties.tickets)).toBe(k);
    expect(spreadOf(withParties.tickets)).toBe(withParties.imbalance);
    const fresh = make(ffa(k), SPREAD, { threshold: 0 });
    for (const t of [
      ...pool,
      ...Array.from({ length: 20 }, (_, i) => party(`p${i}`, [100 * i, 100 * i + 7, 100 * i + 9], { at: 300 + i })),
    ])
      fresh.add(t, t.enqueuedAt);
    expect(ids(withParties.tickets)).toEqual(ids(fresh.peek()!.tickets));
  });
});

describe("best-game, three teams of two: the best game against every set of the pool", () => {
  test.prop([poolArb(10, 2)], { numRuns: 150 })(
    "the whole pool in the window, exhaustive budget: the least imbalance of the assembly's splits",
    (pool) => {
      const shape = teams(3, 2);
      const f = imbalanceFunction(resolveImbalance(SPREAD));
      const p = make(shape, SPREAD, { window: 1024, budget: "inf" });
      addAll(p, pool);
      const want = bruteBest(pool, 6, (chosen) => assembleGame(chosen, shape, f)?.imbalance);
      expect(p.peek()?.imbalance).toBe(want);
    },
  );
});

describe("best-game, a free-for-all: when a game is good enough", () => {
  it("forms the best game once its spread is at most threshold + growth × its longest wait", () => {
    const mm = new Matchmaker({
      maxPlayers: 3,
      policy: "best-game",
      params: { threshold: 100, thresholdGrowthPerSecond: 10 },
    });
    mm.enqueue(solo("a", 1000, { at: 0 }), 0);
    mm.enqueue(solo("b", 1300, { at: 1000 }), 1000);
    mm.enqueue(solo("c", 1400, { at: 2000 }), 2000);
    // Spread 400: due when 100 + 10 × wait ≥ 400, 30 s after the oldest joined.
    expect(mm.tick(2000)).toEqual([]);
    expect(mm.nextWakeup(2000)).toBe(30_000);
    expect(mm.tick(29_999)).toEqual([]);
    const [m] = mm.tick(30_000);
    expect(idsOf(m.tickets)).toEqual(["a", "b", "c"]);
    expect(m.quality.spread).toBe(400);
    // A closer game is due sooner: 1300, 1400, 1410 (spread 110) 1 s after its oldest joined.
    mm.enqueue(solo("b2", 1300, { at: 40_000 }), 40_000);
    mm.enqueue(solo("c2", 1400, { at: 40_500 }), 40_500);
    mm.enqueue(solo("d2", 1410, { at: 40_500 }), 40_500);
    expect(mm.tick(40_500)).toEqual([]);
    expect(mm.nextWakeup(40_500)).toBe(41_000);
    expect(idsOf(mm.tick(41_000)[0].tickets)).toEqual(["b2", "c2", "d2"]);
  });
});

describe("best-game, more teams: served while an exact split is cheap", () => {
  it("forms 3 teams of 3 and 4 teams of 2; refuses 3 teams of 4 at start-up, naming the shape and the cost", () => {
    for (const options of [
      { teamSize: 3, teams: 3 },
      { teamSize: 2, teams: 4 },
      { teamSize: 1, teams: 16 },
    ])
      expect(() => new Matchmaker({ ...options, policy: "best-game" })).not.toThrow();
    expect(() => new Matchmaker({ teamSize: 4, teams: 3, policy: "best-game" })).toThrow(
      /best-game policy: does not form games of 3 teams of 4: .*5,775 splits × 3 pairs of teams = 17,325 imbalance evaluations, more than the 1,000/,
    );
    expect(() => new Matchmaker({ teamSize: 2, teams: 5, policy: "best-game" })).toThrow(/5 teams of 2/);
  });
});

describe("best-game beyond two teams: a join's work does not grow with the pool", () => {
  /**
   * Mean work per join into a pool of `size` waiting tickets whose ratings are spread over
   * 6 × `size` points, so that pools of every size have the same density and differ in size alone.
   */
  function workPerJoin(shape: GameShape, spec: ImbalanceSpec, partyShare: number, size: number): number {
    const p = make(shape, spec, { threshold: 0 });
    let seed = 5;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const maxParty = Math.min(3, maxPartyOf(shape));
    let id = 0;
    const join = () => {
      const players = random() < partyShare ? 2 + Math.floor(random() * (maxParty - 1)) : 1;
      const ratings = Array.from({ length: players }, () => Math.round(random() * 6 * size));
      p.add(party(`t${id}`, ratings, { at: id }), id++);
    };
    while (p.size < size) join();
    const before = p.searchWork;
    for (let i = 0; i < 300; i++) join();
    return (p.searchWork - before) / 300;
  }

  it.each([
    ["a free-for-all of 8, solos, spread", ffa(8), SPREAD, 0],
    ["a free-for-all of 6, parties, spread", ffa(6), SPREAD, 0.3],
    ["a free-for-all of 6, solos, v_2", ffa(6), { kind: "alman-mckay", alpha: 1, p: 1, q: 2 } as ImbalanceSpec, 0],
    ["three teams of two, parties", teams(3, 2), SPREAD, 0.3],
  ])("%s: the same work per join at 300 and at 3,000 waiting", (_name, shape, spec, partyShare) => {
    const small = workPerJoin(shape, spec, partyShare, 300);
    const large = workPerJoin(shape, spec, partyShare, 3000);
    expect(small).toBeGreaterThan(0);
    expect(large / small).toBeGreaterThan(0.8);
    expect(large / small).toBeLessThan(1.25);
  });

  it("a free-for-all of k solos by spread: about k anchors of k rows each, whatever the pool", () => {
    for (const k of [4, 16]) {
      const p = make(ffa(k), SPREAD, { threshold: 0 });
      for (let i = 0; i < 5000; i++) p.add(solo(`s${i}`, (i * 7919) % 3001, { at: i }), i);
      const before = p.searchWork;
      p.add(solo("last", 1500.5, { at: 5000 }), 5000);
      // k anchors searched (the newcomer and the k − 1 before it), each reading at most k + 1 rows.
      expect(p.searchWork - before).toBeLessThanOrEqual(k * (k + 1));
    }
  });
});
