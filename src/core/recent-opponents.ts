/**
 * Recent-opponent avoidance (the forum thread's "force a redraw if they played each other in
 * the last X matches"): a bounded history of whom each player recently shared a game with,
 * opponents and teammates alike, and the predicate policies consult before forming a game.
 */
import type { Match, Player, Ticket } from "./types.js";

/** What a searching policy is given (`PolicyContext.avoid`) when the queue avoids rematches. */
export interface RepeatAvoidance {
  /**
   * Until when (ms) `a` and `b` count as a repeat: -Infinity when no player of `a` (by
   * `playerId`, else `sessionId`) shared one of their last N games with a player of `b`; Infinity when
   * such a game counts however old it is.
   */
  repeatUntil(a: Ticket, b: Ticket): number;
  /** True when `a` and `b` count as a repeat at `now`. */
  isRepeat(a: Ticket, b: Ticket, now: number): boolean;
  /**
   * A repeat is accepted once every ticket involved has waited this long (ms): avoidance
   * must not keep a player waiting forever when the pool offers nobody else.
   */
  readonly fallbackMs: number;
}

/**
 * The earliest time a pair of tickets may play together: at once if not a repeat, else when the
 * repeat expires (with a time span) or both waited the fallback, whichever comes first.
 */
export function repeatAllowedAt(a: Ticket, b: Ticket, avoid: RepeatAvoidance): number {
  const until = avoid.repeatUntil(a, b);
  return until === -Infinity ? -Infinity : Math.min(until, Math.max(a.enqueuedAt, b.enqueuedAt) + avoid.fallbackMs);
}

/** Whom the history remembers: the player's stable `playerId` if it has one, else its `sessionId`. */
export const identityOf = (player: Player): string => player.playerId ?? player.sessionId;

/** Default wait (ms) after which a repeat is accepted. */
export const DEFAULT_AVOID_RECENT_FALLBACK_MS = 30_000;

/** Default number of players whose history is kept; the least recently matched are forgotten first. */
export const DEFAULT_HISTORY_PLAYERS = 100_000;

/**
 * Per player, the other players of their last `games` games (bots excluded), and when each was
 * played: with `withinMs`, a game older than that no longer counts. Memory is bounded twice:
 * `games` entries per player, and at most `maxPlayers` players (least recently matched
 * forgotten first).
 */
export class RecentOpponents implements RepeatAvoidance {
  /** Player id → the others of each of their recent games, oldest first. Map order = recency. */
  private readonly history = new Map<string, Array<{ readonly others: Set<string>; readonly at: number }>>();

  constructor(
    readonly games: number,
    readonly fallbackMs: number,
    private readonly maxPlayers = DEFAULT_HISTORY_PLAYERS,
    readonly withinMs = Infinity,
  ) {
    if (!(withinMs > 0)) throw new RangeError("RecentOpponents: withinMs must be positive");
    if (!(Number.isInteger(games) && games >= 1))
      throw new RangeError("RecentOpponents: games must be a whole number of at least 1");
    if (!(fallbackMs >= 0)) throw new RangeError("RecentOpponents: fallbackMs must not be negative");
  }

  /** Number of players with a history. */
  get players(): number {
    return this.history.size;
  }

  /** Remember who played with whom in `match`. */
  record(match: Match): void {
    const humans = match.teams.flatMap((team) => team.players.filter((p) => !p.bot).map(identityOf));
    for (const id of humans) {
      const others = new Set(humans.filter((other) => other !== id));
      const games = this.history.get(id) ?? [];
      games.push({ others, at: match.createdAt });
      if (games.length > this.games) games.shift();
      this.history.delete(id); // re-insert: most recently matched last
      this.history.set(id, games);
    }
    while (this.history.size > this.maxPlayers) this.history.delete(this.history.keys().next().value!);
  }

  /** True when `p` and `q` shared a game within the last `games` games of either (and `withinMs` of `now`). */
  metRecently(p: string, q: string, now = -Infinity): boolean {
    const last = Math.max(this.lastMet(p, q), this.lastMet(q, p));
    return last !== -Infinity && last + this.withinMs > now;
  }

  repeatUntil(a: Ticket, b: Ticket): number {
    let last = -Infinity;
    for (const p of a.players) {
      for (const q of b.players)
        last = Math.max(last, this.lastMet(identityOf(p), identityOf(q)), this.lastMet(identityOf(q), identityOf(p)));
    }
    return last === -Infinity ? -Infinity : last + this.withinMs; // (-Infinity + Infinity is NaN)
  }

  isRepeat(a: Ticket, b: Ticket, now: number): boolean {
    return this.repeatUntil(a, b) > now;
  }

  /** When `p` last played with `q` among `p`'s recent games (-Infinity: not among them). */
  private lastMet(p: string, q: string): number {
    let last = -Infinity;
    for (const game of this.history.get(p) ?? []) if (game.others.has(q)) last = Math.max(last, game.at);
    return last;
  }
}
