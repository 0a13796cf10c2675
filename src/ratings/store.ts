/**
 * Where ratings live: the store interface every backing (memory, SQLite, Redis, the game's own
 * database) implements. The ledger (`ratings.ts`) computes; a store only keeps, and applies one
 * match's result all at once.
 */
import type { OpenMatch, SettledMatch, StoredRating } from "./types.js";

/** What `settle` did with a reported result. */
export type SettleOutcome =
  /** The result was applied now. */
  | { readonly status: "applied"; readonly match: SettledMatch }
  /** This match's result was applied before (reported twice, or by two game rooms): nothing changed. */
  | { readonly status: "already"; readonly match: SettledMatch }
  /** No open match has this id: the queue never made it, or its time to report ran out. Nothing changed. */
  | { readonly status: "unknown" };

/** How many rated players have a rating in `[from, from + width)`. */
export interface RatingBin {
  readonly from: number;
  readonly count: number;
}

/**
 * A rating store. Every method may be called from several processes at once (with a shared
 * database); `settle` is the one that must be atomic.
 */
export interface RatingStore {
  /** The season results count in now, or undefined before any season was started. */
  currentSeason(): Promise<string | undefined>;
  /** Make `season` the current one (its ratings start empty; earlier seasons are kept). */
  startSeason(season: string): Promise<void>;
  /** The ratings these players have in `season`; a player never rated there is absent. */
  ratings(season: string, playerIds: readonly string[]): Promise<Map<string, StoredRating>>;
  /** Remember a match the queue made until its result, or until `expiresAt` (ms since the epoch). */
  openMatch(match: OpenMatch, expiresAt: number): Promise<void>;
  /**
   * Apply a match's result, all or nothing: if the match is already settled, answer `already` with
   * its record; if it is open (and not expired), read its players' ratings in its season, call
   * `compute` (pure and synchronous; it may throw, and then nothing is written), then write every
   * player's new rating, the settled record (in each player's history and by match id) and close
   * the match, in one transaction. Otherwise `unknown`.
   */
  settle(
    matchId: string,
    compute: (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch,
  ): Promise<SettleOutcome>;
  /** A player's settled matches in `season`, newest first, at most `limit`. */
  history(season: string, playerId: string, limit: number): Promise<SettledMatch[]>;
  /** The rated players of `season` by rating (mean), in bins of `width` starting at multiples of `width`, lowest first, empty bins left out. */
  distribution(season: string, width: number): Promise<RatingBin[]>;
  /** Release connections or files the store opened itself (not a client it was given). */
  close?(): Promise<void>;
}
