/**
 * `multi-queue` (Schlup's A_MQ): the rating range is cut into r equal ranges, each a queue of
 * its own in which a game forms as soon as it can (oldest first). A ticket that waits tau_max
 * looks into the neighbouring ranges, then theirs, and so on (radius growth), taking the
 * oldest players that fit; if the whole pool cannot fill its game, the engine's bots do.
 * Eq. (7) gives its cost, eq. (9) the best r; `r: "auto"` applies eq. (9) online.
 */
import * as v from "valibot";
import { ArrivalIndex, compareArrival, type ArrivalKey } from "../core/arrival-order.js";
import { bestIntegerAround, schlupMultiQueueCost, schlupMultiQueueOptimalR } from "../core/closed-forms.js";
import { MatchmakerError } from "../core/errors.js";
import type { AcceptanceWindow, Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { meanRating, reachedMaxWait, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { ArrivalRate } from "./shared/arrival-rate.js";
import { GreedyPolicy, withoutAvoidance } from "./greedy.js";
import { findOldestGame } from "./shared/oldest-game.js";

const MultiQueueParams = v.strictObject(
  {
    r: v.optional(
      v.union(
        [v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000)), v.literal("auto")],
        'must be a whole number of ranges (1 to 10000) or "auto"',
      ),
      1,
    ),
    /** The rating range to divide; defaults to the queue's accepted range. */
    min: v.optional(v.pipe(v.number(), v.finite())),
    max: v.optional(v.pipe(v.number(), v.finite())),
  },
  unknownKeyMessage,
);

/** With `r: "auto"`, how many arrivals pass between re-evaluations of r. */
const AUTO_R_EVERY = 64;

export class MultiQueuePolicy implements Policy {
  readonly name = "multi-queue";
  private ranges: GreedyPolicy[] = [];
  private readonly rangeOf = new Map<string, number>();
  private readonly byArrival = new ArrivalIndex();
  private readonly rate = new ArrivalRate();
  private latestArrival = -Infinity;
  private arrivalsSinceReview = 0;

  constructor(
    private readonly context: PolicyContext,
    private readonly r: number | "auto",
    private readonly bounds: { readonly min: number; readonly max: number },
  ) {
    this.rebuild(r === "auto" ? 1 : r);
  }

  /** Number of ranges now in use. */
  get rangeCount(): number {
    return this.ranges.length;
  }

  add(ticket: Ticket, _now: number): void {
    if (ticket.enqueuedAt >= this.latestArrival) {
      this.latestArrival = ticket.enqueuedAt;
      this.rate.record(ticket.enqueuedAt, ticket.players.length);
      if (this.r === "auto" && ++this.arrivalsSinceReview >= AUTO_R_EVERY) this.reviewRangeCount();
    }
    const range = this.rangeIndex(ticket);
    this.rangeOf.set(ticket.id, range);
    this.byArrival.add(ticket);
    this.ranges[range].add(ticket);
  }

