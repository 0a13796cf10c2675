/**
 * A B+tree of rows kept in its leaves, ordered by (rating, seq): each row is `columns` numbers
 * (column 0 the rating, column 1 the sequence number that breaks ties, column 2 a priority, if
 * the tree has more than two columns) plus one value. Each inner node keeps, per child, the least
 * priority of the rows below it, so the row of least priority (the leftmost among equals, that is
 * the least (rating, seq)) is found by one descent, and a change of priorities in a leaf is
 * propagated up its path by {@link RowTree.refresh}.
 *
 * Nodes are numbers, not objects: every leaf's rows live in one `Float64Array` (the arena
 * {@link RowTree.rows}; leaf l's column c, row r at l·stride + c·WIDTH + r: a binary search reads
 * the ratings alone, the least priority of a leaf is one short scan), every leaf's values in one
 * array ({@link RowTree.values}, leaf l's row r at l·WIDTH + r), and every leaf's size and links
 * in one `Int32Array`; the inner nodes likewise. At 100,000 rows a step is its cache misses: a
 * leaf visit is then its rows, its values and its (small, mostly cached) header, where a leaf
 * object with its own typed array was the object, the array, its off-heap store and the values
 * array, and the collector has no buffer per leaf to track. The arenas grow by doubling; freed
 * nodes are reused.
 *
 * Separators are lower bounds: child c of an inner node holds keys in [sep[c], sep[c+1]),
 * child 0 everything below sep[1]. Leaves split when full and are dropped only once empty (never
 * merged); every leaf is at the same depth ({@link RowTree.height}).
 */

/** Rows per leaf and children per inner node. */
export const ROW_TREE_WIDTH = 32;
const WIDTH = ROW_TREE_WIDTH;
const HALF = WIDTH >> 1;
/** Column of each row's rating, of its sequence number, and of its priority. */
export const RATING = 0;
export const SEQ = 1;
export const PRIORITY = 2;
/** No node (a missing link, parent or leaf). */
export const NO_LEAF = -1;
const NONE = -1;

/** A leaf's header in {@link RowTree}'s leaf table: four numbers per leaf. */
const L_SIZE = 0;
const L_PREV = 1;
const L_NEXT = 2;
const L_PARENT = 3;
const LEAF_HEADER = 4;
/** An inner node's numbers: separators' ratings, their seqs, the least priority per child. */
const I_SEP_SEQ = WIDTH;
const I_MINS = 2 * WIDTH;
const INNER_KEYS = 3 * WIDTH;
/** An inner node's header: its size and its parent. */
const I_SIZE = 0;
const I_PARENT = 1;
const INNER_HEADER = 2;

/** A position in the tree: row `index` of leaf `leaf` (a reusable cursor, not a snapshot). */
export interface RowCursor {
  leaf: number;
  index: number;
}

/** A new cursor (to be placed by {@link RowTree.insert}, {@link RowTree.find} or {@link RowTree.first}). */
export const rowCursor = (): RowCursor => ({ leaf: NONE, index: 0 });

export class RowTree<V> {
  /**
   * Every leaf's rows: column c of row r of leaf l at l·{@link stride} + c·WIDTH + r. Replaced
   * when the tree grows: read it again after an {@link insert}.
   */
  rows: Float64Array;
  /** Every leaf's values: row r of leaf l at l·WIDTH + r (undefined past the leaf's size). */
  readonly values: (V | undefined)[] = [];
  /** Numbers per leaf in {@link rows}: columns·WIDTH. */
  readonly stride: number;
  /** Per leaf: size, prev, next, parent. */
  private leaves: Int32Array;
  private leafCapacity = 0;
  private leafTop = 0;
  private readonly freeLeaves: number[] = [];
  /** Per inner node: separators' ratings, their seqs, the least priority below each child. */
  private keys: Float64Array;
  private children: Int32Array;
  /** Per inner node: size, parent. */
  private inners: Int32Array;
  private innerCapacity = 0;
  private innerTop = 0;
  private readonly freeInners: number[] = [];
  private root: number;
  /** Inner levels above the leaves (0: the root is a leaf). */
  private height = 0;
  private count = 0;

