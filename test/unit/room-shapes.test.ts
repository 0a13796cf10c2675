/**
 * The room's parts follow the shape of a queue's games, without a server: join options at the
 * edge (party sizes, `side` refused where there are no sides, the plain join's fast path), the
 * backfill desk (team indexes, one seat per team in a free-for-all, a short-handed game's empty
 * seats), the shared figures, and the traffic trace's games.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BackfillDesk } from "../../src/colyseus/backfill-desk.js";
import { checkJoinOptions, joinOptionsSchema } from "../../src/colyseus/join-options.js";
import { queueFigures } from "../../src/colyseus/state.js";
import { recordTraffic } from "../../src/colyseus/traffic-trace.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { twoTeams, type GameShape } from "../../src/core/shape.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { Matchmaker, type MatchmakerOptions } from "../../src/options/matchmaker.js";
import { checkTrace } from "../../src/trace/format.js";
import { thrown } from "../helpers/thrown.js";

const RANGE = { min: 0, max: 3000 };
const ffa = (players: number, minPlayers = players): GameShape => ({
  kind: "free-for-all",
  players,
  minPlayers,
  countMultiple: 1,
});
const teams = (count: number, teamSize: number): GameShape => ({
  kind: "teams",
  teams: count,
  teamSize,
  minTeamSize: teamSize,
});

/** checkJoinOptions's answer: the options, or the refusal's message. */
function answer(shape: GameShape, input: unknown): unknown {
  try {
    return checkJoinOptions(joinOptionsSchema(RANGE, undefined, shape), input);
  } catch (error) {
    return (error as Error).message;
  }
}

describe("join options follow the shape", () => {
  it("take a side only in a game of two teams, refusing it by name elsewhere (fast path or not)", () => {
    expect(answer(twoTeams(2), { rating: 1500, side: "A" })).toEqual({ rating: 1500, side: "A" });
    expect(answer(ffa(3), { rating: 1500, side: "A" })).toBe(
      "side: this queue's games (a free-for-all of 3) have no sides",
    );
    expect(answer(teams(4, 2), { rank: 1500, side: "B" })).toBe(
      "side: this queue's games (4 teams of 2) have no sides",
    );
    // Beside other options (not the plain join), the same refusal.
    expect(answer(ffa(3), { rating: 1500, side: "A", playerId: "p1" })).toBe(
      "side: this queue's games (a free-for-all of 3) have no sides",
    );
    // Without a side, a plain join passes in every shape.
    for (const shape of [twoTeams(1), ffa(3), teams(4, 2)])
      expect(answer(shape, { rating: 1500 })).toEqual({ rating: 1500 });
  });

  it("the plain join's fast path answers what the schema answers in a shape without sides", () => {
    const validator = joinOptionsSchema(RANGE, undefined, ffa(4));
    for (const input of [{ rating: 1500 }, { rank: 10 }, { rating: 1500, side: "A" }, { rating: 1500, side: "C" }]) {
      const reference = v.safeParse(validator, input);
      const expected = reference.success ? reference.output : "refused";
      let got: unknown;
      try {
        got = checkJoinOptions(validator, input);
      } catch {
        got = "refused";
      }
      expect(got, JSON.stringify(input)).toEqual(expected);
    }
  });

  it("take parties from 2 to a team, or in a free-for-all to the whole game, saying which", () => {
    expect(answer(twoTeams(3), { rating: 1, party: { size: 3 } })).toEqual({ rating: 1, party: { size: 3 } });
    expect(answer(twoTeams(3), { rating: 1, party: { size: 4 } })).toBe(
      "party.size: must be at most 3 (the team size)",
    );
    expect(answer(teams(4, 2), { rating: 1, party: { size: 3 } })).toBe(
      "party.size: must be at most 2 (the team size)",
    );
    expect(answer(ffa(4), { rating: 1, party: { size: 4 } })).toEqual({ rating: 1, party: { size: 4 } });
    expect(answer(ffa(4), { rating: 1, party: { size: 5 } })).toBe(
      "party.size: must be at most 4 (a free-for-all's party plays in one game of 4, each member for themselves)",
    );
    expect(answer(ffa(4), { rating: 1, party: { size: 1 } })).toBe("party.size: must be at least 2");
    // One player per team: no parties, named by the shape.
    expect(answer(twoTeams(1), { rating: 1, party: { size: 2 } })).toBe("party: this queue has no parties (1v1)");
    expect(answer(teams(3, 1), { rating: 1, party: { size: 2 } })).toBe(
      "party: this queue has no parties (3 teams of 1)",
    );
  });
});

const solo = (id: string, rating: number, at = 0): Ticket => ({
  id,
  players: [{ sessionId: id, rating, playerId: id }],
  enqueuedAt: at,
});

/** A desk over `waiting` tracking `match`; `serve()` returns the ticket ids it chose (`withdraw` refuses, so nothing is reserved). */
function deskFor(match: Match, waiting: Ticket[]) {
  let chosen: string[] = [];
  const desk = new BackfillDesk({
    queue: "q",
    waiting: () => waiting,
    zonesOf: () => undefined,
    withdraw: (t) => (chosen.push(t.id), false),
    restore: () => undefined,
    auth: () => undefined,
    seatTicket: () => [],
    count: () => undefined,
  });
  desk.trackMatch(match, "room1");
  const serve = () => {
    chosen = [];
    desk.serve();
    return chosen;
  };
  return { desk, serve };
}

/** The engine's first match of `options` from `ratings` (all enqueued at 0), ticked at `at`. */
function firstMatch(options: MatchmakerOptions, ratings: number[], at = 0): Match {
  const mm = new Matchmaker(options);
  for (const [i, rating] of ratings.entries()) mm.enqueue(solo(`g${i}`, rating), 0);
  const [match] = mm.tick(at);
  if (!match) throw new Error("no match formed");
  return match;
}

