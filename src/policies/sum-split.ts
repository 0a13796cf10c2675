/**
 * The exact best split of a few tickets under the rating-sum imbalance, from running sums and
 * without allocating: the same search as the shared assembly's exhaustive pick (choice-free
 * tickets fill team A exactly, parties never split, side preferences honoured, the first
 * choice-free ticket fixed on A when nobody is bound to a side), but each split is scored as
 * |2·sum(A) − total| from one running sum instead of two player arrays and a call.
 *
 * It visits the splits in the assembly's order and counts them as it does, so a caller that
 * budgets imbalance evaluations (best-game) spends its budget exactly as before; the value can
 * differ from the assembly's in the last bits (another order of additions).
 */

/** At most this many choice-free tickets (the assembly's exhaustive limit). */
export const SUM_SPLIT_LIMIT = 16;

export class RatingSumSplitter {
  private readonly sums = new Float64Array(SUM_SPLIT_LIMIT);
  private readonly sizes = new Int32Array(SUM_SPLIT_LIMIT);
  private readonly remaining = new Int32Array(SUM_SPLIT_LIMIT + 1);
  /** pairs[i·PAIR + j] = sums of tickets i and j (j < SUM_SPLIT_LIMIT), pairs[i·PAIR + SUM_SPLIT_LIMIT] = ticket i's. */
  private readonly pairs = new Float64Array(SUM_SPLIT_LIMIT * PAIR);
  private free = 0;
  private sumA = 0;
  private seatsA = 0;
  private total = 0;
  private forced = false;
  /** Every choice-free ticket so far is a solo. */
  private solos = true;
  /** The choice-free tickets' sums so far are in ascending order (as a rating-ordered search adds solos). */
  private sorted = true;
  /** Splits scored by the last {@link solve} (0: no split exists). */
  splits = 0;
  /** The least imbalance found by the last {@link solve} (Infinity when none). */
  best = Infinity;

  reset(): void {
    this.free = 0;
    this.sumA = 0;
    this.seatsA = 0;
    this.total = 0;
    this.forced = false;
    this.solos = true;
    this.sorted = true;
  }

  /** Add a ticket: its players' rating sum, its size and its side preference. */
  add(sum: number, size: number, side: "A" | "B" | undefined): boolean {
    this.total += sum;
    if (side === "A") {
      this.sumA += sum;
      this.seatsA += size;
      this.forced = true;
    } else if (side === "B") this.forced = true;
    else {
      if (this.free === SUM_SPLIT_LIMIT) return false;
      if (this.free > 0 && sum < this.sums[this.free - 1]) this.sorted = false;
      this.sums[this.free] = sum;
      this.sizes[this.free] = size;
      this.free++;
      if (size !== 1) this.solos = false;
    }
    return true;
  }

  /**
   * {@link reset}, {@link add} of `n` solos without a side whose sums are `sums[from..from+n-1]`
   * (in ascending order, as a rating-ordered caller holds them), and {@link solve}: the same
   * splits, count and least value, without a call per ticket.
   */
  solveSortedSolos(sums: Float64Array, from: number, n: number, teamSize: number): number {
    if (n > SUM_SPLIT_LIMIT) throw new RangeError(`at most ${SUM_SPLIT_LIMIT} tickets`);
    let total = 0;
    let sorted = true;
    for (let i = from, end = from + n; i < end; i++) {
      total += sums[i];
      if (i > from && sums[i] < sums[i - 1]) sorted = false;
    }
    // The mirrored solos' case of solve (the first on A, teamSize − 1 of the others), read in place.
    const take = teamSize - 1;
    if (sorted && take >= 2 && take <= 4 && take < n) {
      this.best = sortedSmallSubsets(sums, from + 1, n - 1, take, 0 + sums[from], total);
      return (this.splits = BINOMIAL[n - 1][take]);
    }
    // Any other case (unsorted, or other team sizes): the splitter's own path.
    this.reset();
    for (let i = from, end = from + n; i < end; i++) this.add(sums[i], 1, undefined);
    return this.solve(teamSize);
  }

