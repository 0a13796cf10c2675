/**
 * The engine's vocabulary: players, tickets (the unit that is never split) and matches.
 * Plain data only; no Colyseus import and no clock.
 */
import type { GameShape } from "./shape.js";

/** One of the two sides of a two-team game. Team A always plays side A. */
export type Side = "A" | "B";

/** A single human player waiting in a queue. */
export interface Player {
  /** This visit's id, unique among all players waiting in the same queue (the room uses the Colyseus session id). */
  readonly sessionId: string;
  /** Skill rating on the queue's scale. */
  readonly rating: number;
  /** How uncertain the rating is (a standard deviation on the rating's scale), if known. */
  readonly uncertainty?: number;
  /** In a role queue: the queue's roles this player accepts (see `MatchmakerOptions.roles`). */
  readonly roles?: readonly string[];
  /**
   * The player's account: a stable identity across sessions (e.g. an account id). An account
   * waits at most once in a queue: the engine refuses a ticket with a `playerId` that already
   * waits (in another ticket, or twice in this one) with `MatchmakerError("duplicate_account")`.
   * It is also whom the recent-opponent history (`avoidRecent`) and blocks (`blocked`) remember.
   * The room sets it from the join option `playerId` (or from the server). Absent: the player is
   * its own account, known by `sessionId`.
   */
  readonly playerId?: string;
  /**
   * In a queue that chooses zones by latency (`maxLatencyMs`): this player's latency (ms) to each
   * of the queue's zones. The ticket waits in the zones all its players reach within the maximum.
   */
  readonly latencies?: Readonly<Record<string, number>>;
  /**
   * In a queue with `criteria` (Schlup's D > 1): this player's value on each declared criterion,
   * within its range, e.g. `{ thinkTime: 0.3 }`. A party's members each carry their own.
   */
  readonly criteria?: Readonly<Record<string, number>>;
}

/**
 * A party of players that always lands on one team together (in a free-for-all: in one game),
 * at most a team (a whole game in a free-for-all).
 * `enqueuedAt` is kept through re-queues so a player never loses their place.
 */
export interface Ticket {
  readonly id: string;
  readonly players: readonly Player[];
  /** Time (ms, on the caller's clock) the ticket first entered the queue. */
  readonly enqueuedAt: number;
  /** The side this party insists on, in a game of two teams; absent means choice-free. */
  readonly side?: Side;
  /** Zones this ticket accepts; absent means the queue's single zone. */
  readonly zones?: readonly string[];
}

/** A player as seated in a match. */
export interface MatchedPlayer extends Player {
  readonly ticketId: string;
  /** Present on a computer player that fills a seat after the queue's maximum wait. */
  readonly bot?: true;
  /** In a role queue: the role this player plays (one per role on each team). */
  readonly role?: string;
  /** Time this player waited, from `enqueuedAt` to the match (ms). */
  readonly waitMs: number;
  /** With a window policy (e.g. `expanding-window`): the player's window when matched. */
  readonly window?: PlayerWindow;
}

/**
 * A ticket's acceptance window when it was matched, as a window policy reports it: a game may
 * scale rating changes by how far it had to grow (the forum thread's virtual-rating decay).
 */
export interface PlayerWindow {
  /** `rating` (rating points), `relative` (fraction of the own rating) or `percentile` (fraction of the distribution). */
  readonly unit: "rating" | "relative" | "percentile";
  /** The width when the ticket joined. */
  readonly initial: number;
  /** The width when it was matched; `width − initial` is how far it grew. */
  readonly width: number;
}

/**
 * One team: `teamSize` players (fewer in a game that started short-handed); in a free-for-all,
 * one player.
 */
export interface MatchTeam {
  /** In a game of two teams, the side this team plays; absent in other shapes. */
  readonly side?: Side;
  readonly players: readonly MatchedPlayer[];
  /** The tickets (parties) on this team, never split. */
  readonly ticketIds: readonly string[];
  readonly ratingSum: number;
}

/** Figures that describe how good a match is. */
export interface MatchQuality {
  /**
   * The configured imbalance of the chosen team split (0 is perfectly balanced); with more than
   * two teams, the largest between any two. Absent in a free-for-all, where `spread` is the measure.
   */
  readonly imbalance?: number;
  /** Highest minus lowest rating among the human players (a free-for-all's measure of a game). */
  readonly spread: number;
  readonly meanWaitMs: number;
  readonly maxWaitMs: number;
  /**
   * In a queue with `criteria`: each criterion's dispersion among the human players (highest
   * minus lowest value, in the criterion's units), the rating's under `rating`.
   */
  readonly dispersion?: Readonly<Record<string, number>>;
}

/** A game the engine decided to form: its teams (sides fixed in a two-team game), parties intact. */
export interface Match {
  readonly id: string;
  readonly createdAt: number;
  /** The queue's players per team (1 in a free-for-all). */
  readonly teamSize: number;
  /** The shape of the queue's games (this one may have started short-handed: see `emptySeats`). */
  readonly shape: GameShape;
  /**
   * The teams, in order: `[side A, side B]` in a two-team game; in a free-for-all, one team per
   * player. A player's team index is its position here.
   */
  readonly teams: readonly MatchTeam[];
  /** The human tickets this match consumed, as they were when waiting (for re-queueing on failure). */
  readonly tickets: readonly Ticket[];
  /** Seats filled by computer players (0 unless the queue fills with bots after a maximum wait). */
  readonly bots: number;
  /**
   * Seats of the full shape left empty: present in a game that started short-handed (see
   * `shortHandedAfterMs`) and did not fill its seats with bots.
   */
  readonly emptySeats?: number;
  /** The zone that formed this match, in a queue with zones. */
  readonly zone?: string;
  readonly quality: MatchQuality;
}

/** Number of players in a ticket. */
export function partySize(ticket: Ticket): number {
  return ticket.players.length;
}

/**
 * True once `ticket` has waited `maxWaitMs` at `now`. Always compare through this (the deadline
 * `enqueuedAt + maxWaitMs`, as wake-ups are computed), never as `now - enqueuedAt`: the two
 * forms can differ in the last bit and a driver woken at the deadline would see nothing due.
 */
export function reachedMaxWait(ticket: Ticket, maxWaitMs: number, now: number): boolean {
  return ticket.enqueuedAt + maxWaitMs <= now;
}

/** Mean rating of the ticket's players (a party's rating). */
export function meanRating(ticket: Ticket): number {
  return ratingSum(ticket) / ticket.players.length;
}

/** Sum of the ticket's player ratings. */
export function ratingSum(ticket: Ticket): number {
  let sum = 0;
  for (const p of ticket.players) sum += p.rating;
  return sum;
}