  remove(ticketId: string): void {
    const range = this.rangeOf.get(ticketId);
    if (range === undefined) return;
    this.rangeOf.delete(ticketId);
    this.byArrival.remove(ticketId);
    this.ranges[range].remove(ticketId);
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (const range of this.ranges) games.push(...range.poll());
    for (const game of games) for (const t of game) this.forgetMatched(t.id);
    if (this.context.maxWaitMs !== undefined) games.push(...this.radiusGrowth(now, this.context.maxWaitMs));
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (this.context.maxWaitMs === undefined) return undefined;
    for (const [, t] of this.byArrival.oldest()) {
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
    const range = this.rangeOf.get(ticketId);
    if (range === undefined) return undefined;
    const ticket = this.byArrival.get(ticketId);
    const { min, max } = this.bounds;
    if (ticket && this.context.maxWaitMs !== undefined && reachedMaxWait(ticket, this.context.maxWaitMs, now))
      return { min, max };
    const width = (max - min) / this.ranges.length;
    return { min: min + range * width, max: range === this.ranges.length - 1 ? max : min + (range + 1) * width };
  }

  /** Overdue tickets, oldest first, each looking ever further out for a game that includes it. */
  private radiusGrowth(now: number, maxWaitMs: number): Ticket[][] {
    const games: Ticket[][] = [];
    const overdue: Ticket[] = [];
    for (const [, t] of this.byArrival.oldest()) {
      if (!reachedMaxWait(t, maxWaitMs, now)) break;
      overdue.push(t);
    }
    for (const t of overdue) {
      const home = this.rangeOf.get(t.id);
      if (home === undefined) continue; // taken by an earlier overdue ticket's game
      for (let radius = 1; radius < this.ranges.length; radius++) {
        const game = this.gameAround(t, home, radius);
        if (game) {
          for (const member of game) this.remove(member.id);
          games.push(game);
          break;
        }
      }
    }
    return games;
  }

  /** The oldest game that includes `ticket`, from the ranges within `radius` of its own. */
  private gameAround(ticket: Ticket, home: number, radius: number): Ticket[] | undefined {
    const candidates: [ArrivalKey, Ticket][] = [];
    const low = Math.max(0, home - radius);
    const high = Math.min(this.ranges.length - 1, home + radius);
    for (let i = low; i <= high; i++) candidates.push(...this.ranges[i].candidates());
    const others = candidates
      .filter(([, t]) => t !== ticket)
      .sort((a, b) => compareArrival(a[0], b[0]))
      .map(([, t]) => t);
    // Include-first search: the result holds `ticket` whenever some game does.
    const game = findOldestGame([ticket, ...others], this.context.teamSize);
    return game?.[0] === ticket ? game : undefined;
  }

  private forgetMatched(ticketId: string): void {
    this.rangeOf.delete(ticketId);
    this.byArrival.remove(ticketId);
  }

  private rangeIndex(ticket: Ticket): number {
    const { min, max } = this.bounds;
    const position = Math.floor(((meanRating(ticket) - min) / (max - min)) * this.ranges.length);
    return Math.min(this.ranges.length - 1, Math.max(0, position));
  }

  /** Eq. (9) on the measured rate; re-files every ticket only when the best r changes. */
  private reviewRangeCount(): void {
    this.arrivalsSinceReview = 0;
    const a = this.rate.perSecond();
    if (a === undefined) return;
    const k = 2 * this.context.teamSize;
    const tauMax = this.context.maxWaitMs! / 1000;
    const r = bestIntegerAround(schlupMultiQueueOptimalR(k, a, tauMax), (n) => schlupMultiQueueCost(k, n, a, tauMax));
    if (r !== this.ranges.length) this.rebuild(r);
  }

  private rebuild(count: number): void {
    const waiting = [...this.byArrival.oldest()].map(([, t]) => t);
    this.ranges = Array.from({ length: count }, () => new GreedyPolicy(withoutAvoidance(this.context)));
    for (const t of waiting) {
      const range = this.rangeIndex(t);
      this.rangeOf.set(t.id, range);
      this.ranges[range].add(t);
    }
  }
}

export const multiQueue: PolicyDefinition = {
  name: "multi-queue",
  summary:
    "Schlup's A_MQ: r rating ranges, each matched greedily; after tau_max the search grows to neighbouring ranges.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    const parsed = parseConfig("multi-queue policy parameters", MultiQueueParams, params);
    if (parsed.r === "auto" && context.maxWaitMs === undefined) {
      throw new MatchmakerError(
        "invalid_config",
        'multi-queue policy parameters: r: "auto" needs the queue\'s maximum wait (tau_max)',
      );
    }
    const min = parsed.min ?? context.ratingRange?.min ?? 0;
    const max = parsed.max ?? context.ratingRange?.max ?? 1;
    if (!(min < max))
      throw new MatchmakerError("invalid_config", "multi-queue policy parameters: min must be below max");
    return new MultiQueuePolicy(context, parsed.r, { min, max });
  },
};
