/**
 * Choosing replacements for a running game (backfill): among the waiting tickets that may play
 * on the team (on its side, in a game of two teams; shapes without sides have no side to honour), the parties that fill the empty seats exactly (never split), preferring
 * the ratings closest to the team's, then the longest waits. Pure: the caller withdraws the
 * chosen tickets from the engine and puts them back if the seats cannot be reserved.
 */
import { meanRating, type Side, type Ticket } from "./types.js";

/** The seats a game wants filled on one team. */
export interface BackfillNeed {
  /** Empty seats to fill (1 to 16; at most the team's size, 1 in a free-for-all). */
  readonly count: number;
  /**
   * The team's side in a two-team game: tickets insisting on the other side do not fit. Absent in
   * shapes without sides, where no ticket carries one (the queue refuses `side` at join).
   */
  readonly side?: Side;
  /** The rating to be close to (the team's mean). */
  readonly targetRating: number;
  /** In a queue with zones: the game's zone; only tickets waiting in it fit. */
  readonly zone?: string;
}

/** The zones a ticket waits in (default: its own `zones`; the engine knows a choice-free ticket's). */
export type BackfillZonesOf = (ticket: Ticket) => readonly string[] | undefined;

/** The most seats one need may ask for (the engine's assembly bound). */
export const MAX_BACKFILL_SEATS = 16;

/** True if the ticket may take seats of this need at all (side, party size, zone). */
export function fitsBackfill(ticket: Ticket, need: BackfillNeed, zonesOf: BackfillZonesOf = (t) => t.zones): boolean {
  if (ticket.side !== undefined && ticket.side !== need.side) return false;
  if (need.zone !== undefined && !zonesOf(ticket)?.includes(need.zone)) return false;
  return ticket.players.length <= need.count;
}

/**
 * The best tickets that fill exactly `need.count` seats, or undefined if no combination of the
 * fitting tickets does. Preference order: closest mean rating to `targetRating`, then oldest
 * (`enqueuedAt`), then ticket id; the chosen set is the first in that order (lexicographically)
 * among the exact fills. Linear after sorting the fitting tickets (a bitset of reachable sums).
 */
export function selectBackfill(
  waiting: Iterable<Ticket>,
  need: BackfillNeed,
  zonesOf?: BackfillZonesOf,
): Ticket[] | undefined {
  const count = need.count;
  if (!Number.isInteger(count) || count < 1 || count > MAX_BACKFILL_SEATS) {
    throw new RangeError(`backfill: count must be a whole number from 1 to ${MAX_BACKFILL_SEATS}`);
  }
  const fitting: Array<{ ticket: Ticket; distance: number }> = [];
  for (const ticket of waiting) {
    if (fitsBackfill(ticket, need, zonesOf))
      fitting.push({ ticket, distance: Math.abs(meanRating(ticket) - need.targetRating) });
  }
  fitting.sort(
    (a, b) =>
      a.distance - b.distance ||
      a.ticket.enqueuedAt - b.ticket.enqueuedAt ||
      (a.ticket.id < b.ticket.id ? -1 : a.ticket.id > b.ticket.id ? 1 : 0),
  );
  // reach[i]: bit s set when some subset of fitting[i..] has exactly s players (s <= count).
  const full = (1 << (count + 1)) - 1;
  const reach = new Array<number>(fitting.length + 1);
  reach[fitting.length] = 1;
  for (let i = fitting.length - 1; i >= 0; i--) {
    const size = fitting[i].ticket.players.length;
    reach[i] = (reach[i + 1] | (reach[i + 1] << size)) & full;
  }
  if (!(reach[0] & (1 << count))) return undefined;
  const chosen: Ticket[] = [];
  let remaining = count;
  for (let i = 0; i < fitting.length && remaining > 0; i++) {
    const size = fitting[i].ticket.players.length;
    // Take it if the rest can still be filled exactly by later tickets.
    if (size <= remaining && reach[i + 1] & (1 << (remaining - size))) {
      chosen.push(fitting[i].ticket);
      remaining -= size;
    }
  }
  return chosen;
}

/**
 * The best tickets for as many of the seats as can be filled now: an exact fill of `count`
 * seats if there is one, else of `count - 1`, and so on; undefined when not even one seat can be.
 */
export function selectPartialBackfill(
  waiting: Iterable<Ticket>,
  need: BackfillNeed,
  zonesOf?: BackfillZonesOf,
): Ticket[] | undefined {
  const pool = [...waiting].filter((t) => fitsBackfill(t, need, zonesOf));
  for (let count = need.count; count >= 1; count--) {
    const chosen = selectBackfill(pool, { ...need, count }, zonesOf);
    if (chosen) return chosen;
  }
  return undefined;
}
