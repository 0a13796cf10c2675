/**
 * `--compare`: every policy at its defaults and tuned within a target wait, the choice and its
 * reason; on generated 2v2 traffic through the closed loop, deterministic for a seed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import type { PolicyParams } from "../../src/core/policy.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { COMPARE_GRIDS } from "../../src/sim/compare-settings.js";
import { clearlyFairer, comparePolicies, referenceFirst, type CompareOutcome } from "../../src/sim/compare.js";
import { comparisonTable } from "../../src/sim/compare-report.js";
import { closedLoopRunner, parseCompareArgs, parseWait, runCompare } from "../../src/sim/compare-cli.js";
import { UsageError } from "../../src/sim/options.js";
import { thrown } from "../helpers/thrown.js";

/**
 * A made-up runner: waiting longer buys fairness along a policy's grid; greedy, fifo and the
 * defaults of multi-queue form the same games; roles is refused, as a queue without roles refuses it.
 */
function fakeRun(policy: string, params: PolicyParams): CompareOutcome {
  if (policy === "roles")
    throw new MatchmakerError("invalid_config", "roles policy: the queue declares no roles", "roles");
  const step =
    COMPARE_GRIDS[policy]?.settings(3000).findIndex((s) => JSON.stringify(s) === JSON.stringify(params)) ?? -1;
  const same = ["greedy", "fifo"].includes(policy) || (policy === "multi-queue" && step < 0);
  const salt = same ? 0 : policy.length / 100;
  const wait = 2 + salt + 6 * (step + 1);
  return {
    meanWait: wait,
    p95Wait: 3 * wait,
    games: 500,
    fairness: 0.3 - 0.02 * (step + 1) - salt / 10,
    fairnessError: 0.002,
    stompShare: 0.6 - 0.05 * (step + 1),
    stompError: 0.01,
    placementGames: 7,
    arrived: 1000,
    stillWaiting: 0,
    gamesDigest: same ? "greedy's games" : `${policy} ${step}`,
  };
}

describe("comparePolicies", () => {
  const comparison = comparePolicies(referenceFirst(defaultPolicies.names()), fakeRun, {
    targetWait: 30,
    ratingSpan: 3000,
    teams: 2,
  });

  it("lists every registered policy, the refused ones with the queue's reason", () => {
    const listed = [...comparison.policies.map((p) => p.policy), ...comparison.refused.map((r) => r.policy)];
    expect(listed.sort()).toEqual(defaultPolicies.names());
    expect(comparison.refused).toEqual([{ policy: "roles", reason: "roles policy: the queue declares no roles" }]);
    const table = comparisonTable(comparison, 2);
    for (const name of defaultPolicies.names()) expect(table).toContain(name);
    expect(table).toContain("not for this queue: roles policy");
  });

  it("says which defaults form greedy's games instead of printing them as another policy's", () => {
    const same = Object.fromEntries(comparison.policies.map((p) => [p.policy, p.sameGamesAs]));
    expect(same).toMatchObject({ fifo: "greedy", "multi-queue": "greedy", greedy: undefined, lifo: undefined });
    expect(comparisonTable(comparison, 2)).toContain("same games as greedy at these defaults");
  });

  it("tunes each policy to its fairest setting whose p95 wait is within the target", () => {
    for (const p of comparison.policies) {
      if (!p.tuned) continue;
      expect(p.tuned.outcome.p95Wait).toBeLessThanOrEqual(30);
      const mine = comparison.runs.filter((r) => r.policy === p.policy && r.outcome.p95Wait <= 30);
      expect(Math.min(...mine.map((r) => r.outcome.fairness))).toBe(p.tuned.outcome.fairness);
    }
    // best-game's grid: waits 3·(2 + 0.09 + 6·(i+1)) = 24.3 within 30 s, 42.3 over it: its first setting.
    const bestGame = comparison.policies.find((p) => p.policy === "best-game")!;
    expect(bestGame.tuned?.params).toEqual(COMPARE_GRIDS["best-game"].settings(3000)[0]);
  });

  it("recommends the fairest setting within the target and says why, against the quickest", () => {
    const { run, text } = comparison.recommendation;
    expect(run!.withinTarget).toBe(true);
    const fairest = Math.min(...comparison.runs.filter((r) => r.withinTarget).map((r) => r.outcome.fairness));
    expect(run!.outcome.fairness).toBe(fairest);
    expect(text).toMatch(new RegExp(`^Recommended: ${run!.policy} \\(.*\\): the fairest games`));
    expect(text).toContain("within your 30 s p95 wait");
    // Its stomps are within a tenth of greedy's here, so the fairness is the cost named.
    expect(text).toMatch(
      /; greedy \(defaults\) is faster \(mean wait 2\.0 s against 8\.2 s\) but has less fair games \(mean \|P\(win\) − ½\| 0\.300 ± 0\.002\), beyond this run's noise\.$/,
    );
  });

  it("names the fastest policy when none keeps the target", () => {
    const none = comparePolicies(["greedy", "best-game"], fakeRun, { targetWait: 1, ratingSpan: 3000, teams: 2 });
    expect(none.recommendation.run).toBeUndefined();
    expect(none.recommendation.text).toMatch(/^No policy keeps the p95 wait within 1\.0 s.*the fastest is greedy/);
  });
});

