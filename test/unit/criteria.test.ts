/**
 * Criteria beside the rating: the queue option, the engine's checks of players' values, each
 * match's dispersion, multi-queue's grid of queues with radius growth over neighbouring cells,
 * the join options and the simulator's `--criteria`.
 */
import { describe, expect, it, vi } from "vitest";
import * as v from "valibot";
import { Matchmaker, type MatchmakerOptions } from "../../src/options/matchmaker.js";
import { MultiQueuePolicy } from "../../src/policies/multi-queue.js";
import type { Player, Ticket } from "../../src/core/types.js";
import { joinOptionsSchema } from "../../src/colyseus/join-options.js";
import { describeIssues } from "../../src/core/validation.js";
import { parseSimulationArgs, UsageError } from "../../src/sim/options.js";
import { schlupGameCost } from "../../src/sim/measures.js";
import { main } from "../../src/sim/main.js";
import { recordTraffic } from "../../src/colyseus/traffic-trace.js";
import { compareMatches, replayExact } from "../../src/sim/replay.js";
import { arrivals } from "../../src/sim/traffic.js";
import { simulate } from "../../src/sim/simulator.js";
import { twoTeams } from "../../src/core/shape.js";

const THINK = [{ name: "think", min: 0, max: 60 }];

function engine(extra: Partial<MatchmakerOptions> = {}): Matchmaker {
  return new Matchmaker({ teamSize: 1, ratingRange: { min: 0, max: 1 }, criteria: THINK, ...extra });
}

function solo(id: string, rating: number, criteria: Record<string, number> | undefined, at = 0): Ticket {
  const player: Player = { sessionId: id, rating, ...(criteria ? { criteria } : {}) };
  return { id, players: [player], enqueuedAt: at };
}

describe("the queue option criteria", () => {
  it("refuses bad declarations, naming the field", () => {
    const refused: Array<[unknown, RegExp]> = [
      [[{ name: "rating" }], /criteria\.0\.name: must not be rating/],
      [[{ name: "think" }, { name: "think" }], /criteria: must not name a criterion twice/],
      [[{ name: "think", min: 5, max: 5 }], /criteria\.0: min must be below max/],
      [[{ name: "think", weight: 0 }], /criteria\.0\.weight: must be positive/],
      [[{ name: "9lives" }], /criteria\.0\.name: must be a letter/],
      [[{ name: "think", step: 2 }], /criteria\.0\.step: unknown field/],
      [[], /criteria: must declare at least one/],
    ];
    for (const [criteria, message] of refused)
      expect(() => new Matchmaker({ teamSize: 1, criteria } as unknown as MatchmakerOptions)).toThrow(message);
  });

  it("fills the defaults: range 0 to 1, weight 1", () => {
    expect(new Matchmaker({ teamSize: 1, criteria: [{ name: "think" }] }).criteria).toEqual([
      { name: "think", min: 0, max: 1, weight: 1 },
    ]);
  });
});

describe("the engine with criteria", () => {
  it("refuses a player without a value, out of range or with an unknown criterion, naming the field", () => {
    const mm = engine();
    expect(() => mm.enqueue(solo("a", 0.5, undefined), 0)).toThrow("players.0.criteria.think: is required");
    expect(() => mm.enqueue(solo("a", 0.5, { think: 61 }), 0)).toThrow(
      "players.0.criteria.think: must be from 0 to 60, got 61",
    );
    expect(() => mm.enqueue(solo("a", 0.5, { think: 6, mood: 1 }), 0)).toThrow(
      "players.0.criteria.mood: is not a criterion of this queue",
    );
    expect(mm.size).toBe(0);
    // A party: the second member's value is checked too.
    const party: Ticket = {
      id: "p",
      players: [
        { sessionId: "p1", rating: 0.5, criteria: { think: 5 } },
        { sessionId: "p2", rating: 0.5 },
      ],
      enqueuedAt: 0,
    };
    expect(() => engine({ teamSize: 2 }).enqueue(party, 0)).toThrow("players.1.criteria.think: is required");
  });

  it("reports each criterion's dispersion among the human players, and the players' values", () => {
    const mm = engine({ maxWaitMs: 1000, fillWithBots: true, teamSize: 2 });
    mm.enqueue(solo("a", 0.25, { think: 10 }), 0);
    mm.enqueue(solo("b", 0.75, { think: 40 }), 0);
    mm.enqueue(solo("c", 0.5, { think: 25 }), 0);
    const [match] = mm.tick(1000); // one bot seat: not counted
    expect(match.bots).toBe(1);
    expect(match.quality.dispersion).toEqual({ rating: 0.5, think: 30 });
    expect(match.teams.flatMap((t) => t.players.filter((p) => !p.bot).map((p) => p.criteria?.think)).sort()).toEqual([
      10, 25, 40,
    ]);
  });

  it("without criteria, reports no dispersion (the match is as before)", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a", 1, undefined), 0);
    mm.enqueue(solo("b", 2, undefined), 0);
    expect(Object.keys(mm.tick(0)[0].quality)).toEqual(["imbalance", "spread", "meanWaitMs", "maxWaitMs"]);
  });
});

