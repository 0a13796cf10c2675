import type { Player } from "./types.js";

/**
 * How unfair a split into two teams is: 0 is perfectly balanced, larger is worse.
 * Must be symmetric in its two arguments.
 */
export type ImbalanceFn = (teamA: readonly Player[], teamB: readonly Player[]) => number;

/** The default imbalance: the absolute difference of the two teams' rating sums. */
export const ratingSumDifference: ImbalanceFn = (teamA, teamB) => {
  let diff = 0;
  for (const p of teamA) diff += p.rating;
  for (const p of teamB) diff -= p.rating;
  return Math.abs(diff);
};
