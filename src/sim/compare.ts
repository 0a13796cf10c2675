/**
 * `--compare`: every policy at its defaults and at its best setting for a wait the user names,
 * and which one to use. What a run measured comes from a runner (the closed loop on generated
 * traffic, a replay on a trace); this module only plans the runs, reads them and chooses:
 *
 * - A setting is **within the target** when its p95 wait is at most the target (the wait 19 in 20
 *   players get: a mean hides the tail players complain about) and it leaves at most
 *   {@link STRANDED_SHARE} of its players waiting at the end. The closed loop's waits count the
 *   players still waiting at their wait so far, but they are per queueing and a returning player
 *   queues many times: players a policy never matches can be a twentieth of the players and still
 *   under a twentieth of the waits, below the p95 (and a trace's replay leaves them out).
 * - A policy's **tuned** setting is its fairest within the target among its defaults and its grid
 *   (`compare-settings.ts`); ties go to the shorter mean wait.
 * - Two runs that formed exactly the same games (the same tickets in the same teams, in the same
 *   order) are the same run: the table says so instead of printing equal figures twice.
 * - The **recommendation** is the fairest setting within the target over every policy, when it is
 *   fairer than the quickest setting within the target by more than {@link NOISE_ERRORS} standard
 *   errors of their difference; otherwise the quickest, since within the run's noise they are
 *   equally fair. The difference's error is √(e₁² + e₂²) from each run's batch-means error: the
 *   runs share their seed (the same newcomers, the same skills), which correlates them
 *   positively, so this overstates the error and the rule leans to the quickest.
 */
import { MatchmakerError } from "../core/errors.js";
import type { PolicyParams } from "../core/policy.js";
import type { Match } from "../core/types.js";
import { COMPARE_GRIDS, settingLabel } from "./compare-settings.js";

/** A setting that leaves more than this share of its players waiting at the end is never within a target. */
export const STRANDED_SHARE = 0.05;

/** How many standard errors of the difference the fairest must beat the quickest by to be recommended over it. */
export const NOISE_ERRORS = 2;

/** What one run measured, in what players feel. */
export interface CompareOutcome {
  /** Seconds, per player. */
  readonly meanWait: number;
  readonly p95Wait: number;
  /** Games measured. */
  readonly games: number;
  /** Mean |P(favourite wins) − 1/T| under the true skills (two teams: |P(win) − ½|); 0 is a coin toss. */
  readonly fairness: number;
  /** The standard error of `fairness` by batch means over the measured games (`batch-means.ts`); null with under two games. */
  readonly fairnessError: number | null;
  /** Share of games whose favourite's true chance is at least the stomp threshold (0.8 for two teams). */
  readonly stompShare: number;
  /** The standard error of `stompShare`, as `fairnessError`'s. */
  readonly stompError: number | null;
  /**
   * Median games until a newcomer's rating is within the band of its skill; null when more than
   * half never got there; absent when the run learns no ratings (a trace).
   */
  readonly placementGames?: number | null;
  /** Players (or tickets) who arrived, and those still waiting at the end. */
  readonly arrived: number;
  readonly stillWaiting: number;
  /** The games formed, as a digest: equal digests, equal games ({@link gamesDigest}). */
  readonly gamesDigest: string;
}

/** Runs one policy at one setting; throws `MatchmakerError("invalid_config")` when the queue refuses the policy. */
export type CompareRunner = (policy: string, params: PolicyParams) => CompareOutcome;

/** One run of a comparison. */
export interface CompareRun {
  readonly policy: string;
  readonly params: PolicyParams;
  /** The policy's defaults (empty params), or a setting of its grid. */
  readonly defaults: boolean;
  readonly outcome: CompareOutcome;
  readonly withinTarget: boolean;
}

/** A policy's row pair: its defaults and its tuned best. */
export interface ComparePolicy {
  readonly policy: string;
  readonly defaults: CompareRun;
  /** Its fairest run within the target; absent when none is within it. */
  readonly tuned?: CompareRun;
  /** What its grid turns (absent: no parameter to tune). */
  readonly turns?: string;
  /** An earlier policy whose defaults formed exactly the same games as this one's. */
  readonly sameGamesAs?: string;
}

export interface Comparison {
  /** The target: p95 wait, seconds. */
  readonly targetWait: number;
  readonly policies: readonly ComparePolicy[];
  /** Policies the queue refused, with its reason. */
  readonly refused: ReadonlyArray<{ readonly policy: string; readonly reason: string }>;
  /** Every run, grid settings included (the plot's points). */
  readonly runs: readonly CompareRun[];
  readonly recommendation: Recommendation;
}

