/**
 * A B+tree of rows kept in its leaves, ordered by (rating, seq): each row is `columns` numbers
 * (column 0 the rating, column 1 the sequence number that breaks ties, column 2 a priority in a
 * tree that keeps priorities) plus one value (and, in a tree made with `companions`, a second
 * one), stored column by column in its leaf's single `Float64Array` (column c of row r
 * at `rows[c * ROW_TREE_WIDTH + r]`: a binary search reads the ratings alone, the least priority
 * of a leaf is one short scan), so that neighbours in rating order are reached by index within a
 * leaf (or through the leaf's `next` and `prev`) without touching any object. Each inner node keeps, per
 * child, the least priority of the rows below it, so the row of least priority (the leftmost
 * among equals, that is the least (rating, seq)) is found by one descent, and a change of
 * priorities in a leaf is propagated up its path by {@link RowTree.refresh}.
 *
 * Separators are lower bounds: child c of an inner node holds keys in [sep[c], sep[c+1]),
 * child 0 everything below sep[1]. Leaves split when full and are dropped only once empty (never
 * merged), as in {@link NumberTree}.
 */

/** Rows per leaf and children per inner node. */
export const ROW_TREE_WIDTH = 32;
const WIDTH = ROW_TREE_WIDTH;
/** Column of each row's rating, of its sequence number, and of its priority. */
export const RATING = 0;
export const SEQ = 1;
export const PRIORITY = 2;

export interface RowLeaf<V, W = undefined> {
  readonly leaf: true;
  /** Column c of row r at rows[c·WIDTH + r]. */
  readonly rows: Float64Array;
  readonly values: (V | undefined)[];
  /** Each row's second value, in a tree made with `companions` (else undefined). */
  readonly companions: (W | undefined)[] | undefined;
  size: number;
  prev: RowLeaf<V, W> | undefined;
  next: RowLeaf<V, W> | undefined;
  parent: RowInner<V, W> | undefined;
}

interface RowInner<V, W> {
  readonly leaf: false;
  /** sepRating[c], sepSeq[c] for c ≥ 1: the least key child c may hold. */
  readonly sepRating: Float64Array;
  readonly sepSeq: Float64Array;
  /** mins[c]: the least priority of the rows below child c (Infinity when none). */
  readonly mins: Float64Array;
  readonly children: RowNode<V, W>[];
  size: number;
  parent: RowInner<V, W> | undefined;
}

type RowNode<V, W> = RowLeaf<V, W> | RowInner<V, W>;

/** A position in the tree: row `index` of `leaf` (a reusable cursor, not a snapshot). */
export interface RowCursor<V, W = undefined> {
  leaf: RowLeaf<V, W>;
  index: number;
}

/** Move `at` to the next row in order; false (`at` unchanged) at the last row. */
export function nextRow<V, W>(at: RowCursor<V, W>): boolean {
  if (at.index + 1 < at.leaf.size) {
    at.index++;
    return true;
  }
  const next = at.leaf.next;
  if (!next) return false;
  at.leaf = next;
  at.index = 0;
  return true;
}

/** Move `at` to the previous row in order; false (`at` unchanged) at the first row. */
export function previousRow<V, W>(at: RowCursor<V, W>): boolean {
  if (at.index > 0) {
    at.index--;
    return true;
  }
  const prev = at.leaf.prev;
  if (!prev) return false;
  at.leaf = prev;
  at.index = prev.size - 1;
  return true;
}

/** The rating of the row at `at`. */
export const ratingAt = <V, W>(at: RowCursor<V, W>): number => at.leaf.rows[RATING * WIDTH + at.index];

/** Column `column` of the row at `at`. */
export const columnAt = <V, W>(at: RowCursor<V, W>, column: number): number => at.leaf.rows[column * WIDTH + at.index];

/** Set column `column` of the row at `at` (not the rating or seq: they place the row). */
export function setColumnAt<V, W>(at: RowCursor<V, W>, column: number, value: number): void {
  at.leaf.rows[column * WIDTH + at.index] = value;
}

/** The value of the row at `at`. */
export const valueAt = <V, W>(at: RowCursor<V, W>): V => at.leaf.values[at.index]!;

/** The second value of the row at `at` (a tree made with `companions`). */
export const companionAt = <V, W>(at: RowCursor<V, W>): W => at.leaf.companions![at.index]!;

/** A new cursor (to be placed by {@link RowTree.insert}, {@link RowTree.find} or {@link RowTree.first}). */
export const rowCursor = <V, W = undefined>(): RowCursor<V, W> => ({
  leaf: undefined as unknown as RowLeaf<V, W>,
  index: 0,
});

