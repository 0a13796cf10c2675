/**
 * A hash table from string ids to values (the engine keeps its waiting tickets in its sibling
 * `NodeTable`, which finds the id in the value instead of storing it). A `Map` costs a
 * join two probes (`has`, then `set`) and a leave two (`get`, then `delete`), each through a
 * bucket array and an entry array (two cache misses or more at 100,000 tickets), and its deleted
 * entries are only reclaimed by rebuilding the whole table. Here each join and each leave is one
 * probe: open addressing with linear probing in one array of (hash, id, value) triples, so that a
 * probe reads one cache line, and removal by backward shift (no tombstones, nothing to rebuild
 * while the size holds). The hash is computed from the id's characters with a per-table random
 * seed (so that chosen ids cannot be made to collide), and kept beside the id, so that a probe
 * compares strings only when the hashes agree.
 */
/** The least capacity (triples); always a power of two, at most half full. */
const MIN_CAPACITY = 16;

export class IdTable<V> {
  /** Triples: hash (a small integer), id (undefined: an empty cell), value. */
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

  get(id: string): V | undefined {
    const at = this.find(id, this.hash(id));
    return at < 0 ? undefined : (this.cells[at + 2] as V);
  }

  /** Add `id` with `value` unless it is present; false (and nothing changed) if it was. */
  add(id: string, value: V): boolean {
    const h = this.hash(id);
    const at = this.probe(id, h);
    const cells = this.cells;
    if (cells[at + 1] !== undefined) return false;
    cells[at] = h;
    cells[at + 1] = id;
    cells[at + 2] = value;
    if (++this.count * 2 > this.mask + 1) this.resize(2 * (this.mask + 1));
    return true;
  }

  /** Remove `id`; returns its value (undefined if it was not present). */
  take(id: string): V | undefined {
    const at = this.find(id, this.hash(id));
    if (at < 0) return undefined;
    const cells = this.cells;
    const value = cells[at + 2] as V;
    this.vacate(at / 3);
    if (--this.count * 8 < this.mask + 1 && this.mask + 1 > MIN_CAPACITY) this.resize((this.mask + 1) / 2);
    return value;
  }

  /** The cell (index of its triple's first element) holding `id`, or -1. */
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
      const at = 3 * i;
      const key = cells[at + 1];
      if (key === undefined || (cells[at] === h && key === id)) return at;
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
      const key = cells[3 * j + 1];
      if (key === undefined) break;
      const home = (cells[3 * j] as number) & mask;
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      cells[3 * i] = cells[3 * j];
      cells[3 * i + 1] = key;
      cells[3 * i + 2] = cells[3 * j + 2];
      i = j;
    }
    cells[3 * i + 1] = undefined;
    cells[3 * i + 2] = undefined;
  }

  private resize(capacity: number): void {
    const old = this.cells;
    this.cells = emptyCells(capacity);
    this.mask = capacity - 1;
    const cells = this.cells;
    const mask = this.mask;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 1] === undefined) continue;
      const h = old[at] as number;
      let i = h & mask;
      while (cells[3 * i + 1] !== undefined) i = (i + 1) & mask;
      cells[3 * i] = h;
      cells[3 * i + 1] = old[at + 1];
      cells[3 * i + 2] = old[at + 2];
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

/** `capacity` empty triples (hash 0, no id, no value). */
function emptyCells(capacity: number): unknown[] {
  // Pushed, not preallocated: an array made with holes stays a holey array, slower to read.
  const cells: unknown[] = [];
  for (let i = 0; i < capacity; i++) cells.push(0, undefined, undefined);
  return cells;
}