  /**
   * @param columns numbers per row: rating, seq, then the priority and the caller's columns; 2
   *   for a tree without priorities (its rows are only ordered: {@link RowTree.least} finds none).
   * @param moved called with each value whose row a split moves to a new leaf (for callers that
   *   keep each value's leaf, to reach its row again with {@link RowTree.findIn} instead of a descent).
   */
  constructor(
    readonly columns: number,
    private readonly moved?: (value: V, leaf: number) => void,
  ) {
    if (columns < 2) throw new RangeError("a row needs at least its rating and seq");
    this.stride = columns * WIDTH;
    this.rows = new Float64Array(0);
    this.leaves = new Int32Array(0);
    this.keys = new Float64Array(0);
    this.children = new Int32Array(0);
    this.inners = new Int32Array(0);
    this.root = this.newLeaf();
  }

  get size(): number {
    return this.count;
  }

  /** Rows held by leaf `leaf`. */
  sizeOf(leaf: number): number {
    return this.leaves[leaf * LEAF_HEADER + L_SIZE];
  }

  /** The leaf after `leaf` in order ({@link NO_LEAF} at the last). */
  nextLeaf(leaf: number): number {
    return this.leaves[leaf * LEAF_HEADER + L_NEXT];
  }

  /** The leaf before `leaf` in order ({@link NO_LEAF} at the first). */
  previousLeaf(leaf: number): number {
    return this.leaves[leaf * LEAF_HEADER + L_PREV];
  }

  /** Move `at` to the next row in order; false (`at` unchanged) at the last row. */
  next(at: RowCursor): boolean {
    const h = at.leaf * LEAF_HEADER;
    if (at.index + 1 < this.leaves[h + L_SIZE]) {
      at.index++;
      return true;
    }
    const next = this.leaves[h + L_NEXT];
    if (next === NONE) return false;
    at.leaf = next;
    at.index = 0;
    return true;
  }

  /** Move `at` to the previous row in order; false (`at` unchanged) at the first row. */
  previous(at: RowCursor): boolean {
    if (at.index > 0) {
      at.index--;
      return true;
    }
    const prev = this.leaves[at.leaf * LEAF_HEADER + L_PREV];
    if (prev === NONE) return false;
    at.leaf = prev;
    at.index = this.leaves[prev * LEAF_HEADER + L_SIZE] - 1;
    return true;
  }

  /** The rating of the row at `at`. */
  ratingAt(at: RowCursor): number {
    return this.rows[at.leaf * this.stride + at.index];
  }

  /** The value of the row at `at`. */
  valueAt(at: RowCursor): V {
    return this.values[at.leaf * WIDTH + at.index]!;
  }

  /** Where column c of the row at `at` is in {@link rows}: this plus c·WIDTH. */
  rowAt(at: RowCursor): number {
    return at.leaf * this.stride + at.index;
  }

