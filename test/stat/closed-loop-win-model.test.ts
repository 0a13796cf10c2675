/**
 * The closed loop's win model against its closed form: Thurstone–Mosteller's sampled win
 * frequencies match Φ((ΣA − ΣB) / (β·√(nA + nB))) for two teams, and the integrated chances for
 * more, each within 4.5 binomial standard errors (a false alarm about once in 150,000 checks).
 */
import { describe, expect, it } from "vitest";
import { Random } from "../../src/sim/random.js";
import { drawPlaces, normalCdf, winChances } from "../../src/sim/win-model.js";

const BETA = 250;
const DRAWS = 20_000;

/** How often each team finished first in `DRAWS` seeded games. */
function firstPlaceShares(skills: number[][], seed: number): number[] {
  const random = new Random(seed);
  const firsts = new Array<number>(skills.length).fill(0);
  for (let i = 0; i < DRAWS; i++) firsts[drawPlaces(skills, BETA, random).indexOf(0)]++;
  return firsts.map((n) => n / DRAWS);
}

function expectWithinCi(observed: number, p: number) {
  expect(Math.abs(observed - p)).toBeLessThanOrEqual(4.5 * Math.sqrt((p * (1 - p)) / DRAWS) + 1e-12);
}

describe("win model: Thurstone–Mosteller", () => {
  it("Φ matches its known values", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963985)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655254, 6);
    expect(normalCdf(3)).toBeCloseTo(0.998650102, 6);
  });

  const twoTeams: Array<[string, number[][]]> = [
    ["1v1, even", [[1500], [1500]]],
    ["1v1, 200 apart", [[1700], [1500]]],
    ["1v1, 600 apart", [[1200], [1800]]],
    [
      "2v2, sums 300 apart",
      [
        [1600, 1500],
        [1400, 1400],
      ],
    ],
    [
      "5v5, one star",
      [
        [2500, 1500, 1500, 1500, 1500],
        [1700, 1700, 1700, 1700, 1700],
      ],
    ],
    ["2 v 1 (short-handed)", [[900, 900], [1600]]],
  ];
  it.each(twoTeams)("two teams (%s): sampled wins match Φ((ΣA − ΣB)/(β√(nA+nB)))", (_, skills) => {
    const sum = (team: number[]) => team.reduce((s, x) => s + x, 0);
    const closed = normalCdf(
      (sum(skills[0]) - sum(skills[1])) / (BETA * Math.sqrt(skills[0].length + skills[1].length)),
    );
    expect(winChances(skills, BETA)[0]).toBeCloseTo(closed, 12);
    expectWithinCi(firstPlaceShares(skills, 7)[0], closed);
  });

  it("free-for-all and several teams: sampled firsts match the integrated chances", () => {
    const games = [
      [[1500], [1500], [1500], [1500]],
      [[1800], [1500], [1300], [1200], [1000]],
      [
        [1500, 1500],
        [1700, 1200],
        [1400, 1400],
      ],
    ];
    games.forEach((skills, g) => {
      const chances = winChances(skills, BETA);
      expect(chances.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 6);
      firstPlaceShares(skills, 11 + g).forEach((share, t) => expectWithinCi(share, chances[t]));
    });
    // Equal teams are a fair lottery: 1/T each, to Φ's accuracy (about 1e-7).
    for (const p of winChances([[1500], [1500], [1500], [1500]], BETA)) expect(p).toBeCloseTo(0.25, 6);
  });

  it("a team far behind leaves the others the two-team closed form", () => {
    const [a, b] = winChances([[1600], [1450], [-50_000]], BETA);
    expect(a).toBeCloseTo(normalCdf(150 / (BETA * Math.SQRT2)), 6);
    expect(a + b).toBeCloseTo(1, 6);
  });
});
