/**
 * Alman and McKay's offline partitioning (section 7, Theorem 5): for tournaments and custom
 * lobbies, split a whole list of players into games at once. Sort by rating, cut into runs of
 * 2k consecutive players, and split each run into the two teams of least imbalance. This
 * minimises the largest q-uniformity of any game, and so is a rho-approximation
 * (rho = 2k^(1/q)(1 + alpha)) of the partition whose worst game is the least imbalanced.
 */
import { assembleTeams } from "./assembly.js";
import { MatchmakerError } from "./errors.js";
import { ratingSumDifference, type ImbalanceFn } from "./imbalance.js";
import type { Player, Ticket } from "./types.js";

export interface PartitionedGame {
  readonly teamA: readonly Player[];
  readonly teamB: readonly Player[];
  readonly imbalance: number;
}

export interface Partition {
  readonly games: readonly PartitionedGame[];
  /** The n mod 2k highest-rated players, who do not fill a game. */
  readonly leftover: readonly Player[];
  /** The imbalance of the worst game (the objective the paper minimises); 0 with no games. */
  readonly maxImbalance: number;
}

/**
 * Partition `players` into games of two teams of `teamSize`.
 * Throws `MatchmakerError("invalid_config")` for a bad team size, a non-finite rating or a
 * repeated player id.
 */
export function partition(
  players: readonly Player[],
  teamSize: number,
  imbalance: ImbalanceFn = ratingSumDifference,
): Partition {
  if (!Number.isInteger(teamSize) || teamSize < 1) {
    throw new MatchmakerError(
      "invalid_config",
      `partition: teamSize must be a positive integer, got ${teamSize}`,
      "teamSize",
    );
  }
  const ids = new Set<string>();
  for (const p of players) {
    if (!Number.isFinite(p.rating))
      throw new MatchmakerError(
        "invalid_config",
        `partition: player "${p.sessionId}" has a non-finite rating`,
        "players",
      );
    if (ids.has(p.sessionId))
      throw new MatchmakerError("invalid_config", `partition: player "${p.sessionId}" appears twice`, "players");
    ids.add(p.sessionId);
  }
  const sorted = [...players].sort((a, b) => a.rating - b.rating);
  const seats = 2 * teamSize;
  const full = sorted.length - (sorted.length % seats);
  const games: PartitionedGame[] = [];
  for (let start = 0; start < full; start += seats) {
    const run: Ticket[] = sorted
      .slice(start, start + seats)
      .map((p) => ({ id: p.sessionId, players: [p], enqueuedAt: 0 }));
    const split = assembleTeams(run, teamSize, imbalance)!; // solos always split
    games.push({
      teamA: split.teamA.map((t) => t.players[0]),
      teamB: split.teamB.map((t) => t.players[0]),
      imbalance: split.imbalance,
    });
  }
  return {
    games,
    leftover: sorted.slice(full),
    maxImbalance: games.reduce((m, g) => Math.max(m, g.imbalance), 0),
  };
}
