/**
 * The papers' closed forms, used by `auto` parameters, by the simulator's reports and by the
 * tests that check the simulator against the texts.
 *
 * Schlup, "Automatic Game Matching": k is the number of players per game (2 x teamSize), a the
 * arrival rate (players per second), tauMax the maximum wait (s); one criterion on [0, 1] and
 * f = k, so each formula is the expected cost (1) of one game.
 */

/** Eq. (2): A_G, the greedy algorithm. */
export function schlupGreedyCost(k: number, a: number, tauMax: number): number {
  return (k * (k - 1)) / (k + 1) + (k * (k - 1)) / (2 * a * tauMax);
}

/** Eq. (5): A_PM, periodic matching of n = x * k players per period. */
export function schlupPeriodicCost(k: number, n: number, a: number, tauMax: number): number {
  return (k * (k - 1)) / (n + 1) + (k * (n - 1)) / (2 * a * tauMax);
}

/** Eq. (6): the period size n that minimises eq. (5). */
export function schlupPeriodicOptimalN(k: number, a: number, tauMax: number): number {
  return Math.sqrt(2 * a * (k - 1) * tauMax) - 1;
}

/** Eq. (7): A_MQ with r rating ranges. */
export function schlupMultiQueueCost(k: number, r: number, a: number, tauMax: number): number {
  return (k * (k - 1)) / (r * (k + 1)) + (r * k * (k - 1)) / (2 * a * tauMax);
}

/** Eq. (9): the number of ranges that minimises eq. (7). */
export function schlupMultiQueueOptimalR(k: number, a: number, tauMax: number): number {
  return Math.sqrt((2 * a * tauMax) / (k + 1));
}

/** Eq. (3): probability that bots are needed, fewer than k but at least one arrival within tauMax. */
export function schlupBotProbability(k: number, a: number, tauMax: number): number {
  const lambda = a * tauMax;
  let p = 0;
  let term = Math.exp(-lambda); // x = 0
  for (let x = 1; x <= k - 1; x++) {
    term *= lambda / x;
    p += term;
  }
  return p;
}

/** The integer parameter around a real optimum with the lower closed-form cost (at least 1). */
export function bestIntegerAround(optimum: number, cost: (value: number) => number): number {
  const low = Math.max(1, Math.floor(optimum));
  const high = Math.max(1, Math.ceil(optimum));
  return cost(low) <= cost(high) ? low : high;
}
