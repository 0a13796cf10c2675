/**
 * The ledger of a ranked queue: ratings read at join, a match remembered when the queue makes it,
 * and its result applied once when the game room reports it. Computation here, keeping in a
 * {@link RatingStore}.
 */
import { MatchmakerError } from "../core/errors.js";
import type { Match } from "../core/types.js";
import { MemoryRatingStore } from "./memory-store.js";
import { ranksOf, type MatchResult } from "./result.js";
import { openskillSystem, rateGame, type RatingScale, type RatingSystem } from "./rating-system.js";
import type { RatingBin, RatingStore, SettleOutcome } from "./store.js";
import type { OpenMatch, OpenSeat, RatingChange, SettledMatch, StoredRating } from "./types.js";

/** Options of {@link Ratings}. */
export interface RatingsOptions {
  /** Where ratings are kept. @defaultValue a `MemoryRatingStore` (ratings end with the process) */
  readonly store?: RatingStore;
  /** The rating scale: a newcomer's rating and uncertainty, the performance noise, the drift. */
  readonly scale?: Partial<RatingScale>;
  /**
   * The forum thread's adjustment: when a game formed only because a waiting player's window grew,
   * nobody's rating moves further than in an even game. @defaultValue false
   */
  readonly adjustForGrownWindow?: boolean;
  /** How long after the queue made a match its result may still be reported (ms). @defaultValue 24 hours */
  readonly reportWithinMs?: number;
  /** The season results count in until `startSeason` names another. @defaultValue "1" */
  readonly firstSeason?: string;
}

/** A player's rating as the queue and a profile page read it. */
export interface PlayerRating {
  /** The rating (the estimate's mean). */
  readonly rating: number;
  /** Its uncertainty (standard deviation): high for a newcomer, falling with each game. */
  readonly uncertainty: number;
  /** Rated games this season. */
  readonly games: number;
}

/** What `reportResult` did. */
export type ResultReport =
  /** The result changed these ratings now. */
  | { readonly status: "applied"; readonly changes: readonly RatingChange[] }
  /** The result was reported before; it counted then, once (these were its changes). */
  | { readonly status: "already"; readonly changes: readonly RatingChange[] }
  /** No match of the queue's has this id (or its time to report ran out): no rating changed. */
  | { readonly status: "unknown" };

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a process trusts its reading of the current season (another process may start one). */
const SEASON_READ_MS = 2000;
const MAX_SEASON_LENGTH = 64;
const MAX_HISTORY = 200;

/**
 * Ratings learned from results: give it to a queue (`ratings` option) and call
 * `reportResult(match, result)` from the game room. Players' ratings and uncertainties then come
 * from here at every join; a result counts once, only for a match the queue made.
 */
export class Ratings {
  readonly system: RatingSystem;
  readonly store: RatingStore;
  private readonly adjust: boolean;
  private readonly reportWithinMs: number;
  private readonly firstSeason: string;
  private season: { name: string; readAt: number } | undefined;

  constructor(
    options: RatingsOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.system = openskillSystem(options.scale);
    this.store = options.store ?? new MemoryRatingStore(now);
    this.adjust = options.adjustForGrownWindow ?? false;
    this.reportWithinMs = options.reportWithinMs ?? DAY_MS;
    if (!(Number.isFinite(this.reportWithinMs) && this.reportWithinMs > 0))
      throw new MatchmakerError("invalid_config", "ratings.reportWithinMs: must be above 0", "ratings.reportWithinMs");
    this.firstSeason = checkSeason(options.firstSeason ?? "1", "ratings.firstSeason", "invalid_config");
  }

  /** The season results count in now. */
  async currentSeason(): Promise<string> {
    const now = this.now();
    if (this.season && now - this.season.readAt < SEASON_READ_MS) return this.season.name;
    const name = (await this.store.currentSeason()) ?? this.firstSeason;
    this.season = { name, readAt: now };
    return name;
  }

  /**
   * Start a season: from now on every player starts again at the newcomer's rating, and results
   * count in `season`. Earlier seasons' ratings and histories are kept (pass `season` to read them).
   * Other processes sharing the store follow within two seconds.
   */
  async startSeason(season: string): Promise<void> {
    const name = checkSeason(season, "season", "invalid_request");
    await this.store.startSeason(name);
    this.season = { name, readAt: this.now() };
  }

  /** These players' ratings this season (a player never rated has the newcomer's). */
  async ratingsOf(playerIds: readonly string[], season?: string): Promise<Map<string, PlayerRating>> {
    const stored = await this.store.ratings(season ?? (await this.currentSeason()), playerIds);
    return new Map(playerIds.map((id) => [id, this.playerRating(stored.get(id))]));
  }

  /** One player's rating this season (for a profile page). */
  async rating(playerId: string, season?: string): Promise<PlayerRating> {
    return (await this.ratingsOf([playerId], season)).get(playerId)!;
  }

  /** A player's settled matches, newest first (for a profile page). */
  async history(playerId: string, options: { limit?: number; season?: string } = {}): Promise<SettledMatch[]> {
    const limit = Math.max(1, Math.min(MAX_HISTORY, Math.floor(options.limit ?? 20)));
    return this.store.history(options.season ?? (await this.currentSeason()), playerId, limit);
  }