describe("npm run sim -- --compare", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads waits in seconds or minutes, and refuses a single policy's flags", () => {
    expect([
      parseWait("--target-wait", "30"),
      parseWait("--target-wait", "30s"),
      parseWait("--target-wait", "2m"),
    ]).toEqual([30, 30, 120]);
    expect(thrown(() => parseWait("--target-wait", "soon"), UsageError).message).toContain("--target-wait");
    expect(thrown(() => parseCompareArgs(["--compare", "--policy", "greedy"]), UsageError).message).toContain(
      "leave out --policy",
    );
    const request = parseCompareArgs(["--compare", "--team-size", "2", "--target-wait=45s", "--seed", "4"]);
    expect(request).toMatchObject({ targetWait: 45, base: { teamSize: 2, seed: 4, durationMs: 7_200_000 } });
  });

  it("prints a recommendation on generated 2v2 traffic, the same for the same seed", async () => {
    const printed: string[] = [];
    vi.spyOn(console, "log").mockImplementation((text: string) => void printed.push(text));
    const argv = ["--compare", "--team-size", "2", "--duration", "900", "--rate", "0.2", "--target-wait", "2m"];
    expect(await runCompare(argv)).toBe(0);
    expect(await runCompare(argv)).toBe(0);
    expect(printed[1]).toBe(printed[0]);
    // A quarter hour of 2v2 is too short to tell the policies' fairness apart: the quickest is recommended.
    expect(printed[0]).toMatch(
      /^Recommended: greedy \(defaults\), the quickest within your 120 s p95 wait .*: within this run's noise the policies within it are equally fair \(the fairest, .*, has mean \|P\(win\) − ½\| 0\.\d{3} ± 0\.\d{3} against 0\.\d{3} ± 0\.\d{3}, less than 2 standard errors/m,
    );
    expect(printed[0]).toMatch(/│ greedy +│ defaults +│ [\d.]+ +│ [\d.]+ +│ 0\.\d{3} ± 0\.\d{3} +│ [\d.]+% ± [\d.]+% /);
  });

  it("recommends the fairest over the quickest only beyond two standard errors of their difference", () => {
    // Half an hour of busy 1v1: brackets' tuned width is clearly fairer than greedy.
    const busy = closedLoopRunner({ teamSize: 1, population: { newcomersPerSecond: 0.5 }, durationMs: 1_800_000 });
    const clear = comparePolicies(["greedy", "brackets"], busy, { targetWait: 120, ratingSpan: 2100, teams: 2 });
    const [greedy, brackets] = clear.policies.map((p) => p.tuned!.outcome);
    expect(clearlyFairer(brackets, greedy)).toBe(true);
    expect(clear.recommendation.run?.policy).toBe("brackets");
    expect(clear.recommendation.text).toMatch(
      /^Recommended: brackets \(width=\d+\): the fairest games .*, beyond this run's noise\.$/,
    );
    // The same figures with errors five times as wide: within the noise, so the quickest.
    const wide = (o: CompareOutcome): CompareOutcome => ({
      ...o,
      fairnessError: o.fairnessError! * 5,
      stompError: o.stompError! * 5,
    });
    const noisy = comparePolicies(["greedy", "brackets"], (policy, params) => wide(busy(policy, params)), {
      targetWait: 120,
      ratingSpan: 2100,
      teams: 2,
    });
    expect(clearlyFairer(wide(brackets), wide(greedy))).toBe(false);
    expect(noisy.recommendation.run).toBe(noisy.policies[0].defaults);
    expect(noisy.recommendation.text).toMatch(
      /^Recommended: greedy \(defaults\), the quickest within your 120 s p95 wait/,
    );
  });

  it("marks identical closed-loop runs: on the true skills, best-game's defaults form greedy's 2v2 games", () => {
    const run = closedLoopRunner({ teamSize: 2, oracle: true, durationMs: 1_800_000, seed: 3 });
    const comparison = comparePolicies(["greedy", "best-game"], run, { targetWait: 120, ratingSpan: 2100, teams: 2 });
    const [greedy, bestGame] = comparison.policies;
    expect(bestGame.sameGamesAs).toBe("greedy");
    expect(bestGame.defaults.outcome).toEqual(greedy.defaults.outcome);
    expect(comparisonTable(comparison, 2)).toMatch(/│ best-game +│ defaults .* same games as greedy at these defaults/);
  });

  it("gives equal figures for equal games: greedy's and fifo's closed loops are the same run", () => {
    const run = closedLoopRunner({ teamSize: 2, durationMs: 1_200_000, seed: 2 });
    expect(run("fifo", {})).toEqual(run("greedy", {}));
  });
});
