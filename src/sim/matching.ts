/**
 * Maximum-weight matching in a general (not necessarily bipartite) graph: Edmonds' blossom
 * algorithm with dual variables, in the primal-dual form described by Galil, "Efficient
 * algorithms for finding maximum matching in graphs" (ACM Computing Surveys 18(1), 1986).
 *
 * Written from the algorithm's description for this project (MIT). The offline optimum of the
 * simulator (`optimum.ts`) uses it; nothing in the matchmaker itself depends on it.
 *
 * Terminology (Galil's): a *blossom* is an odd cycle of sub-blossoms contracted into one node;
 * single vertices are trivial blossoms. The algorithm grows alternating trees from every
 * exposed (unmatched) vertex; tree nodes are labelled S ("outer", even distance from a root) or
 * T ("inner", odd distance). Only *tight* edges (zero slack under the current duals) may be used
 * to grow the trees:
 * - grow: a tight edge from an S-vertex to a free blossom labels it T, and its mate's blossom S;
 * - shrink: a tight edge between two S-blossoms of one tree closes an odd cycle, a new blossom;
 * - augment: a tight edge between two trees gives an augmenting path, flipped along its length;
 * - dual adjustment: when no tight edge is left to use, the duals move by the largest step that
 *   keeps them feasible, which makes a new edge tight, lets a T-blossom's dual reach 0 (it is
 *   expanded back into its children), or proves the matching optimal.
 *
 * Duals: u[v] per vertex and z[B] per non-trivial blossom. The slack of edge (i, j) is
 * u[i] + u[j] - w(i, j) + the sum of z[B] over the blossoms containing both i and j; every slack
 * and every z stays >= 0, matched edges and edges inside blossoms have slack 0, and the matching
 * is optimal once every exposed vertex has u = 0 (complementary slackness).
 *
 * Departures from the textbook O(n^3) bookkeeping, for speed on large sparse graphs:
 * - Galil's stages restart the whole forest after each augmentation; here only the two trees the
 *   augmenting path ran through are taken apart, the others are still valid and are kept.
 * - Duals are not rewritten at each adjustment: a running total `shift` of the steps is kept, and
 *   each vertex or top-level blossom stores its dual at shift 0 and its rate (S vertex -1, T
 *   vertex +1, S-blossom +2, T-blossom -2, otherwise 0), re-based whenever its label changes.
 * - The candidate steps come from three heaps with lazy deletion, keyed by the `shift` at which
 *   the event would happen: per free vertex its least-slack edge to an S-vertex (delta2), per
 *   S-vertex its least-slack edge to another S-blossom (delta3), and every T-blossom (delta4).
 * A dual adjustment then costs amortised O(log n) instead of O(n). None of this changes what
 * the algorithm computes, only how fast; the unit tests check it against brute force and a MIP.
 *
 * Representation: edge k has two *endpoints*, 2k (its first vertex) and 2k + 1 (its second);
 * `p ^ 1` is the other end of the same edge. Blossom ids are 0..n-1 for the vertices themselves
 * and n..2n-1 for non-trivial blossoms, recycled from a free list. Per-vertex, per-blossom and
 * per-edge state lives in typed arrays; the hot loops allocate nothing.
 */

/** One weighted, undirected edge: the two vertex ids and a non-negative weight. */
export type WeightedEdge = readonly [u: number, v: number, weight: number];

/** Largest vertex count accepted (the solver allocates a few arrays of 2n entries). */
const MAX_VERTICES = 1 << 26;

/**
 * A matching of maximum total weight in a general undirected graph.
 *
 * Maximises the sum of the weights of the matched edges; it does not try to match as many
 * vertices as possible (an edge is only used when it raises the total). Runs Edmonds' blossom
 * algorithm with dual variables (Galil 1986), tuned for large sparse graphs: 20,000 vertices
 * with a million edges take a few seconds.
 *
 * Parallel edges between the same two vertices are allowed (only the heaviest can matter);
 * edges of weight 0 never change the total and are ignored.
 *
 * Floating-point weights are fine: ties and rounding cannot make the search loop, and the
 * total found is optimal up to rounding error in the last bits.
 *
 * @param vertexCount number of vertices; vertices are the integers 0..vertexCount-1.
 * @param edges `[u, v, weight]` triples: `u` and `v` distinct vertex ids, `weight` finite and >= 0.
 * @returns `mate`, where `mate[v]` is the vertex matched to `v` (so `mate[mate[v]] === v`), or -1
 *   if `v` is unmatched.
 * @throws RangeError when `vertexCount` is not a non-negative integer, a vertex id is out of
 *   range or not an integer, an edge is a self-loop, or a weight is negative, NaN or infinite;
 *   TypeError when an edge is not a triple.
 */