export interface Recommendation {
  /** The recommended run; absent when no run is within the target. */
  readonly run?: CompareRun;
  /** The line printed under the table, saying why. */
  readonly text: string;
}

export interface CompareOptions {
  /** The p95 wait (seconds) a tuned setting must keep. */
  readonly targetWait: number;
  /** The ratings' span (rating points), for grids in rating units. */
  readonly ratingSpan: number;
  /** Teams per game (a free-for-all's players), for the fairness's name in the recommendation. */
  readonly teams: number;
  /** Called after each run, with the runs done and planned. */
  readonly onRun?: (done: number, total: number) => void;
}

/** Within the target: p95 wait at most `targetWait`, and few players left waiting. */
export function withinTarget(outcome: CompareOutcome, targetWait: number): boolean {
  return outcome.p95Wait <= targetWait && outcome.stillWaiting <= STRANDED_SHARE * outcome.arrived;
}

/** `policies` with greedy, the default policy, first: others whose games are its games then say so. */
export function referenceFirst(policies: readonly string[]): string[] {
  return [...policies].sort((a, b) => Number(b === "greedy") - Number(a === "greedy"));
}

/** Fairer first, then the shorter mean wait. */
const fairerFirst = (a: CompareRun, b: CompareRun) =>
  a.outcome.fairness - b.outcome.fairness || a.outcome.meanWait - b.outcome.meanWait;

/** Run every policy at its defaults and over its grid, and choose. */
export function comparePolicies(policies: readonly string[], run: CompareRunner, options: CompareOptions): Comparison {
  const { targetWait, ratingSpan } = options;
  const planned = policies.map((policy) => ({
    policy,
    settings: [{}, ...(COMPARE_GRIDS[policy]?.settings(ratingSpan) ?? [])] as PolicyParams[],
  }));
  const total = planned.reduce((n, p) => n + p.settings.length, 0);
  let done = 0;
  const runs: CompareRun[] = [];
  const refused: Array<{ policy: string; reason: string }> = [];
  const rows: ComparePolicy[] = [];
  for (const { policy, settings } of planned) {
    const mine: CompareRun[] = [];
    for (const params of settings) {
      let outcome: CompareOutcome;
      try {
        outcome = run(policy, params);
      } catch (error) {
        // Only the defaults may be refused (the queue's shape or options): a grid setting refused is a bug.
        if (mine.length > 0 || !(error instanceof MatchmakerError) || error.code !== "invalid_config") throw error;
        refused.push({ policy, reason: error.message });
        done += settings.length;
        options.onRun?.(done, total);
        break;
      }
      mine.push({
        policy,
        params,
        defaults: mine.length === 0,
        outcome,
        withinTarget: withinTarget(outcome, targetWait),
      });
      options.onRun?.(++done, total);
    }
    if (mine.length === 0) continue;
    runs.push(...mine);
    const tuned = mine.filter((r) => r.withinTarget).sort(fairerFirst)[0];
    const twin = rows.find((r) => r.defaults.outcome.gamesDigest === mine[0].outcome.gamesDigest && !r.sameGamesAs);
    rows.push({
      policy,
      defaults: mine[0],
      ...(tuned ? { tuned } : {}),
      ...(COMPARE_GRIDS[policy] ? { turns: COMPARE_GRIDS[policy].turns } : {}),
      ...(twin ? { sameGamesAs: twin.policy } : {}),
    });
  }
  return { targetWait, policies: rows, refused, runs, recommendation: recommend(rows, targetWait, options.teams) };
}

const seconds = (s: number) => (s < 10 ? s.toFixed(1) : s.toFixed(0));
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
/** A run as the recommendation names it: `best-game (threshold=30, ...)`. */
export const runName = (r: CompareRun) => `${r.policy} (${r.defaults ? "defaults" : settingLabel(r.params)})`;

/**
 * Quicker first (the shorter mean wait). Equal waits keep the table's order, greedy first: runs
 * that match as soon as a game's players wait have the same waits, and choosing among them by a
 * fairness within the noise is what the recommendation must not do.
 */
const quickerFirst = (a: CompareRun, b: CompareRun) => {
  const difference = a.outcome.meanWait - b.outcome.meanWait;
  return Math.abs(difference) <= 1e-9 * Math.max(a.outcome.meanWait, b.outcome.meanWait) ? 0 : difference;
};

