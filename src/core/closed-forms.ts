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

/**
 * Eq. (7) for D criteria (docs/criteria.md derives it as the text derives eq. (7)): criterion d
 * is cut into `ranges[d]` equal ranges, one queue per combination (the text's figure 1), so
 * each of the R = prod(r_d) queues receives a / R players per second. A game's k players come
 * from one queue: their dispersion on criterion d is (k − 1) / ((k + 1) r_d), weighted by
 * f_d = k w_d / sum(w) (`weights`, default equal: f_d = k / D), and they waited R k (k − 1) / (2a)
 * in all. With D = 1 this is eq. (7).
 */
export function schlupMultiQueueCostD(
  k: number,
  ranges: readonly number[],
  a: number,
  tauMax: number,
  weights: readonly number[] = ranges.map(() => 1),
): number {
  if (weights.length !== ranges.length) throw new RangeError("schlupMultiQueueCostD: one weight per criterion");
  const total = weights.reduce((s, w) => s + w, 0);
  let criteria = 0;
  let queues = 1;
  ranges.forEach((r, d) => {
    criteria += ((k * weights[d]) / total) * ((k - 1) / ((k + 1) * r));
    queues *= r;
  });
  return criteria + (queues * k * (k - 1)) / (2 * a * tauMax);
}

/**
 * The one number of ranges r per criterion (r^D queues) that minimises
 * {@link schlupMultiQueueCostD} with equal weights: r^(D+1) = 2 a tau_max / (D (k + 1)); eq. (9)
 * when D = 1.
 */
export function schlupMultiQueueOptimalRD(k: number, a: number, tauMax: number, d: number): number {
  return ((2 * a * tauMax) / (d * (k + 1))) ** (1 / (d + 1));
}

/** The integer parameter around a real optimum with the lower closed-form cost (at least 1). */
export function bestIntegerAround(optimum: number, cost: (value: number) => number): number {
  const low = Math.max(1, Math.floor(optimum));
  const high = Math.max(1, Math.ceil(optimum));
  return cost(low) <= cost(high) ? low : high;
}

/*
 * Wu, "Dynamic Matching With Teams": one player arrives per period, H with probability q else
 * L; teams of n (2n per game); waiting costs 1 per player per period, an imbalanced game
 * (odd H count: one more H on one side) costs alpha per player.
 */

/** Expected cost per period of the greedy policy: n − 1/2 + alpha(1 − (2q − 1)^(2n))/2. */
export function wuGreedyCost(n: number, q: number, alpha: number): number {
  return n - 0.5 + (alpha * (1 - (2 * q - 1) ** (2 * n))) / 2;
}

/** Expected cost per period of the patient policy: n (no imbalance, waits of n per period). */
export function wuPatientCost(n: number): number {
  return n;
}

/** Theorem 3.3: greedy is optimal iff alpha ≤ 1/(1 − (2q − 1)^(2n)). */
export function wuGreedyIsOptimal(n: number, q: number, alpha: number): boolean {
  const odd = 1 - (2 * q - 1) ** (2 * n);
  return odd === 0 || alpha <= 1 / odd;
}

/*
 * Xu, Yu and Wu, "Rule Designs for Optimal Online Game Matchmaking", 1v1 approximation.
 * Side choice (section IV, Fig. 8): players insist on side A (rate lA), side B (lB), or are
 * choice-free (lC). Stable iff lC > |lA − lB| (Fact 3).
 */

/** Mean waits per class under side choice, eqs. (13)–(15); undefined when unstable (Fact 3). */
export function xuSideChoiceWaits(
  lA: number,
  lB: number,
  lC: number,
): { A: number; B: number; C: number; all: number } | undefined {
  if (!(lC > Math.abs(lA - lB))) return undefined;
  const total = lA + lB + lC;
  const pi0 = 1 / (lA / (lB + lC - lA) + lB / (lA + lC - lB) + lC / total + 1);
  const A = ((lB + lC) * pi0) / (lB + lC - lA) ** 2;
  const B = ((lA + lC) * pi0) / (lA + lC - lB) ** 2;
  const C = pi0 / total;
  return { A, B, C, all: (lA * A + lB * B + lC * C) / total };
}

/**
 * Zones (section V, Fig. 11): juniors for zone A only (lA), experienced players for zone B only
 * (lB), experienced players for both zones (lC), FIFO between the two queues. Mean waits per
 * class, eqs. (19)–(21), from the CTMC's stationary distribution (states 0, A, B, C, AB, BA).
 */
export function xuZoneWaits(lA: number, lB: number, lC: number): { A: number; B: number; C: number; all: number } {
  const total = lA + lB + lC;
  const pi0 =
    1 /
    (1 +
      zoneStateWeight(lA, lB, lC, "A") +
      zoneStateWeight(lA, lB, lC, "B") +
      lC / total +
      zoneStateWeight(lA, lB, lC, "AB") +
      zoneStateWeight(lA, lB, lC, "BA"));
  const denominator = (lA + lC) * (lB + lC) * total;
  const A = ((2 * lA * lB + lA * lC + 2 * lB ** 2 + 4 * lB * lC + lC ** 2) / denominator) * pi0;
  const B = ((2 * lA * lB + lB * lC + 2 * lA ** 2 + 4 * lA * lC + lC ** 2) / denominator) * pi0;
  const C = pi0 / total;
  return { A, B, C, all: (lA * A + lB * B + lC * C) / total };
}

/** Eq. (23): the improvement factor E[T_C] / E[T_B] of being choice-free; eq. (24) when lA = lB. */
export function xuChoiceFreeImprovement(lA: number, lB: number, lC: number): number {
  return ((lA + lC) * (lB + lC)) / (2 * lA ** 2 + 2 * lA * lB + 4 * lA * lC + lB * lC + lC ** 2);
}

/**
 * π_state / π_0 for Fig. 11's chain, from its balance equations (solved by hand):
 * with x = π_A/π_0 and y = π_B/π_0, π_AB = lB·x/(lA + lB + lC) and π_BA = lA·y/(lA + lB + lC).
 */
function zoneStateWeight(lA: number, lB: number, lC: number, state: "A" | "B" | "AB" | "BA"): number {
  const t = lA + lB + lC;
  // Balance at A: x·t = lA + π_AB·lB + π_BA·(lB + lC); at B: y·t = lB + π_AB·(lA + lC) + π_BA·lA.
  // Substituting π_AB = lB·x/t and π_BA = lA·y/t gives two linear equations in x and y.
  const a11 = t - (lB * lB) / t;
  const a12 = -(lA * (lB + lC)) / t;
  const a21 = -(lB * (lA + lC)) / t;
  const a22 = t - (lA * lA) / t;
  const det = a11 * a22 - a12 * a21;
  const x = (lA * a22 - a12 * lB) / det;
  const y = (a11 * lB - a21 * lA) / det;
  switch (state) {
    case "A":
      return x;
    case "B":
      return y;
    case "AB":
      return (lB * x) / t;
    case "BA":
      return (lA * y) / t;
  }
}