describe("multi-queue's grid (Schlup's figure 1)", () => {
  /** 1v1, rating and think each cut into 3 ranges (9 queues), tau_max 1 s. */
  function grid(r: unknown = [3, 3]) {
    return engine({ policy: "multi-queue", params: { r }, maxWaitMs: 1000 });
  }
  // Cell centres: rating 1/6, 1/2, 5/6; think 10, 30, 50.
  const rating = [1 / 6, 1 / 2, 5 / 6];
  const think = [10, 30, 50];

  it("has one queue per combination of ranges; a game forms in a queue at once", () => {
    const mm = grid();
    expect((mm.policy as MultiQueuePolicy).rangeCount).toBe(9);
    expect((mm.policy as MultiQueuePolicy).rangesPerCriterion).toEqual([3, 3]);
    mm.enqueue(solo("a", rating[0], { think: think[0] }), 0);
    mm.enqueue(solo("b", rating[0], { think: think[1] }), 0); // same rating range, next think range
    mm.enqueue(solo("c", rating[1], { think: think[0] }), 0); // next rating range, same think range
    expect(mm.tick(0)).toEqual([]);
    mm.enqueue(solo("d", rating[0] + 0.1, { think: think[0] + 5 }), 0);
    const [match] = mm.tick(0);
    expect(match.tickets.map((t) => t.id).sort()).toEqual(["a", "d"]);
  });

  it("after tau_max, looks at the directly neighbouring queues (diagonals included) before farther ones", () => {
    const mm = grid();
    mm.enqueue(solo("home", rating[0], { think: think[0] }), 0);
    mm.enqueue(solo("far", rating[2], { think: think[0] }), 10); // two rating ranges away
    mm.enqueue(solo("diagonal", rating[1], { think: think[1] }), 20); // one away on both
    expect(mm.tick(999)).toEqual([]);
    const [match] = mm.tick(1000);
    expect(match.tickets.map((t) => t.id)).toEqual(["home", "diagonal"]);
    // "far" is overdue at 1010: radius 1 finds nobody, radius 2 is the whole grid (nobody else waits).
    expect(mm.tick(1010)).toEqual([]);
    mm.enqueue(solo("corner", rating[0], { think: think[2] }), 1500); // two away on think, two on rating
    const [late] = mm.tick(1500);
    expect(late.tickets.map((t) => t.id)).toEqual(["far", "corner"]);
  });

  it("takes one number of ranges for every criterion, or one each (also as 3x2)", () => {
    expect((grid(4).policy as MultiQueuePolicy).rangesPerCriterion).toEqual([4, 4]);
    expect((grid("3x2").policy as MultiQueuePolicy).rangesPerCriterion).toEqual([3, 2]);
    expect(() => grid([3, 2, 2])).toThrow(/r: gives 3 numbers of ranges, but the queue has 2 criteria/);
    expect(() => grid(["a"])).toThrow(/r: must be a whole number of ranges/);
    expect(() => grid([1000, 1000])).toThrow(/r: makes 1000000 queues/);
  });

  it('with r: "auto", chooses one r for every criterion from eq. (7) for D criteria', () => {
    // a = 10 players/s, k = 2, tau_max = 5 s, D = 2: r^3 = 2·10·5 / (2·3), r ≈ 2.55; the cost
    // (2/3)/r + 0.02 r² is 0.402 at r = 3 against 0.413 at r = 2, so 3 (9 queues).
    const mm = engine({ policy: "multi-queue", params: { r: "auto" }, maxWaitMs: 5000 });
    for (let i = 0; i < 400; i++) {
      const now = i * 100;
      mm.enqueue(solo(`t${i}`, (i * 0.618) % 1, { think: (i * 37) % 60 }, now), now);
      mm.tick(now);
    }
    expect((mm.policy as MultiQueuePolicy).rangesPerCriterion).toEqual([3, 3]);
  });
});