/** `0.314 ± 0.006`: a fairness and its standard error. */
export const withError = (value: number, error: number | null, digits = 3) =>
  `${value.toFixed(digits)} ± ${error === null ? "?" : error.toFixed(digits)}`;

/** Is `a` fairer than `b` by more than the run's noise ({@link NOISE_ERRORS} standard errors of the difference)? */
export function clearlyFairer(a: CompareOutcome, b: CompareOutcome): boolean {
  if (a.fairnessError === null || b.fairnessError === null) return false;
  return b.fairness - a.fairness > NOISE_ERRORS * Math.hypot(a.fairnessError, b.fairnessError);
}

/**
 * The fairest run within the target when it is clearly fairer than the quickest run within it
 * ({@link clearlyFairer}), else the quickest; and why, against the other.
 */
export function recommend(policies: readonly ComparePolicy[], targetWait: number, teams = 2): Recommendation {
  const fairness = `mean ${fairnessName(teams)}`;
  const tuned = policies.flatMap((p) => (p.tuned ? [p.tuned] : []));
  const best = [...tuned].sort(fairerFirst)[0];
  if (!best) {
    const fastest = [...policies].sort((a, b) => a.defaults.outcome.p95Wait - b.defaults.outcome.p95Wait)[0];
    return {
      text: fastest
        ? `No policy keeps the p95 wait within ${seconds(targetWait)} s on this traffic; the fastest is ${runName(fastest.defaults)} at a p95 wait of ${seconds(fastest.defaults.outcome.p95Wait)} s: name a longer wait, or expect one.`
        : "No policy serves this queue.",
    };
  }
  const o = best.outcome;
  const within = `within your ${seconds(targetWait)} s p95 wait`;
  // The quickest run in the table (a policy's defaults or its tuned setting) within the target.
  const quickest = policies
    .flatMap((p) => [p.defaults, ...(p.tuned && p.tuned !== p.defaults ? [p.tuned] : [])])
    .filter((r) => r.withinTarget)
    .sort(quickerFirst)[0];
  if (quickest.outcome.meanWait < o.meanWait && !clearlyFairer(o, quickest.outcome)) {
    const q = quickest.outcome;
    return {
      run: quickest,
      text: `Recommended: ${runName(quickest)}, the quickest ${within} (mean wait ${seconds(q.meanWait)} s, p95 ${seconds(q.p95Wait)} s): within this run's noise the policies within it are equally fair (the fairest, ${runName(best)}, has ${fairness} ${withError(o.fairness, o.fairnessError)} against ${withError(q.fairness, q.fairnessError)}, less than ${NOISE_ERRORS} standard errors of the difference apart); a longer run (--duration) may tell them apart.`,
    };
  }
  let text = `Recommended: ${runName(best)}: the fairest games among the policies ${within} (${fairness} ${withError(o.fairness, o.fairnessError)}, ${percent(o.stompShare)} stomps, p95 wait ${seconds(o.p95Wait)} s)`;
  if (quickest.outcome.meanWait < o.meanWait) {
    const q = quickest.outcome;
    const ratio = o.stompShare > 0 ? q.stompShare / o.stompShare : Infinity;
    const cost =
      ratio >= 1.1
        ? `${ratio === Infinity ? "stomps where it has none" : `${ratio.toFixed(1)}x the stomps`} (${percent(q.stompShare)})`
        : `less fair games (${fairness} ${withError(q.fairness, q.fairnessError)})`;
    text += `; ${runName(quickest)} is faster (mean wait ${seconds(q.meanWait)} s against ${seconds(o.meanWait)} s) but has ${cost}, beyond this run's noise`;
  } else text += ", and none of them is faster";
  return { run: best, text: `${text}.` };
}

/** What the fairness figure is, in symbols: `|P(win) − ½|` for two teams, the favourite's distance from 1/T otherwise. */
export function fairnessName(teams: number): string {
  return teams === 2 ? "|P(win) − ½|" : `|P(favourite wins) − 1/${teams}|`;
}

/** FNV-1a over the games' teams' ticket ids: two runs with equal digests formed the same games. */
export function gamesDigest(matches: Iterable<Match>): string {
  let hash = 0x811c9dc5;
  let count = 0;
  const mix = (text: string) => {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  };
  for (const match of matches) {
    count++;
    // Teams in a canonical order: the same players on swapped sides are the same game.
    const teams = match.teams.map((team) => [...team.ticketIds].sort().join(",")).sort();
    for (const team of teams) mix(`${team}|`);
    mix(";");
  }
  return `${count}:${(hash >>> 0).toString(16)}`;
}
