import type { Ticket } from "./types.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "./sorted-tree.js";

/** Position of a ticket in arrival order: enqueue time, then the order it was added in. */
export type ArrivalKey = RankedKey;

export const compareArrival = compareRanked;

/**
 * One sequence for every index, so that tickets with the same `enqueuedAt` held in different
 * indexes (a policy's classes, ranges) still compare in the order they were added.
 */
let nextSeq = 0;

/**
 * Tickets sorted by original enqueue time, with O(log n) insert and delete. A re-queued
 * ticket keeps its `enqueuedAt` and so lands back at its original place, ahead of newcomers.
 */
export class ArrivalOrder {
  /**
   * Tickets are nearly always added in arrival order (the clock only moves forward; a re-queued
   * ticket is the exception). Those go to the end of an array, whose entries are emptied in place
   * when removed (dropped from the front at once, compacted when they outnumber the rest); a
   * ticket added behind the last one goes to a B+tree instead. Walks merge the two, so the order
   * is the same as one tree's, at the cost of a tree operation only for the out-of-order ones.
   *
   * A removed entry is emptied, not only marked gone on its node, so that the array does not keep
   * the node, and through it the ticket, alive until the next compaction: at 100,000 waiting
   * tickets that kept every cancelled ticket reachable for about 50,000 more steps, so that nearly
   * every one was copied by the young collector and promoted, old garbage for the marker.
   */
  private readonly queue: ArrivalNode[] = [];
  /** The arrival key of the newest entry ever put in the array since it was last emptied or compacted. */
  private lastAt = 0;
  private lastSeq = 0;
  private head = 0;
  /**
   * The end of the entries in `queue`; the slots after it are empty (undefined). Shortening the
   * array instead would let V8 trim its store, which the next pushes would then copy to grow
   * again, a copy of the whole queue at every compaction.
   */
  private end = 0;
  private goneInQueue = 0;
  /** The tickets added out of order, by arrival key (each value is the ticket's node). */
  private readonly tree: SortedTree<ArrivalKey, ArrivalNode> = sortedTree<ArrivalKey, ArrivalNode>(compareArrival);
  private count = 0;

