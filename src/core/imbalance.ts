/**
 * How unfair a split into two teams is. The default is the difference of rating sums; Alman
 * and McKay's family f = alpha·d_p + v_q, Wu's H/L count difference, the gap in predicted win
 * probabilities, and a custom function are the alternatives, configured per queue by name
 * ({@link ImbalanceSpec}).
 */
import * as v from "valibot";
import { parseConfig, unknownKeyMessage } from "./validation.js";
import { winProbabilityGap } from "./win-probability.js";
import type { Player } from "./types.js";

/**
 * How unfair a split into two teams is: 0 is perfectly balanced, larger is worse.
 * Must be symmetric in its two arguments.
 */
export type ImbalanceFn = (teamA: readonly Player[], teamB: readonly Player[]) => number;

/** The default imbalance: the absolute difference of the two teams' rating sums. */
export const ratingSumDifference: ImbalanceFn = (teamA, teamB) => {
  let diff = 0;
  for (const p of teamA) diff += p.rating;
  for (const p of teamB) diff -= p.rating;
  return Math.abs(diff);
};

/** A norm exponent: a real number ≥ 1, or Infinity (written "inf" in configuration). */
export type NormExponent = number;

/**
 * Alman and McKay's p-skill of a team: the p-norm of its skills (p = Infinity: the best skill).
 * Skills must be non-negative; see {@link almanMcKay} for how ratings are shifted.
 */
export function pSkill(skills: readonly number[], p: NormExponent): number {
  if (p === Infinity) return skills.reduce((m, s) => Math.max(m, s), 0);
  if (p === 1) return skills.reduce((sum, s) => sum + s, 0);
  return skills.reduce((sum, s) => sum + s ** p, 0) ** (1 / p);
}

/** The p-fairness d_p(X, Y) = |s_p(X) − s_p(Y)|. */
export function pFairness(x: readonly number[], y: readonly number[], p: NormExponent): number {
  return Math.abs(pSkill(x, p) - pSkill(y, p));
}

/** The q-uniformity v_q(Z): the q-norm mean of deviations from the mean (q = Infinity: the largest). */
export function qUniformity(z: readonly number[], q: NormExponent): number {
  if (z.length === 0) return 0;
  const mean = z.reduce((s, x) => s + x, 0) / z.length;
  if (q === Infinity) return z.reduce((m, x) => Math.max(m, Math.abs(x - mean)), 0);
  return (z.reduce((s, x) => s + Math.abs(x - mean) ** q, 0) / z.length) ** (1 / q);
}

/** Parameters of Alman and McKay's imbalance f(X, Y) = alpha·d_p(X, Y) + v_q(X ∪ Y). */
export interface AlmanMcKayParams {
  readonly alpha: number;
  readonly p: NormExponent;
  readonly q: NormExponent;
  /**
   * The lowest rating the queue accepts. The paper's skills are non-negative; ratings on any
   * scale are shifted by this floor (skill = rating − floor) before the p-norm, so that a p > 1
   * norm is taken of non-negative numbers and a team's p-skill does not depend on where the
   * rating scale starts. v_q is unaffected by the shift. Ratings below the floor count as 0.
   */
  readonly floor: number;
}

/** Alman and McKay's imbalance function f = alpha·d_p + v_q. */
export function almanMcKay(params: AlmanMcKayParams): ImbalanceFn {
  const { alpha, p, q, floor } = params;
  const skill = (players: readonly Player[]) => players.map((pl) => Math.max(0, pl.rating - floor));
  return (teamA, teamB) => {
    const x = skill(teamA);
    const y = skill(teamB);
    return alpha * pFairness(x, y, p) + qUniformity([...x, ...y], q);
  };
}

/**
 * Wu's imbalance for two skill types: |number of H players on A − on B|, where a player is H
 * when their rating is at least `threshold` (the two-type model rates H as 1 and L as 0).
 */
