/** Pearson's chi-square goodness-of-fit test, for seeded statistical tests of a sampler. */

/** ln Γ(x), Lanczos (g = 7, n = 9): 15 significant digits for x > 0. */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized upper incomplete gamma Q(a, x) (series below a + 1, Lentz's continued fraction above). */
export function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-15; n++) sum += term *= x / (a + n);
    return 1 - sum * front;
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h * front;
}

export interface ChiSquare {
  readonly statistic: number;
  readonly degreesOfFreedom: number;
  /** P(χ² ≥ statistic) under the hypothesis. */
  readonly pValue: number;
  /** The bins after merging (observed, expected counts), for a readable failure. */
  readonly bins: ReadonlyArray<{ readonly observed: number; readonly expected: number }>;
}

/**
 * Pearson's test of `observed` counts against `probabilities` (normalised here). Adjacent bins are
 * merged, in order, until each expects at least `minExpected` (Cochran's rule), so tails can be
 * given bin by bin.
 */
export function chiSquareTest(
  observed: readonly number[],
  probabilities: readonly number[],
  minExpected = 5,
): ChiSquare {
  if (observed.length !== probabilities.length) throw new Error("one probability per bin");
  const n = observed.reduce((s, x) => s + x, 0);
  const total = probabilities.reduce((s, p) => s + p, 0);
  const bins: Array<{ observed: number; expected: number }> = [];
  let open = { observed: 0, expected: 0 };
  for (let i = 0; i < observed.length; i++) {
    open.observed += observed[i];
    open.expected += (n * probabilities[i]) / total;
    if (open.expected >= minExpected) {
      bins.push(open);
      open = { observed: 0, expected: 0 };
    }
  }
  if (open.expected > 0 || open.observed > 0) {
    if (bins.length === 0) bins.push(open);
    else {
      bins[bins.length - 1].observed += open.observed;
      bins[bins.length - 1].expected += open.expected;
    }
  }
  let statistic = 0;
  for (const b of bins) statistic += (b.observed - b.expected) ** 2 / b.expected;
  const degreesOfFreedom = bins.length - 1;
  return { statistic, degreesOfFreedom, pValue: upperGamma(degreesOfFreedom / 2, statistic / 2), bins };
}
