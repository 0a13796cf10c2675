/**
 * A B+tree of rows kept in its leaves, ordered by (rating, seq): each row is `columns` numbers
 * (column 0 the rating, column 1 the sequence number that breaks ties, column 2 a priority, if
 * the tree has more than two columns)
 * plus one value, stored column by column in its leaf's single `Float64Array` (column c of row r
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

export interface RowLeaf<V> {
  readonly leaf: true;
  /** Column c of row r at rows[c·WIDTH + r]. */
  readonly rows: Float64Array;
  readonly values: (V | undefined)[];
  size: number;
  prev: RowLeaf<V> | undefined;
  next: RowLeaf<V> | undefined;
  parent: RowInner<V> | undefined;
}

interface RowInner<V> {
  readonly leaf: false;
  /** sepRating[c], sepSeq[c] for c ≥ 1: the least key child c may hold. */
  readonly sepRating: Float64Array;
  readonly sepSeq: Float64Array;
  /** mins[c]: the least priority of the rows below child c (Infinity when none). */
  readonly mins: Float64Array;
  readonly children: RowNode<V>[];
  size: number;
  parent: RowInner<V> | undefined;
}

type RowNode<V> = RowLeaf<V> | RowInner<V>;

/** A position in the tree: row `index` of `leaf` (a reusable cursor, not a snapshot). */
export interface RowCursor<V> {
  leaf: RowLeaf<V>;
  index: number;
}

