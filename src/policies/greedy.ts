/**
 * `greedy`: form a game the moment one can be assembled from the waiting tickets, preferring
 * the oldest (Schlup's A_G; Wu's greedy policy; with parties, the FIFO/packing order of Xu et al.).
 *
 * Tickets sit in one arrival order per class (party size x side). Only the oldest
 * `seats / size` tickets of a class can belong to the oldest game, so the search looks at a
 * bounded candidate list (about 4k·H(k) tickets) whatever the pool size: per join the work is
 * O(classes x log n) plus a search whose size depends on the game's size only. It serves every
 * shape of game.
 *
 * With recent-opponent avoidance (`PolicyContext.avoid`) the search looks at every waiting
 * ticket (a repeat among the oldest must not hide another game): first for the oldest game
 * without a repeat, then, failing that, for the oldest whose repeats all waited the fallback.
 * It then also runs on every poll and wakes when a ticket's fallback wait ends (a rematch that
 * expires earlier, with `avoidRecentMs`, is noticed at the next poll). That costs O(n)
 * candidates per search instead of O(1).
 */
import * as v from "valibot";
import { ArrivalOrder, compareArrival, type Arrival } from "../core/arrival-order.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND } from "../core/shape.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { repeatAllowedAt } from "../core/recent-opponents.js";
import type { Ticket } from "../core/types.js";
import { findOldestGame } from "./shared/oldest-game.js";

const GreedyParams = v.strictObject({}, unknownKeyMessage);

/** Which game comes first: the one of the oldest tickets (FIFO), or of the newest (LIFO). */
export type ServiceOrder = "oldest" | "newest";

const NO_GAMES: readonly Arrival[][] = [];

/**
 * Greedy's waiting tickets, one arrival order per class (party size x side), and its search for
 * the first game in service order. A policy holding greedy queues (greedy itself, multi-queue's
 * ranges, two-queue's queues) keeps each ticket's {@link Arrival} by id.
 */
export class GreedyQueue {
  /** One arrival order per class, at its class code (see {@link classCode}). */
  private readonly classes: (ArrivalOrder | undefined)[] = [];
  private count = 0;
  /** Removals never create a game, so the search runs only after an arrival. */
  private dirty = false;
  /** Scratch for {@link nextGame}: the candidates and their tickets. */
  private readonly gathered: Arrival[] = [];
  private readonly gatheredTickets: Ticket[] = [];

  constructor(
    private readonly context: PolicyContext,
    private readonly order: ServiceOrder = "oldest",
  ) {}

  get size(): number {
    return this.count;
  }

  add(ticket: Ticket): Arrival {
    this.count++;
    this.dirty = true;
    return this.classOf(ticket).add(ticket);
  }

  /** Remove an arrival this queue returned (once). */
  remove(arrival: Arrival): void {
    this.count--;
    this.classOf(arrival.ticket).remove(arrival);
  }

  private classOf(ticket: Ticket): ArrivalOrder {
    const code = classCode(ticket.players.length, ticket.side);
    // Filled up to the code, so that the array has no holes.
    while (this.classes.length <= code) this.classes.push(undefined);
    return (this.classes[code] ??= new ArrivalOrder());
  }

  /** The games to form now, each as its tickets' arrivals, which leave the queue. */
  poll(now: number): readonly Arrival[][] {
    // With avoidance a repeat may become allowed with time alone.
    if (!this.dirty && !this.context.avoid) return NO_GAMES;
    this.dirty = false;
    const games: Arrival[][] = [];
    for (let game = this.nextGame(now); game; game = this.nextGame(now)) games.push(game);
    return games;
  }

  nextWakeup(now: number): number | undefined {
    const avoid = this.context.avoid;
    if (!avoid) return undefined;
    // The next time a waiting ticket's fallback wait ends (a repeat with it may then play).
    let next: number | undefined;
    for (const order of this.classes) {
      if (!order) continue;
      for (const t of order.oldest()) {
        const at = t.enqueuedAt + avoid.fallbackMs;
        if (at <= now) continue;
        if (next === undefined || at < next) next = at;
        break;
      }
    }
    return next;
  }