  /**
   * @param lane which of a node's places (`at0`, `at1`, `at2`) this order uses (0, 1 or 2; see
   *   {@link LANES}): orders that may be given the same node (see {@link take}) must use different lanes.
   */
  constructor(readonly lane = 0) {
    if (lane !== 0 && lane !== 1 && lane !== 2)
      throw new RangeError(`ArrivalOrder: lane ${lane} does not exist (a node has lanes 0 to ${LANES - 1})`);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Add a ticket; returns its node, the handle {@link removeNode} takes (the caller keeps it, e.g.
   * in its own map by ticket id, so that the order needs no map of its own).
   */
  addNode(ticket: Ticket): ArrivalNode {
    const node = new ArrivalNode(ticket);
    this.insert(node);
    return node;
  }

  /**
   * Add a ticket by a node made elsewhere (by its caller, or by another order on another lane, so
   * that one object serves both): true if taken; false, and nothing done, if this order's lane of
   * the node was ever used (a node once removed may still sit in the array, so it is never taken
   * again).
   */
  take(node: ArrivalNode): boolean {
    if (this.placeOf(node) !== NEVER) return false;
    this.insert(node);
    return true;
  }

  /**
   * Take `slot` as `ticket`'s node when it is that ticket's arrival node (the engine's slot) and
   * this order may take it (see {@link take}); returns it, or undefined (the caller makes its own).
   */
  takeSlot(slot: unknown, ticket: Ticket): ArrivalNode | undefined {
    return isArrivalNodeOf(slot, ticket) && this.take(slot) ? slot : undefined;
  }

  /** True while `node` is in this order (added and not removed). */
  holds(node: ArrivalNode): boolean {
    const place = this.placeOf(node);
    return place >= 0 || place === IN_TREE;
  }

  /** Remove a node this order returned or took (once; a node it does not hold is ignored); true if it held it. */
  removeNode(node: ArrivalNode): boolean {
    const place = this.placeOf(node);
    if (place < 0 && place !== IN_TREE) return false;
    this.place(node, REMOVED);
    this.count--;
    if (place === IN_TREE) {
      this.tree.delete(keyOf(node));
      return true;
    }
    const queue = this.queue;
    queue[place] = EMPTIED;
    this.goneInQueue++;
    while (this.head < this.end && queue[this.head] === EMPTIED) {
      this.head++;
      this.goneInQueue--;
    }
    if (this.head === this.end) {
      // Every entry is gone (each already emptied): start again at the front (the array keeps
      // its length; see `end`).
      this.end = 0;
      this.head = 0;
    }
    return true;
  }

  private insert(node: ArrivalNode): void {
    const queue = this.queue;
    const at = node.ticket.enqueuedAt;
    const seq = node.seq;
    // A taken node's sequence number may be older than ones added since it was made, so the whole
    // key decides (not only the enqueue time, as for a node made here): a node behind goes to the tree.
    if (this.end === this.head || at > this.lastAt || (at === this.lastAt && seq > this.lastSeq)) {
      if (this.goneInQueue > 32 && this.goneInQueue * 2 > this.end - this.head) this.compact();
      if (this.end < queue.length) queue[this.end] = node;
      else queue.push(node);
      this.place(node, this.end);
      this.end++;
      this.lastAt = at;
      this.lastSeq = seq;
    } else {
      this.tree.set(keyOf(node), node);
      this.place(node, IN_TREE);
    }
    this.count++;
  }

  /** Where `node` is in this order: its entry's index in the array, or {@link NEVER}, {@link IN_TREE}, {@link REMOVED}. */
  private placeOf(node: ArrivalNode): number {
    return this.lane === 0 ? node.at0 : this.lane === 1 ? node.at1 : node.at2;
  }

  /** The oldest ticket, without a walk (undefined when empty). */
  first(): Ticket | undefined {
    if (this.count === 0) return undefined;
    const queue = this.queue;
    let i = this.head;
    while (i < this.end && queue[i] === EMPTIED) i++;
    if (this.tree.size === 0) return queue[i].ticket;
    const t = this.tree.minKey()!;
    return i < this.end && compareNode(queue[i], t) < 0 ? queue[i].ticket : this.tree.get(t)!.ticket;
  }

  /**
   * Push the nodes of the oldest (or, with `newestFirst`, the newest) `limit` tickets onto `out`,
   * in that order: {@link oldest} and {@link newest} without a generator or an entry per ticket
   * while every ticket arrived in order.
   */
  collect(limit: number, newestFirst: boolean, out: ArrivalNode[]): void {
    if (limit <= 0 || this.count === 0) return;
    if (this.tree.size > 0) {
      for (const node of newestFirst ? this.newestNodes(limit) : this.oldestNodes(limit)) out.push(node);
      return;
    }
    const queue = this.queue;
    let n = 0;
    if (newestFirst) {
      for (let i = this.end - 1; i >= this.head && n < limit; i--) {
        if (queue[i] !== EMPTIED) {
          out.push(queue[i]);
          n++;
        }
      }
    } else {
      for (let i = this.head; i < this.end && n < limit; i++) {
        if (queue[i] !== EMPTIED) {
          out.push(queue[i]);
          n++;
        }
      }
    }
  }

  /** Newest first. */
  *newest(limit = Infinity): IterableIterator<[ArrivalKey, Ticket]> {
    for (const node of this.newestNodes(limit)) yield entryOf(node);
  }

  /** Oldest first. */
  *oldest(limit = Infinity): IterableIterator<[ArrivalKey, Ticket]> {
    for (const node of this.oldestNodes(limit)) yield entryOf(node);
  }

  private *newestNodes(limit: number): IterableIterator<ArrivalNode> {
    if (limit <= 0) return;
    let n = 0;
    const queue = this.queue;
    let i = this.end - 1;
    while (i >= this.head && queue[i] === EMPTIED) i--;
    if (this.tree.size === 0) {
      for (; i >= this.head; i--) {
        if (queue[i] === EMPTIED) continue;
        yield queue[i];
        if (++n >= limit) return;
      }
      return;
    }
    const fromTree = this.tree.entriesReversed();
    let t = fromTree.next();
    while (i >= this.head || !t.done) {
      if (i >= this.head && (t.done || compareNodes(queue[i], t.value[1]) > 0)) {
        yield queue[i--];
        while (i >= this.head && queue[i] === EMPTIED) i--;
      } else {
        yield t.value[1];
        t = fromTree.next();
      }
      if (++n >= limit) return;
    }
  }

  /** The nodes, oldest first (at most `limit`). */
  *oldestNodes(limit = Infinity): IterableIterator<ArrivalNode> {
    if (limit <= 0) return;
    let n = 0;
    const queue = this.queue;
    let i = this.head;
    while (i < this.end && queue[i] === EMPTIED) i++;
    if (this.tree.size === 0) {
      for (; i < this.end; i++) {
        if (queue[i] === EMPTIED) continue;
        yield queue[i];
        if (++n >= limit) return;
      }
      return;
    }
    const fromTree = this.tree.values();
    let t = fromTree.next();
    while (i < this.end || !t.done) {
      if (i < this.end && (t.done || compareNodes(queue[i], t.value) < 0)) {
        yield queue[i++];
        while (i < this.end && queue[i] === EMPTIED) i++;
      } else {
        yield t.value;
        t = fromTree.next();
      }
      if (++n >= limit) return;
    }
  }

  /** Record where `node` is in this order: entry `place` of the array, or one of the states below 0. */
  private place(node: ArrivalNode, place: number): void {
    if (this.lane === 0) node.at0 = place;
    else if (this.lane === 1) node.at1 = place;
    else node.at2 = place;
  }

  /** Drop the emptied entries from the array (only when adding, never during a walk's removals). */
  private compact(): void {
    const queue = this.queue;
    let j = 0;
    for (let i = this.head; i < this.end; i++) {
      const node = queue[i];
      if (node === EMPTIED) continue;
      queue[j] = node;
      this.place(node, j++);
    }
    queue.fill(EMPTIED, j, this.end);
    this.end = j;
    this.head = 0;
    this.goneInQueue = 0;
  }
}

/** An {@link ArrivalOrder} that also finds its tickets by id. */
export class ArrivalIndex extends ArrivalOrder {
  private readonly nodes = new Map<string, ArrivalNode>();