/** A `MatchmakerError`'s field and message. */
const refusal = (f: () => unknown) => {
  const error = thrown(f, MatchmakerError);
  return `${error.field}: ${error.message}`;
};

describe("backfill follows the shape", () => {
  it("in a free-for-all, a team is one seat: a team index from 0 to the game's size − 1, one replacement each", () => {
    const match = firstMatch({ maxPlayers: 3 }, [1000, 1500, 2000]);
    const { desk, serve } = deskFor(match, [solo("near1000", 1010, 1), solo("near2000", 1990, 2)]);
    expect(refusal(() => desk.request(match.id, 3, 1))).toBe(
      "team: requestBackfill: team: must be a team index from 0 to 2",
    );
    expect(refusal(() => desk.request(match.id, 0, 2))).toBe(
      "count: requestBackfill: count: must be a whole number from 1 to 1",
    );
    // The replacement of a team's one player is the waiting ticket closest to its rating.
    const team = match.teams.findIndex((t) => t.players[0]!.rating === 2000);
    expect(desk.request(match.id, team, 1)).toEqual({ matchId: match.id, team, pending: 1 });
    expect(serve()).toEqual(["near2000"]);
    expect(refusal(() => desk.request(match.id, team, 1))).toBe(
      "count: requestBackfill: count: 1 of the team's 1 seats are already sought",
    );
  });

  it("a short-handed free-for-all's empty seats are the teams after its players', aiming at the game's mean", () => {
    const match = firstMatch({ maxPlayers: 4, minPlayers: 2, shortHandedAfterMs: 100 }, [1400, 1600], 100);
    expect(match.emptySeats).toBe(2);
    expect(match.teams).toHaveLength(2);
    const { desk, serve } = deskFor(match, [solo("far", 2500, 1), solo("mean", 1510, 2), solo("low", 1390, 3)]);
    expect(desk.request(match.id, 3, 1)).toMatchObject({ team: 3, pending: 1 });
    expect(serve()).toEqual(["mean"]);
    expect(refusal(() => desk.request(match.id, 4, 1))).toBe(
      "team: requestBackfill: team: must be a team index from 0 to 3",
    );
  });

  it("with more than two teams, any team index of the game, up to its team size; with two, side A or B", () => {
    const four = firstMatch({ teamSize: 2, teams: 4 }, [1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700]);
    const { desk } = deskFor(four, []);
    expect(desk.request(four.id, 3, 2)).toMatchObject({ team: 3, pending: 2 });
    expect(refusal(() => desk.request(four.id, 4, 1))).toBe(
      "team: requestBackfill: team: must be a team index from 0 to 3",
    );
    const duel = firstMatch({ teamSize: 1 }, [1000, 1100]);
    expect(refusal(() => deskFor(duel, []).desk.request(duel.id, 2, 1))).toBe(
      "team: requestBackfill: team: must be 0 (side A) or 1 (side B)",
    );
  });
});

describe("the figures state the shape", () => {
  it("kind, teams, team size, players in a full game and the fewest a game starts with", () => {
    const pick = (f: ReturnType<typeof queueFigures>) => ({
      policy: f.policy,
      shapeKind: f.shapeKind,
      teams: f.teams,
      teamSize: f.teamSize,
      maxPlayers: f.maxPlayers,
      minPlayers: f.minPlayers,
    });
    expect(pick(queueFigures("greedy", twoTeams(5)))).toEqual({
      policy: "greedy",
      shapeKind: "two-teams",
      teams: 2,
      teamSize: 5,
      maxPlayers: 10,
      minPlayers: 10,
    });
    expect(pick(queueFigures("greedy", { kind: "teams", teams: 4, teamSize: 3, minTeamSize: 2 }))).toMatchObject({
      shapeKind: "teams",
      teams: 4,
      maxPlayers: 12,
      minPlayers: 8,
    });
    expect(pick(queueFigures("greedy", ffa(4, 2)))).toMatchObject({
      shapeKind: "free-for-all",
      teams: 4,
      teamSize: 1,
      maxPlayers: 4,
      minPlayers: 2,
    });
  });
});

describe("the traffic trace of other shapes", () => {
  it("records every team of a free-for-all's games, and its file checks without a teamSize", () => {
    const options: MatchmakerOptions = { maxPlayers: 3 };
    const engine = new Matchmaker(options);
    const recorder = recordTraffic(engine, options, 100, "ffa");
    for (const [i, rating] of [1000, 1100, 1200].entries()) engine.enqueue(solo(`p${i}`, rating), 0);
    const [match] = engine.tick(0);
    expect(match).toBeDefined();
    const trace = checkTrace(JSON.parse(JSON.stringify(recorder.trace())));
    const game = trace.events.find((e) => e.e === "match");
    // Three teams of one ticket each: every player's ticket, once.
    const recorded = game && "teams" in game ? game.teams! : [];
    expect(recorded.map((team) => team.length)).toEqual([1, 1, 1]);
    expect(recorded.flat().sort()).toEqual([0, 1, 2]);
  });

  it("keeps a two-team game's event as it was (side A's tickets, side B's)", () => {
    const options: MatchmakerOptions = { teamSize: 1 };
    const engine = new Matchmaker(options);
    const recorder = recordTraffic(engine, options, 100, "duel");
    engine.enqueue(solo("a", 1000), 0);
    engine.enqueue(solo("b", 1000), 0);
    engine.tick(0);
    const game = recorder.trace().events.find((e) => e.e === "match");
    expect(game).not.toHaveProperty("teams");
    expect(game).toMatchObject({ a: [expect.any(Number)], b: [expect.any(Number)] });
  });
});
