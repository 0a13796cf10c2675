/**
 * A queue's shape of game as the pages show it: plain JSON with the figures a page needs (teams,
 * players, the minimum, the party limit) and the shape in a few words, made once on the server
 * so the player page and the dashboard say it alike.
 */
import {
  hasSides,
  kindOf,
  maxPartyOf,
  minimumOf,
  seatsOf,
  startsShort,
  teamCountOf,
  teamSizeOf,
  type GameShape,
  type ShapeKind,
} from "../core/shape.js";

/** A queue's shape of game, as `/play/queues.json` and `/dashboard/queues.json` describe it. */
export interface QueueShape {
  /** `two-teams` (sides A and B), `teams` (more than two teams, no sides) or `free-for-all` (each for themselves). */
  readonly kind: ShapeKind;
  /** Teams per game; in a free-for-all one per player (a player's team index is its own). */
  readonly teams: number;
  /** Players per team (1 in a free-for-all). */
  readonly teamSize: number;
  /** Players in a full game. */
  readonly players: number;
  /** The fewest players a game starts with once it waited `shortHandedAfterMs`; `players` when games start full. */
  readonly minPlayers: number;
  /** The wait (ms) after which a game starts short-handed; null when games start full. */
  readonly shortHandedAfterMs: number | null;
  /** The largest party a player may open (a team, or a whole free-for-all game); 1: no parties. */
  readonly maxParty: number;
  /** Whether players may choose side A or B (a game of two teams only). */
  readonly sides: boolean;
  /** The shape in words: "2v2", "4 teams of 2", "free-for-all of 3", "2 to 4 players", "1v1 to 2v2". */
  readonly text: string;
}

/** `shape` (with the queue's `shortHandedAfterMs`) as the pages describe it. */
export function describeQueueShape(shape: GameShape, shortHandedAfterMs: number | undefined): QueueShape {
  const short = startsShort(shape);
  return {
    kind: kindOf(shape),
    teams: teamCountOf(shape),
    teamSize: teamSizeOf(shape),
    players: seatsOf(shape),
    minPlayers: minimumOf(shape),
    shortHandedAfterMs: short ? (shortHandedAfterMs ?? null) : null,
    maxParty: maxPartyOf(shape),
    sides: hasSides(shape),
    text: shapeWords(shape),
  };
}

/** The shape in a few words; a range from the smallest game to the full one where games start short-handed. */
function shapeWords(shape: GameShape): string {
  if (shape.kind === "free-for-all")
    return startsShort(shape) ? `${shape.minPlayers} to ${shape.players} players` : `free-for-all of ${shape.players}`;
  const { teams, teamSize, minTeamSize } = shape;
  if (teams === 2) {
    const versus = (m: number) => `${m}v${m}`;
    return minTeamSize < teamSize ? `${versus(minTeamSize)} to ${versus(teamSize)}` : versus(teamSize);
  }
  return minTeamSize < teamSize ? `${teams} teams of ${minTeamSize} to ${teamSize}` : `${teams} teams of ${teamSize}`;
}
