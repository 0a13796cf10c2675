/**
 * Win-probability fairness: the gap between the two teams' predicted chances of winning, from
 * openskill's `predictWin`, for ratings that carry uncertainty. openskill is an optional peer
 * dependency (it brings many small packages): it is loaded, synchronously, only when a queue
 * configures this imbalance.
 */
import { requireOptional } from "./optional-package.js";
import type { Player } from "./types.js";

type PredictWin = (teams: Array<Array<{ mu: number; sigma: number }>>, options?: { beta?: number }) => number[];

function loadPredictWin(): PredictWin {
  return requireOptional<{ predictWin: PredictWin }>("openskill", 'imbalance: "win-probability"', "imbalance")
    .predictWin;
}

/**
 * |P(A wins) − P(B wins)| by openskill: a player's rating is its mean, its `uncertainty` (or
 * `sigma` when it has none) its standard deviation; `beta` is the performance noise. Both are
 * on the rating's own scale (openskill's defaults, 25/3 and 25/6, suit ratings around 25).
 */
export function winProbabilityGap(params: { readonly sigma: number; readonly beta: number }) {
  const predict = loadPredictWin();
  const team = (players: readonly Player[]) =>
    players.map((p) => ({ mu: p.rating, sigma: p.uncertainty ?? params.sigma }));
  return (teamA: readonly Player[], teamB: readonly Player[]): number => {
    const [a, b] = predict([team(teamA), team(teamB)], { beta: params.beta });
    return Math.abs(a - b);
  };
}