export function maxWeightMatching(vertexCount: number, edges: ReadonlyArray<WeightedEdge>): Int32Array {
  if (!Number.isInteger(vertexCount) || vertexCount < 0 || vertexCount > MAX_VERTICES) {
    throw new RangeError(
      `maxWeightMatching: vertexCount must be an integer in [0, ${MAX_VERTICES}], got ${String(vertexCount)}`,
    );
  }
  const n = vertexCount;
  const m0 = edges.length;
  const us = new Int32Array(m0);
  const vs = new Int32Array(m0);
  const ws = new Float64Array(m0);
  for (let k = 0; k < m0; k++) {
    const edge = edges[k];
    if (edge == null || edge.length < 3) {
      throw new TypeError(`maxWeightMatching: edge ${k} must be a [u, v, weight] triple`);
    }
    const u = edge[0];
    const v = edge[1];
    const w = edge[2];
    if (!Number.isInteger(u) || u < 0 || u >= n || !Number.isInteger(v) || v < 0 || v >= n) {
      throw new RangeError(
        `maxWeightMatching: edge ${k} is [${String(u)}, ${String(v)}], but vertex ids must be integers in [0, ${n - 1}]`,
      );
    }
    if (u === v) throw new RangeError(`maxWeightMatching: edge ${k} is a self-loop on vertex ${u}`);
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0) {
      throw new RangeError(`maxWeightMatching: edge ${k} has weight ${String(w)}; weights must be finite and >= 0`);
    }
    us[k] = u;
    vs[k] = v;
    ws[k] = w;
  }
  return solve(n, us, vs, ws);
}

/**
 * Keeps one edge per vertex pair (the heaviest), drops zero weights, and builds the endpoint
 * arrays and the adjacency lists (CSR) the solver works on; then runs it.
 */
function solve(n: number, us: Int32Array, vs: Int32Array, ws: Float64Array): Int32Array {
  const m0 = us.length;
  const result = new Int32Array(n).fill(-1);
  if (n < 2 || m0 === 0) return result;

  // Bucket the edges by their smaller endpoint, then deduplicate each bucket with a marker array.
  const lo = new Int32Array(m0);
  const hi = new Int32Array(m0);
  const count = new Int32Array(n + 1);
  for (let k = 0; k < m0; k++) {
    const a = us[k] < vs[k] ? us[k] : vs[k];
    lo[k] = a;
    hi[k] = us[k] < vs[k] ? vs[k] : us[k];
    count[a + 1]++;
  }
  for (let v = 0; v < n; v++) count[v + 1] += count[v];
  const byLo = new Int32Array(m0);
  const fill = count.slice(0, n);
  for (let k = 0; k < m0; k++) byLo[fill[lo[k]]++] = k;

  const endVertexTmp = new Int32Array(2 * m0);
  const weightTmp = new Float64Array(m0);
  const seenAt = new Int32Array(n).fill(-1); // seenAt[h] = kept edge (a, h) for the current a
  let m = 0;
  for (let a = 0; a < n; a++) {
    const start = m;
    for (let i = count[a]; i < count[a + 1]; i++) {
      const k = byLo[i];
      const w = ws[k];
      if (w <= 0) continue;
      const h = hi[k];
      const at = seenAt[h];
      if (at >= start && endVertexTmp[2 * at + 1] === h) {
        if (w > weightTmp[at]) weightTmp[at] = w;
      } else {
        seenAt[h] = m;
        endVertexTmp[2 * m] = a;
        endVertexTmp[2 * m + 1] = h;
        weightTmp[m] = w;
        m++;
      }
    }
  }
  if (m === 0) return result;
  const endVertex = endVertexTmp.slice(0, 2 * m);
  const weight = weightTmp.slice(0, m);

  // Adjacency lists: for vertex v, the *remote* endpoints of its edges.
  const adjStart = new Int32Array(n + 1);
  for (let p = 0; p < 2 * m; p++) adjStart[endVertex[p] + 1]++;
  for (let v = 0; v < n; v++) adjStart[v + 1] += adjStart[v];
  const adjList = new Int32Array(2 * m);
  const pos = adjStart.slice(0, n);
  for (let p = 0; p < 2 * m; p++) adjList[pos[endVertex[p]]++] = p ^ 1;

  const mate = blossomMatching(n, m, endVertex, weight, adjStart, adjList);
  for (let v = 0; v < n; v++) result[v] = mate[v] === -1 ? -1 : endVertex[mate[v]];
  return result;
}

const FREE = 0;
const S = 1; // outer: even distance from a root of the alternating forest
const T = 2; // inner: odd distance

