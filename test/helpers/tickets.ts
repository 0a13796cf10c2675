/** Small builders for engine tests: tickets, parties and random ticket specs. */
import fc from "fast-check";
import type { Side, Ticket } from "../../src/core/types.js";

export interface TicketOptions {
  /** enqueuedAt (default 0). */
  at?: number;
  side?: Side;
  /** Zones the ticket accepts (absent: every zone that admits it). */
  zones?: readonly string[];
}

/** A party ticket; its players are named `${id}/0`, `${id}/1`, ... */
export function party(id: string, ratings: readonly number[], options: TicketOptions = {}): Ticket {
  return {
    id,
    players: ratings.map((rating, i) => ({ sessionId: `${id}/${i}`, rating })),
    enqueuedAt: options.at ?? 0,
    ...(options.side ? { side: options.side } : {}),
    ...(options.zones ? { zones: options.zones } : {}),
  };
}

/** A one-player ticket; its player is `${id}/0`. */
export function solo(id: string, rating = 1500, options: TicketOptions = {}): Ticket {
  return party(id, [rating], options);
}

/** Ids of tickets, for readable expectations. */
export const ids = (tickets: Iterable<Ticket>): string[] => [...tickets].map((t) => t.id);

/** Sorted ids, for comparing sets of tickets. */
export const idSet = (tickets: Iterable<Ticket>): string[] => ids(tickets).sort();

/** A ticket without id or time: party ratings and an optional side. */
export interface TicketSpec {
  ratings: number[];
  side?: Side;
}

/** Side preference: mostly choice-free, sometimes A or B. */
export const sideArb: fc.Arbitrary<Side | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<Side>("A") },
  { weight: 1, arbitrary: fc.constant<Side>("B") },
);

/** Integer ratings keep sums exact, so imbalances compare with `toBe`. */
export const ratingArb = fc.integer({ min: 0, max: 3000 });

/** A party of 1..maxSize players with an optional side. */
export function ticketSpecArb(
  maxSize: number,
  side: fc.Arbitrary<Side | undefined> = sideArb,
): fc.Arbitrary<TicketSpec> {
  return fc.record({
    ratings: fc.array(ratingArb, { minLength: 1, maxLength: maxSize }),
    side,
  });
}

/** Turn specs into tickets t0, t1, ... with enqueuedAt = index. */
export function ticketsFromSpecs(specs: readonly TicketSpec[], prefix = "t"): Ticket[] {
  return specs.map((s, i) => party(`${prefix}${i}`, s.ratings, { at: i, side: s.side }));
}