  /** How many rated players this season have a rating in each band of `width` (for a dashboard). */
  async distribution(options: { width?: number; season?: string } = {}): Promise<RatingBin[]> {
    const width = options.width ?? 100;
    if (!(Number.isFinite(width) && width > 0))
      throw new MatchmakerError("invalid_request", "width: must be above 0", "width");
    return this.store.distribution(options.season ?? (await this.currentSeason()), width);
  }

  /**
   * Remember a match the queue made, so that its result can count (the queue calls this before
   * it sends any seat). Every human seat must carry the trusted account (`playerId`). With `key`
   * (the queue gives one, and the game room receives it as `MatchInfo.ratingKey`), only a report
   * that carries the key counts.
   */
  async openMatch(match: Match, queue: string, key?: string): Promise<void> {
    const teams: OpenSeat[][] = match.teams.map((team) =>
      team.players.map((player) => {
        if (player.bot) return {};
        if (player.playerId === undefined)
          throw new MatchmakerError(
            "invalid_request",
            `match ${match.id}: a human player without playerId cannot be rated`,
          );
        return {
          playerId: player.playerId,
          ...(player.window ? { window: { initial: player.window.initial, width: player.window.width } } : {}),
        };
      }),
    );
    const open: OpenMatch = {
      matchId: match.id,
      queue,
      season: await this.currentSeason(),
      createdAt: this.now(),
      teams,
      ...(key !== undefined ? { key } : {}),
    };
    await this.store.openMatch(open, this.now() + this.reportWithinMs);
  }

  /**
   * From the game room, once the game is over: the result of `match` (what its `onCreate` received
   * as `options.match`), e.g. `{ winner: 0 }`, `{ draw: true }`, `{ ranks: [...] }` or
   * `{ scores: [...] }` in team order. Applied once, atomically; reporting again changes nothing
   * (`already`), and a match the queue did not make changes nothing (`unknown`), nor does a report
   * without the key the match was opened with (`match.ratingKey`: pass the `MatchInfo` itself).
   * Throws `MatchmakerError("invalid_request")` for a result that does not fit the match (nothing changes).
   */
  async reportResult(
    match: { readonly id: string; readonly ratingKey?: string } | string,
    result: MatchResult,
  ): Promise<ResultReport> {
    const matchId = typeof match === "string" ? match : match?.id;
    const key = typeof match === "object" && match !== null ? match.ratingKey : undefined;
    if (typeof matchId !== "string" || matchId.length === 0 || matchId.length > 128)
      throw new MatchmakerError(
        "invalid_request",
        "match: must be the match the game room received (options.match)",
        "match",
      );
    let outcome: SettleOutcome;
    try {
      outcome = await this.store.settle(matchId, (open, current) => {
        if (open.key !== undefined && open.key !== key) throw new WithoutKey();
        return this.settle(open, current, result);
      });
    } catch (error) {
      // A report without the match's key is a report for no match the queue made: nothing was written.
      if (error instanceof WithoutKey) return { status: "unknown" };
      throw error;
    }
    return outcome.status === "unknown" ? outcome : { status: outcome.status, changes: outcome.match.changes };
  }

  private settle(open: OpenMatch, current: ReadonlyMap<string, StoredRating>, result: MatchResult): SettledMatch {
    const ranks = ranksOf(result, open.teams.length);
    const newcomer = this.system.newcomer;
    const seats = open.teams.map((team) =>
      team.map((seat) => ({
        rating: (seat.playerId !== undefined ? current.get(seat.playerId) : undefined) ?? newcomer,
        ...(seat.window ? { window: seat.window } : {}),
      })),
    );
    const after = rateGame(this.system, seats, ranks, this.adjust);
    const changes: RatingChange[] = [];
    open.teams.forEach((team, t) =>
      team.forEach((seat, i) => {
        if (seat.playerId === undefined) return; // a bot: rated as a newcomer, never kept
        const before = seats[t]![i]!.rating;
        const next = after[t]![i]!;
        changes.push({
          playerId: seat.playerId,
          team: t,
          before: { mu: before.mu, sigma: before.sigma },
          after: { mu: next.mu, sigma: next.sigma },
        });
      }),
    );
    return { matchId: open.matchId, queue: open.queue, season: open.season, settledAt: this.now(), ranks, changes };
  }

  private playerRating(stored: StoredRating | undefined): PlayerRating {
    if (!stored) return { rating: this.system.newcomer.mu, uncertainty: this.system.newcomer.sigma, games: 0 };
    return { rating: stored.mu, uncertainty: stored.sigma, games: stored.games };
  }
}

/** A report for an open match that does not carry the key it was opened with. */
class WithoutKey extends Error {}

function checkSeason(season: unknown, field: string, code: "invalid_config" | "invalid_request"): string {
  if (typeof season !== "string" || season.length === 0 || season.length > MAX_SEASON_LENGTH)
    throw new MatchmakerError(code, `${field}: must be a name of 1 to ${MAX_SEASON_LENGTH} characters`, field);
  return season;
}
