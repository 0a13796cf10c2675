import type { Ticket } from "./types.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "./sorted-tree.js";

/** Position of a ticket in arrival order: enqueue time, then the order it was added in. */
export type ArrivalKey = RankedKey;

export const compareArrival = compareRanked;

/**
 * Tickets sorted by original enqueue time, with O(log n) insert and delete. A re-queued
 * ticket keeps its `enqueuedAt` and so lands back at its original place, ahead of newcomers.
 */
/**
 * One sequence for every index, so that tickets with the same `enqueuedAt` held in different
 * indexes (a policy's classes, ranges) still compare in the order they were added.
 */
let nextSeq = 0;

export class ArrivalIndex {
  private readonly tree: SortedTree<ArrivalKey, Ticket> = sortedTree<ArrivalKey, Ticket>(compareArrival);
  private readonly keys = new Map<string, ArrivalKey>();

  get size(): number {
    return this.keys.size;
  }

  has(ticketId: string): boolean {
    return this.keys.has(ticketId);
  }

  /** Add a ticket (a ticket already held is moved to its new position, never held twice). */
  add(ticket: Ticket): ArrivalKey {
    this.remove(ticket.id);
    const key: ArrivalKey = [ticket.enqueuedAt, nextSeq++];
    this.tree.set(key, ticket);
    this.keys.set(ticket.id, key);
    return key;
  }

  remove(ticketId: string): boolean {
    const key = this.keys.get(ticketId);
    if (!key) return false;
    this.keys.delete(ticketId);
    return this.tree.delete(key);
  }

  get(ticketId: string): Ticket | undefined {
    const key = this.keys.get(ticketId);
    return key && this.tree.get(key);
  }

  keyOf(ticketId: string): ArrivalKey | undefined {
    return this.keys.get(ticketId);
  }

  /** Newest first. */
  *newest(limit = Infinity): IterableIterator<[ArrivalKey, Ticket]> {
    if (limit <= 0) return;
    let n = 0;
    for (const entry of (
      this.tree as unknown as { entriesReversed(): IterableIterator<[ArrivalKey, Ticket]> }
    ).entriesReversed()) {
      yield entry;
      if (++n >= limit) return;
    }
  }

  /** Oldest first. */
  *oldest(limit = Infinity): IterableIterator<[ArrivalKey, Ticket]> {
    if (limit <= 0) return;
    let n = 0;
    for (const entry of this.tree.entries()) {
      yield entry;
      if (++n >= limit) return;
    }
  }
}
