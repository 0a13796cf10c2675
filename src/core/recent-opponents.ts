/**
 * Recent-opponent avoidance (the forum thread's "force a redraw if they played each other in
 * the last X matches"): a bounded history of whom each player recently shared a game with,
 * opponents and teammates alike, and the predicate policies consult before forming a game.
 */
import type { Match, Player, Ticket } from "./types.js";

/** What a searching policy is given (`PolicyContext.avoid`) when the queue avoids rematches. */
export interface RepeatAvoidance {
  /** True when some player of `a` shared one of their last N games with some player of `b` (by `identity`, else `id`). */
  isRepeat(a: Ticket, b: Ticket): boolean;
  /**
   * A repeat is accepted once every ticket involved has waited this long (ms): avoidance
   * must not keep a player waiting forever when the pool offers nobody else.
   */
  readonly fallbackMs: number;
}

/** The earliest time a pair of tickets may form a repeat game (both waited `fallbackMs`). */
export function repeatAllowedAt(a: Ticket, b: Ticket, fallbackMs: number): number {
  return Math.max(a.enqueuedAt, b.enqueuedAt) + fallbackMs;
}

/** Whom the history remembers: the player's stable identity if it has one, else its id. */
export const identityOf = (player: Player): string => player.identity ?? player.id;

/** Default wait (ms) after which a repeat is accepted. */
export const DEFAULT_AVOID_RECENT_FALLBACK_MS = 30_000;

/** Default number of players whose history is kept; the least recently matched are forgotten first. */
export const DEFAULT_HISTORY_PLAYERS = 100_000;

/**
 * Per player, the other players of their last `games` games (bots excluded). Memory is bounded
 * twice: `games` entries per player, and at most `maxPlayers` players (least recently matched
 * forgotten first).
 */
export class RecentOpponents implements RepeatAvoidance {
  /** Player id → the others of each of their recent games, oldest first. Map order = recency. */
  private readonly history = new Map<string, Set<string>[]>();

  constructor(
    readonly games: number,
    readonly fallbackMs: number,
    private readonly maxPlayers = DEFAULT_HISTORY_PLAYERS,
  ) {
    if (!(Number.isInteger(games) && games >= 1)) throw new RangeError("RecentOpponents: games must be a whole number of at least 1");
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
      games.push(others);
      if (games.length > this.games) games.shift();
      this.history.delete(id); // re-insert: most recently matched last
      this.history.set(id, games);
    }
    while (this.history.size > this.maxPlayers) this.history.delete(this.history.keys().next().value!);
  }

  /** True when `p` and `q` shared a game within the last `games` games of either. */
  metRecently(p: string, q: string): boolean {
    return this.lists(p, q) || this.lists(q, p);
  }

  isRepeat(a: Ticket, b: Ticket): boolean {
    for (const p of a.players) for (const q of b.players) if (this.metRecently(identityOf(p), identityOf(q))) return true;
    return false;
  }

  private lists(p: string, q: string): boolean {
    const games = this.history.get(p);
    if (!games) return false;
    for (const others of games) if (others.has(q)) return true;
    return false;
  }
}
