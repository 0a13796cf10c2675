/**
 * `brackets` (the forum thread's third suggestion): the rating range is cut into brackets, each
 * the largest rating difference its players accept; a controller on a fixed period splits a
 * bracket in which at least `splitAt` games formed during the period into two halves, and merges
 * two halves back after `idlePeriods` consecutive periods with fewer than `mergeBelow` games
 * between them. Busy ranks thus get fairer games and quiet ranks keep wide ones.
 *
 * A ticket accepts another whose rating is in its own or a neighbouring bracket and within its
 * own bracket's width ("the surrounding brackets can only choose teams from the nearest bracket:
 * 499 vs 990 cannot happen" once 500–1000 is split). Games need mutual acceptance and the
 * closest forms first (the sweep in {@link SweepMatcher}); when the brackets change, every
 * waiting ticket rescans. Brackets do not widen with waiting: give the queue `maxWaitMs` with
 * `fillWithBots` so a lone player at the top still plays.
 *
 * In a queue with criteria beside the rating, a ticket also accepts only tickets within its
 * window on each criterion (`criteria: { NAME: { initial, growthPerSecond, max } }`, in the
 * criterion's units; default 5% of its range plus 1% per second): that box does grow with waiting.
 */
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND } from "../core/shape.js";
import { meanRating, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { CriteriaBox, criteriaWindowsEntry } from "./shared/criteria-box.js";
import { DEFAULT_WINDOW_BUDGET, SweepMatcher } from "./shared/sweep-matcher.js";

const positive = v.pipe(
  v.number("must be a number"),
  v.finite("must be a finite number"),
  v.gtValue(0, "must be positive"),
);
const count = v.pipe(
  v.number("must be a number"),
  v.integer("must be a whole number"),
  v.minValue(1, "must be at least 1"),
);

const BracketsParams = v.strictObject(
  {
    width: v.optional(positive),
    min: v.optional(v.pipe(v.number(), v.finite())),
    max: v.optional(v.pipe(v.number(), v.finite())),
    period: v.optional(positive),
    splitAt: v.optional(count),
    mergeBelow: v.optional(count),
    idlePeriods: v.optional(count),
    minWidth: v.optional(positive),
    budget: v.optional(count),
    criteria: criteriaWindowsEntry,
  },
  unknownKeyMessage,
);

/** Validated parameters of `brackets`. */
export interface BracketsOptions {
  /** Width of the initial brackets (the last one may be narrower). */
  readonly width: number;
  readonly min: number;
  readonly max: number;
  /** Seconds between the controller's reviews. */
  readonly period: number;
  /** Games in one period that split a bracket. */
  readonly splitAt: number;
  /** Two halves with fewer games than this in a period (together) are idle for that period. */
  readonly mergeBelow: number;
  /** Consecutive idle periods after which two halves merge back. */
  readonly idlePeriods: number;
  /** No bracket is split below this width. */
  readonly minWidth: number;
  readonly budget: number;
  /** In a queue with criteria: each ticket's window on each of them, growing with its wait (absent: none). */
  readonly criteria?: CriteriaBox;
}

/** A bracket, or a split one (with two halves). */
interface Bracket {
  readonly lo: number;
  readonly hi: number;
  games: number;
  idle: number;
  halves: [Bracket, Bracket] | undefined;
}

const bracket = (lo: number, hi: number): Bracket => ({ lo, hi, games: 0, idle: 0, halves: undefined });

export class BracketsPolicy extends SweepMatcher {
  readonly name = "brackets";
  private readonly roots: Bracket[] = [];
  /** The current brackets, in rating order. */
  private leaves: Bracket[] = [];
  private readonly periodMs: number;
  private nextReview: number | undefined;

  constructor(
    context: PolicyContext,
    private readonly options: BracketsOptions,
  ) {
    super(context, options.budget);
    this.criteria = options.criteria;
    for (let lo = options.min; lo < options.max; lo += options.width)
      this.roots.push(bracket(lo, Math.min(options.max, lo + options.width)));
    this.leaves = [...this.roots];
    this.periodMs = options.period * 1000;
  }

  /** The current brackets as `[low, high)` rating intervals, in order. */
  brackets(): Array<[number, number]> {
    return this.leaves.map((b) => [b.lo, b.hi]);
  }

  protected override distance(from: number, to: number): number {
    return Math.abs(this.indexOf(to) - this.indexOf(from)) <= 1 ? Math.abs(to - from) : Infinity;
  }

  protected override width(_ticket: Ticket, rating: number): number {
    const b = this.leaves[this.indexOf(rating)];
    return b.hi - b.lo;
  }

  protected override waitToReach(ticket: Ticket, rating: number, distance: number): number {
    return distance <= this.width(ticket, rating) ? 0 : Infinity;
  }

  protected override arrived(ticket: Ticket): void {
    this.nextReview ??= ticket.enqueuedAt + this.periodMs;
  }

  protected override formed(tickets: readonly Ticket[]): void {
    let sum = 0;
    for (const t of tickets) sum += meanRating(t) * t.players.length;
    const players = tickets.reduce((n, t) => n + t.players.length, 0);
    this.leaves[this.indexOf(sum / players)].games++;
  }

  protected override beforePoll(now: number): void {
    this.nextReview ??= now + this.periodMs;
    if (now < this.nextReview) return;
    const periods = Math.floor((now - this.nextReview) / this.periodMs) + 1;
    // Enough reviews for any cascade of merges; later empty periods change nothing more.
    for (let i = 0; i < Math.min(periods, 64); i++) this.review();
    this.nextReview += periods * this.periodMs;
    this.rescanAll(now);
  }

  protected override ownWakeup(): number | undefined {
    return this.nextReview;
  }

  /** The controller: merge idle halves, split busy brackets, start a new period. */
  private review(): void {
    const { mergeBelow, idlePeriods, splitAt, minWidth } = this.options;
    const visit = (b: Bracket): void => {
      if (!b.halves) return;
      const [left, right] = b.halves;
      visit(left);
      visit(right);
      if (left.halves || right.halves) return;
      b.idle = left.games + right.games < mergeBelow ? b.idle + 1 : 0;
      if (b.idle >= idlePeriods) {
        b.halves = undefined;
        b.idle = 0;
        b.games = 0;
      }
    };
    for (const root of this.roots) visit(root);
    const leaves: Bracket[] = [];
    const collect = (b: Bracket): void => {
      if (b.halves) {
        collect(b.halves[0]);
        collect(b.halves[1]);
        return;
      }
      if (b.games >= splitAt && (b.hi - b.lo) / 2 >= minWidth) {
        const mid = (b.lo + b.hi) / 2;
        b.halves = [bracket(b.lo, mid), bracket(mid, b.hi)];
        b.idle = 0;
        leaves.push(...b.halves);
      } else {
        leaves.push(b);
      }
      b.games = 0;
    };
    for (const root of this.roots) collect(root);
    this.leaves = leaves;
  }

  /** The bracket a rating falls in (ratings outside the range go to the end brackets). */
  private indexOf(rating: number): number {
    let lo = 0;
    let hi = this.leaves.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.leaves[mid].lo <= rating) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

export const brackets: PolicyDefinition = {
  name: "brackets",
  shapes: EVERY_SHAPE_KIND,
  avoidsRepeats: true,
  summary:
    "The forum thread's adaptive brackets: a bracket splits after a busy period and merges back after idle ones; opponents from the own or a neighbouring bracket only.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    const what = "brackets policy parameters";
    const parsed = parseConfig(what, BracketsParams, params);
    const min = parsed.min ?? context.ratingRange?.min ?? 0;
    const max = parsed.max ?? context.ratingRange?.max ?? 1;
    if (!(min < max)) throw new MatchmakerError("invalid_config", `${what}: min must be below max`, "min");
    const width = parsed.width ?? (max - min) / 6;
    const criteria = CriteriaBox.of(context, parsed.criteria, what);
    if ((max - min) / width > 10_000)
      throw new MatchmakerError(
        "invalid_config",
        `${what}: width: at most 10000 brackets (width ≥ ${(max - min) / 10_000})`,
        "width",
      );
    return new BracketsPolicy(context, {
      width,
      min,
      max,
      period: parsed.period ?? 60,
      splitAt: parsed.splitAt ?? 6,
      mergeBelow: parsed.mergeBelow ?? 3,
      idlePeriods: parsed.idlePeriods ?? 2,
      minWidth: parsed.minWidth ?? width / 16,
      budget: parsed.budget ?? DEFAULT_WINDOW_BUDGET,
      ...(criteria ? { criteria } : {}),
    });
  },
};
