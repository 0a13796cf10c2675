/**
 * The shape of a queue's games from its options (`teamSize`, `teams`, `maxPlayers`, the minimums
 * and `shortHandedAfterMs`): the one place those options are read together, for the engine, the
 * room and the simulator alike.
 */
import { MAX_TEAM_GAME, shortSizes, type GameShape } from "../core/shape.js";
import { MatchmakerError } from "../core/errors.js";
import type { OptionProblem } from "./rules.js";

/** The options that say a game's shape, as parsed. */
export interface ShapeInput {
  readonly teamSize?: number;
  readonly teams?: number;
  readonly maxPlayers?: number;
  readonly minPlayers?: number;
  readonly countMultiple?: number;
  readonly minTeamSize?: number;
  readonly shortHandedAfterMs?: number;
  readonly roles?: readonly string[];
}

/** The options that state a game's shape, beside which nothing else does. */
export const SHAPE_OPTIONS = [
  "teamSize",
  "teams",
  "maxPlayers",
  "minPlayers",
  "countMultiple",
  "minTeamSize",
  "shortHandedAfterMs",
] as const satisfies readonly (keyof ShapeInput)[];

/** The options of {@link SHAPE_OPTIONS} that `options` gives (the others left out, not undefined). */
export function shapeOptionsIn(options: ShapeInput): ShapeInput {
  const picked: Record<string, number> = {};
  for (const key of SHAPE_OPTIONS) if (options[key] !== undefined) picked[key] = options[key];
  return picked;
}

/** The shape the options describe, or the first option at fault. */
export function shapeFromOptions(options: ShapeInput): GameShape | OptionProblem {
  const { teamSize, teams, maxPlayers, minPlayers, countMultiple, minTeamSize } = options;
  let shape: GameShape;
  if (teamSize === undefined) {
    if (maxPlayers === undefined)
      return {
        field: "teamSize",
        message: "is required (or give maxPlayers alone for a free-for-all)",
      };
    if (teams !== undefined) return { field: "teams", message: "needs teamSize" };
    if (minTeamSize !== undefined)
      return { field: "minTeamSize", message: "a free-for-all has no teams; use minPlayers" };
    if (options.roles) return { field: "roles", message: "a free-for-all has no teams to fill roles on" };
    const min = minPlayers ?? maxPlayers;
    if (min < 2 || min > maxPlayers) return { field: "minPlayers", message: `must be 2 to maxPlayers (${maxPlayers})` };
    shape = { kind: "free-for-all", players: maxPlayers, minPlayers: min, countMultiple: countMultiple ?? 1 };
  } else {
    // QueueRoom's maxPlayers beside its team size: as many teams as fill the game.
    if (teams === undefined && maxPlayers !== undefined && maxPlayers % teamSize !== 0)
      return { field: "maxPlayers", message: `must be a multiple of teamSize (${teamSize})` };
    const t = teams ?? (maxPlayers !== undefined ? maxPlayers / teamSize : 2);
    if (t < 2) return { field: "maxPlayers", message: `must be at least 2 × teamSize (${2 * teamSize}): two teams` };
    if (t * teamSize > MAX_TEAM_GAME)
      return {
        field: "teams",
        message: `teams × teamSize must be at most ${MAX_TEAM_GAME} players, got ${t * teamSize}`,
      };
    if (maxPlayers !== undefined && maxPlayers !== t * teamSize)
      return {
        field: "maxPlayers",
        message: `must equal teams × teamSize (${t} × ${teamSize} = ${t * teamSize}) when both are given`,
      };
    if (minPlayers !== undefined) return { field: "minPlayers", message: "a team game's minimum is minTeamSize" };
    if (countMultiple !== undefined)
      return { field: "countMultiple", message: "applies to a free-for-all (a team game's teams are equal)" };
    const min = minTeamSize ?? teamSize;
    if (min > teamSize) return { field: "minTeamSize", message: `must be at most teamSize (${teamSize})` };
    shape = { kind: "teams", teams: t, teamSize, minTeamSize: min };
  }
  const short = shape.kind === "teams" ? shape.minTeamSize < shape.teamSize : shape.minPlayers < shape.players;
  if (short && options.shortHandedAfterMs === undefined) {
    const field = shape.kind === "teams" ? "minTeamSize" : "minPlayers";
    return { field, message: "needs shortHandedAfterMs (the wait after which a game starts short-handed)" };
  }
  if (!short && options.shortHandedAfterMs !== undefined)
    return {
      field: "shortHandedAfterMs",
      message: `needs ${shape.kind === "teams" ? "minTeamSize below teamSize" : "minPlayers below maxPlayers"}`,
    };
  if (short && shortSizes(shape).length === 0)
    return { field: "countMultiple", message: "no player count from minPlayers to maxPlayers − 1 is a multiple of it" };
  return shape;
}

/** True for a {@link shapeFromOptions} result that is a problem. */
export function isShapeProblem(result: GameShape | OptionProblem): result is OptionProblem {
  return "field" in result;
}

/** The shape the options describe; throws `MatchmakerError("invalid_config")` naming the option at fault. */
export function resolveShape(options: ShapeInput, label = "matchmaker options"): GameShape {
  const shape = shapeFromOptions(options);
  if (isShapeProblem(shape))
    throw new MatchmakerError("invalid_config", `${label}: ${shape.field}: ${shape.message}`, shape.field);
  return shape;
}

/**
 * The options that state `shape` (the inverse of {@link shapeFromOptions}): a team game's
 * `teamSize`, `teams` and `minTeamSize`, a free-for-all's `maxPlayers`, `minPlayers` and
 * `countMultiple`; a minimum equal to the full game is left out.
 */
export function optionsOfShape(shape: GameShape): ShapeInput {
  if (shape.kind === "teams")
    return {
      teamSize: shape.teamSize,
      ...(shape.teams !== 2 ? { teams: shape.teams } : {}),
      ...(shape.minTeamSize < shape.teamSize ? { minTeamSize: shape.minTeamSize } : {}),
    };
  return {
    maxPlayers: shape.players,
    ...(shape.minPlayers < shape.players ? { minPlayers: shape.minPlayers } : {}),
    ...(shape.countMultiple !== 1 ? { countMultiple: shape.countMultiple } : {}),
  };
}
