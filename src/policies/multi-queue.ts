/**
 * `multi-queue` (Schlup's A_MQ): the rating range is cut into r equal ranges, each a queue of
 * its own in which a game forms as soon as it can (oldest first). A ticket that waits tau_max
 * looks into the neighbouring ranges, then theirs, and so on (radius growth), taking the
 * oldest players that fit; if the whole pool cannot fill its game, the engine's bots do.
 * Eq. (7) gives its cost, eq. (9) the best r; `r: "auto"` applies eq. (9) online, with k the
 * players per game (`context.seats`): the text's algorithm is for games of any k, so every
 * shape is served (each range's queue assembles the queue's shape).
 *
 * With criteria beside the rating (the queue's `criteria`, Schlup's D > 1) there is one queue
 * per combination of ranges (the text's figure 1, "queue matrix for criteria C1 and C2"): `r` is
 * then one number of ranges for every criterion, or one per criterion, rating first (`[3, 2]`,
 * or `"3x2"` from the simulator's command line). Radius growth checks the directly neighbouring
 * queues first (every queue at most one range away on every criterion, diagonals included),
 * then the neighbours of those, until every queue has been checked.
 */
import * as v from "valibot";
import { ArrivalOrder, compareArrival, type Arrival } from "../core/arrival-order.js";
import {
  bestIntegerAround,
  schlupMultiQueueCost,
  schlupMultiQueueCostD,
  schlupMultiQueueOptimalR,
  schlupMultiQueueOptimalRD,
} from "../core/closed-forms.js";
import { dimensionsOf, MAX_CRITERIA, ticketCriterion, type Dimension } from "../core/criteria.js";
import { MatchmakerError } from "../core/errors.js";
import type { AcceptanceWindow, Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { meanRating, reachedMaxWait, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { ArrivalRate } from "./shared/arrival-rate.js";
import { GreedyQueue, withoutAvoidance } from "./greedy.js";
import { findOldestGame } from "./shared/oldest-game.js";

const RANGES = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000));

const MultiQueueParams = v.strictObject(
  {
    r: v.optional(
      v.union(
        [
          RANGES,
          v.literal("auto"),
          v.pipe(v.array(RANGES), v.minLength(1), v.maxLength(1 + MAX_CRITERIA)),
          v.pipe(v.string(), v.regex(/^\d{1,5}(x\d{1,5}){1,8}$/)),
        ],
        'must be a whole number of ranges (1 to 10000) or "auto"; with criteria also one per criterion ([3, 2] or "3x2")',
      ),
      1,
    ),
    /** The rating range to divide; defaults to the queue's accepted range. */
    min: v.optional(v.pipe(v.number(), v.finite())),
    max: v.optional(v.pipe(v.number(), v.finite())),
  },
  unknownKeyMessage,
);

/** A waiting ticket's places: in arrival order among all, and in its range's queue. */
interface Waiting {
  readonly all: Arrival;
  inRange: Arrival;
}

/** With `r: "auto"`, how many arrivals pass between re-evaluations of r. */
const AUTO_R_EVERY = 64;

/** The most queues a grid may have (the product of the ranges). */
export const MAX_QUEUES = 100_000;

export class MultiQueuePolicy implements Policy {
  readonly name = "multi-queue";
  /** One greedy queue per cell of the grid, cell index = sum of coordinate x stride. */
  private ranges: GreedyQueue[] = [];
  /** Ranges per dimension (rating first) now in use. */
  private counts: number[] = [];
  /** Every waiting ticket, in arrival order; each also waits in its range (`cellOf`). */
  private readonly byArrival = new ArrivalOrder();
  /** Each waiting ticket's places in {@link byArrival} and in its range. */
  private readonly waiting = new Map<string, Waiting>();
  private readonly rate = new ArrivalRate();
  private readonly dimensions: readonly Dimension[];
  private latestArrival = -Infinity;
  private arrivalsSinceReview = 0;

  /**
   * @param r ranges per dimension (rating first), or `"auto"` (eq. (9), generalised to one r for
   *   every criterion); a single number with criteria applies to every one.
   */
  constructor(
    private readonly context: PolicyContext,
    private readonly r: number | "auto" | readonly number[],
    private readonly bounds: { readonly min: number; readonly max: number },
  ) {
    this.dimensions = dimensionsOf(bounds, context.criteria);
    this.rebuild(this.countsFor(r === "auto" ? 1 : r));
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.byArrival.size;
  }

  /** Number of queues now in use (ranges of the rating times those of every other criterion). */
  get rangeCount(): number {
    return this.ranges.length;
  }

  /** Ranges per criterion now in use, the rating's first. */
  get rangesPerCriterion(): readonly number[] {
    return this.counts;
  }

