/**
 * Tickets in arrival order: by original enqueue time, then by the order they were added in. A
 * re-queued ticket keeps its `enqueuedAt` and so its place ahead of newcomers.
 *
 * Tickets nearly always arrive in order (the clock only moves forward), so both structures here
 * keep those in the order of adding, in O(1), and put a ticket added behind a newer one in a
 * sorted-btree, O(log n); walks merge the two. {@link ArrivalIndex} finds its tickets by id (a
 * `Map`, whose iteration follows insertion); {@link ArrivalOrder} is a doubly linked list that
 * also walks newest first, for a caller that keeps its own map by id.
 */
import type { Ticket } from "./types.js";
import { sortedTree, type SortedTree } from "./sorted-tree.js";

/** A held ticket's place in arrival order. */
export interface Arrival {
  readonly ticket: Ticket;
  readonly at: number;
  /** The order it was added in, among every ticket of every index (ties of `at`). */
  readonly seq: number;
  /** Added behind a newer ticket: held in the tree, not in the order of adding. */
  readonly late: boolean;
  /** Neighbours in an {@link ArrivalOrder}'s list (a removed arrival keeps its `next`, for a walk paused on it). */
  prev: Arrival | undefined;
  next: Arrival | undefined;
  held: boolean;
}

/** Arrival order: by enqueue time, then by the order of adding. */
export const compareArrival = (a: Arrival, b: Arrival): number => a.at - b.at || a.seq - b.seq;

/**
 * One sequence for every index, so that tickets with the same `enqueuedAt` held in different
 * indexes (a policy's classes, ranges) still compare in the order they were added.
 */
let nextSeq = 0;

const NONE: readonly Arrival[] = [];

/** The tickets added behind a newer one, and the enqueue time of the newest added in order. */
class LateTickets {
  readonly tree: SortedTree<Arrival, undefined> = sortedTree<Arrival, undefined>(compareArrival);
  newestAt = -Infinity;

  /** A new arrival, in the tree if it is late. */
  arrive(ticket: Ticket): Arrival {
    const at = ticket.enqueuedAt;
    // An equal enqueue time is in order: the sequence number puts it last.
    const late = at < this.newestAt;
    const arrival: Arrival = { ticket, at, seq: nextSeq++, late, prev: undefined, next: undefined, held: true };
    if (late) this.tree.set(arrival, undefined);
    else this.newestAt = at;
    return arrival;
  }

  leave(arrival: Arrival, empty: boolean): void {
    arrival.held = false;
    if (arrival.late) this.tree.delete(arrival);
    if (empty) this.newestAt = -Infinity;
  }

  /** The late arrivals, oldest first (few: copied, so that the tree may change during a walk). */
  list(): readonly Arrival[] {
    return this.tree.size > 0 ? [...this.tree.keys()] : NONE;
  }

  /** The tickets, oldest first: `inOrder` (the ones not late, in order) merged with the tree's. */
  *merge(inOrder: Iterator<Arrival>, limit: number): IterableIterator<Ticket> {
    const late = this.list();
    let i = 0;
    let next = inOrder.next();
    for (let n = 0; n < limit; n++) {
      while (i < late.length && !late[i].held) i++;
      if (!next.done && (i === late.length || compareArrival(next.value, late[i]) < 0)) {
        yield next.value.ticket;
        next = inOrder.next();
      } else if (i < late.length) yield late[i++].ticket;
      else return;
    }
  }

  /** The oldest of `first` (the oldest not late) and the oldest late one. */
  first(first: Arrival | undefined): Ticket | undefined {
    const late = this.tree.minKey();
    return late && (!first || compareArrival(late, first) < 0) ? late.ticket : first?.ticket;
  }
}

/** Tickets in arrival order, found by id. */
export class ArrivalIndex {
  private readonly arrivals = new Map<string, Arrival>();
  private readonly late = new LateTickets();

  get size(): number {
    return this.arrivals.size;
  }

  has(ticketId: string): boolean {
    return this.arrivals.has(ticketId);
  }