describe("the window policies' box over the criteria", () => {
  const think = (id: string, rating: number, value: number, at = 0) => solo(id, rating, { think: value }, at);

  it("expanding-window: a pair forms when both windows reach each other on the rating and on every criterion", () => {
    const mm = engine({
      policy: "expanding-window",
      params: { initial: 0.05, growthPerSecond: 0.01, criteria: { think: { initial: 5, growthPerSecond: 1 } } },
    });
    mm.enqueue(think("a", 0.5, 10), 0);
    mm.enqueue(think("b", 0.5, 30), 0); // same rating, 20 s apart: the think windows reach 20 at 15 s
    expect(mm.tick(0)).toEqual([]);
    expect(mm.nextWakeup(0)).toBe(15_000);
    expect(mm.tick(14_999)).toEqual([]);
    expect(mm.tick(15_000).map((m) => m.tickets.map((t) => t.id).sort())).toEqual([["a", "b"]]);
  });

  it("expanding-window: a ticket close on the rating but far on a criterion does not hide one farther on the rating", () => {
    const mm = engine({
      policy: "expanding-window",
      params: { initial: 0.05, growthPerSecond: 0.01, criteria: { think: { initial: 5, growthPerSecond: 1 } } },
    });
    mm.enqueue(think("a", 0.5, 0), 0);
    mm.enqueue(think("x", 0.58, 60), 0); // in a's rating window at 3 s, 60 away on think (55 s)
    mm.enqueue(think("y", 0.6, 0), 0); // 0.1 away on the rating: reached at 5 s
    // Driven by the engine's own wake-ups, as the room and the simulator drive it.
    let now = 0;
    let games = mm.tick(now);
    while (games.length === 0) games = mm.tick((now = mm.nextWakeup(now)!));
    expect(now).toBe(5000);
    expect(games.map((m) => m.tickets.map((t) => t.id).sort())).toEqual([["a", "y"]]);
  });

  it("expanding-window: every game of a simulated run lies inside each of its players' boxes when it forms", () => {
    const trace = simulate({
      policy: "expanding-window",
      params: { initial: 0.02, growthPerSecond: 0.02, criteria: { think: { initial: 0.05, growthPerSecond: 0.03 } } },
      teamSize: 1,
      traffic: {
        arrivals: "poisson",
        rate: 5,
        parties: [{ value: 1, weight: 1 }],
        skill: { kind: "uniform" },
        sides: [{ value: undefined, weight: 1 }],
        criteria: [{ name: "think", weight: 1, values: { kind: "uniform" } }],
      },
      tickets: 3000,
      seed: 4,
    });
    expect(trace.matches.length).toBeGreaterThan(1400);
    let grewForThink = 0;
    for (const m of trace.matches) {
      const [a, b] = [m.teams[0].players[0], m.teams[1].players[0]];
      const think = Math.abs(a.criteria!.think - b.criteria!.think);
      const rating = Math.abs(a.rating - b.rating);
      for (const p of [a, b]) {
        const seconds = p.waitMs / 1000;
        expect(think).toBeLessThanOrEqual(0.05 + 0.03 * seconds + 1e-9);
        expect(rating).toBeLessThanOrEqual(0.02 + 0.02 * seconds + 1e-9);
      }
      if (think > 0.05) grewForThink++;
    }
    // The box did its work: many games had to wait for it to grow.
    expect(grewForThink).toBeGreaterThan(100);
  });

  it("brackets: players of one bracket wait for their criteria windows to meet", () => {
    const mm = engine({ policy: "brackets", params: { criteria: { think: { initial: 0, growthPerSecond: 2 } } } });
    mm.enqueue(think("a", 0.1, 10), 0);
    mm.enqueue(think("b", 0.12, 30), 0);
    expect(mm.tick(9999)).toEqual([]);
    expect(mm.tick(10_000)).toHaveLength(1);
  });

  it("refuses a window for a criterion the queue does not have, naming it", () => {
    expect(() => engine({ policy: "expanding-window", params: { criteria: { mood: {} } } })).toThrow(
      /criteria\.mood: is not a criterion of this queue/,
    );
    expect(
      () => new Matchmaker({ teamSize: 1, policy: "brackets", params: { criteria: { think: { initial: 1 } } } }),
    ).toThrow(/criteria\.think: is not a criterion of this queue \(it has none\)/);
    expect(() =>
      engine({ policy: "expanding-window", params: { criteria: { think: { initial: 5, max: 1 } } } }),
    ).toThrow(/criteria\.think\.max: must be at least initial/);
  });
});

