/**
 * What players felt in a closed-loop run: how fair their games were by the true skills, how
 * often a game was a stomp, how long they waited, and how soon a newcomer's rating found its skill.
 */
import { nearestRank } from "../core/stats.js";
import type { GameShape } from "../core/shape.js";
import type { PolicyParams } from "../core/policy.js";
import type { ClosedLoopTrace } from "./closed-loop.js";
import { batchMeansError } from "./batch-means.js";
import { DEFAULT_STOMP_CHANCE, stompThreshold, unfairness, winChances } from "./win-model.js";

/** How soon newcomers were placed: rated games until |rating − skill| < band first held. */
export interface NewcomerPlacement {
  /** The band (rating points). */
  readonly band: number;
  /**
   * Median games to placement (0: placed on arrival, the start rating already in the band).
   * Over newcomers placed, and those who left unplaced (counted as never placed); those still
   * playing unplaced at the end are left out. Null when more than half were never placed.
   */
  readonly medianGames: number | null;
  /** The 90th percentile of the same; null when more than a tenth were never placed. */
  readonly p90Games: number | null;
  /** `within` of {@link shareWithin}. */
  readonly within: number;
  /**
   * Share of newcomers placed within `within` games, among those whose outcome is known (placed
   * within it, played that many games, or left).
   */
  readonly shareWithin: number;
}

/** One closed-loop run's figures (games after the warm-up; players over the whole run). */
export interface ClosedLoopReport {
  readonly policy: string;
  readonly params: PolicyParams;
  readonly shape: GameShape;
  /** True when the queue matched on the true skills (the reference). */
  readonly oracle: boolean;
  /** Games measured (after the warm-up). */
  readonly games: number;
  /** Players who ever arrived (every one a newcomer at the start rating). */
  readonly players: number;
  /**
   * Mean over games of |P(favourite wins) − 1/T| under the true skills (T teams; a free-for-all's
   * teams are its players), which for two teams is |P(team 0 wins) − 1/2|. 0 is a coin toss.
   */
  readonly fairness: number;
  /**
   * The standard error of `fairness` by batch means (`batch-means.ts`: the measured games cut into
   * 20 runs of consecutive games; consecutive games share players, so the plain per-game error
   * would understate it). Null with fewer than two games.
   */
  readonly fairnessError: number | null;
  /**
   * Share of games whose favourite's true chance is at least the stomp threshold: `stompChance`
   * ({@link DEFAULT_STOMP_CHANCE}) for two teams, the same share of the way from 1/T to 1 for T teams.
   */
  readonly stompShare: number;
  /** The standard error of `stompShare`, as {@link fairnessError}'s. */
  readonly stompError: number | null;
  /**
   * The same measure by the ratings the queue matched on (the learned means; the skills for the
   * oracle): how fair the queue believed its games were.
   */
  readonly believedFairness: number;
  /** Share of games the true favourite won (its expectation is 1/T + `fairness`). */
  readonly favouriteWon: number;
  /**
   * The mean and p95 wait per player (each queueing of a player is one wait): the waits of the
   * measured games' players, and of those still waiting at the end, counted at their wait so far
   * (a policy that leaves players waiting is not the faster for it).
   */
  readonly waitMeanMs: number;
  readonly waitP95Ms: number;
  readonly placement: NewcomerPlacement;
  /** Mean |learned rating − true skill| over the players still around (waiting, playing or away) at the end. */
  readonly ratingError: number;
  /** Players waiting in the queue when the run ended. */
  readonly stillWaiting: number;
}

/** The report of `trace`. */
export function closedLoopReport(trace: ClosedLoopTrace): ClosedLoopReport {
  const { config } = trace;
  const first = Math.floor(trace.games.length * (config.warmupShare ?? 0.2));
  const measured = trace.games.slice(first);
  const unfair = new Float64Array(measured.length);
  const stomps = new Float64Array(measured.length);
  let favouriteWon = 0;
  let believed = 0;
  const beta = config.performanceNoise ?? trace.system.scale.performanceNoise;
  const stompAt = (teams: number) => stompThreshold(teams, config.stompChance ?? DEFAULT_STOMP_CHANCE);
  const waits: number[] = [];
  measured.forEach((game, g) => {
    unfair[g] = unfairness(game.chances);
    believed += unfairness(
      winChances(
        game.match.teams.map((team) => team.players.map((p) => p.rating)),
        beta,
      ),
    );
    const best = Math.max(...game.chances);
    stomps[g] = best >= stompAt(game.chances.length) ? 1 : 0;
    if (game.places[game.chances.indexOf(best)] === 0) favouriteWon++;
    for (const ticket of game.match.tickets) waits.push(game.match.createdAt - ticket.enqueuedAt);
  });
  for (const since of trace.waitingSince) waits.push(trace.endMs - since);
  const count = measured.length || 1;
  const active = trace.players.filter((p) => p.state !== "gone");
  const sum = (values: Float64Array) => values.reduce((s, x) => s + x, 0);
  return {
    policy: config.policy,
    params: config.params ?? {},
    shape: trace.shape,
    oracle: config.oracle ?? false,
    games: measured.length,
    players: trace.players.length,
    fairness: sum(unfair) / count,
    fairnessError: batchMeansError(unfair),
    stompShare: sum(stomps) / count,
    stompError: batchMeansError(stomps),
    believedFairness: believed / count,
    favouriteWon: favouriteWon / count,
    waitMeanMs: waits.reduce((s, w) => s + w, 0) / (waits.length || 1),
    waitP95Ms: nearestRank(Float64Array.from(waits).sort(), 95),
    placement: placement(trace),
    ratingError: active.reduce((s, p) => s + Math.abs(p.rating.mu - p.skill), 0) / (active.length || 1),
    stillWaiting: trace.players.filter((p) => p.state === "waiting").length,
  };
}

function placement(trace: ClosedLoopTrace): NewcomerPlacement {
  const band = trace.config.newcomerBand ?? 100;
  const within = trace.config.placedWithin ?? 10;
  const known: number[] = [];
  let decided = 0;
  let placedWithin = 0;
  for (const p of trace.players) {
    if (p.placedAfter !== undefined) known.push(p.placedAfter);
    else if (p.state === "gone") known.push(Infinity);
    if ((p.placedAfter !== undefined && p.placedAfter <= within) || p.games >= within || p.state === "gone") {
      decided++;
      if (p.placedAfter !== undefined && p.placedAfter <= within) placedWithin++;
    }
  }
  const sorted = Float64Array.from(known).sort();
  const finite = (x: number) => (Number.isFinite(x) && sorted.length > 0 ? x : null);
  return {
    band,
    medianGames: finite(nearestRank(sorted, 50)),
    p90Games: finite(nearestRank(sorted, 90)),
    within,
    shareWithin: placedWithin / (decided || 1),
  };
}