/** A binary min-heap of (key, a, b) entries in typed arrays; grows as needed. */
class EntryHeap {
  keys = new Float64Array(256);
  as = new Int32Array(256);
  bs = new Int32Array(256);
  size = 0;

  push(key: number, a: number, b: number): void {
    if (this.size === this.keys.length) {
      const cap = this.size * 2;
      const keys = new Float64Array(cap);
      keys.set(this.keys);
      const as = new Int32Array(cap);
      as.set(this.as);
      const bs = new Int32Array(cap);
      bs.set(this.bs);
      this.keys = keys;
      this.as = as;
      this.bs = bs;
    }
    const keys = this.keys;
    const as = this.as;
    const bs = this.bs;
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (keys[up] <= key) break;
      keys[i] = keys[up];
      as[i] = as[up];
      bs[i] = bs[up];
      i = up;
    }
    keys[i] = key;
    as[i] = a;
    bs[i] = b;
  }

  /** Removes the top entry (keys[0], as[0], bs[0]). */
  pop(): void {
    const keys = this.keys;
    const as = this.as;
    const bs = this.bs;
    const last = --this.size;
    if (last === 0) return;
    const key = keys[last];
    const a = as[last];
    const b = bs[last];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (c + 1 < last && keys[c + 1] < keys[c]) c++;
      if (keys[c] >= key) break;
      keys[i] = keys[c];
      as[i] = as[c];
      bs[i] = bs[c];
      i = c;
    }
    keys[i] = key;
    as[i] = a;
    bs[i] = b;
  }
}

/**
 * The primal-dual blossom algorithm proper. Returns mate[v] as the remote endpoint of v's
 * matched edge (the partner is endVertex[mate[v]]), or -1.
 */