  has(ticketId: string): boolean {
    return this.nodes.has(ticketId);
  }

  /** Add a ticket (a ticket already held is moved to its new position, never held twice). */
  add(ticket: Ticket): ArrivalKey {
    this.remove(ticket.id);
    const node = this.addNode(ticket);
    this.nodes.set(ticket.id, node);
    return keyOf(node);
  }

  remove(ticketId: string): boolean {
    const node = this.nodes.get(ticketId);
    if (!node) return false;
    this.nodes.delete(ticketId);
    this.removeNode(node);
    return true;
  }

  get(ticketId: string): Ticket | undefined {
    return this.nodes.get(ticketId)?.ticket;
  }

  keyOf(ticketId: string): ArrivalKey | undefined {
    const node = this.nodes.get(ticketId);
    return node && keyOf(node);
  }
}

/**
 * The lanes a node has (0, 1 and 2): the engine uses lane 0, greedy lane 1, multi-queue lanes 1 and
 * 2 (its ranges' greedy queues), each kept in the node so that a removal empties its entry at once.
 */
export const LANES = 3;

/** What an emptied slot of an order's array holds (a removed entry's, or one past the order's `end`). */
const EMPTIED = undefined as unknown as ArrivalNode;

/**
 * A node's place in one order when it is not an entry of the order's array (an entry's place is its
 * index, 0 or more): never added, in the tree, or removed.
 */
const NEVER = -1;
const IN_TREE = -2;
const REMOVED = -3;

/** A held ticket and its sequence number (its key is `[enqueuedAt, seq]`), in up to {@link LANES} orders at once. */
export class ArrivalNode {
  /**
   * Free for the node's owner: the engine's nodes are the {@link TicketSlot}s it hands its policy
   * (which keeps its own record of the ticket here instead of in a map by ticket id).
   */
  policyData: unknown = undefined;
  /**
   * Where the node is in the order on lane 0 (`at0`), 1 (`at1`) and 2 (`at2`): the index of its
   * entry in the order's array (so that removal empties the entry without a search), or, below 0,
   * never added, in the order's tree, or removed (one field per lane, no separate state to keep).
   */
  at0 = NEVER;
  at1 = NEVER;
  at2 = NEVER;

  /** The order it was made in among all nodes (ties of `enqueuedAt` keep it). */
  readonly seq: number;

  constructor(readonly ticket: Ticket) {
    this.seq = nextSeq++;
  }
}

/** Whether `slot` is `ticket`'s own arrival node (the slot the engine hands its policy for it). */
export const isArrivalNodeOf = (slot: unknown, ticket: Ticket): slot is ArrivalNode =>
  slot instanceof ArrivalNode && slot.ticket === ticket;

/** Order of two nodes by arrival (enqueue time, then sequence). */
export const compareNodes = (a: ArrivalNode, b: ArrivalNode): number =>
  a.ticket.enqueuedAt - b.ticket.enqueuedAt || a.seq - b.seq;

const keyOf = (node: ArrivalNode): ArrivalKey => [node.ticket.enqueuedAt, node.seq];
const entryOf = (node: ArrivalNode): [ArrivalKey, Ticket] => [keyOf(node), node.ticket];
const compareNode = (node: ArrivalNode, key: ArrivalKey): number =>
  node.ticket.enqueuedAt - key[0] || node.seq - key[1];
