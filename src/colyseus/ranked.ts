/**
 * A ranked queue (the queue option `ratings`): each joining player's rating and uncertainty are read
 * from the queue's `Ratings` by the account `players.resolve` gave, and each match is opened there
 * before any seat is sent, so that the game room's one-line report counts (once). The room only calls
 * these; a store that fails refuses that join, or re-queues that match, and never throws into the loop.
 */
import { randomUUID } from "node:crypto";
import { MatchmakerError } from "../core/errors.js";
import type { Match } from "../core/types.js";
import type { Ratings } from "../ratings/ratings.js";
import { takesClientsOwnJoins } from "./director/seat-gate.js";
import { withinMs } from "./time-limit.js";

/** The longest the queue waits for the store to open a match before it re-queues the players. */
export const OPEN_MATCH_TIMEOUT_MS = 10_000;

/** One ranked queue's reads and writes of its ratings. */
export class RankedRatings {
  constructor(
    private readonly ratings: Ratings,
    /** The queue (room name): where its matches are opened, and its log lines' prefix. */
    private readonly queue: string,
    /** The queue's rating range: a stored rating outside it (another scale, a long streak) is clamped into it. */
    private readonly range: { readonly min: number; readonly max: number },
    /** Where store failures are reported for operators (the client hears a short reason). */
    private readonly log: (message: string) => void,
  ) {}

  /**
   * The player's rating (clamped into the queue's range) and uncertainty, this season. Throws
   * `MatchmakerError("player_refused")` when the store fails or answers no number: the join is
   * refused with a reason, and the player may try again.
   */
  async of(playerId: string): Promise<{ rating: number; uncertainty: number }> {
    let found: { rating: number; uncertainty: number } | undefined;
    try {
      found = (await this.ratings.ratingsOf([playerId])).get(playerId);
    } catch (error) {
      this.log(`[${this.queue}] ratings could not be read (${messageOf(error)}): join refused`);
      throw unreadable();
    }
    if (!found || !Number.isFinite(found.rating) || !(Number.isFinite(found.uncertainty) && found.uncertainty >= 0)) {
      this.log(`[${this.queue}] ratings answered no valid rating for a player: join refused`);
      throw unreadable();
    }
    const rating = Math.min(this.range.max, Math.max(this.range.min, found.rating));
    return { rating, uncertainty: found.uncertainty };
  }

  /**
   * Remember `match` in the ratings, so that its result may count: before any seat is sent. Resolves
   * with the match's report key (a secret for the game room only: `MatchInfo.ratingKey`). Throws
   * (with the store's reason) when the store fails or takes longer than {@link OPEN_MATCH_TIMEOUT_MS};
   * the caller then re-queues the players as for a game room that failed to start.
   */
  async open(match: Match): Promise<string> {
    const key = randomUUID();
    try {
      await withinMs(this.ratings.openMatch(match, this.queue, key), OPEN_MATCH_TIMEOUT_MS);
      return key;
    } catch (error) {
      throw new Error(`ratings could not open match ${match.id}: ${messageOf(error)}`, { cause: error });
    }
  }
}

/**
 * Why a ranked queue refuses to start games in `gameRoom`, or undefined. A game room type that takes
 * clients' own joins lets a client take a seat in a running ranked game with seat options of its
 * choosing (a team, a rating), or create a room of the type with a `match` it made up; a ranked
 * game must know its players are the ones the queue seated.
 */
export function rankedGameRoomRefusal(gameRoom: string): string | undefined {
  if (!takesClientsOwnJoins(gameRoom)) return undefined;
  return (
    `ratings: game room "${gameRoom}" takes clients' own joins (Colyseus's default static onAuth), so a client ` +
    "could create one with a match it copied and report a result there: give it `static override onAuth = queueSeatsOnly`"
  );
}

function unreadable(): MatchmakerError {
  return new MatchmakerError("player_refused", "the server could not read this player's rating; try again");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
