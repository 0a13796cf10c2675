/**
 * The rating system: Weng and Lin's Bayesian approximation (openskill's Plackett-Luce model), which
 * rates teams and free-for-all rankings and carries each rating's uncertainty, on a scale a game
 * reads (a newcomer at 1500 ± 350 by default, as the forum thread's Glicko starts).
 * openskill is an optional peer dependency, loaded when ratings are used.
 */
import { MatchmakerError } from "../core/errors.js";
import { requireOptional } from "../core/optional-package.js";
import type { Rating } from "./types.js";

/** The scale of a season's ratings. */
export interface RatingScale {
  /** A newcomer's rating (mean). @defaultValue 1500 */
  readonly start: number;
  /** A newcomer's uncertainty (standard deviation): Glicko's 350. @defaultValue 350 */
  readonly uncertainty: number;
  /** The spread of one game's performance around a player's skill (openskill's beta). @defaultValue 175 */
  readonly performanceNoise: number;
  /** Uncertainty added before each game, so ratings keep following a skill that drifts (openskill's tau). @defaultValue 3.5 */
  readonly drift: number;
}

/** openskill's own proportions (beta = sigma / 2, tau = sigma / 100) around Glicko's newcomer, 1500 ± 350. */
export const DEFAULT_SCALE: RatingScale = { start: 1500, uncertainty: 350, performanceNoise: 175, drift: 3.5 };

/**
 * Weng and Lin's full variance update (gamma = 1) rather than openskill's default gamma = sigma / c,
 * which shrinks a newcomer's uncertainty so slowly that ratings overshoot and spread to about twice
 * the skills' spread (lab/rating-systems.md).
 */
const FULL_UPDATE = () => 1;

/** Rates one game and predicts one. Pure: the same teams and places give the same ratings. */
export interface RatingSystem {
  readonly scale: RatingScale;
  /** A newcomer's rating. */
  readonly newcomer: Rating;
  /** The teams' ratings after a game in which team `i` took place `ranks[i]` (0 first, ties equal). */
  rate(teams: ReadonlyArray<readonly Rating[]>, ranks: readonly number[]): Rating[][];
  /** Each team's chance of winning, by the ratings (summing to 1). */
  predictWin(teams: ReadonlyArray<readonly Rating[]>): number[];
}

interface OpenSkill {
  rate(teams: Rating[][], options: Record<string, unknown>): Rating[][];
  predictWin(teams: Rating[][], options: Record<string, unknown>): number[];
}

/** Check a scale's numbers: finite, the spreads above 0, the drift at least 0. */
export function checkScale(scale: RatingScale, field = "ratings"): RatingScale {
  const bad = (name: keyof RatingScale, what: string) =>
    new MatchmakerError("invalid_config", `${field}.${name}: must be ${what}`, `${field}.${name}`);
  if (!Number.isFinite(scale.start)) throw bad("start", "a finite number");
  for (const name of ["uncertainty", "performanceNoise"] as const)
    if (!(Number.isFinite(scale[name]) && scale[name] > 0)) throw bad(name, "a number above 0");
  if (!(Number.isFinite(scale.drift) && scale.drift >= 0)) throw bad("drift", "a number of at least 0");
  return scale;
}

/** Weng-Lin (openskill, Plackett-Luce) on `scale`. Throws `invalid_config` when openskill is not installed. */
export function openskillSystem(scale: Partial<RatingScale> = {}): RatingSystem {
  const full = checkScale({ ...DEFAULT_SCALE, ...scale });
  const openskill = requireOptional<OpenSkill>("openskill", "ratings", "ratings");
  const options = {
    mu: full.start,
    sigma: full.uncertainty,
    beta: full.performanceNoise,
    tau: full.drift,
    gamma: FULL_UPDATE,
  };
  const copy = (teams: ReadonlyArray<readonly Rating[]>) =>
    teams.map((team) => team.map((r) => ({ mu: r.mu, sigma: r.sigma })));
  return {
    scale: full,
    newcomer: { mu: full.start, sigma: full.uncertainty },
    rate: (teams, ranks) => openskill.rate(copy(teams), { ...options, rank: [...ranks] }),
    predictWin: (teams) => openskill.predictWin(copy(teams), options),
  };
}

/** One seat of a game to rate: its rating, and how far its window had grown when matched. */
export interface SeatToRate {
  readonly rating: Rating;
  readonly window?: { readonly initial: number; readonly width: number };
}

/**
 * The ratings after a game. With `adjustForGrownWindow` (the forum thread's proposal), a game that
 * only formed because a waiting player's window grew moves nobody's rating further than an even
 * game would have: the favourite who wins still gains little, but an upset costs the favourite
 * (and earns the underdog) only what a loss (a win) at their own level would.
 */
export function rateGame(
  system: RatingSystem,
  teams: ReadonlyArray<readonly SeatToRate[]>,
  ranks: readonly number[],
  adjustForGrownWindow = false,
): Rating[][] {
  const ratings = teams.map((team) => team.map((seat) => seat.rating));
  const after = system.rate(ratings, ranks);
  const grown = teams.some((team) =>
    team.some((seat) => seat.window !== undefined && seat.window.width > seat.window.initial),
  );
  if (!adjustForGrownWindow || !grown) return after;
  // The same game between equals: every mean at the game's mean, uncertainties kept.
  const seats = ratings.flat();
  const mean = seats.reduce((sum, r) => sum + r.mu, 0) / seats.length;
  const even = system.rate(
    ratings.map((team) => team.map((r) => ({ mu: mean, sigma: r.sigma }))),
    ranks,
  );
  return after.map((team, t) =>
    team.map((r, i) => {
      const before = ratings[t]![i]!.mu;
      const limit = Math.abs(even[t]![i]!.mu - mean);
      const change = Math.max(-limit, Math.min(limit, r.mu - before));
      return { mu: before + change, sigma: r.sigma };
    }),
  );
}
