/**
 * How good a game of any shape is, for policies that rank games (`best-game`), and a lower bound
 * of it from the lowest and highest ticket ratings, which lets a search over rating order stop.
 *
 * Teams are scored by the queue's imbalance (for more than two teams, the largest imbalance
 * between two of them, as the assembly reports it). A free-for-all has no teams to balance: its
 * quality is the rating spread of its players (highest minus lowest), or, with Alman and McKay's
 * imbalance, its uniformity term v_q alone (the fairness term d_p compares two teams).
 */
import { qUniformity, type ImbalanceFn, type ResolvedImbalance } from "../../core/imbalance.js";
import type { GameShape } from "../../core/shape.js";

/** Slack on lower bounds so that rounding never prunes a set that ties or wins. */
const BOUND_SLACK = 1 - 1e-12;

/**
 * A free-for-all's quality as an imbalance function of its players, however they are passed
 * (its two arguments are read as one game): v_q of the skills for `alman-mckay`, else the spread.
 */
export function freeForAllQuality(spec: ResolvedImbalance | undefined): ImbalanceFn {
  if (spec?.kind === "alman-mckay") {
    const { q, floor } = spec;
    return (a, b) => {
      const skills: number[] = [];
      for (const p of a) skills.push(Math.max(0, p.rating - floor));
      for (const p of b) skills.push(Math.max(0, p.rating - floor));
      return qUniformity(skills, q);
    };
  }
  return freeForAllSpread;
}

/** The spread of a free-for-all's players (its two arguments read as one game); one function, so a policy can tell it. */
export const freeForAllSpread: ImbalanceFn = (a, b) => {
  let low = Infinity;
  let high = -Infinity;
  for (const team of [a, b])
    for (const p of team) {
      if (p.rating < low) low = p.rating;
      if (p.rating > high) high = p.rating;
    }
  return high > low ? high - low : 0;
};

/**
 * A lower bound on the quality of any game of `shape` whose lowest and highest tickets have mean
 * ratings `low` and `high`, when the measure allows one; player spread is at least the spread of
 * ticket means, and the floor shift is monotone.
 *
 * - Teams with Alman and McKay's imbalance: their Lemma 6, v_q of 2m skills ≥ m^(−1/q)·spread/2,
 *   and f ≥ v_q. With more than two teams the pair of teams holding the lowest and the highest
 *   player (or any pair with the team holding both) has that spread, and the game's imbalance is
 *   at least that pair's.
 * - Teams of one with the rating-sum imbalance: the spread itself.
 * - A free-for-all of k: the spread, or for v_q, (2/k)^(1/q)·spread/2 (the two extreme skills
 *   deviate from the mean by spread/2 at least together). The spread bound is exact (no slack)
 *   when `low` and `high` lie within the ratings of the tickets they stand for.
 */
export function qualityLowerBound(
  shape: GameShape,
  spec: ResolvedImbalance | undefined,
): ((low: number, high: number) => number) | undefined {
  // Lemma 6 over n players: v_q ≥ (2/n)^(1/q)·spread/2, i.e. m^(−1/q)·spread/2 for two teams of m.
  const pairPlayers = shape.kind === "teams" ? 2 * shape.teamSize : shape.players;
  if (spec?.kind === "alman-mckay") {
    const factor = ((spec.q === Infinity ? 1 : (pairPlayers / 2) ** (-1 / spec.q)) / 2) * BOUND_SLACK;
    const floor = spec.floor;
    return (low, high) => factor * (Math.max(0, high - floor) - Math.max(0, low - floor));
  }
  // A free-for-all's spread: exact, so that a set that only ties stops the search too (the
  // caller places each ticket at a rating within its party's, so even rounded the bound holds).
  if (shape.kind === "free-for-all") return (low, high) => high - low;
  if (spec?.kind === "rating-sum" && shape.teamSize === 1) return (low, high) => (high - low) * BOUND_SLACK;
  return undefined;
}