  /**
   * The only tickets that can belong to the first game in service order: per class, its
   * oldest (or newest) `seats / party size` tickets, pushed onto `out` in service order.
   */
  candidates(out: Arrival[]): void {
    const { teamSize, seats: gameSeats } = this.context;
    const newest = this.order === "newest";
    let classesUsed = 0;
    for (const order of this.classes) {
      if (!order) continue;
      const sample = order.first();
      if (!sample) continue;
      const seats = sample.side ? teamSize : gameSeats;
      const cap = this.context.avoid ? Infinity : Math.floor(seats / sample.players.length);
      if (newest) order.collectNewest(cap, out);
      else order.collect(cap, out);
      classesUsed++;
    }
    if (classesUsed > 1) out.sort(newest ? (a, b) => compareArrival(b, a) : compareArrival);
  }

  /** The first game in service order, its tickets taken out; undefined when none can be assembled. */
  private nextGame(now: number): Arrival[] | undefined {
    const gathered = this.gathered;
    const candidates = this.gatheredTickets;
    // Emptied by popping: a store to `length` gives up the arrays' stores, which pushes then allocate again.
    while (gathered.pop());
    while (candidates.pop());
    this.candidates(gathered);
    for (const arrival of gathered) candidates.push(arrival.ticket);
    const avoid = this.context.avoid;
    const game = !avoid
      ? findOldestGame(candidates, this.context.shape)
      : (findOldestGame(candidates, this.context.shape, (a, b) => !avoid.isRepeat(a, b, now)) ??
        findOldestGame(candidates, this.context.shape, (a, b) => repeatAllowedAt(a, b, avoid) <= now));
    if (!game) return undefined;
    const arrivals = game.map((t) => gathered[candidates.indexOf(t)]);
    for (const arrival of arrivals) this.remove(arrival);
    return arrivals;
  }
}

export class GreedyPolicy implements Policy {
  private readonly queue: GreedyQueue;
  /** Each waiting ticket's place in the queue. */
  private readonly held = new Map<string, Arrival>();

  constructor(
    context: PolicyContext,
    order: ServiceOrder = "oldest",
    readonly name = "greedy",
  ) {
    this.queue = new GreedyQueue(context, order);
  }

  add(ticket: Ticket, _now?: number): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.held.set(ticket.id, this.queue.add(ticket));
  }

  remove(ticketId: string): void {
    const arrival = this.held.get(ticketId);
    if (!arrival) return;
    this.held.delete(ticketId);
    this.queue.remove(arrival);
  }

  poll(now = 0): Ticket[][] {
    return this.queue.poll(now).map((game) => game.map((arrival) => this.forget(arrival)));
  }

  /** A proposed ticket leaves the map (the queue let it go). */
  private forget(arrival: Arrival): Ticket {
    this.held.delete(arrival.ticket.id);
    return arrival.ticket;
  }

  nextWakeup(now = 0): number | undefined {
    return this.queue.nextWakeup(now);
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.held.size;
  }
}

/** A ticket's class (party size and side) as a small integer. */
function classCode(size: number, side: "A" | "B" | undefined): number {
  return 3 * size + (side === "A" ? 1 : side === "B" ? 2 : 0);
}

/**
 * The context for a greedy queue nested inside another policy (multi-queue ranges, two-queue):
 * they do not relay its fallback wake-ups, so those policies do not avoid rematches.
 */
export function withoutAvoidance(context: PolicyContext): PolicyContext {
  const { avoid: _avoid, ...rest } = context;
  return rest;
}

export const greedy: PolicyDefinition = {
  name: "greedy",
  avoidsRepeats: true,
  shapes: EVERY_SHAPE_KIND,
  summary: "Form a game as soon as a game's players can be assembled, oldest tickets first.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    parseConfig("greedy policy parameters", GreedyParams, params);
    return new GreedyPolicy(context);
  },
};