describe("best-game with the criteria as an added cost term", () => {
  const pool = (params: Record<string, unknown>) => {
    const mm = engine({ policy: "best-game", params });
    mm.enqueue(solo("a", 0.5, { think: 0 }), 0);
    mm.enqueue(solo("b", 0.51, { think: 60 }), 0);
    mm.enqueue(solo("c", 0.55, { think: 0 }), 0);
    const [match] = mm.tick(0);
    return { ids: match.tickets.map((t) => t.id).sort(), imbalance: match.quality.imbalance };
  };

  it("scores games by the rating alone without criteriaCost", () => {
    expect(pool({}).ids).toEqual(["a", "b"]);
  });

  it("adds criteriaCost x dispersion to each game's score; the assembly still reports the rating's imbalance", () => {
    // a–b: 0.01 + 0.01 x 60 = 0.61 against a–c: 0.05 + 0.
    const { ids, imbalance } = pool({ criteriaCost: { think: 0.01 } });
    expect(ids).toEqual(["a", "c"]);
    expect(imbalance).toBeCloseTo(0.05, 12);
  });

  it("refuses a cost for a criterion the queue does not have", () => {
    expect(() => engine({ policy: "best-game", params: { criteriaCost: { mood: 1 } } })).toThrow(
      /criteriaCost\.mood: is not a criterion of this queue/,
    );
  });
});

describe("a traffic trace of a queue with criteria", () => {
  it("records each player's values, so the replay forms the same games", () => {
    const options: MatchmakerOptions = {
      teamSize: 1,
      ratingRange: { min: 0, max: 1 },
      criteria: [{ name: "think", min: 0, max: 1 }],
      policy: "multi-queue",
      params: { r: [2, 3] },
      maxWaitMs: 5000,
      fillWithBots: true,
    };
    const mm = new Matchmaker(options);
    const recorder = recordTraffic(mm, options, 10_000, "q");
    const stream = arrivals(
      {
        arrivals: "poisson",
        rate: 2,
        parties: [{ value: 1, weight: 1 }],
        skill: { kind: "uniform" },
        sides: [{ value: undefined, weight: 1 }],
        criteria: [{ name: "think", weight: 1, values: { kind: "uniform" } }],
      },
      3,
    );
    let live = 0;
    for (let i = 0; i < 300; i++) {
      const { ticket } = stream.next().value;
      mm.enqueue(ticket, ticket.enqueuedAt);
      live += mm.tick(ticket.enqueuedAt).length;
    }
    const trace = recorder.trace();
    const first = trace.events.find((e) => e.e === "arrive");
    expect(first && "players" in first ? first.players[0].criteria : undefined).toEqual({ think: expect.any(Number) });
    const result = replayExact(trace);
    expect(compareMatches(result)).toEqual({ recorded: live, replayed: live, same: true });
  });
});

