/**
 * `npm run sim -- --compare [--target-wait 30s] [closed-loop options]`: every policy through the
 * closed loop (`closed-loop.ts`: players with hidden skills, ratings learned from their results)
 * at its defaults and at its best setting within the target wait, as one table with a
 * recommendation; `--plot FILE.svg` draws wait against fairness. The traffic flags are the closed
 * loop's (`--closed-loop`'s parser reads them). On a recorded trace: `--trace FILE --compare`.
 */
import { parseArgs } from "node:util";
import { describeShape, type GameShape } from "../core/shape.js";
import { resolveShape } from "../options/shape-options.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { openskillSystem } from "../ratings/rating-system.js";
import { closedLoop, populationOf, type ClosedLoopConfig } from "./closed-loop.js";
import { closedLoopReport } from "./closed-loop-measures.js";
import { CLOSED_LOOP_USAGE, parseClosedLoopArgs } from "./closed-loop-cli.js";
import { comparePolicies, gamesDigest, referenceFirst, type CompareOutcome, type CompareRunner } from "./compare.js";
import { DEFAULT_STOMP_CHANCE } from "./win-model.js";
import { comparePoints, comparisonTable } from "./compare-report.js";
import { parseFlags, parseOrExplain, UsageError } from "./options.js";
import { writeComparePlot } from "./plot.js";

/** Simulated time of each run unless `--duration` or `--games` says otherwise: 2 hours (about 700 games of 2v2). */
export const COMPARE_DURATION_S = 7200;
/** The target wait unless one is named (p95, seconds). */
export const DEFAULT_TARGET_WAIT_S = 30;

export const COMPARE_USAGE = `usage: npm run sim -- --compare [--target-wait 30s] [--plot FILE.svg] [--json] [traffic options]

  Every policy at its defaults and at its best setting for your wait, through the closed loop
  (players with hidden true skills, ratings learned from their results, newcomers at 1500): mean
  and p95 wait (players still waiting at the end count their wait so far), fairness (mean
  |P(win) − ½| by the true skills) and stomps (favourite's chance ≥ ${DEFAULT_STOMP_CHANCE}), each
  with its standard error (batch means), games until a newcomer's rating is within 100 of its
  skill; then a recommendation: the fairest within your wait, unless it is not fairer than the
  quickest beyond the run's noise (two standard errors), then the quickest.

  --target-wait T   the p95 wait (T or Ts seconds, Tm minutes) a tuned setting must keep (default ${DEFAULT_TARGET_WAIT_S}s)
  --plot FILE.svg   draw p95 wait against fairness, one line per policy
  --json            print the comparison as one JSON object
  traffic options   those of --closed-loop below, except --policy, --set and --oracle
                    (default --duration ${COMPARE_DURATION_S}: two simulated hours per run)
  With --trace FILE: the recorded traffic instead (see --trace).`;

export interface CompareRequest {
  readonly base: Omit<ClosedLoopConfig, "policy">;
  readonly targetWait: number;
  readonly plot?: string;
  readonly json: boolean;
}

/** `30`, `30s`, `2m`: seconds. */
export function parseWait(option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m)?$/.exec(text.trim());
  const value = match ? Number(match[1]) * (match[2] === "m" ? 60 : 1) : NaN;
  if (!(value > 0) || !Number.isFinite(value))
    throw new UsageError(`${option}: a positive wait in seconds (30, 30s) or minutes (2m), got ${text}`);
  return value;
}

/** The comparison's own flags, taken out of `argv`; the rest is the closed loop's. */
const OWN_FLAGS = {
  compare: { type: "boolean" },
  "target-wait": { type: "string" },
  plot: { type: "string" },
  json: { type: "boolean" },
} as const;