/** Options of a {@link RowTree}. */
export interface RowTreeOptions<V, W> {
  /**
   * Keep a priority per row (column 2) and the least below each child, for
   * {@link RowTree.least} (default true). Without, the caller's columns start at 2.
   */
  readonly priorities?: boolean;
  /** Keep a second value per row, beside its value (`companions`; default false). */
  readonly companions?: boolean;
  /**
   * Called with each value whose row a split moves to a new leaf: for callers that keep each
   * value's leaf, to reach its row again with {@link RowTree.findIn} or
   * {@link RowTree.indexIn} instead of a descent.
   */
  readonly moved?: (value: V, leaf: RowLeaf<V, W>) => void;
}

const newInner = <V, W>(): RowInner<V, W> => ({
  leaf: false,
  sepRating: new Float64Array(WIDTH),
  sepSeq: new Float64Array(WIDTH),
  mins: new Float64Array(WIDTH).fill(Infinity),
  children: [],
  size: 0,
  parent: undefined,
});

export class RowTree<V, W = undefined> {
  private root: RowNode<V, W>;
  private count = 0;
  private readonly priorities: boolean;
  private readonly companions: boolean;
  private readonly moved: ((value: V, leaf: RowLeaf<V, W>) => void) | undefined;

  /**
   * @param columns numbers per row: rating, seq, the priority (unless `options.priorities` is
   *   false), then the caller's columns.
   */
  constructor(
    readonly columns: number,
    options: RowTreeOptions<V, W> = {},
  ) {
    this.priorities = options.priorities ?? true;
    this.companions = options.companions ?? false;
    this.moved = options.moved;
    if (columns < (this.priorities ? 3 : 2)) throw new RangeError("a row needs at least its rating, seq and priority");
    this.root = this.newLeaf();
  }

  get size(): number {
    return this.count;
  }

  private newLeaf(): RowLeaf<V, W> {
    return {
      leaf: true,
      rows: new Float64Array(WIDTH * this.columns),
      values: new Array<V | undefined>(WIDTH).fill(undefined),
      companions: this.companions ? new Array<W | undefined>(WIDTH).fill(undefined) : undefined,
      size: 0,
      prev: undefined,
      next: undefined,
      parent: undefined,
    };
  }

