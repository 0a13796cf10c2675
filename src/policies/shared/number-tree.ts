/**
 * A B+tree from distinct numbers to values, made for {@link RatingOrder}'s index: an insert
 * returns the value at the next lower (or equal) key from the same descent, keys sit in typed
 * arrays, and a delete only drops a leaf once it is empty (leaves are never merged), so an
 * update is one descent and a few array moves. Separators are lower bounds: child i of an
 * internal node holds keys in [sep[i], sep[i+1]), child 0 everything below sep[1].
 */

/** Keys per leaf and children per internal node. */
const WIDTH = 32;

interface Leaf<V> {
  readonly leaf: true;
  readonly keys: Float64Array;
  readonly values: (V | undefined)[];
  size: number;
  prev: Leaf<V> | undefined;
  next: Leaf<V> | undefined;
}

interface Inner<V> {
  readonly leaf: false;
  /** seps[i] for i ≥ 1: the least key child i may hold (seps[0] is unused). */
  readonly seps: Float64Array;
  readonly children: Node<V>[];
  size: number;
}

type Node<V> = Leaf<V> | Inner<V>;

const newLeaf = <V>(): Leaf<V> => ({
  leaf: true,
  keys: new Float64Array(WIDTH),
  values: new Array<V | undefined>(WIDTH).fill(undefined),
  size: 0,
  prev: undefined,
  next: undefined,
});

const newInner = <V>(): Inner<V> => ({
  leaf: false,
  seps: new Float64Array(WIDTH),
  children: [],
  size: 0,
});

export class NumberTree<V> {
  private root: Node<V> = newLeaf<V>();
  /** The descent's path: inner nodes and the child index taken in each. */
  private readonly pathNodes: Inner<V>[] = [];
  private readonly pathIndex: number[] = [];
  private depth = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Descend to the leaf that holds (or would hold) `key`, recording the path. */
  private descend(key: number): Leaf<V> {
    let node = this.root;
    let d = 0;
    while (!node.leaf) {
      // The last child whose separator is ≤ key (child 0 when none is).
      const seps = node.seps;
      let lo = 1;
      let hi = node.size;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (seps[mid] <= key) lo = mid + 1;
        else hi = mid;
      }
      const i = lo - 1;
      this.pathNodes[d] = node;
      this.pathIndex[d] = i;
      d++;
      node = node.children[i];
    }
    this.depth = d;
    return node;
  }

  /** The value at `key`, if it is held. */
  get(key: number): V | undefined {
    const leaf = this.descend(key);
    const at = position(leaf, key) - 1;
    return at >= 0 && leaf.keys[at] === key ? leaf.values[at] : undefined;
  }

  /**
   * Map `key` to `value`. Returns the value that was at the greatest key ≤ `key` before (the one
   * replaced when `key` was held), or undefined when there was none.
   */
  set(key: number, value: V): V | undefined {
    const leaf = this.descend(key);
    const pos = position(leaf, key);
    if (pos > 0 && leaf.keys[pos - 1] === key) {
      const old = leaf.values[pos - 1];
      leaf.values[pos - 1] = value;
      return old;
    }
    const lower = pos > 0 ? leaf.values[pos - 1] : leaf.prev ? leaf.prev.values[leaf.prev.size - 1] : undefined;
    this.insertAt(leaf, pos, key, value);
    this.count++;
    return lower;
  }

  /** Remove `key`; returns whether it was held. */
  delete(key: number): boolean {
    const leaf = this.descend(key);
    const at = position(leaf, key) - 1;
    if (at < 0 || leaf.keys[at] !== key) return false;
    const n = leaf.size - 1;
    // Plain loops: a leaf holds at most WIDTH keys, too few for copyWithin's call to pay.
    const keys = leaf.keys;
    for (let i = at; i < n; i++) keys[i] = keys[i + 1];
    for (let i = at; i < n; i++) leaf.values[i] = leaf.values[i + 1];
    leaf.values[n] = undefined;
    leaf.size = n;
    this.count--;
    if (n === 0 && this.depth > 0) this.dropLeaf(leaf);
    return true;
  }

  private insertAt(leaf: Leaf<V>, pos: number, key: number, value: V): void {
    if (leaf.size < WIDTH) {
      shiftIn(leaf, pos, key, value);
      return;
    }
    // Split the full leaf in halves, link the right half after it, then insert in its half.
    const right = newLeaf<V>();
    const half = WIDTH >> 1;
    right.keys.set(leaf.keys.subarray(half, WIDTH));
    for (let i = half; i < WIDTH; i++) {
      right.values[i - half] = leaf.values[i];
      leaf.values[i] = undefined;
    }
    right.size = WIDTH - half;
    leaf.size = half;
    right.next = leaf.next;
    right.prev = leaf;
    if (leaf.next) leaf.next.prev = right;
    leaf.next = right;
    if (pos <= half) shiftIn(leaf, pos, key, value);
    else shiftIn(right, pos - half, key, value);
    this.addChild(this.depth - 1, right, right.keys[0]);
  }

  /** Put `child` (least key `sep`) right after the path's child at `level` (a new root above level 0). */
  private addChild(level: number, child: Node<V>, sep: number): void {
    if (level < 0) {
      const root = newInner<V>();
      root.children.push(this.root, child);
      root.seps[1] = sep;
      root.size = 2;
      this.root = root;
      return;
    }
    const node = this.pathNodes[level];
    const at = this.pathIndex[level] + 1;
    if (node.size < WIDTH) {
      insertChild(node, at, child, sep);
      return;
    }
    const right = newInner<V>();
    const half = WIDTH >> 1;
    for (let i = half; i < WIDTH; i++) {
      right.children.push(node.children[i]);
      right.seps[i - half] = node.seps[i];
    }
    node.children.length = half;
    right.size = WIDTH - half;
    node.size = half;
    const rightSep = right.seps[0];
    if (at <= half) insertChild(node, at, child, sep);
    else insertChild(right, at - half, child, sep);
    this.addChild(level - 1, right, rightSep);
  }

  /** Unlink an empty leaf and take it (and any inner node left empty) out of its parents. */
  private dropLeaf(leaf: Leaf<V>): void {
    if (leaf.prev) leaf.prev.next = leaf.next;
    if (leaf.next) leaf.next.prev = leaf.prev;
    for (let level = this.depth - 1; level >= 0; level--) {
      const node = this.pathNodes[level];
      const at = this.pathIndex[level];
      node.children.splice(at, 1);
      node.seps.copyWithin(at, at + 1, node.size);
      node.size--;
      if (node.size > 0) break;
    }
    // A root with a single child gives way to it.
    while (!this.root.leaf && this.root.size === 1) this.root = this.root.children[0];
    if (!this.root.leaf && this.root.size === 0) this.root = newLeaf<V>();
  }
}

/** Index of the first key in the leaf greater than `key`. */
function position<V>(leaf: Leaf<V>, key: number): number {
  const keys = leaf.keys;
  let lo = 0;
  let hi = leaf.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function shiftIn<V>(leaf: Leaf<V>, pos: number, key: number, value: V): void {
  const n = leaf.size;
  const keys = leaf.keys;
  for (let i = n; i > pos; i--) keys[i] = keys[i - 1];
  for (let i = n; i > pos; i--) leaf.values[i] = leaf.values[i - 1];
  keys[pos] = key;
  leaf.values[pos] = value;
  leaf.size = n + 1;
}

function insertChild<V>(node: Inner<V>, at: number, child: Node<V>, sep: number): void {
  node.children.splice(at, 0, child);
  node.seps.copyWithin(at + 1, at, node.size);
  node.seps[at] = sep;
  node.size++;
}
