/**
 * Win-probability fairness: the gap between the two teams' predicted chances of winning, from
 * openskill's `predictWin`, for ratings that carry uncertainty. openskill is an optional peer
 * dependency (it brings many small packages): it is loaded, synchronously, only when a queue
 * configures this imbalance.
 */
import { createRequire } from "node:module";
import { MatchmakerError } from "./errors.js";
import type { Player } from "./types.js";

type PredictWin = (teams: Array<Array<{ mu: number; sigma: number }>>, options?: { beta?: number }) => number[];

let predictWin: PredictWin | undefined;

function loadPredictWin(): PredictWin {
  if (predictWin) return predictWin;
  try {
    predictWin = (createRequire(import.meta.url)("openskill") as { predictWin: PredictWin }).predictWin;
    return predictWin;
  } catch {
    throw new MatchmakerError(
      "invalid_config",
      'imbalance: "win-probability" needs the openskill package (npm install openskill)',
      "imbalance",
    );
  }
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