  add(ticket: Ticket, _now?: number): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    if (ticket.enqueuedAt >= this.latestArrival) {
      this.latestArrival = ticket.enqueuedAt;
      this.rate.record(ticket.enqueuedAt, ticket.players.length);
      if (this.r === "auto" && ++this.arrivalsSinceReview >= AUTO_R_EVERY) this.reviewRangeCount();
    }
    const all = this.byArrival.add(ticket);
    this.waiting.set(ticket.id, { all, inRange: this.ranges[this.cellOf(ticket)].add(ticket) });
  }

  /** Stop holding a ticket, in this order and in its range. */
  remove(ticketId: string): void {
    const waiting = this.waiting.get(ticketId);
    if (!waiting) return;
    this.waiting.delete(ticketId);
    this.byArrival.remove(waiting.all);
    this.ranges[this.cellOf(waiting.all.ticket)].remove(waiting.inRange);
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (const range of this.ranges) {
      for (const game of range.poll(now)) {
        // The range let the game's tickets go.
        for (const { ticket } of game) {
          this.byArrival.remove(this.waiting.get(ticket.id)!.all);
          this.waiting.delete(ticket.id);
        }
        games.push(game.map((arrival) => arrival.ticket));
      }
    }
    if (this.context.maxWaitMs !== undefined) games.push(...this.radiusGrowth(now, this.context.maxWaitMs));
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (this.context.maxWaitMs === undefined) return undefined;
    for (const t of this.byArrival.oldest()) {
      const deadline = t.enqueuedAt + this.context.maxWaitMs;
      if (deadline > now) return deadline;
    }
    return undefined;
  }

  /**
   * The rating range of the ticket's own range; once it reached tau_max its search grows over
   * the neighbouring ranges, so the window is then the whole divided range.
   */
  acceptanceWindow(ticketId: string, now: number): AcceptanceWindow | undefined {
    const ticket = this.waiting.get(ticketId)?.all.ticket;
    if (ticket === undefined) return undefined;
    const cell = this.cellOf(ticket);
    const { min, max } = this.bounds;
    if (this.context.maxWaitMs !== undefined && reachedMaxWait(ticket, this.context.maxWaitMs, now))
      return { min, max };
    // The rating is the grid's first coordinate (stride 1).
    const count = this.counts[0];
    const range = cell % count;
    const width = (max - min) / count;
    return { min: min + range * width, max: range === count - 1 ? max : min + (range + 1) * width };
  }

  /** Overdue tickets, oldest first, each looking ever further out for a game that includes it. */
  private radiusGrowth(now: number, maxWaitMs: number): Ticket[][] {
    const games: Ticket[][] = [];
    const overdue: Ticket[] = [];
    for (const ticket of this.byArrival.oldest()) {
      if (!reachedMaxWait(ticket, maxWaitMs, now)) break;
      overdue.push(ticket);
    }
    const widest = Math.max(...this.counts);
    for (const ticket of overdue) {
      if (!this.waiting.has(ticket.id)) continue; // taken by an earlier overdue ticket's game
      const home = this.cellOf(ticket);
      for (let radius = 1; radius < widest; radius++) {
        const game = this.gameAround(ticket, home, radius);
        if (game) {
          for (const member of game) this.remove(member.id);
          games.push(game);
          break;
        }
      }
    }
    return games;
  }

  /**
   * The oldest game that includes `ticket`, from the queues within `radius` ranges of its own on
   * every criterion.
   */
  private gameAround(ticket: Ticket, home: number, radius: number): Ticket[] | undefined {
    const gathered: Arrival[] = [];
    for (const cell of this.cellsAround(home, radius)) this.ranges[cell].candidates(gathered);
    const others = gathered
      .sort(compareArrival)
      .map((a) => a.ticket)
      .filter((t) => t !== ticket);
    // Include-first search: the result holds the ticket whenever some game does.
    const game = findOldestGame([ticket, ...others], this.context.shape);
    return game?.[0] === ticket ? game : undefined;
  }

  /** Every cell whose coordinates are each within `radius` of `home`'s (a box, clipped to the grid). */
  private cellsAround(home: number, radius: number): number[] {
    const low: number[] = [];
    const high: number[] = [];
    let rest = home;
    for (const count of this.counts) {
      const at = rest % count;
      rest = Math.floor(rest / count);
      low.push(Math.max(0, at - radius));
      high.push(Math.min(count - 1, at + radius));
    }
    const cells: number[] = [];
    const at = [...low];
    for (;;) {
      let cell = 0;
      for (let d = at.length - 1; d >= 0; d--) cell = cell * this.counts[d] + at[d];
      cells.push(cell);
      // Odometer over the box, the rating's coordinate fastest (with D = 1: low to high).
      let d = 0;
      while (d < at.length && at[d] === high[d]) {
        at[d] = low[d];
        d++;
      }
      if (d === at.length) return cells;
      at[d]++;
    }
  }

  /** The ticket's cell: on each criterion, the range of its (party's mean) value. */
  private cellOf(ticket: Ticket): number {
    let cell = 0;
    for (let d = this.dimensions.length - 1; d >= 0; d--) {
      const { min, max } = d === 0 ? this.bounds : this.dimensions[d];
      const value = d === 0 ? meanRating(ticket) : ticketCriterion(ticket, this.dimensions[d].name);
      const count = this.counts[d];
      const position = Math.floor(((value - min) / (max - min)) * count);
      cell = cell * count + Math.min(count - 1, Math.max(0, position));
    }
    return cell;
  }

  /** Ranges per dimension for `r`: one number for every dimension, or one each. */
  private countsFor(r: number | readonly number[]): number[] {
    return typeof r === "number" ? this.dimensions.map(() => r) : [...r];
  }

  /** Eq. (9) (generalised to D criteria) on the measured rate; re-files every ticket only when the best r changes. */
  private reviewRangeCount(): void {
    this.arrivalsSinceReview = 0;
    const a = this.rate.perSecond();
    if (a === undefined) return;
    const k = this.context.seats;
    const tauMax = this.context.maxWaitMs! / 1000;
    const d = this.dimensions.length;
    const weights = this.dimensions.map((dim) => dim.weight);
    const r =
      d === 1
        ? bestIntegerAround(schlupMultiQueueOptimalR(k, a, tauMax), (n) => schlupMultiQueueCost(k, n, a, tauMax))
        : bestIntegerAround(schlupMultiQueueOptimalRD(k, a, tauMax, d), (n) =>
            schlupMultiQueueCostD(k, Array<number>(d).fill(n), a, tauMax, weights),
          );
    if (r !== this.counts[0]) this.rebuild(this.countsFor(r));
  }

  private rebuild(counts: number[]): void {
    this.counts = counts;
    const cells = counts.reduce((p, c) => p * c, 1);
    this.ranges = Array.from({ length: cells }, () => new GreedyQueue(withoutAvoidance(this.context)));
    for (const ticket of this.byArrival.oldest())
      this.waiting.get(ticket.id)!.inRange = this.ranges[this.cellOf(ticket)].add(ticket);
  }
}

