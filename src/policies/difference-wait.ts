/**
 * `difference-wait` (Schlup's A_DW), generalised from pairs to games of any shape (Schlup's games
 * are of k players each for themselves; teams are assembled by the shared assembly).
 *
 * Waiting tickets are either loose or in a tentative group that could play. A tentative group
 * becomes final `fWait x spread` seconds after it was formed (spread scaled to the rating
 * range, so `fWait` is seconds per full-range spread), or as soon as one of its tickets has
 * waited tau_max. A newcomer that would make a group tighter by taking a member's place does
 * so; the displaced member then tries the same elsewhere. Otherwise the newcomer forms a group
 * with the closest loose tickets, or stays loose. With `fWait: 0` groups are final at once.
 */
import * as v from "valibot";
import { canAssembleGame } from "../core/game-assembly.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND } from "../core/shape.js";
import { meanRating, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { findOldestGame } from "./shared/oldest-game.js";

const DifferenceWaitParams = v.strictObject(
  {
    fWait: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative")), 1),
  },
  unknownKeyMessage,
);

interface TentativeGroup {
  tickets: Ticket[];
  spread: number;
  /** When the group becomes final unless improved first (ms). */
  finalAt: number;
}

export class DifferenceWaitPolicy implements Policy {
  readonly name = "difference-wait";
  private readonly loose = new Map<string, Ticket>();
  private readonly groups = new Set<TentativeGroup>();
  private readonly groupOf = new Map<string, TentativeGroup>();
  private readonly scale: number;
  /** `fWait` times the patience a target wait set (tentative games formed from then on). */
  private fWait: number;

  constructor(
    private readonly context: PolicyContext,
    private readonly configuredFWait: number,
  ) {
    this.fWait = configuredFWait;
    const range = context.ratingRange ?? { min: 0, max: 1 };
    this.scale = range.max - range.min;
  }

  add(ticket: Ticket, now: number): void {
    // Each displacement makes one group strictly tighter, so the chain ends; the bound is a guard.
    let next: Ticket | undefined = ticket;
    for (let steps = 0; next && steps <= this.groupOf.size + this.loose.size + 1; steps++) next = this.place(next, now);
    if (next) this.loose.set(next.id, next);
  }

  /** Target wait: tentative games formed from now on stay open `patience` times longer than configured. */
  setPatience(patience: number): void {
    this.fWait = this.configuredFWait * patience;
  }

  remove(ticketId: string): void {
    if (this.loose.delete(ticketId)) return;
    const group = this.groupOf.get(ticketId);
    if (!group) return;
    // The group can no longer play: its other tickets become loose again.
    this.dissolve(group);
    this.loose.delete(ticketId);
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (const group of [...this.groups]) {
      if (now >= this.finalAt(group)) {
        this.dissolve(group);
        for (const t of group.tickets) this.loose.delete(t.id);
        games.push(group.tickets);
      }
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    let next: number | undefined;
    for (const group of this.groups) {
      const at = Math.max(now, this.finalAt(group));
      if (next === undefined || at < next) next = at;
    }
    return next;
  }

  /** The earlier of the group's own deadline and its oldest ticket reaching tau_max. */
  private finalAt(group: TentativeGroup): number {
    if (this.context.maxWaitMs === undefined) return group.finalAt;
    let oldest = Infinity;
    for (const t of group.tickets) oldest = Math.min(oldest, t.enqueuedAt);
    return Math.min(group.finalAt, oldest + this.context.maxWaitMs);
  }

  /**
   * Put `ticket` where it makes the tightest group: in place of a group member, or with loose
   * tickets. Returns a displaced ticket that must be placed in turn, if any.
   */
  private place(ticket: Ticket, now: number): Ticket | undefined {
    let best: { group?: TentativeGroup; tickets: Ticket[]; spread: number; displaced?: Ticket } | undefined;
    for (const group of this.groups) {
      for (const member of group.tickets) {
        const tickets = group.tickets.map((t) => (t === member ? ticket : t));
        const spread = spreadOf(tickets);
        if (spread >= group.spread || !canAssembleGame(tickets, this.context.shape)) continue;
        if (!best || spread < best.spread) best = { group, tickets, spread, displaced: member };
      }
    }
    const fresh = this.closestLooseGame(ticket);
    if (fresh && (!best || fresh.spread < best.spread)) best = { tickets: fresh.tickets, spread: fresh.spread };
    if (!best) return ticket;
    if (best.group) this.dissolve(best.group);
    for (const t of best.tickets) this.loose.delete(t.id);
    const group: TentativeGroup = {
      tickets: best.tickets,
      spread: best.spread,
      finalAt: now + (this.fWait * 1000 * best.spread) / this.scale,
    };
    this.groups.add(group);
    for (const t of group.tickets) this.groupOf.set(t.id, group);
    if (best.displaced) this.loose.delete(best.displaced.id);
    return best.displaced;
  }

  /** The game of `ticket` and the loose tickets closest in rating to it, if one can be assembled. */
  private closestLooseGame(ticket: Ticket): { tickets: Ticket[]; spread: number } | undefined {
    const rating = meanRating(ticket);
    const others = [...this.loose.values()]
      .filter((t) => t !== ticket)
      .sort((a, b) => Math.abs(meanRating(a) - rating) - Math.abs(meanRating(b) - rating));
    const game = findOldestGame([ticket, ...others], this.context.shape);
    return game?.[0] === ticket ? { tickets: game, spread: spreadOf(game) } : undefined;
  }

  /** Take a group apart; its tickets become loose. */
  private dissolve(group: TentativeGroup): void {
    this.groups.delete(group);
    for (const t of group.tickets) {
      this.groupOf.delete(t.id);
      this.loose.set(t.id, t);
    }
  }
}

function spreadOf(tickets: readonly Ticket[]): number {
  let min = Infinity;
  let max = -Infinity;
  for (const t of tickets) {
    for (const p of t.players) {
      min = Math.min(min, p.rating);
      max = Math.max(max, p.rating);
    }
  }
  return max - min;
}

export const differenceWait: PolicyDefinition = {
  name: "difference-wait",
  shapes: EVERY_SHAPE_KIND,
  summary:
    "Schlup's A_DW: tentative games that become final after fWait x their rating spread, improved by newcomers meanwhile.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    const { fWait } = parseConfig("difference-wait policy parameters", DifferenceWaitParams, params);
    return new DifferenceWaitPolicy(context, fWait);
  },
};
