/**
 * The engine's next poll for a best game that qualifies at time `at` (ms): none when it never
 * qualifies (Infinity), at once when it already does, else then. best-game's three layouts
 * (the general heap, `BestPairs`, `BestBlocks`) each report their best game's time this way.
 */
export const wakeupAt = (at: number, now: number): number | undefined =>
  at === Infinity ? undefined : at > now ? at : now;
