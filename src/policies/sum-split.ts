/**
 * The exact best split of a few tickets under the rating-sum imbalance, from running sums and
 * without allocating: the same search as the shared assembly's exhaustive pick (choice-free
 * tickets fill team A exactly, parties never split, side preferences honoured, the first
 * choice-free ticket fixed on A when nobody is bound to a side), but each split is scored as
 * |2·sum(A) − total| from one running sum instead of two player arrays and a call. best-game
 * scores its sets this way: through the assembly a step costs 16 to 50 times as much.
 *
 * It counts the splits as the assembly does, so a caller that budgets imbalance evaluations
 * (best-game) spends its budget exactly as through the assembly; the value can differ from the
 * assembly's in the last bits (another order of additions).
 */

/** At most this many choice-free tickets (the assembly's exhaustive limit). */
export const SUM_SPLIT_LIMIT = 16;

export class RatingSumSplitter {
  private readonly sums = new Float64Array(SUM_SPLIT_LIMIT);
  private readonly sizes = new Int32Array(SUM_SPLIT_LIMIT);
  private readonly remaining = new Int32Array(SUM_SPLIT_LIMIT + 1);
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
    // Solos in ascending order with the first on A (a rating-ordered search's sets of 3v3 to 5v5):
    // two pointers instead of every subset.
    const take = need - 1;
    if (mirror && this.solos && this.sorted && take >= 2 && take <= 4 && take < n) {
      this.best = sortedSmallSubsets(this.sums, 1, n - 1, take, this.sumA + this.sums[0], this.total);
      return (this.splits = BINOMIAL[n - 1][take]);
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
 * The least |2·(base + subset sum) − total| over the `take`-subsets (take 2 to 4) of the m sums
 * sums[first..first+m−1], in ascending order: found by two pointers over the last two members of
 * the subset instead of every pair of them, each subset summed as (base + p(a, b)) + p(c, d)
 * with p(a, b) = s(a) + s(b). Each subset's
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

/** BINOMIAL[n][r] = n choose r, for n up to SUM_SPLIT_LIMIT. */
const BINOMIAL: readonly (readonly number[])[] = Array.from({ length: SUM_SPLIT_LIMIT + 1 }, (_, n) => {
  const row = [1];
  for (let r = 1; r <= n; r++) row.push((row[r - 1] * (n - r + 1)) / r);
  return row;
});
