/** Tolerances derived from the sample, for seeded statistical tests. */

/**
 * Mean and standard error by batch means: consecutive values are grouped into `batches`
 * batches so that correlation between neighbours (games of one period, one range) does not
 * make the error look smaller than it is.
 */
export function batchMeans(values: readonly number[], batches = 20): { mean: number; standardError: number } {
  const size = Math.floor(values.length / batches);
  if (size < 2) throw new Error(`need at least ${2 * batches} values for ${batches} batches, got ${values.length}`);
  const means: number[] = [];
  for (let b = 0; b < batches; b++) {
    let sum = 0;
    for (let i = b * size; i < (b + 1) * size; i++) sum += values[i];
    means.push(sum / size);
  }
  const mean = means.reduce((s, m) => s + m, 0) / batches;
  const variance = means.reduce((s, m) => s + (m - mean) ** 2, 0) / (batches - 1);
  return { mean, standardError: Math.sqrt(variance / batches) };
}

/** Mean and standard error over `runs` independent replications (seeds 1..runs). */
export function replicate(runs: number, run: (seed: number) => number): { mean: number; standardError: number } {
  const values = Array.from({ length: runs }, (_, i) => run(i + 1));
  const mean = values.reduce((s, x) => s + x, 0) / runs;
  const variance = values.reduce((s, x) => s + (x - mean) ** 2, 0) / (runs - 1);
  return { mean, standardError: Math.sqrt(variance / runs) };
}
