/**
 * The shape of a game, stated once per queue: T teams of m players (two teams of `teamSize` is
 * the usual case), or a free-for-all of k players; each with the fewest humans a game may
 * start with once its players have waited long enough (Nakama's min_count and count_multiple).
 * Every layer reads the shape from here, and a layer that cannot serve a shape says so at
 * start-up.
 */

/** T teams of m players each. */
export interface TeamsShape {
  readonly kind: "teams";
  /** Number of teams, at least 2. */
  readonly teams: number;
  /** Players per team. */
  readonly teamSize: number;
  /**
   * The fewest players per team a game may start with once it waited `shortHandedAfterMs`
   * (every team then has the same number); equal to `teamSize` when games never start short.
   */
  readonly minTeamSize: number;
}

/** A free-for-all: every player plays for themselves. */
export interface FreeForAllShape {
  readonly kind: "free-for-all";
  /** Players per game. */
  readonly players: number;
  /** The fewest players a game may start with once it waited `shortHandedAfterMs`. */
  readonly minPlayers: number;
  /** A short-handed game's player count is a multiple of this (1: any count). */
  readonly countMultiple: number;
}

/** The shape of every game a queue forms. */
export type GameShape = TeamsShape | FreeForAllShape;

/** The kinds of shape a policy can declare it serves (see `PolicyDefinition.shapes`). */
export type ShapeKind = "two-teams" | "teams" | "free-for-all";

/** Every kind of shape: what a policy that forms games of any shape declares. */
export const EVERY_SHAPE_KIND: readonly ShapeKind[] = ["two-teams", "teams", "free-for-all"];

/** Most players per team. */
export const MAX_TEAM_SIZE = 16;
/** Most teams in a game. */
export const MAX_TEAMS = 16;
/**
 * Most players in a free-for-all: room for a battle royale of 100 with margin. The cap keeps a
 * game's creation options and its seats' messages a few kilobytes, and a search over one game
 * bounded; larger games are several queues' worth of players in one room.
 */
export const MAX_FREE_FOR_ALL = 200;
/** Most players in a team game (T × m). */
export const MAX_TEAM_GAME = 64;

/** Two teams of `teamSize`, the shape every queue had before shapes existed. */
export function twoTeams(teamSize: number, minTeamSize = teamSize): TeamsShape {
  return { kind: "teams", teams: 2, teamSize, minTeamSize };
}

/** Players in a full game of `shape`. */
export function seatsOf(shape: GameShape): number {
  return shape.kind === "teams" ? shape.teams * shape.teamSize : shape.players;
}

/** The fewest humans a short-handed game of `shape` starts with. */
export function minimumOf(shape: GameShape): number {
  return shape.kind === "teams" ? shape.teams * shape.minTeamSize : shape.minPlayers;
}

/** True when games of `shape` may start short-handed (a minimum below the full count). */
export function startsShort(shape: GameShape): boolean {
  return minimumOf(shape) < seatsOf(shape);
}

/** Teams in a game of `shape` (a free-for-all: one per player). */
export function teamCountOf(shape: GameShape): number {
  return shape.kind === "teams" ? shape.teams : shape.players;
}

/** Players per team (a free-for-all: 1). */
export function teamSizeOf(shape: GameShape): number {
  return shape.kind === "teams" ? shape.teamSize : 1;
}

/** The largest party a queue of `shape` takes: a team, or a whole free-for-all game. */
export function maxPartyOf(shape: GameShape): number {
  return shape.kind === "teams" ? shape.teamSize : shape.players;
}

/** Which kind of shape this is, as policies declare what they serve. */
export function kindOf(shape: GameShape): ShapeKind {
  if (shape.kind === "free-for-all") return "free-for-all";
  return shape.teams === 2 ? "two-teams" : "teams";
}

/** True for two teams, the only shape with sides A and B. */
export function hasSides(shape: GameShape): boolean {
  return shape.kind === "teams" && shape.teams === 2;
}

/** The shape in words, for messages: "2 teams of 3", "a free-for-all of 8". */
export function describeShape(shape: GameShape): string {
  return shape.kind === "teams" ? `${shape.teams} teams of ${shape.teamSize}` : `a free-for-all of ${shape.players}`;
}

/** The same shape with fewer players: teams of `size`, or a free-for-all of `size`. */
export function shrunk(shape: GameShape, size: number): GameShape {
  return shape.kind === "teams"
    ? { ...shape, teamSize: size, minTeamSize: Math.min(size, shape.minTeamSize) }
    : { ...shape, players: size, minPlayers: Math.min(size, shape.minPlayers) };
}

/**
 * The sizes a short-handed game of `shape` may take, largest first: per team (teams) or per
 * game (a free-for-all, in multiples of `countMultiple`), from one below full to the minimum.
 */
export function shortSizes(shape: GameShape): number[] {
  const sizes: number[] = [];
  if (shape.kind === "teams") {
    for (let m = shape.teamSize - 1; m >= shape.minTeamSize; m--) sizes.push(m);
  } else {
    for (let k = shape.players - 1; k >= shape.minPlayers; k--) if (k % shape.countMultiple === 0) sizes.push(k);
  }
  return sizes;
}
