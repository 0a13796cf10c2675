/**
 * `expanding-window` (the forum thread, paper 004): each ticket accepts opponents within a
 * window that widens with its wait (`initial` + `growthPerSecond` per second, linearly or every
 * `stepMs`, clamped at `max`); a game forms only when every ticket in it accepts every other,
 * and the closest acceptable game forms first (the sweep in {@link SweepMatcher}).
 *
 * Units: `rating` (rating points), `relative` (a fraction of the ticket's own rating, the
 * thread's "within ±5% of your skill grade"), `percentile` (a fraction of the current rating
 * distribution, the last `population` arrivals: sparse top and bottom ranks get wide rating
 * windows by themselves). Percentile distances change only in batches: arrivals are folded into
 * the distribution once they amount to 5% of it or of the waiting pool, whichever is larger (at
 * every arrival while both are small), and then every waiting ticket rescans, so between
 * batches the sweep's wake-ups are exact, and a fold costs at most 20 scans per arrival.
 *
 * Each matched player reports its window (`windowOf`), so a game can scale rating changes by
 * how far it had to grow (the thread's virtual-rating decay).
 *
 * In a queue with criteria beside the rating, the window is a box: on each criterion too a
 * ticket accepts values within `initial` + `growthPerSecond` per second, clamped at `max` (param
 * `criteria: { NAME: { ... } }`, in the criterion's units; default 5% of its range plus 1% per
 * second), and the closest game is still the one with the smallest rating spread.
 */
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import type { AcceptanceWindow, Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND } from "../core/shape.js";
import { DEFAULT_POPULATION, RatingRanks } from "../core/rating-ranks.js";
import type { Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { CriteriaBox, criteriaWindowsEntry } from "./shared/criteria-box.js";
import { DEFAULT_WINDOW_BUDGET, SweepMatcher } from "./shared/sweep-matcher.js";
import { WindowRule, windowRuleEntries, type PlayerWindow, type WindowUnit } from "./shared/window-rule.js";

export { DEFAULT_POPULATION, DEFAULT_WINDOW_BUDGET };
/** Percentile windows: the distribution is updated once new arrivals amount to this fraction of it. */
const PERCENTILE_BATCH = 0.05;

const ExpandingWindowParams = v.strictObject(
  {
    ...windowRuleEntries,
    population: v.optional(
      v.pipe(
        v.number(),
        v.integer("must be a whole number"),
        v.minValue(1, "must be at least 1"),
        v.maxValue(1_000_000),
      ),
    ),
    budget: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
    criteria: criteriaWindowsEntry,
  },
  unknownKeyMessage,
);

/** Validated parameters of `expanding-window`. */
export interface ExpandingWindowOptions {
  readonly unit: WindowUnit;
  /** Width when a ticket joins (rating points, or a fraction for `relative` and `percentile`). */
  readonly initial: number;
  /** Width added per second of waiting. */
  readonly growthPerSecond: number;
  /** Milliseconds between widenings; 0 widens continuously. */
  readonly stepMs: number;
  /** The widest a window gets (Infinity: no clamp). */
  readonly max: number;
  /** Percentile windows: how many recent arrivals make the rating distribution. */
  readonly population: number;
  /** Games of more than two players: search steps per scan. */
  readonly budget: number;
  /** In a queue with criteria: each ticket's window on each of them (absent: none). */
  readonly criteria?: CriteriaBox;
}

export class ExpandingWindowPolicy extends SweepMatcher {
  readonly name = "expanding-window";
  /** The window rule in force (its growth divided by the patience a target wait set). */
  rule: WindowRule;
  private readonly configured: ExpandingWindowOptions;
  private readonly ranks: RatingRanks | undefined;
  private latestArrival = -Infinity;
  /** Percentile windows: arrivals not yet folded into the distribution. */
  private pending: number[] = [];

  constructor(context: PolicyContext, options: ExpandingWindowOptions) {
    super(context, options.budget);
    this.rule = new WindowRule(options);
    this.configured = options;
    this.ranks = options.unit === "percentile" ? RatingRanks.recent(options.population) : undefined;
    this.criteria = options.criteria;
  }

  /** The ticket's window at `now`: the game room learns how far it had to grow. */
  windowOf(ticket: Ticket, now: number): PlayerWindow {
    return { unit: this.rule.unit, initial: this.rule.initial, width: this.rule.width(now - ticket.enqueuedAt) };
  }

  /** Target wait: windows grow `patience` times slower than configured (every ticket rescans). */
  setPatience(patience: number, now: number): void {
    this.rule = new WindowRule({ ...this.configured, growthPerSecond: this.configured.growthPerSecond / patience });
    this.rescanAll(Math.max(now, this.lastNow));
  }

  protected override distance(from: number, to: number): number {
    if (from === to) return 0;
    switch (this.rule.unit) {
      case "rating":
        return Math.abs(to - from);
      case "relative":
        return from === 0 ? Infinity : Math.abs(to - from) / Math.abs(from);
      case "percentile":
        return Math.abs(this.ranks!.percentile(to) - this.ranks!.percentile(from));
    }
  }

  protected override ratingWindow(rating: number, width: number): AcceptanceWindow | undefined {
    switch (this.rule.unit) {
      case "rating":
        return { min: rating - width, max: rating + width };
      case "relative":
        return { min: rating - width * Math.abs(rating), max: rating + width * Math.abs(rating) };
      case "percentile": {
        // The extreme ratings of the distribution whose mid-rank percentile, (k + 1/2) / n, is
        // within `width` of this rating's (ties aside).
        const ranks = this.ranks!;
        const n = ranks.size;
        if (n === 0) return undefined;
        const at = ranks.percentile(rating);
        const low = ranks.atRank(Math.max(0, Math.ceil((at - width) * n - 0.5 - 1e-9)));
        const high = ranks.atRank(Math.min(n - 1, Math.floor((at + width) * n - 0.5 + 1e-9)));
        return { min: Math.min(low ?? rating, rating), max: Math.max(high ?? rating, rating) };
      }
    }
  }

  protected override width(ticket: Ticket, _rating: number, now: number): number {
    return this.rule.width(now - ticket.enqueuedAt);
  }

  protected override waitToReach(_ticket: Ticket, _rating: number, distance: number): number {
    return this.rule.waitToReach(distance);
  }

  protected override arrived(ticket: Ticket): void {
    // A re-queued ticket (enqueuedAt in the past) is already in the distribution.
    if (!this.ranks || ticket.enqueuedAt < this.latestArrival) return;
    this.latestArrival = ticket.enqueuedAt;
    for (const p of ticket.players) this.pending.push(p.rating);
    // Batches of 5% of the distribution, or of the pool when that is larger: each fold rescans
    // the pool, so a fold every pool/20 arrivals costs at most 20 scans per arrival.
    if (this.pending.length < Math.max(1, PERCENTILE_BATCH * Math.max(this.ranks.size, this.size))) return;
    for (const r of this.pending) this.ranks.add(r);
    this.pending = [];
    this.rescanAll(this.lastNow); // every distance changed
  }
}

/** Defaults per unit: 5% of the rating range (or of the rating, or of the distribution), +1% per second. */
function defaults(unit: WindowUnit, context: PolicyContext): { initial: number; growthPerSecond: number } {
  if (unit !== "rating") return { initial: 0.05, growthPerSecond: 0.01 };
  const range = context.ratingRange ? context.ratingRange.max - context.ratingRange.min : 1;
  return { initial: 0.05 * range, growthPerSecond: 0.01 * range };
}

/** Parse `expanding-window` parameters (also used by other window policies). */
export function expandingWindowOptions(
  context: PolicyContext,
  params: PolicyParams,
  what = "expanding-window policy parameters",
): ExpandingWindowOptions {
  const parsed = parseConfig(what, ExpandingWindowParams, params);
  const unit = parsed.unit ?? "rating";
  const d = defaults(unit, context);
  const initial = parsed.initial ?? d.initial;
  const max = parsed.max === undefined || parsed.max === "inf" ? Infinity : parsed.max;
  if (max < initial)
    throw new MatchmakerError("invalid_config", `${what}: max: must be at least initial (${initial})`, "max");
  return {
    unit,
    initial,
    growthPerSecond: parsed.growthPerSecond ?? d.growthPerSecond,
    stepMs: parsed.stepMs ?? 0,
    max,
    population: parsed.population ?? DEFAULT_POPULATION,
    budget: parsed.budget ?? DEFAULT_WINDOW_BUDGET,
    ...criteriaBoxOf(context, parsed.criteria, what),
  };
}

function criteriaBoxOf(
  context: PolicyContext,
  param: v.InferOutput<typeof criteriaWindowsEntry>,
  what: string,
): { criteria?: CriteriaBox } {
  const box = CriteriaBox.of(context, param, what);
  return box ? { criteria: box } : {};
}

export const expandingWindow: PolicyDefinition = {
  name: "expanding-window",
  shapes: EVERY_SHAPE_KIND,
  avoidsRepeats: true,
  summary:
    "The forum thread's widening rating window: mutual acceptance, closest game first, in rating points, a fraction of the rating, or percentiles.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    return new ExpandingWindowPolicy(context, expandingWindowOptions(context, params));
  },
};
