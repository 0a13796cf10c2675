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
  /** Its slot in the order's array; {@link LATE} in the order's tree, {@link GONE} once removed. */
  slot: number;
}

const LATE = -1;
const GONE = -2;

/** A walk oldest first: the next slot of the array, and the late arrivals with the next one's index. */
interface Walk {
  at: number;
  readonly late: readonly Arrival[];
  i: number;
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
 * those are kept in an array in the order of adding, each knowing its slot, so that removal
 * empties the slot (the array is compacted once half its slots are empty) and walks go from
 * either end; a ticket added behind a newer one goes to a sorted-btree instead, O(log n), and
 * walks merge the two. The caller keeps each ticket's {@link Arrival} to remove it.
 * Not a sorted-btree or a `Map` in insertion order: greedy's steps ran at less than half their
 * speed on either (a tree update per arrival and leave; a `Map`'s walk from its oldest entry
 * passes every entry deleted since its last rehash).
 */
export class ArrivalOrder {
  private readonly slots: (Arrival | undefined)[] = [];
  /** The first slot that may hold an arrival. */
  private head = 0;
  private empty = 0;
  /** The tickets added behind a newer one. */
  private readonly late: SortedTree<Arrival, undefined> = sortedTree<Arrival, undefined>(compareArrival);
  private newestAt = -Infinity;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(ticket: Ticket): Arrival {
    const at = ticket.enqueuedAt;
    // An equal enqueue time is in order: the sequence number puts it last.
    const late = at < this.newestAt;
    const arrival: Arrival = { ticket, at, seq: nextSeq++, slot: LATE };
    if (late) this.late.set(arrival, undefined);
    else {
      if (this.empty > 32 && 2 * this.empty > this.slots.length - this.head) this.compact();
      arrival.slot = this.slots.length;
      this.slots.push(arrival);
      this.newestAt = at;
    }
    this.count++;
    return arrival;
  }

  /** Remove an arrival this order returned (once). */
  remove(arrival: Arrival): void {
    const slot = arrival.slot;
    arrival.slot = GONE;
    if (--this.count === 0) this.newestAt = -Infinity;
    if (slot === LATE) {
      this.late.delete(arrival);
      return;
    }
    const slots = this.slots;
    slots[slot] = undefined;
    this.empty++;
    while (this.head < slots.length && slots[this.head] === undefined) {
      this.head++;
      this.empty--;
    }
    if (this.head === slots.length) {
      slots.length = 0;
      this.head = 0;
    }
  }

  /** Drop the empty slots (only when adding: a walk's removals keep every slot where it is). */
  private compact(): void {
    const slots = this.slots;
    let j = 0;
    for (let i = this.head; i < slots.length; i++) {
      const arrival = slots[i];
      if (arrival === undefined) continue;
      arrival.slot = j;
      slots[j++] = arrival;
    }
    slots.length = j;
    this.head = 0;
    this.empty = 0;
  }

  /** The oldest ticket (undefined when empty). */
  first(): Ticket | undefined {
    const listed = this.slots[this.head];
    const late = this.late.minKey();
    return late && (!listed || compareArrival(late, listed) < 0) ? late.ticket : listed?.ticket;
  }

  /** The tickets, oldest first (at most `limit`); tickets may leave during the walk, not arrive. */
  *oldest(limit = Infinity): IterableIterator<Ticket> {
    const walk = this.walk();
    for (let n = 0; n < limit; n++) {
      const arrival = this.next(walk);
      if (!arrival) return;
      yield arrival.ticket;
    }
  }

  /** Push the oldest `limit` arrivals onto `out`, oldest first. */
  collect(limit: number, out: Arrival[]): void {
    const walk = this.walk();
    for (let n = 0; n < limit; n++) {
      const arrival = this.next(walk);
      if (!arrival) return;
      out.push(arrival);
    }
  }

  private walk(): Walk {
    return { at: this.head, late: this.lateList(), i: 0 };
  }

  /** The next arrival of a walk oldest first (undefined at its end), past the ones that left. */
  private next(walk: Walk): Arrival | undefined {
    const slots = this.slots;
    const late = walk.late;
    while (walk.at < slots.length && slots[walk.at] === undefined) walk.at++;
    while (walk.i < late.length && late[walk.i].slot === GONE) walk.i++;
    const listed = slots[walk.at];
    if (listed && (walk.i === late.length || compareArrival(listed, late[walk.i]) < 0)) {
      walk.at++;
      return listed;
    }
    return walk.i < late.length ? late[walk.i++] : undefined;
  }

  /** Push the newest `limit` arrivals onto `out`, newest first. */
  collectNewest(limit: number, out: Arrival[]): void {
    const late = this.lateList();
    const slots = this.slots;
    let i = late.length - 1;
    let at = slots.length - 1;
    for (let n = 0; n < limit; n++) {
      while (at >= this.head && slots[at] === undefined) at--;
      const listed = at >= this.head ? slots[at] : undefined;
      if (listed && (i < 0 || compareArrival(listed, late[i]) > 0)) {
        out.push(listed);
        at--;
      } else if (i >= 0) out.push(late[i--]);
      else return;
    }
  }

  /** The late arrivals, oldest first (few: copied, so that the tree may change during a walk). */
  private lateList(): readonly Arrival[] {
    return this.late.size > 0 ? [...this.late.keys()] : NONE;
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
