/**
 * What a rating is, what the queue remembers of a match it made until the game room reports its
 * result, and what a settled match leaves in a player's history. Plain data: every store keeps
 * exactly these shapes.
 */

/** A skill estimate: its mean and its standard deviation (uncertainty), on the queue's rating scale. */
export interface Rating {
  readonly mu: number;
  readonly sigma: number;
}

/** A player's rating as a store keeps it. */
export interface StoredRating extends Rating {
  /** Rated games in this season. */
  readonly games: number;
  /** When the last result changed it (ms since the epoch). */
  readonly updatedAt: number;
}

/** One seat of a match the queue made, as the rating store remembers it. */
export interface OpenSeat {
  /** The trusted account; absent for a bot, which is rated at the season's start rating and never updated. */
  readonly playerId?: string;
  /**
   * With a window policy: how far the player's acceptance window had grown when matched
   * (`width − initial`, over `initial`), for the forum's adjustment (`adjustForGrownWindow`).
   */
  readonly window?: { readonly initial: number; readonly width: number };
}

/** A match the queue made, waiting for its result: written before any seat is sent. */
export interface OpenMatch {
  readonly matchId: string;
  /** The queue (room name) that made it. */
  readonly queue: string;
  /** The season its result counts in. */
  readonly season: string;
  /** When the queue made it (ms since the epoch). */
  readonly createdAt: number;
  /** The teams in the order the game room knows them (`MatchInfo.teams`); one player per team in a free-for-all. */
  readonly teams: ReadonlyArray<ReadonlyArray<OpenSeat>>;
  /**
   * The match's report key, where the queue gave one: a secret only the game room receives
   * (`MatchInfo.ratingKey`), which a report must carry. Players learn the match's id from their
   * seat; without the key, a room a client created with that id cannot report for the match.
   * A store keeps it with the match as it keeps the other fields.
   */
  readonly key?: string;
}

/** One player's rating before and after a match. */
export interface RatingChange {
  readonly playerId: string;
  /** The team index the player played in. */
  readonly team: number;
  readonly before: Rating;
  readonly after: Rating;
}

/** A settled match: its result and every rated player's change. What a profile page lists. */
export interface SettledMatch {
  readonly matchId: string;
  readonly queue: string;
  readonly season: string;
  /** When the result was applied (ms since the epoch). */
  readonly settledAt: number;
  /** Each team's place (0 = first; equal places are a draw between them), in team order. */
  readonly ranks: readonly number[];
  readonly changes: readonly RatingChange[];
}
