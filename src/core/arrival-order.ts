/**
 * Tickets in arrival order: by original enqueue time, then by the order they were added in. A
 * re-queued ticket keeps its `enqueuedAt` and so its place ahead of newcomers.
 */
import type { Ticket } from "./types.js";
import { sortedTree, type SortedTree } from "./sorted-tree.js";

/** A held ticket's place in an {@link ArrivalOrder}. */
export interface Arrival {
  readonly ticket: Ticket;
  readonly at: number;
  /** The order it was added in, among every ticket of every order (ties of `at`). */
  readonly seq: number;
  /** Added behind a newer ticket: held in the order's tree, not in its list. */
  readonly late: boolean;
  /** Neighbours in the list (a removed arrival keeps its `next`, for a walk paused on it). */
  prev: Arrival | undefined;
  next: Arrival | undefined;
  held: boolean;
}

/** Arrival order: by enqueue time, then by the order of adding. */
export const compareArrival = (a: Arrival, b: Arrival): number => a.at - b.at || a.seq - b.seq;

/**
 * One sequence for every order, so that tickets with the same `enqueuedAt` held in different
 * orders (a policy's classes, ranges) still compare in the order they were added.
 */
let nextSeq = 0;

const NONE: readonly Arrival[] = [];

/**
 * Tickets in arrival order. Tickets nearly always arrive in order (the clock only moves forward):
 * those are kept in a doubly linked list in the order of adding, O(1) to add and remove and
 * walked from either end; a ticket added behind a newer one goes to a sorted-btree instead,
 * O(log n), and walks merge the two. The caller keeps each ticket's {@link Arrival} to remove it.
 */
export class ArrivalOrder {
  private head: Arrival | undefined;
  private tail: Arrival | undefined;
  /** The tickets added behind a newer one. */
  private readonly late: SortedTree<Arrival, undefined> = sortedTree<Arrival, undefined>(compareArrival);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(ticket: Ticket): Arrival {
    const at = ticket.enqueuedAt;
    // An equal enqueue time is in order: the sequence number puts it last.
    const late = this.tail !== undefined && at < this.tail.at;
    const arrival: Arrival = { ticket, at, seq: nextSeq++, late, prev: undefined, next: undefined, held: true };
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
    const late = this.late.minKey();
    return late && (!this.head || compareArrival(late, this.head) < 0) ? late.ticket : this.head?.ticket;
  }

  /** The tickets, oldest first (at most `limit`); tickets may come and go during the walk. */
  *oldest(limit = Infinity): IterableIterator<Ticket> {
    const late = this.lateList();
    let i = 0;
    let listed = this.head;
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
    collectMerged(this.head, this.lateList(), limit, out, 1);
  }

  /** Push the newest `limit` arrivals onto `out`, newest first. */
  collectNewest(limit: number, out: Arrival[]): void {
    const late = this.lateList();
    collectMerged(this.tail, late.length > 0 ? [...late].reverse() : NONE, limit, out, -1);
  }

  /** The late arrivals, oldest first (few: copied, so that the tree may change during a walk). */
  private lateList(): readonly Arrival[] {
    return this.late.size > 0 ? [...this.late.keys()] : NONE;
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

/** An {@link ArrivalOrder} whose tickets are found by id. */
export class ArrivalIndex {
  private readonly order = new ArrivalOrder();
  private readonly arrivals = new Map<string, Arrival>();

  get size(): number {
    return this.arrivals.size;
  }

  has(ticketId: string): boolean {
    return this.arrivals.has(ticketId);
  }

  /** Add a ticket; false, and nothing changed, if one of its id is held (remove it first to move it). */
  add(ticket: Ticket): boolean {
    if (this.arrivals.size > 0 && this.arrivals.has(ticket.id)) return false;
    this.arrivals.set(ticket.id, this.order.add(ticket));
    return true;
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
