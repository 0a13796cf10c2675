import type { Ticket } from "./types.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "./sorted-tree.js";

/** Position of a ticket in arrival order: enqueue time, then the order it was added in. */
export type ArrivalKey = RankedKey;

export const compareArrival = compareRanked;

/**
 * One sequence for every order, so that tickets with the same `enqueuedAt` held in different
 * orders (a policy's classes, ranges) still compare in the order they were added.
 */
let nextSeq = 0;

/**
 * Tickets sorted by original enqueue time (a B+tree keyed by {@link ArrivalKey}), found by id:
 * O(log n) add and remove. A re-queued ticket keeps its `enqueuedAt` and so lands back at its
 * original place, ahead of newcomers.
 */
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

  /** Remove a ticket; false if it was not held. */
  remove(ticketId: string): boolean {
    const key = this.keys.get(ticketId);
    if (!key) return false;
    this.keys.delete(ticketId);
    this.tree.delete(key);
    return true;
  }

  get(ticketId: string): Ticket | undefined {
    const key = this.keys.get(ticketId);
    return key && this.tree.get(key);
  }

  keyOf(ticketId: string): ArrivalKey | undefined {
    return this.keys.get(ticketId);
  }

  /** The oldest ticket (undefined when empty). */
  first(): Ticket | undefined {
    const key = this.tree.minKey();
    return key && this.tree.get(key);
  }

  /** Oldest first (at most `limit`). */
  *oldest(limit = Infinity): IterableIterator<[ArrivalKey, Ticket]> {
    if (limit <= 0) return;
    let n = 0;
    for (const entry of this.tree.entries()) {
      yield entry;
      if (++n >= limit) return;
    }
  }

  /** Newest first (at most `limit`). */
  *newest(limit = Infinity): IterableIterator<[ArrivalKey, Ticket]> {
    if (limit <= 0) return;
    let n = 0;
    for (const entry of this.tree.entriesReversed()) {
      yield entry;
      if (++n >= limit) return;
    }
  }
}