describe("join options with criteria", () => {
  const schema = joinOptionsSchema({ min: 0, max: 3000 }, undefined, twoTeams(2), undefined, undefined, [
    { name: "think", min: 0, max: 60, weight: 1 },
  ]);
  const problem = (input: unknown) => {
    const result = v.safeParse(schema, input);
    return result.success ? undefined : describeIssues(result.issues);
  };

  it("accepts a value within range and refuses the rest naming the field", () => {
    expect(v.parse(schema, { rating: 10, criteria: { think: 60 } })).toEqual({ rating: 10, criteria: { think: 60 } });
    expect(problem({ rating: 10 })).toBe("criteria: is required");
    expect(problem({ rating: 10, criteria: 5 })).toBe("criteria: must give a value for each of think");
    expect(problem({ rating: 10, criteria: { think: null } })).toMatch(/^criteria\.think: must be a finite number/);
  });

  it("is refused in a queue without criteria", () => {
    const plain = joinOptionsSchema({ min: 0, max: 3000 });
    const result = v.safeParse(plain, { rating: 10, criteria: { think: 1 } });
    expect(result.success ? undefined : describeIssues(result.issues)).toBe("criteria: this queue has no criteria");
  });
});

describe("npm run sim -- --criteria", () => {
  it("parses names, weights and value models", () => {
    const request = parseSimulationArgs(["--policy", "multi-queue", "--criteria", "think,region:2:normal:0.5:0.1"]);
    expect(request.traffic.criteria).toEqual([
      { name: "think", weight: 1, values: { kind: "uniform" } },
      { name: "region", weight: 2, values: { kind: "normal", mean: 0.5, sd: 0.1 } },
    ]);
  });

  it("takes a nested policy parameter by its dotted key, keeping its siblings", () => {
    const request = parseSimulationArgs([
      "--policy",
      "expanding-window",
      "--set",
      "criteria.think.initial=0.1",
      "--set",
      "criteria.think.max=inf",
      "--set",
      "initial=0.02",
    ]);
    expect(request.params).toEqual({ criteria: { think: { initial: 0.1, max: "inf" } }, initial: 0.02 });
  });

  it("refuses bad criteria naming the option", () => {
    const refused: Array<[string[], RegExp]> = [
      [["--criteria", "rating"], /--criteria: "rating" is not a criterion name/],
      [["--criteria", "a,a"], /--criteria: names a criterion twice/],
      [["--criteria", "a:0"], /--criteria a weight: must be positive/],
      [["--criteria", "a:1:normal:1"], /--criteria a: "normal:1" is not uniform/],
      [["--criteria", "a", "--opt", "--max-wait", "5"], /--opt: the offline optimum is for the rating alone/],
    ];
    for (const [args, message] of refused) {
      expect(() => parseSimulationArgs(["--policy", "greedy", ...args])).toThrow(UsageError);
      expect(() => parseSimulationArgs(["--policy", "greedy", ...args])).toThrow(message);
    }
  });

  it("prints each criterion's mean dispersion and the D-criteria cost", async () => {
    const out: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
    const code = await main([
      "--policy",
      "multi-queue",
      "--set",
      "r=3x2",
      "--criteria",
      "think",
      "--rate",
      "10",
      "--max-wait",
      "5",
      "--tickets",
      "2000",
      "--json",
    ]);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    const report = JSON.parse(out.at(-1)!);
    expect(Object.keys(report.meanDispersion)).toEqual(["rating", "think"]);
    // Think is cut into 2 ranges, the rating into 3: think's dispersion is the larger.
    expect(report.meanDispersion.think).toBeGreaterThan(report.meanDispersion.rating);
    expect(report.schlupCostPerGame).toBeGreaterThan(0);
  });

  it("eq. (1) with criteria weighs each dispersion f_d = k w_d / sum(w) (a bot game counts 1 on each)", () => {
    const mm = engine({ maxWaitMs: 1000, fillWithBots: true });
    mm.enqueue(solo("a", 0.2, { think: 6 }), 0);
    mm.enqueue(solo("b", 0.6, { think: 36 }, 500), 500);
    const [match] = mm.tick(500);
    // k = 2, weights 1 and 3: f = 0.5 and 1.5; q = 0.4 and 0.5; time (0.5 + 0) / 1.
    const criteria = [{ name: "think", min: 0, max: 60, weight: 3 }];
    expect(schlupGameCost(match, 1, { min: 0, max: 1 }, criteria)).toBeCloseTo(0.5 * 0.4 + 1.5 * 0.5 + 0.5, 12);
  });
});