/** `r` as a number, "auto" or one number per dimension (`"3x2"` is `[3, 2]`). */
function rangesParam(r: number | "auto" | readonly number[] | string, dimensions: number): number | "auto" | number[] {
  if (typeof r === "number" || r === "auto") return r;
  const list = typeof r === "string" ? r.split("x").map(Number) : [...r];
  if (list.length !== dimensions)
    throw new MatchmakerError(
      "invalid_config",
      `multi-queue policy parameters: r: gives ${list.length} numbers of ranges, but the queue has ${dimensions} criteria (the rating and ${dimensions - 1} more)`,
      "r",
    );
  if (list.some((n) => n < 1 || n > 10_000))
    throw new MatchmakerError("invalid_config", "multi-queue policy parameters: r: each must be from 1 to 10000", "r");
  return list;
}

export const multiQueue: PolicyDefinition = {
  name: "multi-queue",
  summary:
    "Schlup's A_MQ: r rating ranges, each matched greedily; after tau_max the search grows to neighbouring ranges.",
  shapes: ["two-teams", "teams", "free-for-all"],
  create(context: PolicyContext, params: PolicyParams): Policy {
    const parsed = parseConfig("multi-queue policy parameters", MultiQueueParams, params);
    if (parsed.r === "auto" && context.maxWaitMs === undefined) {
      throw new MatchmakerError(
        "invalid_config",
        'multi-queue policy parameters: r: "auto" needs the queue\'s maximum wait (tau_max)',
        "r",
      );
    }
    const min = parsed.min ?? context.ratingRange?.min ?? 0;
    const max = parsed.max ?? context.ratingRange?.max ?? 1;
    if (!(min < max))
      throw new MatchmakerError("invalid_config", "multi-queue policy parameters: min must be below max", "min");
    const dimensions = 1 + (context.criteria?.length ?? 0);
    const r = rangesParam(parsed.r, dimensions);
    const queues = typeof r === "number" ? r ** dimensions : r === "auto" ? 1 : r.reduce((p, c) => p * c, 1);
    if (queues > MAX_QUEUES)
      throw new MatchmakerError(
        "invalid_config",
        `multi-queue policy parameters: r: makes ${queues} queues (the product of the ranges); at most ${MAX_QUEUES}`,
        "r",
      );
    return new MultiQueuePolicy(context, r, { min, max });
  },
};
