import type { Ticket } from "./types.js";
import { sortedTree, type SortedTree } from "./sorted-tree.js";

/** A held ticket's place in an {@link ArrivalOrder}: its enqueue time, then the order it was added in. */
export interface Arrival {
  readonly ticket: Ticket;
  readonly at: number;
  readonly seq: number;
  /** Neighbours in the order of adding (a removed arrival keeps its `next`, for a walk paused on it). */
  prev: Arrival | undefined;
  next: Arrival | undefined;
  /** Added behind a newer ticket: held in the order's tree instead of its list. */
  readonly late: boolean;
  held: boolean;
}

/** Arrival order: by enqueue time, then by the order of adding. */
export const compareArrival = (a: Arrival, b: Arrival): number => a.at - b.at || a.seq - b.seq;

/**
 * One sequence for every order, so that tickets with the same `enqueuedAt` held in different
 * orders (a policy's classes, ranges) still compare in the order they were added.
 */
let nextSeq = 0;

/**
 * Tickets in arrival order (original enqueue time, then the order they were added in). Tickets
 * nearly always arrive in order (the clock only moves forward): those are kept in a doubly linked
 * list in the order of adding, walked from either end; a ticket added behind a newer one (a
 * re-queued ticket keeps its `enqueuedAt`, and so its place ahead of newcomers) goes to a
 * sorted-btree instead, and walks merge the two. Add and remove are O(1), O(log n) for a late
 * ticket. The caller keeps each ticket's {@link Arrival} to remove it.
 */
export class ArrivalOrder {
  private head: Arrival | undefined;
  private tail: Arrival | undefined;
  private readonly late: SortedTree<Arrival, undefined> = sortedTree<Arrival, undefined>(compareArrival);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(ticket: Ticket): Arrival {
    const at = ticket.enqueuedAt;
    // An equal enqueue time is in order: the sequence number puts it last.
    const late = this.tail !== undefined && at < this.tail.at;
    const arrival: Arrival = { ticket, at, seq: nextSeq++, prev: undefined, next: undefined, late, held: true };
    if (late) this.late.set(arrival, undefined);
    else {
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
    arrival.held = false;
    this.count--;
    if (arrival.late) {
      this.late.delete(arrival);
      return;
    }
    const { prev, next } = arrival;
    if (prev) prev.next = next;
    else this.head = next;
    if (next) next.prev = prev;
    else this.tail = prev;
    arrival.prev = undefined;
  }

  /** The oldest ticket (undefined when empty). */
  first(): Ticket | undefined {
    const early = this.late.minKey();
    return early && (!this.head || compareArrival(early, this.head) < 0) ? early.ticket : this.head?.ticket;
  }

  /** The tickets, oldest first (at most `limit`); the order may change during the walk. */
  *oldest(limit = Infinity): IterableIterator<Ticket> {
    let listed = this.head;
    // The late ones are few: copied, so that the tree may change during the walk.
    const late = this.late.size > 0 ? [...this.late.keys()] : [];
    let i = 0;
    for (let n = 0; n < limit; n++) {
      while (listed && !listed.held) listed = listed.next;
      while (i < late.length && !late[i].held) i++;
      if (listed && (i === late.length || compareArrival(listed, late[i]) < 0)) {
        yield listed.ticket;
        listed = listed.next;
      } else if (i < late.length) yield late[i++].ticket;
      else return;
    }
  }

  /** Push the oldest `limit` arrivals onto `out`, oldest first. */
  collect(limit: number, out: Arrival[]): void {
    let n = 0;
    let listed = this.head;
    if (this.late.size === 0) {
      for (; listed && n < limit; listed = listed.next, n++) out.push(listed);
      return;
    }
    for (const early of this.late.keys()) {
      for (; listed && n < limit && compareArrival(listed, early) < 0; listed = listed.next, n++) out.push(listed);
      if (n++ >= limit) return;
      out.push(early);
    }
    for (; listed && n < limit; listed = listed.next, n++) out.push(listed);
  }

  /** Push the newest `limit` arrivals onto `out`, newest first. */
  collectNewest(limit: number, out: Arrival[]): void {
    let n = 0;
    let listed = this.tail;
    if (this.late.size === 0) {
      for (; listed && n < limit; listed = listed.prev, n++) out.push(listed);
      return;
    }
    for (const [late] of this.late.entriesReversed()) {
      for (; listed && n < limit && compareArrival(listed, late) > 0; listed = listed.prev, n++) out.push(listed);
      if (n++ >= limit) return;
      out.push(late);
    }
    for (; listed && n < limit; listed = listed.prev, n++) out.push(listed);
  }
}

/** An {@link ArrivalOrder} that also finds its tickets by id (a ticket added again while held moves). */
export class ArrivalIndex {
  private readonly order = new ArrivalOrder();
  private readonly arrivals = new Map<string, Arrival>();

  get size(): number {
    return this.arrivals.size;
  }

  has(ticketId: string): boolean {
    return this.arrivals.has(ticketId);
  }

  add(ticket: Ticket): Arrival {
    this.remove(ticket.id);
    const arrival = this.order.add(ticket);
    this.arrivals.set(ticket.id, arrival);
    return arrival;
  }

  /** Remove a ticket; returns it (undefined if it was not held). */
  remove(ticketId: string): Ticket | undefined {
    const arrival = this.arrivals.get(ticketId);
    if (!arrival) return undefined;
    this.arrivals.delete(ticketId);
    this.order.remove(arrival);
    return arrival.ticket;
  }

  get(ticketId: string): Ticket | undefined {
    return this.arrivals.get(ticketId)?.ticket;
  }

  /** A held ticket's place in arrival order. */
  arrival(ticketId: string): Arrival | undefined {
    return this.arrivals.get(ticketId);
  }

  first(): Ticket | undefined {
    return this.order.first();
  }

  oldest(limit = Infinity): IterableIterator<Ticket> {
    return this.order.oldest(limit);
  }
}
