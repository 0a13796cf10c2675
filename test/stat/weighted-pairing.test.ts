/**
 * `weighted-pairing` draws what its weights say, seeded:
 *
 * - the rating differences it draws follow its kernel (a bell curve of standard deviation
 *   `ratingSd`, cut at 4 sd): Pearson's chi-square test at significance α = 0.01, on 10,000 draws
 *   from a pool with one candidate every 0.2 sd; and the same counts reject a kernel 15% wider
 *   (the test has the power to see a wrong kernel);
 * - a recent partner is chosen less often by exactly `recentPartnerFactor`: against a fresh
 *   candidate of equal weight it is chosen with probability f / (1 + f), chi-square at α = 0.01,
 *   both with a given history and through the engine's own `avoidRecent` history.
 */
import { describe, expect, it } from "vitest";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { PolicyContext } from "../../src/core/policy.js";
import type { RepeatAvoidance } from "../../src/core/recent-opponents.js";
import type { Ticket } from "../../src/core/types.js";
import { WeightedPairingPolicy, type WeightedPairingOptions } from "../../src/policies/weighted-pairing.js";
import { chiSquareTest, upperGamma } from "../helpers/goodness-of-fit.js";
import { solo } from "../helpers/tickets.js";
import { twoTeamFields } from "../../src/core/policy.js";

const ALPHA = 0.01;

const OPTIONS: WeightedPairingOptions = {
  ratingSd: 100,
  waitTimePerSecond: 0,
  recentPartnerFactor: 1,
  skipWeight: 0,
  cycleMs: 1000,
  boundMs: 1e12,
  seed: 11,
};

function policy(options: Partial<WeightedPairingOptions>, avoid?: RepeatAvoidance): WeightedPairingPolicy {
  const context: PolicyContext = { ...twoTeamFields(1), imbalance: ratingSumDifference, ...(avoid ? { avoid } : {}) };
  return new WeightedPairingPolicy(context, { ...OPTIONS, ...options });
}

/** Run one cycle at `now` over `pool` (the chooser first, the oldest), forget the rest; the chooser's opponent. */
function opponentOf(p: WeightedPairingPolicy, pool: readonly Ticket[], now: number): Ticket | undefined {
  for (const t of pool) p.add(t);
  const games = p.poll(now);
  for (const t of pool) p.remove(t.id);
  const game = games.find((g) => g.includes(pool[0]));
  return game?.find((t) => t !== pool[0]);
}

describe("the goodness-of-fit helper", () => {
  it("gives the textbook chi-square tail probabilities", () => {
    // χ²(1) 3.841 and χ²(10) 18.307 are the 5% critical values; χ²(4) 13.277 the 1% one.
    expect(upperGamma(0.5, 3.841 / 2)).toBeCloseTo(0.05, 3);
    expect(upperGamma(5, 18.307 / 2)).toBeCloseTo(0.05, 3);
    expect(upperGamma(2, 13.277 / 2)).toBeCloseTo(0.01, 3);
  });
});

describe("weighted-pairing: rating differences follow the kernel", () => {
  const SD = OPTIONS.ratingSd;
  const STEP = SD / 5;
  // Candidates every 0.2 sd out to the kernel's cut-off, 4 sd, on both sides of the chooser.
  const offsets = Array.from({ length: 41 }, (_, i) => (i - 20) * STEP);
  const DRAWS = 10_000;

  /** Counts of the chooser's opponent per offset, over `DRAWS` cycles. */
  function draws(): number[] {
    const p = policy({});
    const counts = offsets.map(() => 0);
    for (let d = 0; d < DRAWS; d++) {
      const now = (d + 1) * OPTIONS.cycleMs;
      const pool = [
        solo(`c${d}`, 1500, { at: now - 1 }),
        ...offsets.map((o, i) => solo(`x${d}-${i}`, 1500 + o, { at: now })),
      ];
      const opponent = opponentOf(p, pool, now)!;
      counts[offsets.indexOf(opponent.players[0].rating - 1500)]++;
    }
    return counts;
  }
  const kernel = (sd: number) => offsets.map((o) => Math.exp(-0.5 * (o / sd) ** 2));

  it(`passes a chi-square test against exp(−d²/2sd²) at α = ${ALPHA}, and rejects a kernel 15% wider`, () => {
    const counts = draws();
    const fit = chiSquareTest(counts, kernel(SD));
    expect(fit.degreesOfFreedom).toBeGreaterThan(20);
    expect(fit.pValue, JSON.stringify(fit.bins)).toBeGreaterThan(ALPHA);
    // The same draws are no fit for a wider bell: the test can tell kernels apart.
    expect(chiSquareTest(counts, kernel(1.15 * SD)).pValue).toBeLessThan(1e-6);
    // Nothing beyond the cut-off is in the pool, and the peak is the most drawn offset.
    expect(counts[20]).toBe(Math.max(...counts));
  });
});