  /** Score every split that fills team A with `teamSize` players; returns the number of splits. */
  solve(teamSize: number): number {
    const n = this.free;
    this.splits = 0;
    this.best = Infinity;
    const need = teamSize - this.seatsA;
    if (need < 0) return 0;
    const mirror = !this.forced && n > 0;
    if (this.solos && need <= n) {
      // Solos: the splits are the need-subsets (with the first ticket on A when mirrored).
      const first = mirror ? 1 : 0;
      const take = mirror ? need - 1 : need;
      if (take < 0) return 0;
      const base = mirror ? this.sumA + this.sums[0] : this.sumA;
      if (take === 0) {
        this.best = Math.abs(2 * base - this.total);
        return (this.splits = 1);
      }
      // Each subset is summed as ceil(take/2) pair sums (a last single sum when take is odd),
      // added to `base` in order: (base + p(a0, a1)) + p(a2, a3) + ...
      const m = n - first;
      const sums = this.sums;
      const total = this.total;
      if (this.sorted && take >= 2 && take <= 4) {
        if (take > m) return 0;
        this.best = sortedSmallSubsets(sums, first, m, take, base, total);
        return (this.splits = BINOMIAL[m][take]);
      }
      const pairs = this.pairs;
      for (let i = 0; i < m; i++) {
        const si = sums[first + i];
        pairs[i * PAIR + SUM_SPLIT_LIMIT] = si;
        for (let j = i + 1; j < m; j++) pairs[i * PAIR + j] = si + sums[first + j];
      }
      let best = Infinity;
      if (take <= 4) {
        // The small subsets (every game up to 5v5) by nested loops, in the same arithmetic.
        if (take > m) return 0;
        this.best = smallSubsets(pairs, m, take, base, total);
        this.splits = BINOMIAL[m][take];
        return this.splits;
      }
      const table = pairCodes(m, take);
      const width = (take + 1) >> 1;
      if (width === 2) {
        for (let c = 0; c < table.length; c += 2) {
          const value = Math.abs(2 * (base + pairs[table[c]] + pairs[table[c + 1]]) - total);
          if (value < best) best = value;
        }
      } else {
        for (let c = 0; c < table.length; c += width) {
          let sumA = base;
          for (let j = 0; j < width; j++) sumA += pairs[table[c + j]];
          const value = Math.abs(2 * sumA - total);
          if (value < best) best = value;
        }
      }
      this.best = best;
      this.splits = table.length / width;
      return this.splits;
    }
    const remaining = this.remaining;
    remaining[n] = 0;
    for (let i = n - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + this.sizes[i];
    this.visit(0, need, this.sumA, mirror);
    return this.splits;
  }

  private visit(i: number, left: number, sumA: number, mirror: boolean): void {
    if (left === 0) {
      this.splits++;
      const value = Math.abs(2 * sumA - this.total);
      if (value < this.best) this.best = value;
      return;
    }
    if (i >= this.free || this.remaining[i] < left) return;
    const size = this.sizes[i];
    if (size <= left) this.visit(i + 1, left - size, sumA + this.sums[i], mirror);
    if (!(mirror && i === 0)) this.visit(i + 1, left, sumA, mirror);
  }
}

/**
 * The least |2·(base + subset sum) − total| over the `take`-subsets (take ≤ 4) of m tickets,
 * from the pair-sum table, each subset summed as (base + p(a, b)) + p(c, d) (or + s(c)).
 */
function smallSubsets(pairs: Float64Array, m: number, take: number, base: number, total: number): number {
  let best = Infinity;
  if (take === 1) {
    for (let a = 0; a < m; a++) {
      const value = Math.abs(2 * (base + pairs[a * PAIR + SUM_SPLIT_LIMIT]) - total);
      if (value < best) best = value;
    }
    return best;
  }
  for (let a = 0; a < m; a++) {
    for (let b = a + 1; b < m; b++) {
      const ab = base + pairs[a * PAIR + b];
      if (take === 2) {
        const value = Math.abs(2 * ab - total);
        if (value < best) best = value;
      } else if (take === 3) {
        for (let c = b + 1; c < m; c++) {
          const value = Math.abs(2 * (ab + pairs[c * PAIR + SUM_SPLIT_LIMIT]) - total);
          if (value < best) best = value;
        }
      } else {
        for (let c = b + 1; c < m; c++) {
          const row = c * PAIR;
          for (let d = c + 1; d < m; d++) {
            const value = Math.abs(2 * (ab + pairs[row + d]) - total);
            if (value < best) best = value;
          }
        }
      }
    }
  }
  return best;
}

/**
 * {@link smallSubsets} when the sums (sums[first..first+m−1]) are in ascending order: the same
 * least value, found by two pointers over the last two members of the subset instead of every
 * pair of them, with the pair sums p(a, b) = s(a) + s(b) added as the table holds them. Each subset's
 * signed value 2·((base + p(a, b)) + p(c, d)) − total is computed as there, and is non-decreasing
 * in each member's index (rounded additions are monotone), so with c < d: when the value at
 * (c, d) is not negative every (c', d) with c ≤ c' < d scores no better, and when it is negative
 * every (c, d') with c < d' ≤ d scores no better; moving past them loses no least value. For
 * four, the same monotony bounds each pair (a, b)'s values by those at the least and greatest
 * (c, d) after b, so pairs that cannot beat the least so far are skipped without their pointers.
 */
function sortedSmallSubsets(
  sums: Float64Array,
  first: number,
  m: number,
  take: number,
  base: number,
  total: number,
): number {
  let best = Infinity;
  const end = first + m - 1;
  if (take === 2) {
    // The pair (a, b) itself.
    for (let a = first, b = end; a < b;) {
      const signed = 2 * (base + (sums[a] + sums[b])) - total;
      const value = Math.abs(signed);
      if (value < best) best = value;
      if (signed >= 0) b--;
      else a++;
    }
    return best;
  }
  if (take === 4 && m === 9) {
    // The 5v5 block: start from the alternating split (the first ticket, then the 4th, 5th, 8th
    // and 9th on A), scored as the loop below scores it, so that its bounds prune from the start.
    const ab = base + (sums[first + 2] + sums[first + 3]);
    best = Math.abs(2 * (ab + (sums[first + 6] + sums[first + 7])) - total);
  }
  for (let a = first; a <= end; a++) {
    const sa = sums[a];
    if (take === 3) {
      // (a, b) as a pair sum, c by itself: two pointers over b < c.
      for (let b = a + 1, c = end; b < c;) {
        const signed = 2 * (base + (sa + sums[b]) + sums[c]) - total;
        const value = Math.abs(signed);
        if (value < best) best = value;
        if (signed >= 0) c--;
        else b++;
      }
      continue;
    }
    for (let b = a + 1; b < end - 1; b++) {
      const ab = base + (sa + sums[b]);
      // Bounds from the order: every (c, d) after b scores at least the value at (b+1, b+2) and
      // at most the one at (end−1, end), and a larger b only raises both (monotone roundings).
      // Above `best` at the least pair: no later b (nor, at b = a + 1, any later a) improves.
      if (2 * (ab + (sums[b + 1] + sums[b + 2])) - total >= best) {
        if (b === a + 1) return best;
        break;
      }
      // Below −best at the greatest pair: no (c, d) for this b improves.
      if (total - 2 * (ab + (sums[end - 1] + sums[end])) >= best) continue;
      for (let c = b + 1, d = end; c < d;) {
        const signed = 2 * (ab + (sums[c] + sums[d])) - total;
        const value = Math.abs(signed);
        if (value < best) best = value;
        if (signed >= 0) d--;
        else c++;
      }
    }
  }
  return best;
}

/** Row length of the pair-sum table: one column per ticket and one for "no partner". */
const PAIR = SUM_SPLIT_LIMIT + 1;

/** BINOMIAL[n][r] = n choose r, for n up to SUM_SPLIT_LIMIT. */
const BINOMIAL: readonly (readonly number[])[] = Array.from({ length: SUM_SPLIT_LIMIT + 1 }, (_, n) => {
  const row = [1];
  for (let r = 1; r <= n; r++) row.push((row[r - 1] * (n - r + 1)) / r);
  return row;
});

const codeTables = new Map<number, Int16Array>();

/**
 * The m-subsets of 0..m-1 of size `take`, in lexicographic order, each as ceil(take/2) codes
 * into the pair-sum table: (a0, a1), (a2, a3), ..., and a last (a, none) when take is odd.
 */
function pairCodes(m: number, take: number): Int16Array {
  const key = m * 64 + take;
  let table = codeTables.get(key);
  if (table) return table;
  const flat = combinations(m, take);
  const width = (take + 1) >> 1;
  table = new Int16Array((flat.length / take) * width);
  for (let c = 0, o = 0; c < flat.length; c += take) {
    for (let j = 0; j < take; j += 2) {
      table[o++] = flat[c + j] * PAIR + (j + 1 < take ? flat[c + j + 1] : SUM_SPLIT_LIMIT);
    }
  }
  codeTables.set(key, table);
  return table;
}

const tables = new Map<number, Int8Array>();

/** The m-subsets of 0..n-1 in lexicographic order, as one flat list of indexes (m per subset). */
function combinations(n: number, m: number): Int8Array {
  const key = n * 64 + m;
  let table = tables.get(key);
  if (table) return table;
  const out: number[] = [];
  const pick: number[] = [];
  const walk = (from: number): void => {
    if (pick.length === m) {
      out.push(...pick);
      return;
    }
    for (let i = from; i <= n - (m - pick.length); i++) {
      pick.push(i);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  table = Int8Array.from(out);
  tables.set(key, table);
  return table;
}