  /** Add a ticket; false, and nothing changed, if one of its id is held (remove it first to move it). */
  add(ticket: Ticket): boolean {
    const size = this.arrivals.size;
    if (size > 0 && this.arrivals.has(ticket.id)) return false;
    this.arrivals.set(ticket.id, this.late.arrive(ticket));
    return true;
  }

  /** Remove a ticket; returns it (undefined if it was not held). */
  remove(ticketId: string): Ticket | undefined {
    const arrival = this.arrivals.get(ticketId);
    if (!arrival) return undefined;
    this.arrivals.delete(ticketId);
    this.late.leave(arrival, this.arrivals.size === 0);
    return arrival.ticket;
  }

  get(ticketId: string): Ticket | undefined {
    return this.arrivals.get(ticketId)?.ticket;
  }

  /** A held ticket's place in arrival order. */
  arrival(ticketId: string): Arrival | undefined {
    return this.arrivals.get(ticketId);
  }

  /** The oldest ticket (undefined when empty). */
  first(): Ticket | undefined {
    const arrivals = this.arrivals.values();
    let first = arrivals.next().value;
    while (first?.late) first = arrivals.next().value;
    return this.late.first(first);
  }

  /** The tickets, oldest first (at most `limit`); tickets may come and go during the walk. */
  oldest(limit = Infinity): IterableIterator<Ticket> {
    return this.late.merge(inOrderOf(this.arrivals.values()), limit);
  }
}

/** The arrivals of a `Map`'s values that are not late (a `Map`'s walk skips deleted entries). */
function* inOrderOf(arrivals: Iterable<Arrival>): IterableIterator<Arrival> {
  for (const arrival of arrivals) if (!arrival.late) yield arrival;
}

/**
 * Tickets in arrival order, as a doubly linked list (and the late tickets' tree): the caller
 * keeps each ticket's {@link Arrival} to remove it, and walks from either end.
 */
export class ArrivalOrder {
  private head: Arrival | undefined;
  private tail: Arrival | undefined;
  private readonly late = new LateTickets();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(ticket: Ticket): Arrival {
    const arrival = this.late.arrive(ticket);
    if (!arrival.late) {
      arrival.prev = this.tail;
      if (this.tail) this.tail.next = arrival;
      else this.head = arrival;
      this.tail = arrival;
    }
    this.count++;
    return arrival;
  }

  /** Remove an arrival this order returned (once). */
  remove(arrival: Arrival): void {
    this.late.leave(arrival, --this.count === 0);
    if (arrival.late) return;
    const { prev, next } = arrival;
    if (prev) prev.next = next;
    else this.head = next;
    if (next) next.prev = prev;
    else this.tail = prev;
    arrival.prev = undefined;
  }

  /** The oldest ticket (undefined when empty). */
  first(): Ticket | undefined {
    return this.late.first(this.head);
  }

  /** The tickets, oldest first (at most `limit`); tickets may come and go during the walk. */
  oldest(limit = Infinity): IterableIterator<Ticket> {
    return this.late.merge(this.listed(), limit);
  }

  private *listed(): IterableIterator<Arrival> {
    for (let arrival = this.head; arrival; arrival = arrival.next) if (arrival.held) yield arrival;
  }

  /** Push the oldest `limit` arrivals onto `out`, oldest first. */
  collect(limit: number, out: Arrival[]): void {
    collectMerged(this.head, this.late.list(), limit, out, 1);
  }

  /** Push the newest `limit` arrivals onto `out`, newest first. */
  collectNewest(limit: number, out: Arrival[]): void {
    collectMerged(this.tail, [...this.late.list()].reverse(), limit, out, -1);
  }
}

/**
 * Push up to `limit` arrivals onto `out` from the list starting at `listed` (towards `next` for
 * `direction` 1, `prev` for -1) merged with `late` (in the same direction).
 */
function collectMerged(
  listed: Arrival | undefined,
  late: readonly Arrival[],
  limit: number,
  out: Arrival[],
  direction: 1 | -1,
): void {
  let i = 0;
  for (let n = 0; n < limit; n++) {
    if (listed && (i === late.length || direction * compareArrival(listed, late[i]) < 0)) {
      out.push(listed);
      listed = direction === 1 ? listed.next : listed.prev;
    } else if (i < late.length) out.push(late[i++]);
    else return;
  }
}