export function parseCompareArgs(argv: readonly string[]): CompareRequest {
  const { tokens } = parseArgs({ args: [...argv], options: OWN_FLAGS, strict: false, tokens: true });
  const own = new Set<number>();
  for (const t of tokens)
    if (t.kind === "option" && t.name in OWN_FLAGS) {
      own.add(t.index);
      if (t.value !== undefined && t.inlineValue === false) own.add(t.index + 1);
    }
  const mine = argv.filter((_, i) => own.has(i));
  const rest = argv.filter((_, i) => !own.has(i));
  const o = parseFlags("--compare", mine, OWN_FLAGS);
  for (const flag of ["--policy", "--set", "--oracle"])
    if (rest.some((a) => a === flag || a.startsWith(`${flag}=`)))
      throw new UsageError(`--compare runs every policy at its defaults and over its settings: leave out ${flag}`);
  if (o.plot !== undefined && !o.plot.endsWith(".svg")) throw new UsageError("--plot: the file name must end in .svg");
  const timed = rest.some((a) => /^--(duration|games)(=|$)/.test(a));
  const { base } = parseClosedLoopArgs([
    ...rest,
    "--policy",
    "all",
    ...(timed ? [] : ["--duration", String(COMPARE_DURATION_S)]),
  ]);
  return {
    base,
    targetWait: o["target-wait"] === undefined ? DEFAULT_TARGET_WAIT_S : parseWait("--target-wait", o["target-wait"]),
    ...(o.plot !== undefined ? { plot: o.plot } : {}),
    json: o.json ?? false,
  };
}

/** One closed-loop run as a comparison's outcome. */
export function closedLoopRunner(base: Omit<ClosedLoopConfig, "policy">): CompareRunner {
  return (policy, params): CompareOutcome => {
    const trace = closedLoop({ ...base, policy, params });
    const report = closedLoopReport(trace);
    return {
      meanWait: report.waitMeanMs / 1000,
      p95Wait: report.waitP95Ms / 1000,
      games: report.games,
      fairness: report.fairness,
      fairnessError: report.fairnessError,
      stompShare: report.stompShare,
      stompError: report.stompError,
      placementGames: report.placement.medianGames,
      arrived: report.players,
      stillWaiting: report.stillWaiting,
      gamesDigest: gamesDigest(trace.games.map((g) => g.match)),
    };
  };
}

/** Teams per game: a free-for-all's players each play for themselves. */
export function teamsOf(shape: GameShape): number {
  return shape.kind === "free-for-all" ? shape.players : shape.teams;
}

/** Run and print; resolves to the exit code (2: bad options). */
export async function runCompare(
  argv: readonly string[],
  onRun?: (done: number, total: number) => void,
): Promise<number> {
  const request = parseOrExplain(parseCompareArgs, argv, `${COMPARE_USAGE}\n\n${CLOSED_LOOP_USAGE}`);
  if (!request) return 2;
  const started = Date.now();
  const scale = openskillSystem(request.base.scale).scale;
  const skill = populationOf({ ...request.base, policy: "greedy" }, scale).skill;
  const shape = resolveShape(request.base);
  const comparison = comparePolicies(referenceFirst(defaultPolicies.names()), closedLoopRunner(request.base), {
    targetWait: request.targetWait,
    // The engine's rating range in the closed loop: the skills' mean ± 3 sd.
    ratingSpan: 6 * skill.sd,
    teams: teamsOf(shape),
    ...(onRun ? { onRun } : {}),
  });
  if (request.plot) {
    await writeComparePlot(
      request.plot,
      `${describeShape(shape)}: p95 wait against fairness, ratings learned from results`,
      "fairness: mean |P(win) − ½| (lower is fairer)",
      request.targetWait,
      comparePoints(comparison),
    );
    console.error(`sim: wrote ${request.plot}`);
  }
  console.error(`sim: ${comparison.runs.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(
    request.json
      ? JSON.stringify(comparison)
      : `${describeShape(shape)}, closed loop (ratings learned from results)\n${comparisonTable(comparison, teamsOf(shape))}`,
  );
  return 0;
}
