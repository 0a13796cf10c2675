/**
 * The forum features' options at the edges: the room's queue options (`avoidRecent`), the join
 * option `playerId`, the window each player carries into the game room's MatchInfo, and the
 * simulator's flags.
 */
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Ticket } from "../../src/core/types.js";
import { joinOptionsSchema, parseJoinOptions } from "../../src/colyseus/join-options.js";
import { parseRoomOptions } from "../../src/options/index.js";
import { matchInfo } from "../../src/colyseus/director/game-room.js";
import { parseSimulationArgs, UsageError } from "../../src/sim/options.js";
import { simulate } from "../../src/sim/simulator.js";

describe("queue options", () => {
  it("accepts avoidRecent and its fallback, and names a bad value", () => {
    const parsed = parseRoomOptions({
      teamSize: 1,
      gameRoom: "g",
      policy: "expanding-window",
      avoidRecent: 3,
      avoidRecentFallbackMs: 5000,
      avoidRecentMs: 600_000,
    });
    expect(parsed.avoidRecent).toBe(3);
    expect(parsed.avoidRecentMs).toBe(600_000);
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", avoidRecentMs: 0 })).toThrow(
      /avoidRecentMs: must be positive/,
    );
    expect(parsed.avoidRecentFallbackMs).toBe(5000);
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", avoidRecent: 0 })).toThrow(
      /avoidRecent: must be at least 1/,
    );
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", avoidRecent: 2.5 })).toThrow(
      /avoidRecent: must be a whole number of games/,
    );
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", avoidRecentFallbackMs: -1 })).toThrow(
      /avoidRecentFallbackMs: must not be negative/,
    );
  });

  it("the join option playerId is a short non-empty string", () => {
    const schema = joinOptionsSchema({ min: 0, max: 3000 });
    expect(parseJoinOptions(schema, { rating: 1500, playerId: "account-42" })).toEqual({
      ok: true,
      value: { rating: 1500, playerId: "account-42" },
    });
    expect(parseJoinOptions(schema, { rating: 1500, playerId: "" })).toEqual({
      ok: false,
      message: "playerId: must not be empty",
    });
    expect(parseJoinOptions(schema, { rating: 1500, playerId: 7 })).toEqual({
      ok: false,
      message: "playerId: must be a string",
    });
  });
});

describe("what the game room receives", () => {
  it("each player's window when matched, from a window policy, in MatchInfo", () => {
    const mm = new Matchmaker({
      teamSize: 1,
      policy: "expanding-window",
      params: { initial: 100, growthPerSecond: 10 },
    });
    const t = (id: string, rating: number, at: number): Ticket => ({
      id,
      players: [{ sessionId: id, rating }],
      enqueuedAt: at,
    });
    mm.enqueue(t("a", 1000, 0), 0);
    mm.enqueue(t("b", 1300, 10_000), 10_000);
    // a's window reaches 300 at 20 s; b's (from 10 s) at 30 s.
    expect(mm.tick(20_000)).toEqual([]);
    const [match] = mm.tick(30_000);
    const info = matchInfo(match, "duel");
    const windows = Object.fromEntries(info.teams.flatMap((team) => team.players.map((p) => [p.sessionId, p.window])));
    expect(windows).toEqual({
      a: { unit: "rating", initial: 100, width: 400 },
      b: { unit: "rating", initial: 100, width: 300 },
    });
  });

  it("policies without windows add nothing", () => {
    const mm = new Matchmaker({ teamSize: 1, policy: "greedy" });
    mm.enqueue({ id: "a", players: [{ sessionId: "a", rating: 1 }], enqueuedAt: 0 }, 0);
    mm.enqueue({ id: "b", players: [{ sessionId: "b", rating: 2 }], enqueuedAt: 0 }, 0);
    const [match] = mm.tick(0);
    for (const team of matchInfo(match, "q").teams)
      for (const p of team.players) expect(p).not.toHaveProperty("window");
  });
});

describe("simulator flags", () => {
  it("parses --community, --avoid-recent and --avoid-recent-fallback", () => {
    const request = parseSimulationArgs([
      "--policy",
      "greedy",
      "--community",
      "50",
      "--avoid-recent",
      "2",
      "--avoid-recent-fallback",
      "4",
      "--avoid-recent-span",
      "90",
    ]);
    expect(request.traffic.community).toBe(50);
    expect(request.avoidRecent).toEqual({ games: 2, fallbackMs: 4000, withinMs: 90_000 });
    expect(() => parseSimulationArgs(["--policy", "greedy", "--avoid-recent-span", "4"])).toThrow(
      /--avoid-recent-span: needs --avoid-recent/,
    );
    expect(() => parseSimulationArgs(["--policy", "greedy", "--avoid-recent-fallback", "4"])).toThrow(UsageError);
    expect(() => parseSimulationArgs(["--policy", "greedy", "--avoid-recent", "0"])).toThrow(
      /--avoid-recent: must be a whole number/,
    );
  });

  it("with a community, avoidance cuts back-to-back rematches", () => {
    const rematches = (avoid: boolean) => {
      const trace = simulate({
        policy: "greedy",
        teamSize: 1,
        traffic: {
          arrivals: "poisson",
          rate: 4,
          parties: [{ value: 1, weight: 1 }],
          skill: { kind: "uniform" },
          sides: [{ value: undefined, weight: 1 }],
          community: 6,
        },
        tickets: 3000,
        seed: 3,
        ...(avoid ? { avoidRecent: { games: 1, fallbackMs: 60_000 } } : {}),
      });
      const last = new Map<string, string>();
      let count = 0;
      for (const m of trace.matches) {
        const [p, q] = m.teams.map((team) => team.players[0].playerId!);
        if (last.get(p) === q) count++;
        last.set(p, q);
        last.set(q, p);
      }
      return count;
    };
    const without = rematches(false);
    expect(without).toBeGreaterThan(50); // six members meet each other often
    expect(rematches(true)).toBeLessThan(without / 5);
  });
});

describe("avoidRecent needs a policy that honours it", () => {
  it("is refused, naming the policy, with one that does not", () => {
    expect(() => new Matchmaker({ teamSize: 1, policy: "best-game", avoidRecent: 2 })).toThrow(
      /avoidRecent: policy "best-game" does not avoid rematches/,
    );
    for (const policy of ["greedy", "fifo", "lifo", "expanding-window", "brackets"]) {
      expect(new Matchmaker({ teamSize: 1, policy, avoidRecent: 2 }).recentOpponents?.games).toBe(2);
    }
  });
});
