/**
 * `greedy`: form a game the moment one can be assembled from the waiting tickets, preferring
 * the oldest (Schlup's A_G; Wu's greedy policy; with parties, the FIFO/packing order of Xu et al.).
 *
 * Tickets sit in one arrival order per class (party size x side). Only the oldest
 * `seats / size` tickets of a class can belong to the oldest game, so the search looks at a
 * bounded candidate list (about 4k·H(k) tickets) whatever the pool size: per join the work is
 * O(classes x log n) plus a search whose size depends on teamSize only.
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
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { repeatAllowedAt } from "../core/recent-opponents.js";
import type { Ticket } from "../core/types.js";
import { findOldestGame } from "./shared/oldest-game.js";

const GreedyParams = v.strictObject({}, unknownKeyMessage);

/** Which game comes first: the one of the oldest tickets (FIFO), or of the newest (LIFO). */
export type ServiceOrder = "oldest" | "newest";

export class GreedyPolicy implements Policy {
  /** One arrival order per class (party size x side), at its class code (see {@link classCode}). */
  private readonly classes: (ArrivalOrder | undefined)[] = [];
  /** Each waiting ticket's place in its class's order. */
  private readonly held = new Map<string, Arrival>();
  /** Removals never create a game, so the search runs only after an arrival. */
  private dirty = false;
  /** Scratch for {@link nextGame}: the candidates and their tickets. */
  private readonly gathered: Arrival[] = [];
  private readonly gatheredTickets: Ticket[] = [];

  constructor(
    private readonly context: PolicyContext,
    private readonly order: ServiceOrder = "oldest",
    readonly name = "greedy",
  ) {}

  add(ticket: Ticket, _now?: number): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.held.set(ticket.id, this.classOf(ticket).add(ticket));
    this.dirty = true;
  }

  remove(ticketId: string): void {
    const arrival = this.held.get(ticketId);
    if (!arrival) return;
    this.held.delete(ticketId);
    this.classOf(arrival.ticket).remove(arrival);
  }

  private classOf(ticket: Ticket): ArrivalOrder {
    const code = classCode(ticket.players.length, ticket.side);
    // Filled up to the code, so that the array has no holes.
    while (this.classes.length <= code) this.classes.push(undefined);
    return (this.classes[code] ??= new ArrivalOrder());
  }

  poll(now = 0): Ticket[][] {
    // With avoidance a repeat may become allowed with time alone.
    if (!this.dirty && !this.context.avoid) return [];
    this.dirty = false;
    const games: Ticket[][] = [];
    for (let game = this.nextGame(now); game; game = this.nextGame(now)) games.push(game);
    return games;
  }

  nextWakeup(now = 0): number | undefined {
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

  /** Number of waiting tickets. */
  get size(): number {
    return this.held.size;
  }

  /**
   * The only tickets that can belong to the first game in service order: per class, its
   * oldest (or newest) `seats / party size` tickets, pushed onto `out` in service order.
   */
  candidates(out: Arrival[]): void {
    const k = this.context.teamSize;
    const newest = this.order === "newest";
    let classesUsed = 0;
    for (const order of this.classes) {
      if (!order) continue;
      const sample = order.first();
      if (!sample) continue;
      const seats = sample.side ? k : 2 * k;
      const cap = this.context.avoid ? Infinity : Math.floor(seats / sample.players.length);
      if (newest) order.collectNewest(cap, out);
      else order.collect(cap, out);
      classesUsed++;
    }
    if (classesUsed > 1) out.sort(newest ? (a, b) => compareArrival(b, a) : compareArrival);
  }

  /** The first game in service order, its tickets forgotten; undefined when none can be assembled. */
  private nextGame(now: number): Ticket[] | undefined {
    const gathered = this.gathered;
    const candidates = this.gatheredTickets;
    // Emptied by popping: a store to `length` gives up the arrays' stores, which pushes then allocate again.
    while (gathered.pop());
    while (candidates.pop());
    this.candidates(gathered);
    for (const arrival of gathered) candidates.push(arrival.ticket);
    const avoid = this.context.avoid;
    const game = !avoid
      ? findOldestGame(candidates, this.context.teamSize)
      : (findOldestGame(candidates, this.context.teamSize, (a, b) => !avoid.isRepeat(a, b, now)) ??
        findOldestGame(candidates, this.context.teamSize, (a, b) => repeatAllowedAt(a, b, avoid) <= now));
    if (game) for (const t of game) this.remove(t.id);
    return game;
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
  summary: "Form a game as soon as 2 x teamSize players can be assembled, oldest tickets first.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    parseConfig("greedy policy parameters", GreedyParams, params);
    return new GreedyPolicy(context);
  },
};
