/**
 * The closed loop's win model, Thurstone–Mosteller: each player's performance in a game is
 * Normal(skill, β²), independent of everyone else's; a team performs the sum of its players'
 * performances and the teams finish in order of performance (a free-for-all is teams of one).
 * Two teams: P(A beats B) = Φ((ΣA − ΣB) / (β·√(nA + nB))). More teams: P(t first) =
 * ∫ φ(z) Π_{u≠t} Φ((S_t + s_t·z − S_u) / s_u) dz with s_t = β·√n_t, by Simpson's rule.
 */
import type { Random } from "./random.js";

/**
 * The standard normal CDF Φ, from the complementary error function's Chebyshev fit (Numerical
 * Recipes' erfcc, relative error below 1.2e-7 everywhere).
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

const STANDARD_DENSITY = 1 / Math.sqrt(2 * Math.PI);
/** Simpson's rule over z in [−8, 8]: the tails beyond hold under 1e-15 of the mass. */
const STEPS = 320;
const REACH = 8;

/**
 * Each team's true chance of finishing first, given its players' true skills (summing to 1).
 * Two teams by the closed form; more by one-dimensional integration (error far below 1e-6).
 */
export function winChances(skills: ReadonlyArray<readonly number[]>, performanceNoise: number): number[] {
  const sums = skills.map((team) => team.reduce((s, x) => s + x, 0));
  const spreads = skills.map((team) => performanceNoise * Math.sqrt(team.length));
  if (skills.length === 2) {
    const a = normalCdf((sums[0] - sums[1]) / Math.hypot(spreads[0], spreads[1]));
    return [a, 1 - a];
  }
  const h = (2 * REACH) / STEPS;
  return sums.map((sum, t) => {
    let total = 0;
    for (let i = 0; i <= STEPS; i++) {
      const z = -REACH + i * h;
      const x = sum + spreads[t] * z;
      let f = STANDARD_DENSITY * Math.exp((-z * z) / 2);
      for (let u = 0; u < sums.length && f > 0; u++) if (u !== t) f *= normalCdf((x - sums[u]) / spreads[u]);
      total += f * (i === 0 || i === STEPS ? 1 : i % 2 === 1 ? 4 : 2);
    }
    return (total * h) / 3;
  });
}

/** One game's places (0 first) drawn from the model: teams ordered by their summed performances. */
export function drawPlaces(
  skills: ReadonlyArray<readonly number[]>,
  performanceNoise: number,
  random: Random,
): number[] {
  const performances = skills.map((team) => team.reduce((s, x) => s + x + performanceNoise * random.normal(), 0));
  const order = performances.map((_, t) => t).sort((a, b) => performances[b] - performances[a] || a - b);
  const places = new Array<number>(skills.length);
  order.forEach((team, place) => (places[team] = place));
  return places;
}

/**
 * How far a game is from fair for `T` teams: |P(favourite wins) − 1/T|, which for two teams is
 * |P(team 0 wins) − 1/2|.
 */
export function unfairness(chances: readonly number[]): number {
  return Math.max(...chances) - 1 / chances.length;
}

/** The favourite's true chance from which a game of two teams is a stomp, unless another is named. */
export const DEFAULT_STOMP_CHANCE = 0.8;

/**
 * The favourite's chance that makes a game a stomp for `teams` teams: `twoTeamThreshold` (e.g.
 * 0.8) for two, and the same share of the way from an even game (1/T) to a certain one (1) for
 * more: 1/T + (threshold − 1/2)·(1 − 1/T)/(1/2).
 */
export function stompThreshold(teams: number, twoTeamThreshold: number): number {
  return 1 / teams + ((twoTeamThreshold - 0.5) * (1 - 1 / teams)) / 0.5;
}
