/** `--compare`'s output: one table in a game developer's words, the recommendation under it, and the plot's points. */
import Table from "cli-table3";
import { settingLabel } from "./compare-settings.js";
import {
  fairnessName,
  STRANDED_SHARE,
  withError,
  type ComparePolicy,
  type CompareRun,
  type Comparison,
} from "./compare.js";
import type { ComparePoint } from "./plot.js";

const seconds = (s: number) => (s < 10 ? s.toFixed(2) : s.toFixed(1));
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** `31.2% ± 1.5%`: a share and its standard error. */
const percentWithError = (share: number, error: number | null) =>
  `${percent(share)} ± ${error === null ? "?" : percent(error)}`;

/** Why a run is not within the target, or "". */
function overTarget(run: CompareRun, targetWait: number): string {
  if (run.withinTarget) return "";
  const o = run.outcome;
  if (o.stillWaiting > STRANDED_SHARE * o.arrived) return `leaves ${o.stillWaiting} waiting`;
  return `p95 over ${targetWait} s`;
}

/** The policy's best p95-within-target fairness, for the table's order (fairest first, the rest by p95 wait). */
function order(a: ComparePolicy, b: ComparePolicy): number {
  if (a.tuned && b.tuned) return a.tuned.outcome.fairness - b.tuned.outcome.fairness;
  if (a.tuned || b.tuned) return a.tuned ? -1 : 1;
  return a.defaults.outcome.p95Wait - b.defaults.outcome.p95Wait;
}

/**
 * The comparison as one table: per policy its defaults, then its best setting within the target
 * when that is not the defaults; a run whose games are another policy's says so. Fairness and
 * stomps carry their standard errors (batch means), so a difference within the noise shows.
 */
export function comparisonTable(comparison: Comparison, teams: number): string {
  const { targetWait, recommendation } = comparison;
  const learned = comparison.runs.some((r) => r.outcome.placementGames !== undefined);
  const table = new Table({
    head: [
      "policy",
      "setting",
      "mean wait s",
      "p95 wait s",
      `fairness: mean ${fairnessName(teams)}`,
      "stomps",
      ...(learned ? ["newcomer placed after (median games)"] : []),
      "note",
    ],
    style: { head: [], border: [] },
  });
  const row = (run: CompareRun, setting: string, notes: string[]) => {
    const o = run.outcome;
    if (run === recommendation.run) notes.unshift("RECOMMENDED");
    table.push([
      run.policy,
      setting,
      seconds(o.meanWait),
      seconds(o.p95Wait),
      withError(o.fairness, o.fairnessError),
      percentWithError(o.stompShare, o.stompError),
      ...(learned ? [o.placementGames === null ? "never" : String(o.placementGames ?? "–")] : []),
      notes.filter((n) => n !== "").join("; "),
    ]);
  };
  for (const p of [...comparison.policies].sort(order)) {
    const tunedIsDefaults = p.tuned === p.defaults;
    row(p.defaults, "defaults", [
      p.sameGamesAs ? `same games as ${p.sameGamesAs} at these defaults` : "",
      overTarget(p.defaults, targetWait),
      tunedIsDefaults && p.turns ? `its best within ${targetWait} s of its ${p.turns} settings` : "",
      p.turns ? "" : "no setting to tune",
    ]);
    if (p.tuned && !tunedIsDefaults)
      row(p.tuned, `tuned: ${settingLabel(p.tuned.params)}`, [`best within ${targetWait} s`]);
    else if (!p.tuned && p.turns)
      table.push([
        p.policy,
        `tuned (${p.turns})`,
        { colSpan: learned ? 6 : 5, content: `no setting within ${targetWait} s` },
      ]);
  }
  for (const r of comparison.refused)
    table.push([r.policy, "", { colSpan: learned ? 6 : 5, content: `not for this queue: ${r.reason}` }]);
  return `${table.toString()}\n${recommendation.text}`;
}

/** The plot's points: every run, labelled with its setting. */
export function comparePoints(comparison: Comparison): ComparePoint[] {
  return comparison.runs.map((r) => ({
    policy: r.policy,
    label: r.defaults ? "defaults" : settingLabel(r.params),
    wait: Math.max(r.outcome.p95Wait, 0.01),
    fairness: r.outcome.fairness,
    recommended: r === comparison.recommendation.run,
  }));
}
