import { afterEach, describe, expect, it, vi } from "vitest";
import { closedLoop, runClosedLoop } from "../../src/sim/closed-loop.js";
import { parseClosedLoopArgs } from "../../src/sim/closed-loop-cli.js";
import { main } from "../../src/sim/main.js";
import { UsageError } from "../../src/sim/options.js";
import { stompThreshold, unfairness } from "../../src/sim/win-model.js";

afterEach(() => vi.restoreAllMocks());

describe("closed loop", () => {
  it("is deterministic for a seed, and another seed gives another run", () => {
    const config = { policy: "expanding-window", teamSize: 2, games: 300, seed: 4 } as const;
    expect(runClosedLoop(config)).toEqual(runClosedLoop(config));
    expect(runClosedLoop({ ...config, seed: 5 })).not.toEqual(runClosedLoop(config));
  });

  it("loses nobody: every arrival is waiting, playing, away (due back) or gone, as the queue and the games say", () => {
    for (const config of [
      { policy: "brackets", durationMs: 1800_000, population: { newcomersPerSecond: 0.3 } },
      {
        policy: "greedy",
        maxPlayers: 4,
        durationMs: 900_000,
        population: { newcomersPerSecond: 0.5, driftPerGame: 20 },
      },
    ]) {
      const trace = closedLoop(config);
      const inState = (state: string) => trace.players.filter((p) => p.state === state).map((p) => p.index);
      const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
      expect(sorted(trace.queued)).toEqual(inState("waiting"));
      expect(sorted(trace.returning)).toEqual(inState("away"));
      const unfinished = trace.games.filter((g) => !g.after).flatMap((g) => g.players.flat());
      expect(sorted(unfinished)).toEqual(inState("playing"));
      // Nobody sits in two places at once, and every rated game is counted once per seat.
      expect(new Set([...trace.queued, ...trace.returning, ...unfinished]).size).toBe(
        trace.queued.length + trace.returning.length + unfinished.length,
      );
      const seats = trace.games.filter((g) => g.after).reduce((s, g) => s + g.players.flat().length, 0);
      expect(trace.players.reduce((s, p) => s + p.games, 0)).toBe(seats);
      for (const p of trace.players) if (p.state === "gone") expect(p.games).toBeGreaterThan(0);
      expect(trace.players.length).toBeGreaterThan(100);
    }
  });

  it("measures fairness as |P(favourite) − 1/T| and stomps from 0.8 for two teams", () => {
    expect(unfairness([0.3, 0.7])).toBeCloseTo(0.2, 12);
    expect(unfairness([0.25, 0.25, 0.25, 0.25])).toBe(0);
    expect(stompThreshold(2, 0.8)).toBeCloseTo(0.8, 12);
    expect(stompThreshold(4, 0.8)).toBeCloseTo(0.25 + 0.6 * 0.75, 12);
  });

  it("refuses a bad configuration, naming the field", () => {
    expect(() => runClosedLoop({ policy: "greedy", population: { returnProbability: 1 } })).toThrow(
      /population.returnProbability/,
    );
    expect(() => runClosedLoop({ policy: "greedy", population: { newcomersPerSecond: 0 } })).toThrow(
      /newcomersPerSecond/,
    );
    expect(() => runClosedLoop({ policy: "nope", games: 1 })).toThrow(/nope/);
  });
});

describe("npm run sim -- --closed-loop", () => {
  const refused: Array<[string[], RegExp]> = [
    [["--closed-loop"], /--policy is required/],
    [["--closed-loop", "--policy", "greedy,nope"], /unknown policy "nope"/],
    [["--closed-loop", "--policy", "greedy", "--return", "1"], /--return: a probability below 1/],
    [["--closed-loop", "--policy", "greedy", "--rate", "0"], /--rate: must be positive/],
    [["--closed-loop", "--policy", "greedy", "--games", "5", "--duration", "9"], /one or the other/],
    [["--closed-loop", "--policy", "greedy", "--players", "4", "--team-size", "2"], /free-for-all has no teams/],
  ];
  it.each(refused)("refuses %j", (argv, message) => {
    expect(() => parseClosedLoopArgs(argv)).toThrow(UsageError);
    expect(() => parseClosedLoopArgs(argv)).toThrow(message);
  });

  it("prints one row per policy, an oracle row each with --oracle, and a refusal once for a policy the queue refuses", async () => {
    const out: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
    const argv = ["--closed-loop", "--policy", "greedy,brackets,roles", "--team-size", "2", "--rate", "0.2"];
    expect(await main([...argv, "--games", "150", "--oracle", "--skill-sd", "300", "--drift", "10"])).toBe(0);
    const text = out.join("\n");
    expect(text).toMatch(/^2 teams of 2/);
    for (const row of ["greedy ", "greedy (oracle)", "brackets ", "brackets (oracle)"]) expect(text).toContain(row);
    expect(text.match(/not for this queue/g)).toHaveLength(1);
    out.length = 0;
    expect(await main([...argv.slice(0, 2), "greedy", "--games", "100", "--json"])).toBe(0);
    const [report] = JSON.parse(out.join(""));
    expect(report).toMatchObject({ policy: "greedy", oracle: false, shape: { teamSize: 1 } });
    expect(report.games).toBeGreaterThan(0);
  });
});