/** Move `at` to the next row in order; false (`at` unchanged) at the last row. */
export function nextRow<V>(at: RowCursor<V>): boolean {
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
export function previousRow<V>(at: RowCursor<V>): boolean {
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
export const ratingAt = <V>(at: RowCursor<V>): number => at.leaf.rows[RATING * WIDTH + at.index];

/** The value of the row at `at`. */
export const valueAt = <V>(at: RowCursor<V>): V => at.leaf.values[at.index]!;

/** A new cursor (to be placed by {@link RowTree.insert}, {@link RowTree.find} or {@link RowTree.first}). */
export const rowCursor = <V>(): RowCursor<V> => ({ leaf: undefined as unknown as RowLeaf<V>, index: 0 });

const newInner = <V>(): RowInner<V> => ({
  leaf: false,
  sepRating: new Float64Array(WIDTH),
  sepSeq: new Float64Array(WIDTH),
  mins: new Float64Array(WIDTH).fill(Infinity),
  children: [],
  size: 0,
  parent: undefined,
});

export class RowTree<V> {
  private root: RowNode<V>;
  private count = 0;

  /**
   * @param columns numbers per row: rating, seq, then the priority and the caller's columns; 2
   *   for a tree without priorities (its rows are only ordered: {@link RowTree.least} finds none).
   * @param moved called with each value whose row a split moves to a new leaf (for callers that
   *   keep each value's leaf, to reach its row again with {@link RowTree.findIn} instead of a descent).
   */
  constructor(
    readonly columns: number,
    private readonly moved?: (value: V, leaf: RowLeaf<V>) => void,
  ) {
    if (columns < 2) throw new RangeError("a row needs at least its rating and seq");
    this.root = this.newLeaf();
  }

  get size(): number {
    return this.count;
  }

  private newLeaf(): RowLeaf<V> {
    return {
      leaf: true,
      rows: new Float64Array(WIDTH * this.columns),
      values: new Array<V | undefined>(WIDTH).fill(undefined),
      size: 0,
      prev: undefined,
      next: undefined,
      parent: undefined,
    };
  }

  /** The leaf whose range holds (rating, seq). */
  private leafFor(rating: number, seq: number): RowLeaf<V> {
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
   * Insert a row for (rating, seq) (a key not held) with priority Infinity and the other
   * columns 0; `at` is left on it. Returns nothing: write the row's columns through `at`.
   */
  insert(rating: number, seq: number, value: V, at: RowCursor<V>): void {
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
    rows[RATING * WIDTH + pos] = rating;
    rows[SEQ * WIDTH + pos] = seq;
    for (let c = PRIORITY; c < this.columns; c++) rows[c * WIDTH + pos] = c === PRIORITY ? Infinity : 0;
    values[pos] = value;
    leaf.size = n + 1;
    this.count++;
    at.leaf = leaf;
    at.index = pos;
  }

  /** Put `at` on the row (rating, seq); false (and `at` unchanged) when it is not held. */
  find(rating: number, seq: number, at: RowCursor<V>): boolean {
    return this.findIn(this.leafFor(rating, seq), rating, seq, at);
  }

  /**
   * Put `at` on the row (rating, seq) looked for in `leaf` alone (the leaf the row was inserted
   * in or last {@link moved} to); false (and `at` unchanged) when that leaf does not hold it.
   */
  findIn(leaf: RowLeaf<V>, rating: number, seq: number, at: RowCursor<V>): boolean {
    const i = position(leaf, rating, seq) - 1;
    if (i < 0 || leaf.rows[SEQ * WIDTH + i] !== seq || leaf.rows[RATING * WIDTH + i] !== rating) return false;
    at.leaf = leaf;
    at.index = i;
    return true;
  }

  /**
   * Take out the row at `at` and bring the least priorities above it up to date. Cursors on
   * later rows of the same leaf move down by one; others stay valid unless their leaf emptied.
   */
  remove(at: RowCursor<V>): void {
    const leaf = at.leaf;
    const rows = leaf.rows;
    const n = leaf.size - 1;
    const hadLeast = this.columns > PRIORITY && rows[PRIORITY * WIDTH + at.index] !== Infinity;
    for (let c = 0, start = at.index, end = n; c < this.columns; c++, start += WIDTH, end += WIDTH) {
      for (let i = start; i < end; i++) rows[i] = rows[i + 1];
    }
    const values = leaf.values;
    for (let i = at.index; i < n; i++) values[i] = values[i + 1];
    values[n] = undefined;
    leaf.size = n;
    this.count--;
    if (n === 0 && leaf.parent) this.dropLeaf(leaf);
    else if (hadLeast) this.refresh(leaf);
  }

  /** Bring the least priorities above `from` (a leaf whose rows' priorities changed, or an inner node whose children did) up to date. */
  refresh(from: RowNode<V>): void {
    let node: RowNode<V> = from;
    let least = leastOf(node);
    for (let p = node.parent; p; node = p, p = p.parent) {
      const c = p.children.indexOf(node);
      if (p.mins[c] === least) return;
      p.mins[c] = least;
      least = leastOf(p);
    }
  }

  /** The least priority of any row (Infinity when none has one). */
  leastPriority(): number {
    return leastOf(this.root);
  }

  /** Put `at` on the row of least priority (the first such row in order); false when every priority is Infinity. */
  least(at: RowCursor<V>): boolean {
    let node = this.root;
    const least = leastOf(node);
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
  first(at: RowCursor<V>): boolean {
    let node = this.root;
    while (!node.leaf) node = node.children[0];
    if (node.size === 0) return false;
    at.leaf = node;
    at.index = 0;
    return true;
  }

  /** Split a full leaf in halves (the right half linked after it); returns the right half. */
  private split(leaf: RowLeaf<V>): RowLeaf<V> {
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
  private addChild(left: RowNode<V>, child: RowNode<V>, rating: number, seq: number): void {
    const parent = left.parent;
    if (!parent) {
      const root = newInner<V>();
      root.children.push(left, child);
      root.sepRating[1] = rating;
      root.sepSeq[1] = seq;
      root.mins[0] = leastOf(left);
      root.mins[1] = leastOf(child);
      root.size = 2;
      left.parent = child.parent = root;
      this.root = root;
      return;
    }
    let node = parent;
    let at = parent.children.indexOf(left) + 1;
    if (parent.size === WIDTH) {
      const right = newInner<V>();
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
      insertChild(node, at, child, rating, seq, leastOf(child));
      node.mins[at - 1] = leastOf(left);
      this.addChild(parent, right, right.sepRating[0], right.sepSeq[0]);
      return;
    }
    insertChild(node, at, child, rating, seq, leastOf(child));
    node.mins[at - 1] = leastOf(left);
  }

  /** Unlink an empty leaf, take it (and any inner node left empty) out of its parents, and refresh the least priorities above. */
  private dropLeaf(leaf: RowLeaf<V>): void {
    if (leaf.prev) leaf.prev.next = leaf.next;
    if (leaf.next) leaf.next.prev = leaf.prev;
    let node: RowNode<V> = leaf;
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
function position<V>(leaf: RowLeaf<V>, rating: number, seq: number): number {
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

/** The least priority held below a node. */
function leastOf<V>(node: RowNode<V>): number {
  let least = Infinity;
  if (node.leaf) {
    const rows = node.rows;
    if (rows.length <= PRIORITY * WIDTH) return Infinity; // no priority column
    for (let j = PRIORITY * WIDTH, end = j + node.size; j < end; j++) if (rows[j] < least) least = rows[j];
  } else {
    const mins = node.mins;
    for (let c = 0; c < node.size; c++) if (mins[c] < least) least = mins[c];
  }
  return least;
}

function insertChild<V>(
  node: RowInner<V>,
  at: number,
  child: RowNode<V>,
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
