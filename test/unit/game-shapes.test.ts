/** The engine follows the queue's shape: free-for-alls, more than two teams, short-handed starts, refusals. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assembleGame, canAssembleGame, fitsGameWithBots, teamsImbalance } from "../../src/core/game-assembly.js";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import { RoleTable } from "../../src/core/role-rules.js";
import { describeShape, kindOf, seatsOf, teamCountOf, type GameShape } from "../../src/core/shape.js";
import type { Match } from "../../src/core/types.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { PolicyRegistry } from "../../src/core/policy.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { party, solo } from "../helpers/tickets.js";

const ffa = (players: number, minPlayers = players, countMultiple = 1): GameShape => ({
  kind: "free-for-all",
  players,
  minPlayers,
  countMultiple,
});
const teams = (count: number, teamSize: number, minTeamSize = teamSize): GameShape => ({
  kind: "teams",
  teams: count,
  teamSize,
  minTeamSize,
});

const humans = (m: Match) => m.teams.flatMap((t) => t.players).filter((p) => !p.bot);

describe("a free-for-all", () => {
  it("of 3 seats three solos, each a team of one, with no side and no imbalance", () => {
    const mm = new Matchmaker({ maxPlayers: 3, policy: "greedy" });
    mm.enqueue(solo("a", 1000), 0);
    mm.enqueue(solo("b", 1500), 1);
    expect(mm.tick(1)).toEqual([]);
    mm.enqueue(solo("c", 2000), 2);
    const [m] = mm.tick(2);
    expect(m.shape).toEqual(ffa(3));
    expect(m.teams).toHaveLength(3);
    expect(m.teams.map((t) => t.players.map((p) => p.sessionId))).toEqual([["a/0"], ["b/0"], ["c/0"]]);
    expect(m.teams.every((t) => t.side === undefined)).toBe(true);
    expect(m.quality.imbalance).toBeUndefined();
    expect(m.quality.spread).toBe(1000);
    expect(mm.stats(2)).toMatchObject({ matchesFormed: 1, playersMatched: 3, meanSpread: 1000, meanImbalance: 0 });
  });

  it("keeps a party in one game, its members each their own team", () => {
    const mm = new Matchmaker({ maxPlayers: 4, policy: "greedy" });
    mm.enqueue(party("p", [1200, 1300, 1400]), 0);
    mm.enqueue(party("q", [1500, 1600]), 0);
    expect(mm.tick(0)).toEqual([]); // 5 players: the party of two does not fit beside the three
    mm.enqueue(solo("s"), 1);
    const [m] = mm.tick(1);
    expect(m.teams).toHaveLength(4);
    expect(new Set(m.tickets.map((t) => t.id))).toEqual(new Set(["p", "s"]));
    expect(mm.waitingPlayers).toBe(2);
  });

  it("refuses a side and a party larger than the game", () => {
    const mm = new Matchmaker({ maxPlayers: 3, policy: "greedy" });
    expect(() => mm.enqueue(solo("a", 1500, { side: "A" }), 0)).toThrow(
      /side: this queue's games \(a free-for-all of 3\) have no sides/,
    );
    expect(() => mm.enqueue(party("p", [1, 2, 3, 4]), 0)).toThrow(/at most 3 players/);
  });

  it("of 100 forms one game from 100 solos", () => {
    const mm = new Matchmaker({ maxPlayers: 100, policy: "greedy" });
    for (let i = 0; i < 99; i++) mm.enqueue(solo(`s${i}`, 1000 + i), i);
    expect(mm.tick(99)).toEqual([]);
    mm.enqueue(solo("last"), 100);
    const [m] = mm.tick(100);
    expect(m.teams).toHaveLength(100);
    expect(mm.size).toBe(0);
  });
});

describe("more than two teams", () => {
  it("four teams of two: the least imbalanced split (exact), no sides", () => {
    const mm = new Matchmaker({ teamSize: 2, teams: 4, policy: "greedy" });
    const ratings = [1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700];
    ratings.forEach((r, i) => mm.enqueue(solo(`s${i}`, r), i));
    const [m] = mm.tick(8);
    expect(m.teams).toHaveLength(4);
    expect(m.teams.every((t) => t.players.length === 2 && t.side === undefined)).toBe(true);
    // Pairs summing to 2700 each: perfectly balanced.
    expect(m.teams.map((t) => t.ratingSum)).toEqual([2700, 2700, 2700, 2700]);
    expect(m.quality.imbalance).toBe(0);
  });

  it("never splits a party, and refuses sides", () => {
    const mm = new Matchmaker({ teamSize: 3, teams: 3, policy: "greedy" });
    expect(() => mm.enqueue(solo("x", 1500, { side: "B" }), 0)).toThrow(/have no sides/);
    mm.enqueue(party("p", [1000, 1000]), 0);
    mm.enqueue(party("q", [2000, 2000]), 0);
    mm.enqueue(party("r", [1500, 1500, 1500]), 0);
    for (let i = 0; i < 2; i++) mm.enqueue(solo(`s${i}`, 1500), 1);
    const [m] = mm.tick(1);
    for (const id of ["p", "q", "r"]) {
      const holding = m.teams.filter((t) => t.ticketIds.includes(id));
      expect(holding).toHaveLength(1);
    }
  });

  it("assembly: the heuristic past the exact limit still fills every team, within the stated bound for solos", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 24, maxLength: 24 }), (ratings) => {
        const tickets = ratings.map((r, i) => solo(`s${i}`, r));
        const split = assembleGame(tickets, teams(6, 4), ratingSumDifference)!;
        expect(split.teams.map((t) => t.length)).toEqual([4, 4, 4, 4, 4, 4]);
        const spread = Math.max(...ratings) - Math.min(...ratings);
        expect(split.imbalance!).toBeLessThanOrEqual(spread);
      }),
      { numRuns: 200 },
    );
  });

  it("assembly: exact for small games (three teams of two, checked against every split)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 6, maxLength: 6 }), (ratings) => {
        const tickets = ratings.map((r, i) => solo(`s${i}`, r));
        const split = assembleGame(tickets, teams(3, 2), ratingSumDifference)!;
        let best = Infinity;
        // Every pairing of six players into three pairs.
        const rest = [0, 1, 2, 3, 4, 5];
        const pairings = (left: number[]): number[][][] => {
          if (left.length === 0) return [[]];
          const [a, ...others] = left;
          return others.flatMap((b) => pairings(others.filter((x) => x !== b)).map((more) => [[a, b], ...more]));
        };
        for (const pairing of pairings(rest)) {
          const value = teamsImbalance(
            ratingSumDifference,
            pairing.map((pair) => pair.map((i) => tickets[i].players[0])),
          );
          best = Math.min(best, value);
        }
        expect(split.imbalance).toBe(best);
      }),
      { numRuns: 100 },
    );
  });

  it("assembly in a role queue of three teams of five (past the exact limit): one player per role on each team", () => {
    const roles = ["top", "jungle", "mid", "bot", "support"];
    const table = new RoleTable(roles);
    const tickets = Array.from({ length: 15 }, (_, i) => ({
      id: `s${i}`,
      players: [{ sessionId: `s${i}`, rating: 1000 + 37 * i, roles: [roles[i % 5], roles[(i + 1) % 5]] }],
      enqueuedAt: 0,
    }));
    const split = assembleGame(tickets, teams(3, 5), ratingSumDifference, table)!;
    expect(split.teams.map((t) => t.length)).toEqual([5, 5, 5]);
    for (const team of split.teams) {
      const taken = team.map((t) => split.roles!.get(t.players[0].sessionId));
      expect(new Set(taken)).toEqual(new Set(roles));
      for (const t of team) expect(t.players[0].roles).toContain(split.roles!.get(t.players[0].sessionId));
    }
  });

  it("fit checks agree with assembly on parties", () => {
    const shape = teams(3, 3);
    expect(
      canAssembleGame([party("a", [1, 1]), party("b", [1, 1]), party("c", [1, 1]), party("d", [1, 1, 1])], shape),
    ).toBe(false);
    expect(
      canAssembleGame(
        [party("a", [1, 1]), party("b", [1, 1]), party("c", [1, 1]), solo("d"), solo("e"), solo("f")],
        shape,
      ),
    ).toBe(true);
    expect(
      fitsGameWithBots([party("a", [1, 1]), party("b", [1, 1]), party("c", [1, 1]), party("d", [1, 1])], shape),
    ).toBe(false);
    expect(fitsGameWithBots([party("a", [1, 1]), party("b", [1, 1]), party("c", [1, 1])], shape)).toBe(true);
  });
});

describe("games that start short-handed", () => {
  it("a free-for-all of 2 to 4 starts with the humans there once the oldest waited", () => {
    const mm = new Matchmaker({ maxPlayers: 4, minPlayers: 2, shortHandedAfterMs: 5000, policy: "greedy" });
    mm.enqueue(solo("a", 1500), 0);
    expect(mm.tick(10_000)).toEqual([]); // one human is below the minimum, however long
    mm.enqueue(solo("b", 1600), 10_000);
    expect(mm.nextWakeup(10_000)).toBeUndefined(); // overdue already: arrivals tick
    mm.enqueue(solo("c", 1700), 10_001);
    const [m] = mm.tick(10_001);
    expect(humans(m)).toHaveLength(3);
    expect(m.bots).toBe(0);
    expect(m.emptySeats).toBe(1);
    expect(mm.stats(10_001).playersMatched).toBe(3);
  });

  it("waits for the full game before the wait, and wakes at the wait", () => {
    const mm = new Matchmaker({ maxPlayers: 4, minPlayers: 2, shortHandedAfterMs: 5000, policy: "greedy" });
    mm.enqueue(solo("a"), 0);
    mm.enqueue(solo("b"), 100);
    expect(mm.tick(100)).toEqual([]);
    expect(mm.nextWakeup(100)).toBe(5000);
    const [m] = mm.tick(5000);
    expect(humans(m)).toHaveLength(2);
    expect(m.emptySeats).toBe(2);
  });

  it("honours the count multiple", () => {
    const mm = new Matchmaker({
      maxPlayers: 6,
      minPlayers: 2,
      countMultiple: 2,
      shortHandedAfterMs: 1000,
      policy: "greedy",
    });
    for (const id of ["a", "b", "c"]) mm.enqueue(solo(id), 0);
    const [m] = mm.tick(1000);
    expect(humans(m)).toHaveLength(2); // 3 is not a multiple of 2
    expect(mm.size).toBe(1);
  });

  it("teams: every team takes the same number, at least the minimum", () => {
    const mm = new Matchmaker({ teamSize: 3, minTeamSize: 2, shortHandedAfterMs: 1000, policy: "greedy" });
    for (let i = 0; i < 5; i++) mm.enqueue(solo(`s${i}`, 1500 + i), 0);
    const [m] = mm.tick(1000);
    expect(m.teams.map((t) => t.players.length)).toEqual([2, 2]);
    expect(m.teams.map((t) => t.side)).toEqual(["A", "B"]);
    expect(m.emptySeats).toBe(2);
    expect(mm.size).toBe(1);
  });

  it("with bots: the empty seats are bots, and never fewer humans than the minimum", () => {
    const mm = new Matchmaker({
      maxPlayers: 4,
      minPlayers: 3,
      shortHandedAfterMs: 1000,
      maxWaitMs: 60_000,
      fillWithBots: true,
      policy: "greedy",
    });
    mm.enqueue(solo("a"), 0);
    mm.enqueue(solo("b"), 0);
    expect(mm.tick(2000)).toEqual([]);
    mm.enqueue(solo("c"), 2000);
    const [m] = mm.tick(2000);
    expect(humans(m)).toHaveLength(3);
    expect(m.bots).toBe(1);
    expect(m.emptySeats).toBeUndefined();
  });
});

describe("shape options", () => {
  it("name the option at fault", () => {
    expect(() => new Matchmaker({ policy: "greedy" })).toThrow(/teamSize: is required \(or give maxPlayers alone/);
    expect(() => new Matchmaker({ teamSize: 2, maxPlayers: 5 })).toThrow(
      /maxPlayers: must be a multiple of teamSize \(2\)/,
    );
    expect(() => new Matchmaker({ teamSize: 2, teams: 2, maxPlayers: 6 })).toThrow(
      /maxPlayers: must equal teams × teamSize \(2 × 2 = 4\)/,
    );
    expect(() => new Matchmaker({ teamSize: 2, maxPlayers: 2 })).toThrow(/maxPlayers: must be at least 2 × teamSize/);
    expect(() => new Matchmaker({ maxPlayers: 4, minPlayers: 2 })).toThrow(/minPlayers: needs shortHandedAfterMs/);
    expect(() => new Matchmaker({ maxPlayers: 4, minTeamSize: 2 })).toThrow(/minTeamSize: a free-for-all has no teams/);
    expect(() => new Matchmaker({ teamSize: 2, minPlayers: 2 })).toThrow(
      /minPlayers: a team game's minimum is minTeamSize/,
    );
    expect(() => new Matchmaker({ teamSize: 2, shortHandedAfterMs: 10 })).toThrow(
      /shortHandedAfterMs: needs minTeamSize below teamSize/,
    );
    expect(() => new Matchmaker({ teamSize: 16, teams: 8 })).toThrow(/teams: teams × teamSize must be at most 64/);
    expect(() => new Matchmaker({ maxPlayers: 5, minPlayers: 3, countMultiple: 5, shortHandedAfterMs: 1 })).toThrow(
      /countMultiple: no player count/,
    );
    expect(() => new Matchmaker({ maxPlayers: 4, roles: ["a"] })).toThrow(/roles: a free-for-all has no teams/);
  });

  it("a policy that does not serve the shape is refused at start-up, naming both", () => {
    // A definition without `shapes` serves two teams only.
    const policies = new PolicyRegistry([...defaultPolicies.all()]);
    policies.register({
      name: "test-two-teams",
      summary: "forms nothing",
      create: () => ({ name: "test-two-teams", add() {}, remove() {}, poll: () => [], nextWakeup: () => undefined }),
    });
    expect(() => new Matchmaker({ maxPlayers: 3, policy: "test-two-teams", policies })).toThrow(
      /policy "test-two-teams" does not form games of a free-for-all of 3 \(.*greedy.*\)/,
    );
  });

  it("QueueRoom's maxPlayers beside teamSize is the same two-team game", () => {
    expect(new Matchmaker({ teamSize: 2, maxPlayers: 4, policy: "greedy" }).shape).toEqual(teams(2, 2));
    // QueueRoom's maxPlayers 6 with maxTeamSize 2: three teams of two.
    expect(new Matchmaker({ teamSize: 2, maxPlayers: 6, policy: "greedy" }).shape).toEqual(teams(3, 2));
  });
});

describe("every policy serves a shape or refuses it at start-up", () => {
  const shapes: Array<[string, Record<string, number>, GameShape]> = [
    ["two teams of 2", { teamSize: 2 }, teams(2, 2)],
    ["3 teams of 2", { teamSize: 2, teams: 3 }, teams(3, 2)],
    ["4 teams of 1", { teamSize: 1, teams: 4 }, teams(4, 1)],
    ["a free-for-all of 4", { maxPlayers: 4 }, ffa(4)],
    ["a free-for-all of 12", { maxPlayers: 12 }, ffa(12)],
  ];
  const policies = defaultPolicies.all().filter((d) => !d.supportsRoles);

  for (const definition of policies) {
    for (const [name, options, shape] of shapes) {
      const serves = (definition.shapes ?? ["two-teams"]).includes(kindOf(shape));
      it(`${definition.name}, ${name}: ${serves ? "forms games of that shape" : "refused, naming both"}`, () => {
        const make = () =>
          new Matchmaker({
            ...options,
            policy: definition.name,
            maxWaitMs: 30_000,
            ratingRange: { min: 0, max: 3000 },
          });
        if (!serves) {
          expect(make).toThrow(`policy "${definition.name}" does not form games of ${describeShape(shape)}`);
          return;
        }
        const mm = make();
        const seats = seatsOf(shape);
        for (let i = 0; i < 2 * seats; i++) mm.enqueue(solo(`s${i}`, 1500 + 3 * i, { at: i * 100 }), i * 100);
        const matches: Match[] = [];
        for (let now = 0; now <= 40_000 && matches.length < 2; now += 500) matches.push(...mm.tick(now));
        expect(matches.length).toBeGreaterThan(0);
        for (const m of matches) {
          expect(m.shape).toEqual(shape);
          expect(m.bots).toBe(0);
          expect(humans(m)).toHaveLength(seats);
          expect(m.teams).toHaveLength(teamCountOf(shape));
        }
      });
    }
  }
});
