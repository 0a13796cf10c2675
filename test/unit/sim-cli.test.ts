import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/sim/main.js";
import { parseSimulationArgs, UsageError } from "../../src/sim/options.js";

/** Run the CLI in-process; returns the exit code and what it printed. */
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  const code = await main(argv);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

afterEach(() => vi.restoreAllMocks());

describe("npm run sim: options", () => {
  const refused: Array<[string[], RegExp]> = [
    [[], /--policy is required/],
    [["--policy", "nope"], /--policy: unknown policy "nope"; registered: .*greedy/],
    [["--policy", "greedy", "--rate", "0"], /--rate: must be positive/],
    [["--policy", "greedy", "--rate", "fast"], /--rate: "fast" is not a number/],
    [["--policy", "greedy", "--team-size", "2", "--parties", "3:1"], /--parties: must be a whole number from 1 to 2/],
    [["--policy", "greedy", "--skill", "normal:1500"], /--skill: "normal:1500" is not/],
    [["--policy", "greedy", "--skill", "two-type:1.5"], /Q is a probability/],
    [["--policy", "greedy", "--sides", "C:1"], /--sides: "C" is not A, B or any/],
    [["--policy", "greedy", "--zones", "junior:1,bad zone:1"], /--zones: "bad zone" is not ZONE/],
    [["--policy", "greedy", "--zones", "a+a:1"], /--zones: "a\+a" names a zone twice/],
    [["--policy", "greedy", "--imbalance-cost", "2"], /needs --skill two-type/],
    [["--policy", "greedy", "--opt"], /--opt: needs --max-wait/],
    [
      ["--policy", "greedy", "--opt", "--max-wait", "5", "--team-size", "2"],
      /--opt: the offline optimum is for team size 1/,
    ],
    [["--policy", "greedy", "--plot", "x.svg"], /--plot: needs --sweep/],
    [["--policy", "greedy", "--tickets", "10", "--duration", "5"], /give one or the other/],
    [["--policy", "greedy", "--set", "novalue"], /--set: "novalue" is not KEY=VALUE/],
    [["--policy", "greedy", "--bogus"], /Unknown option '--bogus'/],
    [["--policy", "greedy", "--imbalance", "elo"], /--imbalance: kind: must be/],
    [["--policy", "greedy", "--imbalance", "alman-mckay:p=0.5"], /--imbalance: p: must be a number of at least 1/],
    [["--policy", "greedy", "--players", "1"], /--players: must be a whole number from 2 to 200/],
    [["--policy", "greedy", "--players", "3", "--team-size", "1"], /--players: a free-for-all has no teams/],
    [["--policy", "greedy", "--players", "3", "--parties", "4:1"], /--parties: must be a whole number from 1 to 3/],
    [["--policy", "greedy", "--teams", "3", "--sides", "A:1,any:1"], /sides A and B exist only in games of two teams/],
    [
      ["--policy", "greedy", "--players", "4", "--min-players", "2"],
      /--min-players \(minPlayers\): needs shortHandedAfterMs/,
    ],
    [
      ["--policy", "greedy", "--short-handed-after", "5"],
      /--short-handed-after \(shortHandedAfterMs\): needs minTeamSize/,
    ],
    [
      ["--policy", "greedy", "--players", "3", "--min-team-size", "1"],
      /--min-team-size \(minTeamSize\): a free-for-all/,
    ],
    [
      ["--policy", "greedy", "--players", "3", "--max-wait", "5", "--opt"],
      /--opt: the offline optimum is for team size 1/,
    ],
    [
      ["--policy", "greedy", "--teams", "3", "--skill", "two-type:0.5", "--imbalance-cost", "1"],
      /--imbalance-cost: Wu's H-count imbalance is between two teams/,
    ],
  ];
  for (const [argv, message] of refused) {
    it(`refuses ${argv.join(" ") || "no arguments"}`, () => {
      expect(() => parseSimulationArgs(argv)).toThrow(UsageError);
      expect(() => parseSimulationArgs(argv)).toThrow(message);
    });
  }

  it("parses a full request", () => {
    const r = parseSimulationArgs([
      "--policy",
      "multi-queue",
      "--set",
      "r=auto",
      "--set",
      "min=0",
      "--team-size",
      "2",
      "--arrivals",
      "regular",
      "--rate",
      "2.5",
      "--parties",
      "1:2,2:1",
      "--skill",
      "normal:1500:300",
      "--sides",
      "A:1,B:1,any:2",
      "--max-wait",
      "5",
      "--tickets",
      "500",
      "--warmup",
      "50",
      "--seed",
      "9",
    ]);
    expect(r.params).toEqual({ r: "auto", min: 0 });
    expect(r.shape).toEqual({ kind: "teams", teams: 2, teamSize: 2, minTeamSize: 2 });
    expect(r.traffic).toEqual({
      arrivals: "regular",
      rate: 2.5,
      parties: [
        { value: 1, weight: 2 },
        { value: 2, weight: 1 },
      ],
      skill: { kind: "normal", mean: 1500, sd: 300 },
      sides: [
        { value: "A", weight: 1 },
        { value: "B", weight: 1 },
        { value: undefined, weight: 2 },
      ],
    });
    expect([r.maxWait, r.tickets, r.warmup, r.seed]).toEqual([5, 500, 50, 9]);
  });

  it("parses a game's shape: teams of m, a free-for-all of k, its minimum and when it starts short", () => {
    expect(parseSimulationArgs(["--policy", "greedy", "--teams", "4", "--team-size", "2"]).shape).toEqual({
      kind: "teams",
      teams: 4,
      teamSize: 2,
      minTeamSize: 2,
    });
    const ffa = parseSimulationArgs([
      "--policy",
      "greedy",
      "--players",
      "6",
      "--min-players",
      "2",
      "--count-multiple",
      "2",
      "--short-handed-after",
      "10",
    ]);
    expect(ffa.shape).toEqual({ kind: "free-for-all", players: 6, minPlayers: 2, countMultiple: 2 });
    expect(ffa.shortHandedAfter).toBe(10);
    expect(parseSimulationArgs(["--policy", "greedy", "--players", "2", "--max-wait", "5", "--opt"]).opt).toBe(true);
  });

  it("parses an imbalance spec, with inf exponents", () => {
    expect(
      parseSimulationArgs(["--policy", "greedy", "--imbalance", "alman-mckay:alpha=2,p=inf,q=2"]).imbalance,
    ).toEqual({
      kind: "alman-mckay",
      alpha: 2,
      p: "inf",
      q: 2,
    });
  });

  it("exits with 2 and the usage on bad options", async () => {
    const { code, err } = await run("--policy", "greedy", "--rate", "0");
    expect(code).toBe(2);
    expect(err).toMatch(/--rate: must be positive[\s\S]*usage: npm run sim/);
  });
});

