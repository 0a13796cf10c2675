/**
 * The standard error of a run's mean by batch means: consecutive observations of a simulation
 * are correlated (games share players, and a player's rating carries from one game to the
 * next), so the plain s/√n understates the error. Cutting the run into a few long batches of
 * consecutive observations and treating the batch means as independent is honest for that
 * correlation once a batch is much longer than its reach (Law and Kelton, *Simulation Modeling
 * and Analysis*, §9.5.3, with their usual 10 to 30 batches).
 */

/** Batches a run is cut into. */
export const BATCHES = 20;

/**
 * The standard error of the mean of `values` (in run order) by batch means: `batches` batches of
 * consecutive values (sizes differ by at most one), sd of their means / √batches. With fewer
 * values than batches, each value is a batch (the plain s/√n). Null for fewer than two values.
 */
export function batchMeansError(values: ArrayLike<number>, batches = BATCHES): number | null {
  const n = values.length;
  if (n < 2) return null;
  const b = Math.min(batches, n);
  const means: number[] = [];
  for (let k = 0; k < b; k++) {
    const from = Math.floor((k * n) / b);
    const to = Math.floor(((k + 1) * n) / b);
    let sum = 0;
    for (let i = from; i < to; i++) sum += values[i];
    means.push(sum / (to - from));
  }
  const mean = means.reduce((s, m) => s + m, 0) / b;
  const variance = means.reduce((s, m) => s + (m - mean) ** 2, 0) / (b - 1);
  return Math.sqrt(variance / b);
}