function blossomMatching(
  n: number,
  m: number,
  endVertex: Int32Array,
  weight: Float64Array,
  adjStart: Int32Array,
  adjList: Int32Array,
): Int32Array {
  const nb = 2 * n;
  const mate = new Int32Array(n).fill(-1);

  // Per blossom id (vertices 0..n-1, non-trivial blossoms n..2n-1).
  const label = new Int8Array(nb); // FREE / S / T, meaningful for top-level blossoms
  // labelEnd[b]: the endpoint, lying in b's parent in the alternating tree, of the edge through
  // which top-level b got its label (-1 for a root). For an S-blossom that edge is the matched
  // edge at b's base; for a T-blossom it is the tight edge from the S-vertex that reached it.
  const labelEnd = new Int32Array(nb).fill(-1);
  const treeRoot = new Int32Array(nb); // labelled top-level blossom: its tree's root vertex
  const parent = new Int32Array(nb).fill(-1); // enclosing blossom, -1 at top level
  const base = new Int32Array(nb).fill(-1);
  // Duals, lazily: dual(x) = dualAt[x] + rate[x] * shift (see the module comment).
  const dualAt = new Float64Array(nb);
  const rate = new Int8Array(nb);
  let shift = 0;
  // Cycle of a non-trivial blossom: children[0] holds the base; cycleEnd[i] is the endpoint, in
  // children[i + 1] (cyclically), of the edge joining children[i] and children[i + 1]. That edge
  // is matched exactly when i is odd.
  const children: (number[] | null)[] = new Array<number[] | null>(nb).fill(null);
  const cycleEnd: (number[] | null)[] = new Array<number[] | null>(nb).fill(null);
  const freeIds: number[] = [];
  for (let b = nb - 1; b >= n; b--) freeIds.push(b);
  const blossomVersion = new Int32Array(nb); // invalidates delta4 heap entries

  // Per vertex.
  const inBlossom = new Int32Array(n); // top-level blossom containing the vertex
  // bestEdge[v], for a vertex that is not S: its least-slack edge to an S-vertex, or -1. Kept
  // for vertices inside T-blossoms too, since expanding one may free them.
  const bestEdge = new Int32Array(n).fill(-1);
  const bestVersion = new Int32Array(n); // invalidates delta2 heap entries
  // The vertices labelled in each tree (by root vertex; may hold stale entries).
  const members: (number[] | undefined)[] = new Array<number[] | undefined>(n);
  let maxWeight = 0;
  for (let k = 0; k < m; k++) if (weight[k] > maxWeight) maxWeight = weight[k];
  const tolerance = maxWeight * 1e-12; // heap keys closer than this count as equal
  for (let v = 0; v < n; v++) {
    inBlossom[v] = v;
    base[v] = v;
    dualAt[v] = maxWeight / 2;
  }

  const allowed = new Uint8Array(m); // edge known to be tight
  const queue = new Int32Array(nb + 1); // S-vertices whose edges still have to be scanned
  let queueLen = 0;
  let exposedFrom = 0; // no exposed vertex below this id (matched vertices stay matched)

  // sBest[v], for an S-vertex: its least-slack edge to another S-blossom when last looked at.
  const sBest = new Int32Array(n).fill(-1);
  const sVersion = new Int32Array(n); // invalidates delta3 heap entries

  const freeHeap = new EntryHeap(); // delta2: (shift when tight, vertex, bestVersion)
  const sHeap = new EntryHeap(); // delta3: (shift when tight, S-vertex, sVersion)
  const blossomHeap = new EntryHeap(); // delta4: (shift when z = 0, blossom, blossomVersion)

  // Scratch space (never used re-entrantly).
  const walkStack = new Int32Array(nb);
  const leafBuf = new Int32Array(n);
  const mark = new Int32Array(nb);
  let markStamp = 0;
  const onPath = new Int32Array(nb);
  let pathStamp = 0;
  const gone = new Int32Array(n);
  const goneMark = new Int32Array(n);
  let goneStamp = 0;
  const dirty = new Int32Array(n);
  const dirtyMark = new Int32Array(n);
  let dirtyStamp = 0;

  function dualOf(x: number): number {
    return dualAt[x] + rate[x] * shift;
  }

  /** Changes the rate at which x's dual moves, keeping its current value. */
  function setRate(x: number, r: number): void {
    const d = dualAt[x] + rate[x] * shift;
    rate[x] = r;
    dualAt[x] = d - r * shift;
  }

  function slackOf(k: number): number {
    return dualOf(endVertex[2 * k]) + dualOf(endVertex[2 * k + 1]) - weight[k];
  }

  /** A free vertex's least-slack edge to an S-vertex (re)enters the delta2 heap. */
  function offerFree(x: number): void {
    const e = bestEdge[x];
    if (e === -1) return;
    freeHeap.push(shift + slackOf(e), x, ++bestVersion[x]);
  }

  /** Writes the vertices inside blossom b into out[at..]; returns the new end. */
  function leaves(b: number, out: Int32Array, at: number): number {
    if (b < n) {
      out[at] = b;
      return at + 1;
    }
    let top = 0;
    walkStack[top++] = b;
    while (top > 0) {
      const x = walkStack[--top];
      if (x < n) {
        out[at++] = x;
      } else {
        const kids = children[x]!;
        for (let i = 0; i < kids.length; i++) walkStack[top++] = kids[i];
      }
    }
    return at;
  }

  /**
   * Puts the free top-level blossom b into the tree of `root` with label t, reached through
   * endpoint p: sets the duals' rates, records the members, and queues S-vertices for scanning.
   */
  function setLabel(b: number, t: number, p: number, root: number): void {
    label[b] = t;
    labelEnd[b] = p;
    treeRoot[b] = root;
    let list = members[root];
    if (list === undefined) members[root] = list = [];
    if (t === S) {
      const from = queueLen;
      queueLen = leaves(b, queue, queueLen);
      for (let i = from; i < queueLen; i++) {
        setRate(queue[i], -1);
        list.push(queue[i]);
      }
      if (b >= n) setRate(b, 2);
    } else {
      const end = leaves(b, leafBuf, 0);
      for (let i = 0; i < end; i++) {
        setRate(leafBuf[i], 1);
        list.push(leafBuf[i]);
      }
      if (b >= n) {
        setRate(b, -2);
        blossomHeap.push(shift + dualOf(b) / 2, b, ++blossomVersion[b]);
      }
    }
  }

  /**
   * Grow: gives the top-level blossom containing vertex w the label t, reached through
   * endpoint p (-1 for a root). A T-blossom's base is matched, and its mate's blossom becomes S.
   */
  function assignLabel(w: number, t: number, p: number): void {
    const b = inBlossom[w];
    setLabel(b, t, p, p === -1 ? w : treeRoot[inBlossom[endVertex[p]]]);
    if (t === T) {
      const q = mate[base[b]];
      assignLabel(endVertex[q], S, q ^ 1);
    }
  }

  /** The next S-blossom up the alternating tree from S-blossom b, or -1 at the root. */
  function grandparent(b: number): number {
    const le = labelEnd[b];
    if (le === -1) return -1;
    const t = inBlossom[endVertex[le]];
    return inBlossom[endVertex[labelEnd[t]]];
  }

  /**
   * Walks up from the S-vertices v and w (tight edge between different S-blossoms), both
   * paths in turn. Returns the base vertex of their nearest common S-ancestor (a new blossom
   * closes), or -1 if they lie in different trees (an augmenting path exists).
   */
  function scanBlossom(v: number, w: number): number {
    markStamp++;
    let x = inBlossom[v];
    let y = inBlossom[w];
    while (x !== -1 || y !== -1) {
      if (x !== -1) {
        if (mark[x] === markStamp) return base[x];
        mark[x] = markStamp;
        x = grandparent(x);
      }
      if (y !== -1) {
        if (mark[y] === markStamp) return base[y];
        mark[y] = markStamp;
        y = grandparent(y);
      }
    }
    return -1;
  }

  /**
   * Blossom shrink: edge k closes an odd cycle through the tree node whose base is `bas`.
   * The cycle's top-level blossoms become the children of a new S-blossom (dual 0); former
   * T-vertices in it become S and are queued for scanning.
   */
  function addBlossom(bas: number, k: number): void {
    const v = endVertex[2 * k];
    const w = endVertex[2 * k + 1];
    const bb = inBlossom[bas];
    const bv = inBlossom[v];
    const bw = inBlossom[w];
    const b = freeIds.pop()!;
    base[b] = bas;
    parent[b] = -1;
    parent[bb] = b;

    // v's side, from bv up to (excluding) bb; it enters the cycle reversed.
    const kids: number[] = [bb];
    const ends: number[] = [];
    let top = 0;
    for (let x = bv; x !== bb; x = inBlossom[endVertex[labelEnd[x]]]) {
      parent[x] = b;
      walkStack[top++] = x;
    }
    while (top > 0) {
      const x = walkStack[--top];
      kids.push(x);
      ends.push(labelEnd[x] ^ 1); // endpoint in x of the edge from its tree parent
    }
    ends.push(2 * k + 1); // the closing edge, endpoint in bw
    for (let y = bw; y !== bb; y = inBlossom[endVertex[labelEnd[y]]]) {
      parent[y] = b;
      kids.push(y);
      ends.push(labelEnd[y]); // endpoint in y's tree parent, the next child round the cycle
    }
    children[b] = kids;
    cycleEnd[b] = ends;
    label[b] = S;
    labelEnd[b] = labelEnd[bb];
    treeRoot[b] = treeRoot[bb];
    rate[b] = 2;
    dualAt[b] = -2 * shift; // z = 0 now, growing while b is an S-blossom

    // Every vertex now belongs to b; former T-vertices become S and need a scan. The
    // children's own duals freeze (only top-level blossom duals move).
    let nLeaves = 0;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c >= n) setRate(c, 0);
      const from = nLeaves;
      nLeaves = leaves(c, leafBuf, nLeaves);
      if (label[c] === T) {
        for (let j = from; j < nLeaves; j++) {
          setRate(leafBuf[j], -1);
          queue[queueLen++] = leafBuf[j];
        }
      }
    }
    for (let j = 0; j < nLeaves; j++) inBlossom[leafBuf[j]] = b;
  }

  /**
   * Blossom expand: dissolves top-level blossom b into its children.
   * For a T-blossom whose dual reached 0 (`relabel`), the even path through it, from the child
   * the tree entered by to the base child, keeps alternating T/S labels; the other children
   * become free unless one of their vertices already has a tight edge to an S-vertex.
   * Otherwise (a zero-dual blossom left unlabelled after an augmentation) this is pure
   * bookkeeping, recursing into children whose dual is also 0.
   */
  function expandBlossom(b: number, relabel: boolean): void {
    const kids = children[b]!;
    const ends = cycleEnd[b]!;
    const len = kids.length;
    for (let i = 0; i < len; i++) {
      const c = kids[i];
      parent[c] = -1;
      label[c] = FREE;
      if (c < n) {
        inBlossom[c] = c;
        setRate(c, 0);
      } else if (!relabel && dualOf(c) === 0) {
        expandBlossom(c, false);
      } else {
        const end = leaves(c, leafBuf, 0);
        for (let j = 0; j < end; j++) {
          inBlossom[leafBuf[j]] = c;
          setRate(leafBuf[j], 0);
        }
      }
    }

    if (relabel && label[b] === T) {
      pathStamp++;
      let p = labelEnd[b];
      const entry = inBlossom[endVertex[p ^ 1]];
      let j = kids.indexOf(entry);
      const forward = (j & 1) === 1; // leave the entry child through its matched cycle edge
      while (j !== 0) {
        // kids[j] becomes T (reached through p); its base's mate, the next child, becomes S.
        onPath[kids[j]] = pathStamp;
        assignLabel(endVertex[p ^ 1], T, p);
        allowed[p >> 1] = 1;
        if (forward) {
          onPath[kids[j + 1]] = pathStamp;
          p = ends[j + 1] ^ 1;
          j = j + 2 === len ? 0 : j + 2;
        } else {
          onPath[kids[j - 1]] = pathStamp;
          p = ends[j - 2];
          j -= 2;
        }
      }
      // The base child stays T; its base is still matched to b's S child in the tree.
      const c0 = kids[0];
      onPath[c0] = pathStamp;
      setLabel(c0, T, p, treeRoot[b]);
      allowed[p >> 1] = 1;

      // Off-path children: free, unless a vertex has a tight edge to an S-vertex (then T).
      for (let i = 0; i < len; i++) {
        const c = kids[i];
        if (onPath[c] === pathStamp || label[c] !== FREE) continue;
        const end = leaves(c, leafBuf, 0);
        let hit = -1;
        for (let q = 0; q < end; q++) {
          const x = leafBuf[q];
          const e = bestEdge[x];
          if (e !== -1 && (allowed[e] === 1 || slackOf(e) <= 0)) {
            hit = x;
            break;
          }
        }
        if (hit !== -1) {
          const e = bestEdge[hit];
          allowed[e] = 1;
          assignLabel(hit, T, endVertex[2 * e] === hit ? 2 * e + 1 : 2 * e);
        } else {
          for (let q = 0; q < end; q++) offerFree(leafBuf[q]);
        }
      }
    }

    children[b] = null;
    cycleEnd[b] = null;
    label[b] = FREE;
    labelEnd[b] = -1;
    parent[b] = -1;
    base[b] = -1;
    dualAt[b] = 0;
    rate[b] = 0;
    blossomVersion[b]++;
    freeIds.push(b);
  }

  /**
   * Makes vertex v the base of blossom b by flipping the matched/unmatched edges on the even
   * path round the cycle from v's child to the base child (recursively inside sub-blossoms),
   * then rotates the cycle so that v's child comes first.
   */
  function augmentBlossom(b: number, v: number): void {
    let t = v;
    while (parent[t] !== b) t = parent[t];
    if (t >= n) augmentBlossom(t, v);
    const kids = children[b]!;
    const ends = cycleEnd[b]!;
    const len = kids.length;
    const i = kids.indexOf(t);
    let j = i;
    if ((i & 1) === 1) {
      while (j !== 0) {
        // Cycle edge j + 1 becomes matched.
        const p = ends[j + 1];
        const c1 = kids[j + 1];
        const c2 = kids[j + 2 === len ? 0 : j + 2];
        const x1 = endVertex[p ^ 1];
        const x2 = endVertex[p];
        if (c1 >= n) augmentBlossom(c1, x1);
        if (c2 >= n) augmentBlossom(c2, x2);
        mate[x1] = p;
        mate[x2] = p ^ 1;
        j = j + 2 === len ? 0 : j + 2;
      }
    } else {
      while (j !== 0) {
        // Cycle edge j - 2 becomes matched.
        const p = ends[j - 2];
        const c1 = kids[j - 1];
        const c2 = kids[j - 2];
        const x1 = endVertex[p];
        const x2 = endVertex[p ^ 1];
        if (c1 >= n) augmentBlossom(c1, x1);
        if (c2 >= n) augmentBlossom(c2, x2);
        mate[x1] = p ^ 1;
        mate[x2] = p;
        j -= 2;
      }
    }
    if (i !== 0) {
      children[b] = kids.slice(i).concat(kids.slice(0, i));
      cycleEnd[b] = ends.slice(i).concat(ends.slice(0, i));
    }
    base[b] = v;
  }

  /**
   * Augment: the tight edge k joins two different trees. Flips every edge on the path
   * root - ... - v - w - ... - root, rotating each blossom on the way so that the path
   * passes through its base.
   */
  function augmentMatching(k: number): void {
    for (let side = 0; side < 2; side++) {
      let s = endVertex[2 * k + side];
      let p = (2 * k + side) ^ 1; // s's new mate is at this endpoint
      for (;;) {
        const bs = inBlossom[s];
        if (bs >= n) augmentBlossom(bs, s);
        mate[s] = p;
        if (labelEnd[bs] === -1) break; // reached the root, which was exposed
        const bt = inBlossom[endVertex[labelEnd[bs]]];
        const le = labelEnd[bt];
        s = endVertex[le];
        const j = endVertex[le ^ 1];
        if (bt >= n) augmentBlossom(bt, j);
        mate[j] = le;
        p = le ^ 1;
      }
    }
  }

  /** Least-slack edge from vertex x (not S) to any S-vertex, or -1. */
  function bestEdgeToS(x: number): number {
    let best = -1;
    let bestSlack = Infinity;
    for (let a = adjStart[x]; a < adjStart[x + 1]; a++) {
      const p = adjList[a];
      if (label[inBlossom[endVertex[p]]] !== S) continue;
      const s = slackOf(p >> 1);
      if (s < bestSlack) {
        bestSlack = s;
        best = p >> 1;
      }
    }
    return best;
  }

  /** Least-slack edge from S-vertex x to a different S-blossom, or -1. */
  function bestEdgeBetweenS(x: number): number {
    const bx = inBlossom[x];
    let best = -1;
    let bestSlack = Infinity;
    for (let a = adjStart[x]; a < adjStart[x + 1]; a++) {
      const p = adjList[a];
      const by = inBlossom[endVertex[p]];
      if (by === bx || label[by] !== S) continue;
      const s = slackOf(p >> 1);
      if (s < bestSlack) {
        bestSlack = s;
        best = p >> 1;
      }
    }
    return best;
  }

  /** S-vertex x's least-slack edge to another S-blossom (re)enters the delta3 heap. */
  function offerS(x: number, e: number): void {
    sBest[x] = e;
    sVersion[x]++;
    if (e !== -1) sHeap.push(shift + slackOf(e) / 2, x, sVersion[x]);
  }

  /**
   * After an augmentation: the two trees it ran through are gone, but every other tree is
   * still a valid alternating tree for the new matching and is kept. The vertices of the two
   * trees lose their labels (S-blossoms among them whose dual is 0 are expanded), the edges at
   * them are no longer known tight, and every least-slack record that pointed at one of them
   * is recomputed. Any of them with a tight edge to a surviving S-vertex rejoins that tree.
   */
  function dissolveTrees(rootA: number, rootB: number): void {
    goneStamp++;
    let nGone = 0;
    for (let r = 0; r < 2; r++) {
      const root = r === 0 ? rootA : rootB;
      const list = members[root];
      if (list === undefined) continue;
      for (let i = 0; i < list.length; i++) {
        const x = list[i];
        const b = inBlossom[x];
        if (label[b] !== FREE && treeRoot[b] === root && goneMark[x] !== goneStamp) {
          goneMark[x] = goneStamp;
          gone[nGone++] = x;
        }
      }
      members[root] = undefined;
    }
    for (let i = 0; i < nGone; i++) setRate(gone[i], 0);
    for (let i = 0; i < nGone; i++) {
      const b = inBlossom[gone[i]];
      if (label[b] === FREE) continue; // done already, through another vertex
      const wasS = label[b] === S;
      label[b] = FREE;
      labelEnd[b] = -1;
      if (b >= n) {
        setRate(b, 0);
        blossomVersion[b]++;
        if (wasS && dualOf(b) === 0) expandBlossom(b, false);
      }
    }
    let kept = 0;
    for (let i = 0; i < queueLen; i++) {
      const x = queue[i];
      if (goneMark[x] !== goneStamp) queue[kept++] = x;
    }
    queueLen = kept;

    // Edges at the gone vertices: forget tightness; find the records that pointed at them.
    dirtyStamp++;
    let nDirty = 0;
    for (let i = 0; i < nGone; i++) {
      const x = gone[i];
      for (let a = adjStart[x]; a < adjStart[x + 1]; a++) {
        const p = adjList[a];
        const e = p >> 1;
        allowed[e] = 0;
        const y = endVertex[p];
        if (goneMark[y] !== goneStamp && bestEdge[y] === e && dirtyMark[y] !== dirtyStamp) {
          dirtyMark[y] = dirtyStamp;
          dirty[nDirty++] = y;
        }
      }
    }
    for (let i = 0; i < nGone + nDirty; i++) {
      const x = i < nGone ? gone[i] : dirty[i - nGone];
      const l = label[inBlossom[x]];
      if (l === S) continue; // an S-vertex keeps no record of its own
      bestEdge[x] = bestEdgeToS(x);
      if (l === FREE) offerFree(x);
    }
    for (let i = 0; i < nGone; i++) {
      const x = gone[i];
      const e = bestEdge[x];
      if (e === -1 || label[inBlossom[x]] !== FREE || slackOf(e) > 0) continue;
      allowed[e] = 1;
      assignLabel(x, T, endVertex[2 * e] === x ? 2 * e + 1 : 2 * e);
    }
  }

  // Start: no labels, every exposed vertex roots its own tree.
  for (let v = 0; v < n; v++) if (mate[v] === -1) assignLabel(v, S, -1);

  for (;;) {
    // Grow the forest along tight edges from the queued S-vertices.
    while (queueLen > 0) {
      const v = queue[--queueLen];
      let ssEdge = -1; // least-slack edge from v to another S-blossom seen in this scan
      let ssSlack = Infinity;
      let scanned = true;
      for (let a = adjStart[v]; a < adjStart[v + 1]; a++) {
        const p = adjList[a];
        const k = p >> 1;
        const w = endVertex[p];
        const bv = inBlossom[v];
        const bw = inBlossom[w];
        if (bv === bw) continue; // inside one blossom
        let tight = allowed[k] === 1;
        let s = 0;
        if (!tight) {
          s = dualOf(v) + dualOf(w) - weight[k];
          if (s <= 0) {
            allowed[k] = 1;
            tight = true;
          }
        }
        const lw = label[bw];
        if (tight) {
          if (lw === FREE) {
            assignLabel(w, T, p ^ 1); // grow: w's blossom becomes T, its mate's S
          } else if (lw === S) {
            const bas = scanBlossom(v, w);
            if (bas >= 0) {
              addBlossom(bas, k); // shrink
            } else {
              const rootV = treeRoot[bv];
              const rootW = treeRoot[bw];
              augmentMatching(k);
              dissolveTrees(rootV, rootW);
              scanned = false;
              break; // v's tree is gone
            }
          } else {
            bestEdge[w] = k; // w inside a T-blossom: remember it for a later expansion
          }
        } else if (lw === S) {
          if (s < ssSlack) {
            ssSlack = s;
            ssEdge = k;
          }
        } else {
          const cur = bestEdge[w];
          if (cur === -1 || s < slackOf(cur)) {
            bestEdge[w] = k;
            if (lw === FREE) freeHeap.push(shift + s, w, ++bestVersion[w]);
          }
        }
      }
      if (scanned) offerS(v, ssEdge);
    }

    // Dual adjustment: the largest step delta that keeps every slack and blossom dual >= 0.
    // delta1: the exposed vertices' duals reach 0 (they all share the least vertex dual);
    // delta2: an edge from an S-vertex to a free vertex gets tight;
    // delta3: an edge between two S-blossoms gets tight (both ends move, hence /2);
    // delta4: a T-blossom's dual reaches 0 (z moves by 2·delta).
    // Heap entries that no longer apply are dropped. The keys of free-vertex and T-blossom
    // entries stay exact (any change of state re-offers them); an S-vertex's entry can fall
    // behind when the far end of its edge was unlabelled for a while, and is then recomputed.
    // The step itself always comes from current slacks, not from the keys.
    while (exposedFrom < n && mate[exposedFrom] !== -1) exposedFrom++;
    if (exposedFrom === n) break; // perfect matching
    let deltaType = 1;
    let delta = dualOf(exposedFrom);
    let deltaEdge = -1;
    let deltaBlossom = -1;
    while (freeHeap.size > 0) {
      const v = freeHeap.as[0];
      const e = bestEdge[v];
      if (freeHeap.bs[0] !== bestVersion[v] || e === -1 || label[inBlossom[v]] !== FREE) {
        freeHeap.pop();
        continue;
      }
      const d = slackOf(e);
      if (d < delta) {
        delta = d;
        deltaType = 2;
        deltaEdge = e;
      }
      break;
    }
    while (sHeap.size > 0) {
      const v = sHeap.as[0];
      if (sHeap.bs[0] !== sVersion[v] || label[inBlossom[v]] !== S) {
        sHeap.pop();
        continue;
      }
      const e = sBest[v];
      const bu = inBlossom[endVertex[2 * e]];
      const bw = inBlossom[endVertex[2 * e + 1]];
      if (bu === bw || label[bu] !== S || label[bw] !== S) {
        // The recorded edge went inside a blossom or lost its S end: look again.
        sHeap.pop();
        offerS(v, bestEdgeBetweenS(v));
        continue;
      }
      const d = slackOf(e) / 2;
      if (shift + d > sHeap.keys[0] + tolerance) {
        // The other end was unlabelled for a while, so this edge fell behind v's others.
        sHeap.pop();
        offerS(v, bestEdgeBetweenS(v));
        continue;
      }
      if (d < delta) {
        delta = d;
        deltaType = 3;
        deltaEdge = e;
      }
      break;
    }
    while (blossomHeap.size > 0) {
      const b = blossomHeap.as[0];
      if (blossomHeap.bs[0] !== blossomVersion[b] || children[b] === null || parent[b] !== -1 || label[b] !== T) {
        blossomHeap.pop();
        continue;
      }
      const d = dualOf(b) / 2;
      if (d < delta) {
        delta = d;
        deltaType = 4;
        deltaBlossom = b;
      }
      break;
    }
    if (delta < 0) delta = 0; // rounding; the event below is applied regardless
    shift += delta; // every labelled dual moves at its rate

    if (deltaType === 1) break; // optimal: exposed vertices have dual 0
    if (deltaType === 2 || deltaType === 3) {
      // Force the edge tight (whatever rounding says) and rescan it from its S end.
      allowed[deltaEdge] = 1;
      let i = endVertex[2 * deltaEdge];
      if (label[inBlossom[i]] !== S) i = endVertex[2 * deltaEdge + 1];
      queue[queueLen++] = i;
    } else {
      expandBlossom(deltaBlossom, true);
    }
  }
  return mate;
}