describe("npm run sim: runs", () => {
  it("prints one JSON object with every documented field as the last line", async () => {
    const { code, out } = await run("--policy", "greedy", "--max-wait", "5", "--tickets", "400", "--opt", "--json");
    expect(code).toBe(0);
    const report = JSON.parse(out.trim().split("\n").at(-1)!);
    for (const field of [
      "policy",
      "params",
      "tickets",
      "players",
      "games",
      "bots",
      "meanWait",
      "varWait",
      "p50Wait",
      "p95Wait",
      "p99Wait",
      "waitByClass",
      "meanImbalance",
      "meanSpread",
      "schlupCostPerGame",
      "wuCostPerTime",
      "optCostPerGame",
      "ratioToOpt",
    ]) {
      expect(report).toHaveProperty(field);
    }
    expect(report.players).toBe(360); // 400 arrivals less the 10% warm-up, all matched
    expect(report.ratioToOpt).toBeGreaterThan(1);
    expect(report.waitByClass).toHaveProperty("party:1");
  });

  it("prints a table by default, with the per-class waits", async () => {
    const { code, out } = await run(
      "--policy",
      "greedy",
      "--team-size",
      "2",
      "--parties",
      "1:1,2:1",
      "--sides",
      "A:1,any:3",
      "--tickets",
      "400",
    );
    expect(code).toBe(0);
    expect(out).toMatch(/mean wait party:2/);
    expect(out).toMatch(/mean wait side:A/);
    expect(out).toMatch(/Schlup cost \/ game/);
  });

  it("is reproducible: the same seed gives the same figures", async () => {
    const a = await run(
      "--policy",
      "periodic",
      "--set",
      "x=2",
      "--rate",
      "3",
      "--tickets",
      "300",
      "--json",
      "--seed",
      "5",
    );
    const b = await run(
      "--policy",
      "periodic",
      "--set",
      "x=2",
      "--rate",
      "3",
      "--tickets",
      "300",
      "--json",
      "--seed",
      "5",
    );
    const c = await run(
      "--policy",
      "periodic",
      "--set",
      "x=2",
      "--rate",
      "3",
      "--tickets",
      "300",
      "--json",
      "--seed",
      "6",
    );
    expect(a.out).toBe(b.out);
    expect(a.out).not.toBe(c.out);
  });

  it("sweeps a parameter and plots wait against cost", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sim-"));
    const file = join(dir, "sweep.svg");
    const { code, out } = await run(
      "--policy",
      "multi-queue",
      "--sweep",
      "r=1,3,6",
      "--rate",
      "10",
      "--max-wait",
      "5",
      "--tickets",
      "1000",
      "--plot",
      file,
      "--json",
    );
    expect(code).toBe(0);
    const { sweep, runs } = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(sweep).toBe("r");
    expect(runs.map((r: { params: { r: number } }) => r.params.r)).toEqual([1, 3, 6]);
    // More ranges: tighter games, longer waits.
    expect(runs[2].meanSpread).toBeLessThan(runs[0].meanSpread);
    expect(runs[2].meanWait).toBeGreaterThan(runs[0].meanWait);
    const svg = await readFile(file, "utf8");
    expect(svg).toMatch(/^<svg/);
    expect(svg).toMatch(/mean wait \(s\)/);
    expect(svg).toMatch(/Schlup cost per game/);
  });

  it("plots a window policy's sweep without a maximum wait against the spread it buys", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sim-"));
    const file = join(dir, "window.svg");
    const { code } = await run(
      "--policy",
      "expanding-window",
      "--sweep",
      "growthPerSecond=10,100",
      "--skill",
      "normal:1500:300",
      "--tickets",
      "600",
      "--plot",
      file,
    );
    expect(code).toBe(0);
    const svg = await readFile(file, "utf8");
    expect(svg).toMatch(/mean rating spread per game/);
    expect(svg).not.toMatch(/Wu cost per time/);
  });

  it("runs a free-for-all: the shape printed, no team imbalance, Schlup's cost with k = 3", async () => {
    const { code, out } = await run(
      "--policy",
      "periodic",
      "--set",
      "x=4",
      "--players",
      "3",
      "--rate",
      "10",
      "--max-wait",
      "5",
      "--tickets",
      "600",
      "--json",
    );
    expect(code).toBe(0);
    const report = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(report.shape).toEqual({ kind: "free-for-all", players: 3, minPlayers: 3, countMultiple: 1 });
    expect(report.players).toBe(report.games * 3);
    expect(report.meanImbalance).toBeNull();
    expect(report.meanSpread).toBeGreaterThan(0);
    // Eq. (1) with f = k = 3: at least the spread's cost, at most 2k per game.
    expect(report.schlupCostPerGame).toBeGreaterThan(3 * report.meanSpread);
    expect(report.schlupCostPerGame).toBeLessThan(6);
    const table = await run("--policy", "greedy", "--teams", "4", "--team-size", "2", "--tickets", "400");
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/shape +│ 4 teams of 2/);
  });

  it("runs a queue whose games start short-handed after the given wait", async () => {
    const { code, out } = await run(
      "--policy",
      "greedy",
      "--players",
      "4",
      "--min-players",
      "2",
      "--short-handed-after",
      "3",
      "--rate",
      "0.3",
      "--tickets",
      "200",
      "--json",
    );
    expect(code).toBe(0);
    const report = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(report.unmatched).toBeLessThan(2);
    // Short games: fewer than four players per game on average.
    expect(report.players).toBeLessThan(report.games * 4);
    expect(report.players).toBeGreaterThanOrEqual(report.games * 2);
  });

  it("reports a policy parameter error as a failed run (exit 1)", async () => {
    const { code, err } = await run("--policy", "periodic", "--set", "x=auto", "--tickets", "100");
    expect(code).toBe(1);
    expect(err).toMatch(/x: "auto" needs the queue's maximum wait/);
  });
});
