/**
 * The engine's waiting tickets by id: a hash table of arrival nodes keyed by their ticket's id.
 *
 * A `Map` would cost a join two probes (`has`, then `set`) and a leave two (`get`, then `delete`),
 * each through a bucket array and an entry array, and reclaims deleted entries only by rebuilding.
 * Here each join and each leave is one probe: open addressing with linear probing, removal by
 * backward shift (no tombstones), and a hash of the id's characters from a per-table random seed
 * (so that chosen ids cannot be made to collide) kept beside each entry, so that a probe reads the
 * id only when the hashes agree. A cell is a pair (hash, node): the id is the node's own
 * `ticket.id`. A cell is then 16 bytes (the table at 100,000 tickets is 4 MB), and a join stores
 * one pointer to a young object into the table (few old-to-new slots for the scavenger).
 */
import type { ArrivalNode } from "./arrival-order.js";

/** The least capacity (pairs); always a power of two, at most half full. */
const MIN_CAPACITY = 16;

export class NodeTable {
  /** Pairs: hash (a small integer), node (undefined: an empty cell). */
  private cells: unknown[];
  private mask: number;
  private count = 0;
  private readonly seed = (Math.random() * 0x3fffffff) | 0;

  constructor() {
    this.cells = emptyCells(MIN_CAPACITY);
    this.mask = MIN_CAPACITY - 1;
  }

  get size(): number {
    return this.count;
  }

  has(id: string): boolean {
    return this.find(id, this.hash(id)) >= 0;
  }

  /** The node of the waiting ticket `id`, if any. */
  get(id: string): ArrivalNode | undefined {
    const at = this.find(id, this.hash(id));
    return at < 0 ? undefined : (this.cells[at + 1] as ArrivalNode);
  }

  /** Add `node` under its ticket's id unless that id is present; false (and nothing changed) if it was. */
  add(node: ArrivalNode): boolean {
    const id = node.ticket.id;
    const h = this.hash(id);
    const at = this.probe(id, h);
    const cells = this.cells;
    if (cells[at + 1] !== undefined) return false;
    cells[at] = h;
    cells[at + 1] = node;
    if (++this.count * 2 > this.mask + 1) this.resize(2 * (this.mask + 1));
    return true;
  }

  /** Remove `id`; returns its node (undefined if it was not present). */
  take(id: string): ArrivalNode | undefined {
    const at = this.find(id, this.hash(id));
    if (at < 0) return undefined;
    const node = this.cells[at + 1] as ArrivalNode;
    this.vacate(at >> 1);
    if (--this.count * 8 < this.mask + 1 && this.mask + 1 > MIN_CAPACITY) this.resize((this.mask + 1) / 2);
    return node;
  }

  /** The cell (index of its pair's first element) holding `id`, or -1. */
  private find(id: string, h: number): number {
    const at = this.probe(id, h);
    return this.cells[at + 1] === undefined ? -1 : at;
  }

  /** The cell holding `id`, or else the empty cell that ends its run (where it would go). */
  private probe(id: string, h: number): number {
    const cells = this.cells;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const at = 2 * i;
      const node = cells[at + 1] as ArrivalNode | undefined;
      if (node === undefined || (cells[at] === h && node.ticket.id === id)) return at;
      i = (i + 1) & mask;
    }
  }

  /**
   * Empty cell `i`, moving back each later entry of its run that may not be reached past an empty
   * cell otherwise (one whose home is not cyclically within (i, j]).
   */
  private vacate(i: number): void {
    const cells = this.cells;
    const mask = this.mask;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const node = cells[2 * j + 1];
      if (node === undefined) break;
      const home = (cells[2 * j] as number) & mask;
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      cells[2 * i] = cells[2 * j];
      cells[2 * i + 1] = node;
      i = j;
    }
    cells[2 * i + 1] = undefined;
  }

  private resize(capacity: number): void {
    const old = this.cells;
    this.cells = emptyCells(capacity);
    this.mask = capacity - 1;
    const cells = this.cells;
    const mask = this.mask;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] === undefined) continue;
      const h = old[at] as number;
      let i = h & mask;
      while (cells[2 * i + 1] !== undefined) i = (i + 1) & mask;
      cells[2 * i] = h;
      cells[2 * i + 1] = old[at + 1];
    }
  }

  /** FNV-1a over the id's UTF-16 units from the table's seed, then mixed (murmur3's finaliser), as a small integer. */
  private hash(id: string): number {
    let h = this.seed ^ 0x811c9dc5;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h & 0x3fffffff;
  }
}

/** `capacity` empty pairs (hash 0, no node). */
function emptyCells(capacity: number): unknown[] {
  // Pushed, not preallocated: an array made with holes stays a holey array, slower to read.
  const cells: unknown[] = [];
  for (let i = 0; i < capacity; i++) cells.push(0, undefined);
  return cells;
}
