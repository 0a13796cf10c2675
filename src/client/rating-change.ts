/**
 * A rated game's result as the game room tells each player: its outcome and its own rating before
 * and after (the server's figures, from the queue's `Ratings`), and the words a page shows for it.
 * The example's demo game sends it as the `"rating"` message once the result is applied.
 */

/** The message type the example's demo game sends a player its {@link RatingChangeMessage} under. */
export const RATING_CHANGE_MESSAGE = "rating";

/** A rating and its uncertainty (standard deviation), on the queue's rating scale. */
export interface RatingFigures {
  readonly rating: number;
  readonly uncertainty: number;
}

/** One player's result of a rated game: sent by the game room, never computed by the client. */
export interface RatingChangeMessage {
  /** The player's team's place: first (`won`), not first (`lost`), or shared with every team (`draw`). */
  readonly outcome: "won" | "lost" | "draw";
  readonly before: RatingFigures;
  readonly after: RatingFigures;
}

/** A signed whole number: "+23", "-7", "±0". */
function signed(value: number): string {
  if (value === 0) return "±0";
  return value > 0 ? `+${value}` : `${value}`;
}

/**
 * The change in words, rounded to whole points: "1500 → 1523 (+23), uncertainty 500 → 431". The
 * difference is that of the rounded figures, so the line always adds up.
 */
export function describeRatingChange(change: Pick<RatingChangeMessage, "before" | "after">): string {
  const before = Math.round(change.before.rating);
  const after = Math.round(change.after.rating);
  const uncertainty = `${Math.round(change.before.uncertainty)} → ${Math.round(change.after.uncertainty)}`;
  return `${before} → ${after} (${signed(after - before)}), uncertainty ${uncertainty}`;
}
