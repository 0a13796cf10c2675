/**
 * How the demo game decides who won a rated game, since it has no play of its own: a coin weighted
 * by the ratings. Each team's chance is the rating system's prediction from the players' ratings at
 * the start (shown to the players in the game's state), and the coin is seeded by the match id, so
 * the same match always has the same winner and anyone can check the draw. Once the result is
 * applied, each player is told its own change.
 */
import type { RatingChangeMessage } from "../src/client/index.js";
import type { MatchInfo, RatingChange } from "../src/index.js";

/**
 * A number in [0, 1) from the match id: FNV-1a's 32-bit hash over the id's UTF-16 code units,
 * mixed by MurmurHash3's finaliser (FNV alone leaves ids that differ in their last character
 * close together), over 2³².
 */
export function coinOf(matchId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < matchId.length; i++) hash = Math.imul(hash ^ matchId.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 32;
}

/**
 * The winning team's index: the team in whose share of [0, 1) the coin falls, the shares being
 * `chances` in team order (normalised, so they need not sum to exactly 1).
 */
export function drawWinner(chances: readonly number[], coin: number): number {
  if (chances.length === 0 || chances.some((c) => !(Number.isFinite(c) && c >= 0)))
    throw new RangeError(`drawWinner: chances must be numbers of at least 0 (got ${chances.join(", ")})`);
  const total = chances.reduce((sum, c) => sum + c, 0);
  let below = 0;
  for (let team = 0; team < chances.length; team++) {
    below += chances[team]! / total;
    if (coin < below) return team;
  }
  return chances.length - 1; // the coin at the top edge of rounding
}

/**
 * What each rated player of `match` is told once `winner`'s result is applied: its outcome and its
 * own rating before and after, by session id (the seat it took). Players the report does not name
 * (bots) get nothing.
 */
export function ratingMessages(
  match: Pick<MatchInfo, "teams">,
  changes: readonly RatingChange[],
  winner: number,
): Map<string, RatingChangeMessage> {
  const messages = new Map<string, RatingChangeMessage>();
  for (const change of changes) {
    const seat = match.teams[change.team]?.players.find((p) => p.playerId === change.playerId);
    if (!seat) continue;
    messages.set(seat.sessionId, {
      outcome: change.team === winner ? "won" : "lost",
      before: { rating: change.before.mu, uncertainty: change.before.sigma },
      after: { rating: change.after.mu, uncertainty: change.after.sigma },
    });
  }
  return messages;
}
