import { afterEach, describe, expect, it, vi } from "vitest";
import { PolicyRegistry, type PolicyDefinition } from "../../src/core/policy.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { batchMeansError } from "../../src/sim/batch-means.js";
import { canonicalOrder, closedLoop, runClosedLoop } from "../../src/sim/closed-loop.js";
import { parseClosedLoopArgs } from "../../src/sim/closed-loop-cli.js";
import { main } from "../../src/sim/main.js";
import { UsageError } from "../../src/sim/options.js";
import { stompThreshold, unfairness } from "../../src/sim/win-model.js";

afterEach(() => vi.restoreAllMocks());

describe("closed loop", () => {
  it("is deterministic for a seed, and another seed gives another run", () => {
    const config = { policy: "expanding-window", teamSize: 2, games: 200, seed: 4 } as const;
    expect(runClosedLoop(config)).toEqual(runClosedLoop(config));
    expect(runClosedLoop({ ...config, seed: 5 })).not.toEqual(runClosedLoop(config));
  });

  it("draws results in a canonical order: greedy's games proposed with sides swapped are greedy's run", () => {
    const greedy = defaultPolicies.get("greedy");
    // The same proposals with their tickets reversed: in one versus one, the same games with sides swapped.
    const swapped: PolicyDefinition = {
      ...greedy,
      name: "greedy-swapped",
      create: (context, params) => {
        const inner = greedy.create(context, params);
        return Object.assign(Object.create(inner) as typeof inner, {
          name: "greedy-swapped",
          poll: (now: number) => inner.poll(now).map((tickets) => [...tickets].reverse()),
        });
      },
    };
    const policies = new PolicyRegistry([greedy, swapped]);
    const config = { games: 300, seed: 3, policies, population: { newcomersPerSecond: 0.2 } } as const;
    const a = closedLoop({ ...config, policy: "greedy" });
    const b = closedLoop({ ...config, policy: "greedy-swapped" });
    expect(b.games.some((g, i) => g.players[0][0] !== a.games[i].players[0][0])).toBe(true);
    expect(b.games.map((g) => g.players.flat().sort())).toEqual(a.games.map((g) => g.players.flat().sort()));
    expect({ ...runClosedLoop({ ...config, policy: "greedy-swapped" }), policy: "greedy" }).toEqual(
      runClosedLoop({ ...config, policy: "greedy" }),
    );
  });

  it("puts a game in its canonical order and back: players by index, teams by their lowest", () => {
    const order = canonicalOrder([
      [7, 3],
      [5, 1],
      [4, 2],
    ]);
    expect(
      order.arrange([
        [7, 3],
        [5, 1],
        [4, 2],
      ]),
    ).toEqual([
      [1, 5],
      [2, 4],
      [3, 7],
    ]);
    expect(order.arrangeTeams(["a", "b", "c"])).toEqual(["b", "c", "a"]);
    expect(
      order.restore([
        [1, 5],
        [2, 4],
        [3, 7],
      ]),
    ).toEqual([
      [7, 3],
      [5, 1],
      [4, 2],
    ]);
    expect(order.restoreTeams(["b", "c", "a"])).toEqual(["a", "b", "c"]);
    expect(order.seatOf(4)).toEqual([2, 0]);
  });

  it("counts the players still waiting at the end at their wait so far: a policy that forms no game is not fast", () => {
    const never: PolicyDefinition = {
      name: "never",
      summary: "forms no game",
      create: () => ({ name: "never", add() {}, remove() {}, poll: () => [], nextWakeup: () => undefined }),
    };
    const trace = closedLoop({ policy: "never", policies: new PolicyRegistry([never]), durationMs: 600_000 });
    const report = runClosedLoop({ policy: "never", policies: new PolicyRegistry([never]), durationMs: 600_000 });
    expect(report.games).toBe(0);
    expect(report.stillWaiting).toBe(trace.players.length);
    const waits = trace.players.map((p) => 600_000 - p.arrivedAt).sort((x, y) => x - y);
    expect(report.waitP95Ms).toBe(waits[Math.ceil(0.95 * waits.length) - 1]);
    expect(report.waitMeanMs).toBeCloseTo(waits.reduce((s, w) => s + w, 0) / waits.length, 6);
  });

  it("gives a mean's standard error by batch means: s/√n for independent values, wider for runs of equal ones", () => {
    expect(batchMeansError([1])).toBeNull();
    // Fewer values than batches: each is a batch, the plain s/√n (s = √(5/3) for 1..4).
    expect(batchMeansError([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(5 / 3 / 4), 12);
    // 20 batches of 5 equal values each: the error of 20 independent values, not of 100.
    const runs = Array.from({ length: 100 }, (_, i) => Math.floor(i / 5) % 2);
    expect(batchMeansError(runs)).toBeCloseTo(Math.sqrt(20 / 76 / 20), 12);
    expect(batchMeansError(runs, 100)).toBeCloseTo(Math.sqrt((0.25 * (100 / 99)) / 100), 12);
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

  it("matches on the learned means and sigmas, or with oracle on the true skills", () => {
    const trace = closedLoop({ policy: "brackets", teamSize: 2, games: 200, seed: 2 });
    for (const game of trace.games) {
      // The tickets as they waited (a matched player does not carry its uncertainty on).
      const seen = new Map(game.match.tickets.flatMap((t) => t.players).map((p) => [p.playerId, p]));
      game.match.teams.forEach((team, t) =>
        team.players.forEach((p, i) => {
          expect(seen.get(p.playerId)).toMatchObject({
            rating: game.before[t][i].mu,
            uncertainty: game.before[t][i].sigma,
          });
        }),
      );
    }
    const oracle = closedLoop({ policy: "brackets", teamSize: 2, games: 200, seed: 2, oracle: true });
    for (const game of oracle.games)
      game.match.teams.forEach((team, t) => team.players.forEach((p, i) => expect(p.rating).toBe(game.skills[t][i])));
    const report = runClosedLoop({ policy: "brackets", teamSize: 2, games: 200, seed: 2, oracle: true });
    expect(report.believedFairness).toBeCloseTo(report.fairness, 12);
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