export function highLowDifference(threshold = 0.5): ImbalanceFn {
  return (teamA, teamB) => {
    let diff = 0;
    for (const p of teamA) if (p.rating >= threshold) diff++;
    for (const p of teamB) if (p.rating >= threshold) diff--;
    return Math.abs(diff);
  };
}

/** An imbalance function by name, as a queue or the simulator configures it. */
export type ImbalanceSpec =
  | { readonly kind: "rating-sum" }
  | {
      readonly kind: "alman-mckay";
      readonly alpha?: number;
      readonly p?: number | "inf";
      readonly q?: number | "inf";
      readonly floor?: number;
    }
  | { readonly kind: "high-low"; readonly threshold?: number }
  | { readonly kind: "win-probability"; readonly sigma?: number; readonly beta?: number };

/** The imbalance of a queue that names none: the difference of the teams' rating sums. */
export const DEFAULT_IMBALANCE: ImbalanceSpec = { kind: "rating-sum" };

const EXPONENT = 'must be a number of at least 1 or "inf"';
const exponent = v.optional(
  v.union([v.pipe(v.number(EXPONENT), v.minValue(1, EXPONENT)), v.literal("inf", EXPONENT)], EXPONENT),
  1,
);

const ImbalanceSpecSchema = v.variant(
  "kind",
  [
    v.strictObject({ kind: v.literal("rating-sum") }, unknownKeyMessage),
    v.strictObject(
      {
        kind: v.literal("alman-mckay"),
        alpha: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative")), 1),
        p: exponent,
        q: exponent,
        floor: v.optional(v.pipe(v.number(), v.finite())),
      },
      unknownKeyMessage,
    ),
    v.strictObject(
      { kind: v.literal("high-low"), threshold: v.optional(v.pipe(v.number(), v.finite()), 0.5) },
      unknownKeyMessage,
    ),
    v.strictObject(
      {
        kind: v.literal("win-probability"),
        // openskill's defaults, for ratings on its own scale (mu around 25).
        sigma: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative")), 25 / 3),
        beta: v.optional(v.pipe(v.number(), v.finite(), v.gtValue(0, "must be positive")), 25 / 6),
      },
      unknownKeyMessage,
    ),
  ],
  'must be "rating-sum", "alman-mckay", "high-low" or "win-probability"',
);

/** The parsed form of an {@link ImbalanceSpec}, with defaults filled in. */
export type ResolvedImbalance =
  | { readonly kind: "rating-sum" }
  | ({ readonly kind: "alman-mckay" } & AlmanMcKayParams)
  | { readonly kind: "high-low"; readonly threshold: number }
  | { readonly kind: "win-probability"; readonly sigma: number; readonly beta: number };

/**
 * Check an imbalance configuration and fill in its defaults. `defaultFloor` is the queue's
 * lowest accepted rating (used when an Alman–McKay spec names no floor).
 * Throws `MatchmakerError("invalid_config")` naming the bad field.
 */
export function resolveImbalance(spec: unknown, defaultFloor = 0): ResolvedImbalance {
  const parsed = parseConfig("imbalance", ImbalanceSpecSchema, spec);
  if (parsed.kind !== "alman-mckay") return parsed;
  const inf = (e: number | "inf") => (e === "inf" ? Infinity : e);
  return {
    kind: "alman-mckay",
    alpha: parsed.alpha,
    p: inf(parsed.p),
    q: inf(parsed.q),
    floor: parsed.floor ?? defaultFloor,
  };
}

/** The function for a resolved imbalance configuration. */
export function imbalanceFunction(resolved: ResolvedImbalance): ImbalanceFn {
  switch (resolved.kind) {
    case "rating-sum":
      return ratingSumDifference;
    case "alman-mckay":
      return almanMcKay(resolved);
    case "high-low":
      return highLowDifference(resolved.threshold);
    case "win-probability":
      return winProbabilityGap(resolved);
  }
}
