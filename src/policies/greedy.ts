/**
 * `greedy`: form a game the moment one can be assembled from the waiting tickets, preferring
 * the oldest (Schlup's A_G; Wu's greedy policy; with parties, the FIFO/packing order of Xu et al.).
 *
 * Tickets sit in one arrival-ordered index per class (party size x side). Only the oldest
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
import { ArrivalIndex, compareArrival, type ArrivalKey } from "../core/arrival-order.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { repeatAllowedAt } from "../core/recent-opponents.js";
import type { Ticket } from "../core/types.js";
import { findOldestGame } from "./shared/oldest-game.js";

const GreedyParams = v.strictObject({}, unknownKeyMessage);

/** Which game comes first: the one of the oldest tickets (FIFO), or of the newest (LIFO). */
export type ServiceOrder = "oldest" | "newest";

export class GreedyPolicy implements Policy {
  private readonly classes = new Map<string, ArrivalIndex>();
  private readonly classOf = new Map<string, string>();
  /** Removals never create a game, so the search runs only after an arrival. */
  private dirty = false;

  constructor(
    private readonly context: PolicyContext,
    private readonly order: ServiceOrder = "oldest",
    readonly name = "greedy",
  ) {}

  add(ticket: Ticket): void {
    const cls = classKey(ticket.players.length, ticket.side);
    let index = this.classes.get(cls);
    if (!index) this.classes.set(cls, (index = new ArrivalIndex()));
    index.add(ticket);
    this.classOf.set(ticket.id, cls);
    this.dirty = true;
  }

  remove(ticketId: string): void {
    const cls = this.classOf.get(ticketId);
    if (cls === undefined) return;
    this.classOf.delete(ticketId);
    this.classes.get(cls)!.remove(ticketId);
  }

  poll(now = 0): Ticket[][] {
    // With avoidance a repeat may become allowed with time alone.
    if (!this.dirty && !this.context.avoid) return [];
    this.dirty = false;
    const games: Ticket[][] = [];
    for (let game = this.nextGame(now); game; game = this.nextGame(now)) {
      for (const t of game) this.remove(t.id);
      games.push(game);
    }
    return games;
  }

  nextWakeup(now = 0): number | undefined {
    const avoid = this.context.avoid;
    if (!avoid) return undefined;
    // The next time a waiting ticket's fallback wait ends (a repeat with it may then play).
    let next: number | undefined;
    for (const index of this.classes.values()) {
      for (const [, t] of index.oldest()) {
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
    return this.classOf.size;
  }

  /**
   * The only tickets that can belong to the first game in service order: per class, its
   * oldest (or newest) `seats / party size` tickets; in service order.
   */
  candidates(): [ArrivalKey, Ticket][] {
    const k = this.context.teamSize;
    const candidates: [ArrivalKey, Ticket][] = [];
    for (const index of this.classes.values()) {
      const first = index.oldest(1).next();
      if (first.done) continue;
      const [, sample] = first.value;
      const seats = sample.side ? k : 2 * k;
      const cap = this.context.avoid ? Infinity : Math.floor(seats / sample.players.length);
      candidates.push(...(this.order === "oldest" ? index.oldest(cap) : index.newest(cap)));
    }
    const sign = this.order === "oldest" ? 1 : -1;
    return candidates.sort((a, b) => sign * compareArrival(a[0], b[0]));
  }

  private nextGame(now: number): Ticket[] | undefined {
    const candidates = this.candidates().map(([, t]) => t);
    const avoid = this.context.avoid;
    if (!avoid) return findOldestGame(candidates, this.context.teamSize);
    return (
      findOldestGame(candidates, this.context.teamSize, (a, b) => !avoid.isRepeat(a, b, now)) ??
      findOldestGame(candidates, this.context.teamSize, (a, b) => repeatAllowedAt(a, b, avoid) <= now)
    );
  }
}

/** A ticket's class, `"size|side"` (made once per size and side, not per ticket). */
const classKeys: string[] = [];
function classKey(size: number, side: "A" | "B" | undefined): string {
  const slot = 3 * size + (side === "A" ? 1 : side === "B" ? 2 : 0);
  return (classKeys[slot] ??= `${size}|${side ?? ""}`);
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