  /** The leaf whose range holds (rating, seq). */
  private leafFor(rating: number, seq: number): RowLeaf<V, W> {
    let node = this.root;
    while (!node.leaf) {
      // The last child whose separator is ≤ the key (child 0 when none is).
      const sr = node.sepRating;
      const ss = node.sepSeq;
      let lo = 1;
      let hi = node.size;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sr[mid] < rating || (sr[mid] === rating && ss[mid] <= seq)) lo = mid + 1;
        else hi = mid;
      }
      node = node.children[lo - 1];
    }
    return node;
  }

  /**
   * Insert a row for (rating, seq) (a key not held) with priority Infinity (if kept), the other
   * columns 0 and `companion` as its second value (in a tree that keeps them); `at` is left on it. Returns nothing: write the row's columns through `at`.
   */
  insert(rating: number, seq: number, value: V, at: RowCursor<V, W>, companion?: W): void {
    let leaf = this.leafFor(rating, seq);
    let pos = position(leaf, rating, seq);
    if (leaf.size === WIDTH) {
      const right = this.split(leaf);
      if (pos > leaf.size) {
        pos -= leaf.size;
        leaf = right;
      }
    }
    const rows = leaf.rows;
    const n = leaf.size;
    // Plain loops: at most WIDTH rows, too few for copyWithin's call to pay.
    for (let c = 0, end = n; c < this.columns; c++, end += WIDTH) {
      for (let i = end; i > end - n + pos; i--) rows[i] = rows[i - 1];
    }
    const values = leaf.values;
    for (let i = n; i > pos; i--) values[i] = values[i - 1];
    const companions = leaf.companions;
    if (companions) {
      for (let i = n; i > pos; i--) companions[i] = companions[i - 1];
      companions[pos] = companion;
    }
    rows[RATING * WIDTH + pos] = rating;
    rows[SEQ * WIDTH + pos] = seq;
    for (let c = 2; c < this.columns; c++) rows[c * WIDTH + pos] = 0;
    if (this.priorities) rows[PRIORITY * WIDTH + pos] = Infinity;
    values[pos] = value;
    leaf.size = n + 1;
    this.count++;
    at.leaf = leaf;
    at.index = pos;
  }

  /** Put `at` on the row (rating, seq); false (and `at` unchanged) when it is not held. */
  find(rating: number, seq: number, at: RowCursor<V, W>): boolean {
    return this.findIn(this.leafFor(rating, seq), rating, seq, at);
  }

  /**
   * Put `at` on the row (rating, seq) looked for in `leaf` alone (the leaf the row was inserted
   * in or last {@link RowTreeOptions.moved} to); false (and `at` unchanged) when that leaf does not hold it.
   */
  findIn(leaf: RowLeaf<V, W>, rating: number, seq: number, at: RowCursor<V, W>): boolean {
    const i = position(leaf, rating, seq) - 1;
    if (i < 0 || leaf.rows[SEQ * WIDTH + i] !== seq || leaf.rows[RATING * WIDTH + i] !== rating) return false;
    at.leaf = leaf;
    at.index = i;
    return true;
  }

  /**
   * Put `at` on the row whose value is `value`, looked for in `leaf` alone (the leaf its row was
   * inserted in or last {@link RowTreeOptions.moved} to); false (and `at` unchanged) when that
   * leaf does not hold it.
   */
  indexIn(leaf: RowLeaf<V, W>, value: V, at: RowCursor<V, W>): boolean {
    const values = leaf.values;
    for (let i = 0, n = leaf.size; i < n; i++) {
      if (values[i] === value) {
        at.leaf = leaf;
        at.index = i;
        return true;
      }
    }
    return false;
  }

  /**
   * Take out the row at `at` and bring the least priorities above it up to date. Cursors on
   * later rows of the same leaf move down by one; others stay valid unless their leaf emptied.
   */
  remove(at: RowCursor<V, W>): void {
    const leaf = at.leaf;
    const rows = leaf.rows;
    const n = leaf.size - 1;
    const hadLeast = this.priorities && rows[PRIORITY * WIDTH + at.index] !== Infinity;
    for (let c = 0, start = at.index, end = n; c < this.columns; c++, start += WIDTH, end += WIDTH) {
      for (let i = start; i < end; i++) rows[i] = rows[i + 1];
    }
    const values = leaf.values;
    for (let i = at.index; i < n; i++) values[i] = values[i + 1];
    values[n] = undefined;
    const companions = leaf.companions;
    if (companions) {
      for (let i = at.index; i < n; i++) companions[i] = companions[i + 1];
      companions[n] = undefined;
    }
    leaf.size = n;
    this.count--;
    if (n === 0 && leaf.parent) this.dropLeaf(leaf);
    else if (hadLeast) this.refresh(leaf);
  }

  /** Bring the least priorities above `from` (a leaf whose rows' priorities changed, or an inner node whose children did) up to date. */
  refresh(from: RowNode<V, W>): void {
    let node: RowNode<V, W> = from;
    let least = this.leastOf(node);
    for (let p = node.parent; p; node = p, p = p.parent) {
      const c = p.children.indexOf(node);
      if (p.mins[c] === least) return;
      p.mins[c] = least;
      least = this.leastOf(p);
    }
  }

  /** The least priority of any row (Infinity when none has one). */
  leastPriority(): number {
    return this.leastOf(this.root);
  }

  /** Put `at` on the row of least priority (the first such row in order); false when every priority is Infinity. */
  least(at: RowCursor<V, W>): boolean {
    let node = this.root;
    const least = this.leastOf(node);
    if (least === Infinity) return false;
    while (!node.leaf) {
      const mins = node.mins;
      let c = 0;
      while (c < node.size && mins[c] !== least) c++;
      if (c === node.size) throw new Error("RowTree: a least priority is out of date");
      node = node.children[c];
    }
    let i = 0;
    const rows = node.rows;
    while (i < node.size && rows[PRIORITY * WIDTH + i] !== least) i++;
    if (i === node.size) throw new Error("RowTree: a least priority is out of date");
    at.leaf = node;
    at.index = i;
    return true;
  }

  /** Put `at` on the first row in order; false when the tree is empty. */
  first(at: RowCursor<V, W>): boolean {
    let node = this.root;
    while (!node.leaf) node = node.children[0];
    if (node.size === 0) return false;
    at.leaf = node;
    at.index = 0;
    return true;
  }

  /** The least priority held below a node (Infinity in a tree without priorities). */
  private leastOf(node: RowNode<V, W>): number {
    let least = Infinity;
    if (node.leaf) {
      if (!this.priorities) return Infinity;
      const rows = node.rows;
      for (let j = PRIORITY * WIDTH, end = j + node.size; j < end; j++) if (rows[j] < least) least = rows[j];
    } else {
      const mins = node.mins;
      for (let c = 0; c < node.size; c++) if (mins[c] < least) least = mins[c];
    }
    return least;
  }

  /** Split a full leaf in halves (the right half linked after it); returns the right half. */
  private split(leaf: RowLeaf<V, W>): RowLeaf<V, W> {
    const right = this.newLeaf();
    const half = WIDTH >> 1;
    for (let c = 0; c < this.columns; c++)
      right.rows.set(leaf.rows.subarray(c * WIDTH + half, c * WIDTH + WIDTH), c * WIDTH);
    const moved = this.moved;
    for (let i = half; i < WIDTH; i++) {
      const value = leaf.values[i]!;
      right.values[i - half] = value;
      leaf.values[i] = undefined;
      if (moved) moved(value, right);
    }
    if (leaf.companions) {
      for (let i = half; i < WIDTH; i++) {
        right.companions![i - half] = leaf.companions[i];
        leaf.companions[i] = undefined;
      }
    }
    right.size = WIDTH - half;
    leaf.size = half;
    right.next = leaf.next;
    right.prev = leaf;
    if (leaf.next) leaf.next.prev = right;
    leaf.next = right;
    this.addChild(leaf, right, right.rows[RATING * WIDTH], right.rows[SEQ * WIDTH]);
    return right;
  }

  /**
   * Put `child` (least key (rating, seq)) right after `left` in left's parent (a new root when
   * left is the root), splitting full parents. The least priorities of both are set in the
   * parent: a split keeps the rows below the parent, so nothing above it changes.
   */
  private addChild(left: RowNode<V, W>, child: RowNode<V, W>, rating: number, seq: number): void {
    const parent = left.parent;
    if (!parent) {
      const root = newInner<V, W>();
      root.children.push(left, child);
      root.sepRating[1] = rating;
      root.sepSeq[1] = seq;
      root.mins[0] = this.leastOf(left);
      root.mins[1] = this.leastOf(child);
      root.size = 2;
      left.parent = child.parent = root;
      this.root = root;
      return;
    }
    let node = parent;
    let at = parent.children.indexOf(left) + 1;
    if (parent.size === WIDTH) {
      const right = newInner<V, W>();
      const half = WIDTH >> 1;
      for (let i = half; i < WIDTH; i++) {
        const moved = parent.children[i];
        right.children.push(moved);
        moved.parent = right;
        right.sepRating[i - half] = parent.sepRating[i];
        right.sepSeq[i - half] = parent.sepSeq[i];
        right.mins[i - half] = parent.mins[i];
        parent.mins[i] = Infinity;
      }
      parent.children.length = half;
      right.size = WIDTH - half;
      parent.size = half;
      if (at > half) {
        node = right;
        at -= half;
      }
      insertChild(node, at, child, rating, seq, this.leastOf(child));
      node.mins[at - 1] = this.leastOf(left);
      this.addChild(parent, right, right.sepRating[0], right.sepSeq[0]);
      return;
    }
    insertChild(node, at, child, rating, seq, this.leastOf(child));
    node.mins[at - 1] = this.leastOf(left);
  }

  /** Unlink an empty leaf, take it (and any inner node left empty) out of its parents, and refresh the least priorities above. */
  private dropLeaf(leaf: RowLeaf<V, W>): void {
    if (leaf.prev) leaf.prev.next = leaf.next;
    if (leaf.next) leaf.next.prev = leaf.prev;
    let node: RowNode<V, W> = leaf;
    let parent = leaf.parent;
    while (parent) {
      const at = parent.children.indexOf(node);
      parent.children.splice(at, 1);
      const n = parent.size - 1;
      for (let i = at; i < n; i++) {
        parent.sepRating[i] = parent.sepRating[i + 1];
        parent.sepSeq[i] = parent.sepSeq[i + 1];
        parent.mins[i] = parent.mins[i + 1];
      }
      parent.mins[n] = Infinity;
      parent.size = n;
      if (n > 0) break;
      node = parent;
      parent = parent.parent;
    }
    // A root with a single child gives way to it.
    while (!this.root.leaf && this.root.size === 1) {
      this.root = this.root.children[0];
      this.root.parent = undefined;
    }
    if (!this.root.leaf && this.root.size === 0) this.root = this.newLeaf();
    if (parent && parent.size > 0) this.refresh(parent);
  }
}

/** Index of the first row of the leaf whose key is greater than (rating, seq). */
function position<V, W>(leaf: RowLeaf<V, W>, rating: number, seq: number): number {
  const rows = leaf.rows;
  let lo = 0;
  let hi = leaf.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const r = rows[RATING * WIDTH + mid];
    if (r < rating || (r === rating && rows[SEQ * WIDTH + mid] <= seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertChild<V, W>(
  node: RowInner<V, W>,
  at: number,
  child: RowNode<V, W>,
  rating: number,
  seq: number,
  least: number,
): void {
  node.children.splice(at, 0, child);
  for (let i = node.size; i > at; i--) {
    node.sepRating[i] = node.sepRating[i - 1];
    node.sepSeq[i] = node.sepSeq[i - 1];
    node.mins[i] = node.mins[i - 1];
  }
  node.sepRating[at] = rating;
  node.sepSeq[at] = seq;
  node.mins[at] = least;
  child.parent = node;
  node.size++;
}