describe("weighted-pairing: recent partners are rarer by recentPartnerFactor", () => {
  const DRAWS = 10_000;

  /** A history in which each `c…` chooser recently played its `r…` candidate. */
  const history: RepeatAvoidance = {
    fallbackMs: 1e12,
    repeatUntil: (a, b) =>
      a.id.slice(1) === b.id.slice(1) && [a.id[0], b.id[0]].sort().join("") === "cr" ? Infinity : -Infinity,
    isRepeat: (a, b) => history.repeatUntil(a, b) === Infinity,
  };

  for (const factor of [0.2, 0.5, 1]) {
    it(`factor ${factor}: against an equal fresh candidate the recent one is chosen with probability f/(1+f)`, () => {
      const p = policy({ recentPartnerFactor: factor, waitTimePerSecond: 0.5, seed: 3 }, history);
      let recent = 0;
      for (let d = 0; d < DRAWS; d++) {
        const now = (d + 1) * OPTIONS.cycleMs;
        // Same distance and same wait: only the recent-ness differs.
        const pool = [
          solo(`c${d}`, 1500, { at: now - 500 }),
          solo(`r${d}`, 1550, { at: now }),
          solo(`f${d}`, 1450, { at: now }),
        ];
        if (opponentOf(p, pool, now)!.id[0] === "r") recent++;
      }
      const expected = factor / (1 + factor);
      const fit = chiSquareTest([recent, DRAWS - recent], [expected, 1 - expected]);
      expect(fit.pValue, `${recent} of ${DRAWS} recent, expected ${expected * DRAWS}`).toBeGreaterThan(ALPHA);
    });
  }

  it("factor 0: a recent partner is never drawn while a fresh one can play", () => {
    const p = policy({ recentPartnerFactor: 0 }, history);
    for (let d = 0; d < 500; d++) {
      const now = (d + 1) * OPTIONS.cycleMs;
      const pool = [
        solo(`c${d}`, 1500, { at: now - 1 }),
        solo(`r${d}`, 1500, { at: now }),
        solo(`f${d}`, 1800, { at: now }),
      ];
      expect(opponentOf(p, pool, now)!.id).toBe(`f${d}`);
    }
  });

  it("through the engine's avoidRecent history: last game's opponent is chosen at rate f/(1+f)", () => {
    const factor = 0.25;
    const mm = new Matchmaker({
      teamSize: 1,
      policy: "weighted-pairing",
      params: { ratingSd: 100, waitTimePerSecond: 0, skipWeight: 0, recentPartnerFactor: factor, seed: 5 },
      avoidRecent: 1,
      avoidRecentFallbackMs: 1e9,
    });
    const TRIALS = 4000;
    let recent = 0;
    for (let t = 0; t < TRIALS; t++) {
      const base = t * 10_000;
      const player = (name: string, at: number): Ticket => ({
        id: `${name}${t}@${at}`,
        players: [{ sessionId: `${name}${t}@${at}`, playerId: `${name}${t}`, rating: 1500 }],
        enqueuedAt: at,
      });
      // a and b play each other (alone in the pool, they pair at the cycle)...
      mm.enqueue(player("a", base + 100), base + 100);
      mm.enqueue(player("b", base + 200), base + 200);
      expect(mm.tick(base + 1000)).toHaveLength(1);
      // ...then a comes back first, with b and a newcomer c: equal ratings, equal waits.
      mm.enqueue(player("a", base + 2100), base + 2100);
      mm.enqueue(player("b", base + 2200), base + 2200);
      mm.enqueue(player("c", base + 2200), base + 2200);
      const [match] = mm.tick(base + 3000);
      const ids = match.teams.flatMap((team) => team.players.map((p) => p.playerId));
      expect(ids).toContain(`a${t}`);
      if (ids.includes(`b${t}`)) recent++;
      for (const w of [...mm.waiting()]) mm.cancel(w.id);
    }
    const expected = factor / (1 + factor);
    const fit = chiSquareTest([recent, TRIALS - recent], [expected, 1 - expected]);
    expect(fit.pValue, `${recent} of ${TRIALS} rematches, expected ${expected * TRIALS}`).toBeGreaterThan(ALPHA);
  });
});
