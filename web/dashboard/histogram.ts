/**
 * A rating distribution's bars, as the dashboard draws them: every band from the lowest rated
 * player's to the highest's, the empty ones at 0, so the histogram's gaps show. The server bounds
 * how many bands that is (`ratings.json` answers at most 100 from the lowest to the highest).
 */

/** The bars' left edges and heights, lowest first, for `bins` of `width` (lowest first, empty ones left out). */
export function histogramBars(
  bins: ReadonlyArray<{ readonly from: number; readonly count: number }>,
  width: number,
): { from: number[]; count: number[] } {
  if (bins.length === 0) return { from: [], count: [] };
  const lowest = bins[0]!.from;
  const bands = Math.round((bins[bins.length - 1]!.from - lowest) / width) + 1;
  const from = Array.from({ length: bands }, (_, i) => lowest + i * width);
  const count = from.map(() => 0);
  for (const bin of bins) count[Math.round((bin.from - lowest) / width)]! += bin.count;
  return { from, count };
}