  /** The leaf whose range holds (rating, seq). */
  private leafFor(rating: number, seq: number): number {
    let node = this.root;
    const keys = this.keys;
    const inners = this.inners;
    const children = this.children;
    for (let h = this.height; h > 0; h--) {
      // The last child whose separator is ≤ the key (child 0 when none is).
      const k = node * INNER_KEYS;
      let lo = 1;
      let hi = inners[node * INNER_HEADER + I_SIZE];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const r = keys[k + mid];
        if (r < rating || (r === rating && keys[k + I_SEP_SEQ + mid] <= seq)) lo = mid + 1;
        else hi = mid;
      }
      node = children[node * WIDTH + lo - 1];
    }
    return node;
  }

  /**
   * Insert a row for (rating, seq) (a key not held) with priority Infinity and the other
   * columns 0; `at` is left on it. Returns nothing: write the row's columns through `at`
   * (into {@link rows}, read again: an insert may replace it).
   */
  insert(rating: number, seq: number, value: V, at: RowCursor): void {
    let leaf = this.leafFor(rating, seq);
    let pos = this.position(leaf, rating, seq);
    if (this.leaves[leaf * LEAF_HEADER + L_SIZE] === WIDTH) {
      const right = this.split(leaf);
      if (pos > HALF) {
        pos -= HALF;
        leaf = right;
      }
    }
    const rows = this.rows;
    const h = leaf * LEAF_HEADER;
    const n = this.leaves[h + L_SIZE];
    const base = leaf * this.stride;
    // Plain loops: at most WIDTH rows, too few for copyWithin's call to pay.
    for (let c = 0, end = base + n; c < this.columns; c++, end += WIDTH) {
      for (let i = end; i > end - n + pos; i--) rows[i] = rows[i - 1];
    }
    const values = this.values;
    const vb = leaf * WIDTH;
    for (let i = vb + n; i > vb + pos; i--) values[i] = values[i - 1];
    rows[base + pos] = rating;
    rows[base + SEQ * WIDTH + pos] = seq;
    for (let c = PRIORITY; c < this.columns; c++) rows[base + c * WIDTH + pos] = c === PRIORITY ? Infinity : 0;
    values[vb + pos] = value;
    this.leaves[h + L_SIZE] = n + 1;
    this.count++;
    at.leaf = leaf;
    at.index = pos;
  }

  /** Put `at` on the row (rating, seq); false (and `at` unchanged) when it is not held. */
  find(rating: number, seq: number, at: RowCursor): boolean {
    return this.findIn(this.leafFor(rating, seq), rating, seq, at);
  }

  /**
   * Put `at` on the row (rating, seq) looked for in `leaf` alone (the leaf the row was inserted
   * in or last {@link moved} to); false (and `at` unchanged) when that leaf does not hold it.
   */
  findIn(leaf: number, rating: number, seq: number, at: RowCursor): boolean {
    const i = this.position(leaf, rating, seq) - 1;
    const base = leaf * this.stride;
    if (i < 0 || this.rows[base + SEQ * WIDTH + i] !== seq || this.rows[base + i] !== rating) return false;
    at.leaf = leaf;
    at.index = i;
    return true;
  }

  /**
   * Put `at` on the row whose value is `value`, looked for in `leaf` alone (by identity: no
   * key needed); false (and `at` unchanged) when that leaf does not hold it.
   */
  findValueIn(leaf: number, value: V, at: RowCursor): boolean {
    const values = this.values;
    const vb = leaf * WIDTH;
    const n = this.leaves[leaf * LEAF_HEADER + L_SIZE];
    for (let i = 0; i < n; i++) {
      if (values[vb + i] === value) {
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
  remove(at: RowCursor): void {
    const leaf = at.leaf;
    const rows = this.rows;
    const h = leaf * LEAF_HEADER;
    const n = this.leaves[h + L_SIZE] - 1;
    const base = leaf * this.stride;
    const hadLeast = this.columns > PRIORITY && rows[base + PRIORITY * WIDTH + at.index] !== Infinity;
    for (let c = 0, start = base + at.index, end = base + n; c < this.columns; c++, start += WIDTH, end += WIDTH) {
      for (let i = start; i < end; i++) rows[i] = rows[i + 1];
    }
    const values = this.values;
    const vb = leaf * WIDTH;
    for (let i = vb + at.index; i < vb + n; i++) values[i] = values[i + 1];
    values[vb + n] = undefined;
    this.leaves[h + L_SIZE] = n;
    this.count--;
    if (n === 0 && this.leaves[h + L_PARENT] !== NONE) this.dropLeaf(leaf);
    else if (hadLeast) this.refresh(leaf);
  }

  /** Bring the least priorities above `leaf` (whose rows' priorities changed) up to date. */
  refresh(leaf: number): void {
    this.refreshFrom(this.leaves[leaf * LEAF_HEADER + L_PARENT], leaf, this.leastOfLeaf(leaf));
  }

  /** Set `least` as the least priority of `child` in `parent`, and so on up while anything changes. */
  private refreshFrom(parent: number, child: number, least: number): void {
    for (let p = parent, node = child; p !== NONE; node = p, p = this.inners[p * INNER_HEADER + I_PARENT]) {
      const c = this.childIndex(p, node);
      const at = p * INNER_KEYS + I_MINS + c;
      if (this.keys[at] === least) return;
      this.keys[at] = least;
      least = this.leastOfInner(p);
    }
  }

  /** The least priority of any row (Infinity when none has one). */
  leastPriority(): number {
    return this.height === 0 ? this.leastOfLeaf(this.root) : this.leastOfInner(this.root);
  }

  /** Put `at` on the row of least priority (the first such row in order); false when every priority is Infinity. */
  least(at: RowCursor): boolean {
    const least = this.leastPriority();
    if (least === Infinity) return false;
    let node = this.root;
    for (let h = this.height; h > 0; h--) {
      const k = node * INNER_KEYS + I_MINS;
      const size = this.inners[node * INNER_HEADER + I_SIZE];
      let c = 0;
      while (c < size && this.keys[k + c] !== least) c++;
      if (c === size) throw new Error("RowTree: a least priority is out of date");
      node = this.children[node * WIDTH + c];
    }
    const p = node * this.stride + PRIORITY * WIDTH;
    const size = this.leaves[node * LEAF_HEADER + L_SIZE];
    let i = 0;
    while (i < size && this.rows[p + i] !== least) i++;
    if (i === size) throw new Error("RowTree: a least priority is out of date");
    at.leaf = node;
    at.index = i;
    return true;
  }

  /** Put `at` on the first row in order; false when the tree is empty. */
  first(at: RowCursor): boolean {
    let node = this.root;
    for (let h = this.height; h > 0; h--) node = this.children[node * WIDTH];
    if (this.leaves[node * LEAF_HEADER + L_SIZE] === 0) return false;
    at.leaf = node;
    at.index = 0;
    return true;
  }

  /** Index of the first row of `leaf` whose key is greater than (rating, seq). */
  private position(leaf: number, rating: number, seq: number): number {
    const rows = this.rows;
    const base = leaf * this.stride;
    let lo = 0;
    let hi = this.leaves[leaf * LEAF_HEADER + L_SIZE];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const r = rows[base + mid];
      if (r < rating || (r === rating && rows[base + SEQ * WIDTH + mid] <= seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The least priority of the rows of `leaf`. */
  private leastOfLeaf(leaf: number): number {
    if (this.columns <= PRIORITY) return Infinity;
    const rows = this.rows;
    let least = Infinity;
    const start = leaf * this.stride + PRIORITY * WIDTH;
    for (let j = start, end = start + this.leaves[leaf * LEAF_HEADER + L_SIZE]; j < end; j++) {
      if (rows[j] < least) least = rows[j];
    }
    return least;
  }

  /** The least priority below inner node `node`. */
  private leastOfInner(node: number): number {
    const keys = this.keys;
    let least = Infinity;
    const start = node * INNER_KEYS + I_MINS;
    for (let j = start, end = start + this.inners[node * INNER_HEADER + I_SIZE]; j < end; j++) {
      if (keys[j] < least) least = keys[j];
    }
    return least;
  }

  private leastOf(node: number, isLeaf: boolean): number {
    return isLeaf ? this.leastOfLeaf(node) : this.leastOfInner(node);
  }

  /** Where `child` is among the children of inner node `parent`. */
  private childIndex(parent: number, child: number): number {
    const children = this.children;
    const start = parent * WIDTH;
    const end = start + this.inners[parent * INNER_HEADER + I_SIZE];
    for (let i = start; i < end; i++) if (children[i] === child) return i - start;
    throw new Error("RowTree: a node is not among its parent's children");
  }

  private parentOf(node: number, isLeaf: boolean): number {
    return isLeaf ? this.leaves[node * LEAF_HEADER + L_PARENT] : this.inners[node * INNER_HEADER + I_PARENT];
  }

  private setParent(node: number, isLeaf: boolean, parent: number): void {
    if (isLeaf) this.leaves[node * LEAF_HEADER + L_PARENT] = parent;
    else this.inners[node * INNER_HEADER + I_PARENT] = parent;
  }

  /** A new empty leaf, unlinked (a freed one, or the arenas grown by doubling). */
  private newLeaf(): number {
    let leaf = this.freeLeaves.pop();
    if (leaf === undefined) {
      leaf = this.leafTop++;
      if (leaf >= this.leafCapacity) {
        const capacity = Math.max(4, 2 * this.leafCapacity);
        this.rows = grown(this.rows, capacity * this.stride);
        this.leaves = grown(this.leaves, capacity * LEAF_HEADER);
        for (let i = this.leafCapacity * WIDTH; i < capacity * WIDTH; i++) this.values.push(undefined);
        this.leafCapacity = capacity;
      }
    }
    const h = leaf * LEAF_HEADER;
    this.leaves[h + L_SIZE] = 0;
    this.leaves[h + L_PREV] = NONE;
    this.leaves[h + L_NEXT] = NONE;
    this.leaves[h + L_PARENT] = NONE;
    return leaf;
  }

  /** A new empty inner node (its least priorities Infinity), without a parent. */
  private newInner(): number {
    let node = this.freeInners.pop();
    if (node === undefined) {
      node = this.innerTop++;
      if (node >= this.innerCapacity) {
        const capacity = Math.max(4, 2 * this.innerCapacity);
        this.keys = grown(this.keys, capacity * INNER_KEYS);
        this.children = grown(this.children, capacity * WIDTH);
        this.inners = grown(this.inners, capacity * INNER_HEADER);
        this.innerCapacity = capacity;
      }
    }
    this.keys.fill(Infinity, node * INNER_KEYS + I_MINS, node * INNER_KEYS + INNER_KEYS);
    this.inners[node * INNER_HEADER + I_SIZE] = 0;
    this.inners[node * INNER_HEADER + I_PARENT] = NONE;
    return node;
  }

  private freeInner(node: number): void {
    this.inners[node * INNER_HEADER + I_SIZE] = 0;
    this.inners[node * INNER_HEADER + I_PARENT] = NONE;
    this.freeInners.push(node);
  }

  /** Split a full leaf in halves (the right half linked after it); returns the right half. */
  private split(leaf: number): number {
    const right = this.newLeaf();
    const rows = this.rows;
    const lb = leaf * this.stride;
    const rb = right * this.stride;
    for (let c = 0; c < this.columns; c++)
      rows.copyWithin(rb + c * WIDTH, lb + c * WIDTH + HALF, lb + c * WIDTH + WIDTH);
    const values = this.values;
    const moved = this.moved;
    const lv = leaf * WIDTH;
    const rv = right * WIDTH;
    for (let i = HALF; i < WIDTH; i++) {
      const value = values[lv + i]!;
      values[rv + i - HALF] = value;
      values[lv + i] = undefined;
      if (moved) moved(value, right);
    }
    const leaves = this.leaves;
    const lh = leaf * LEAF_HEADER;
    const rh = right * LEAF_HEADER;
    leaves[rh + L_SIZE] = WIDTH - HALF;
    leaves[lh + L_SIZE] = HALF;
    const next = leaves[lh + L_NEXT];
    leaves[rh + L_NEXT] = next;
    leaves[rh + L_PREV] = leaf;
    if (next !== NONE) leaves[next * LEAF_HEADER + L_PREV] = right;
    leaves[lh + L_NEXT] = right;
    this.addChild(leaf, right, true, rows[rb], rows[rb + SEQ * WIDTH]);
    return right;
  }

  /**
   * Put `child` (least key (rating, seq)) right after `left` in left's parent (a new root when
   * left is the root), splitting full parents. The least priorities of both are set in the
   * parent: a split keeps the rows below the parent, so nothing above it changes.
   */
  private addChild(left: number, child: number, isLeaf: boolean, rating: number, seq: number): void {
    const parent = this.parentOf(left, isLeaf);
    if (parent === NONE) {
      const root = this.newInner();
      const k = root * INNER_KEYS;
      this.children[root * WIDTH] = left;
      this.children[root * WIDTH + 1] = child;
      this.keys[k + 1] = rating;
      this.keys[k + I_SEP_SEQ + 1] = seq;
      this.keys[k + I_MINS] = this.leastOf(left, isLeaf);
      this.keys[k + I_MINS + 1] = this.leastOf(child, isLeaf);
      this.inners[root * INNER_HEADER + I_SIZE] = 2;
      this.setParent(left, isLeaf, root);
      this.setParent(child, isLeaf, root);
      this.root = root;
      this.height++;
      return;
    }
    let node = parent;
    let at = this.childIndex(parent, left) + 1;
    if (this.inners[parent * INNER_HEADER + I_SIZE] === WIDTH) {
      const right = this.newInner();
      const keys = this.keys;
      const children = this.children;
      const pk = parent * INNER_KEYS;
      const rk = right * INNER_KEYS;
      for (let i = HALF; i < WIDTH; i++) {
        const moved = children[parent * WIDTH + i];
        children[right * WIDTH + i - HALF] = moved;
        this.setParent(moved, isLeaf, right);
        keys[rk + i - HALF] = keys[pk + i];
        keys[rk + I_SEP_SEQ + i - HALF] = keys[pk + I_SEP_SEQ + i];
        keys[rk + I_MINS + i - HALF] = keys[pk + I_MINS + i];
        keys[pk + I_MINS + i] = Infinity;
      }
      this.inners[right * INNER_HEADER + I_SIZE] = WIDTH - HALF;
      this.inners[parent * INNER_HEADER + I_SIZE] = HALF;
      if (at > HALF) {
        node = right;
        at -= HALF;
      }
      this.insertChild(node, at, child, isLeaf, rating, seq);
      this.keys[node * INNER_KEYS + I_MINS + at - 1] = this.leastOf(left, isLeaf);
      this.addChild(parent, right, false, keys[rk], keys[rk + I_SEP_SEQ]);
      return;
    }
    this.insertChild(node, at, child, isLeaf, rating, seq);
    this.keys[node * INNER_KEYS + I_MINS + at - 1] = this.leastOf(left, isLeaf);
  }

  /** Put `child` at `at` among the children of inner node `node` (which has room). */
  private insertChild(node: number, at: number, child: number, isLeaf: boolean, rating: number, seq: number): void {
    const keys = this.keys;
    const children = this.children;
    const k = node * INNER_KEYS;
    const cb = node * WIDTH;
    const size = this.inners[node * INNER_HEADER + I_SIZE];
    for (let i = size; i > at; i--) {
      children[cb + i] = children[cb + i - 1];
      keys[k + i] = keys[k + i - 1];
      keys[k + I_SEP_SEQ + i] = keys[k + I_SEP_SEQ + i - 1];
      keys[k + I_MINS + i] = keys[k + I_MINS + i - 1];
    }
    children[cb + at] = child;
    keys[k + at] = rating;
    keys[k + I_SEP_SEQ + at] = seq;
    keys[k + I_MINS + at] = this.leastOf(child, isLeaf);
    this.setParent(child, isLeaf, node);
    this.inners[node * INNER_HEADER + I_SIZE] = size + 1;
  }

  /** Unlink an empty leaf, take it (and any inner node left empty) out of its parents, and refresh the least priorities above. */
  private dropLeaf(leaf: number): void {
    const leaves = this.leaves;
    const lh = leaf * LEAF_HEADER;
    const prev = leaves[lh + L_PREV];
    const next = leaves[lh + L_NEXT];
    if (prev !== NONE) leaves[prev * LEAF_HEADER + L_NEXT] = next;
    if (next !== NONE) leaves[next * LEAF_HEADER + L_PREV] = prev;
    let node = leaf;
    let parent = leaves[lh + L_PARENT];
    leaves[lh + L_PARENT] = NONE;
    this.freeLeaves.push(leaf);
    const keys = this.keys;
    const children = this.children;
    while (parent !== NONE) {
      const at = this.childIndex(parent, node);
      const k = parent * INNER_KEYS;
      const cb = parent * WIDTH;
      const n = this.inners[parent * INNER_HEADER + I_SIZE] - 1;
      for (let i = at; i < n; i++) {
        children[cb + i] = children[cb + i + 1];
        keys[k + i] = keys[k + i + 1];
        keys[k + I_SEP_SEQ + i] = keys[k + I_SEP_SEQ + i + 1];
        keys[k + I_MINS + i] = keys[k + I_MINS + i + 1];
      }
      keys[k + I_MINS + n] = Infinity;
      this.inners[parent * INNER_HEADER + I_SIZE] = n;
      if (n > 0) break;
      node = parent;
      parent = this.inners[parent * INNER_HEADER + I_PARENT];
      this.freeInner(node);
    }
    // A root with a single child gives way to it.
    while (this.height > 0 && this.inners[this.root * INNER_HEADER + I_SIZE] === 1) {
      const old = this.root;
      this.root = children[old * WIDTH];
      this.height--;
      this.setParent(this.root, this.height === 0, NONE);
      this.freeInner(old);
    }
    if (this.height > 0 && this.inners[this.root * INNER_HEADER + I_SIZE] === 0) {
      this.freeInner(this.root);
      this.root = this.newLeaf();
      this.height = 0;
    }
    // (A parent that gave way as the root was freed: its size reads 0.)
    if (parent !== NONE && this.inners[parent * INNER_HEADER + I_SIZE] > 0) {
      this.refreshFrom(this.inners[parent * INNER_HEADER + I_PARENT], parent, this.leastOfInner(parent));
    }
  }
}

/** A copy of an arena `length` numbers long (the new ones 0). */
function grown<A extends Float64Array | Int32Array>(old: A, length: number): A {
  const array = new (old.constructor as new (length: number) => A)(length);
  array.set(old);
  return array;
}
