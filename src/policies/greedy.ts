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
import { ArrivalNode, ArrivalOrder, compareNodes } from "../core/arrival-order.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams, TicketSlot } from "../core/policy.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { repeatAllowedAt } from "../core/recent-opponents.js";
import type { Ticket } from "../core/types.js";
import { findOldestGame } from "./shared/oldest-game.js";

const GreedyParams = v.strictObject({}, unknownKeyMessage);

/** Which game comes first: the one of the oldest tickets (FIFO), or of the newest (LIFO). */
export type ServiceOrder = "oldest" | "newest";

export class GreedyPolicy implements Policy {
  /**
   * One arrival order per class, by class code (see {@link classCode}: an array index, found on
   * every join and leave without hashing a key) and in a list (walked without an iterator).
   */
  private readonly classes: (ArrivalOrder | undefined)[] = [];
  private readonly classList: ArrivalOrder[] = [];
  /**
   * Each ticket's node in its class's order, for tickets added without the engine's slot (with
   * one, the node is kept in the slot). A node's class follows from its ticket (size and side).
   */
  private readonly nodes = new Map<string, ArrivalNode>();
  private count = 0;
  /** Removals never create a game, so the search runs only after an arrival. */
  private dirty = false;
  /** Scratch for {@link nextGame}: the candidates' nodes and tickets. */
  private readonly gathered: ArrivalNode[] = [];
  private readonly gatheredTickets: Ticket[] = [];

  /**
   * @param lane the lane of its classes' orders (see `ArrivalOrder`): 1 by default, where the
   *   engine's node (its slot, on lane 0) then serves as the class's node too; a policy nesting
   *   greedy queues that uses lane 1 itself gives them another.
   */
  constructor(
    private readonly context: PolicyContext,
    private readonly order: ServiceOrder = "oldest",
    readonly name = "greedy",
    private readonly lane = 1,
  ) {}

  add(ticket: Ticket, _now?: number, slot?: TicketSlot): void {
    // A ticket already held moves to its new position (never held twice).
    const held = slot ? (slot.policyData as ArrivalNode | undefined) : this.nodes.get(ticket.id);
    if (held) this.drop(held);
    const order = this.classOf(ticket);
    // A slot that is this ticket's arrival node joins the class's order itself (no node of its own).
    let node = order.takeSlot(slot, ticket);
    if (!node) {
      node = order.addNode(ticket);
      // The node's own free field names the slot back, for a caller that asks which slots a poll took.
      node.policyData = slot;
    }
    if (slot) slot.policyData = node;
    else this.nodes.set(ticket.id, node);
    this.count++;
    this.dirty = true;
  }

  remove(ticketId: string, slot?: TicketSlot): void {
    const node = slot ? (slot.policyData as ArrivalNode | undefined) : this.nodes.get(ticketId);
    if (node) this.drop(node);
  }

  /**
   * The games to form now. With `slots`, each proposed ticket's slot (the one it was added with,
   * or undefined) is pushed onto it, ticket by ticket in the games' order: a policy nesting this
   * one finds its own record of the tickets there, without a map by id.
   */
  poll(now = 0, slots?: (TicketSlot | undefined)[]): Ticket[][] {
    // With avoidance a repeat may become allowed with time alone.
    if (!this.dirty && !this.context.avoid) return [];
    this.dirty = false;
    const games: Ticket[][] = [];
    for (let game = this.nextGame(now, slots); game; game = this.nextGame(now, slots)) games.push(game);
    return games;
  }

  nextWakeup(now = 0): number | undefined {
    const avoid = this.context.avoid;
    if (!avoid) return undefined;
    // The next time a waiting ticket's fallback wait ends (a repeat with it may then play).
    let next: number | undefined;
    for (const index of this.classList) {
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
    return this.count;
  }

  /**
   * The only tickets that can belong to the first game in service order: per class, its
   * oldest (or newest) `seats / party size` tickets, their nodes pushed onto `out` in service
   * order (a node's `policyData` is the slot its ticket was added with, if any).
   */
  candidateNodes(out: ArrivalNode[]): void {
    const nodes = this.gather();
    for (const node of nodes) out.push(node);
    empty(nodes);
  }

  /** Take a node out of its class and of the map (a node no longer held is ignored). */
  private drop(node: ArrivalNode): void {
    const ticket = node.ticket;
    if (!this.classOf(ticket).removeNode(node)) return;
    if (this.nodes.size > 0 && this.nodes.get(ticket.id) === node) this.nodes.delete(ticket.id);
    this.count--;
  }

  private classOf(ticket: Ticket): ArrivalOrder {
    const code = classCode(ticket.players.length, ticket.side);
    // Filled up to the code first, so that the array stays packed (a holey one is slower to read).
    while (this.classes.length <= code) this.classes.push(undefined);
    let index = this.classes[code];
    if (!index) {
      this.classes[code] = index = new ArrivalOrder(this.lane);
      this.classList.push(index);
    }
    return index;
  }

  /** The candidates' nodes (see {@link candidates}) in the scratch array, in service order. */
  private gather(): ArrivalNode[] {
    const k = this.context.teamSize;
    const newest = this.order === "newest";
    const nodes = this.gathered;
    empty(nodes);
    let classesUsed = 0;
    for (const index of this.classList) {
      const sample = index.first();
      if (!sample) continue;
      const seats = sample.side ? k : 2 * k;
      const cap = this.context.avoid ? Infinity : Math.floor(seats / sample.players.length);
      index.collect(cap, newest, nodes);
      classesUsed++;
    }
    if (classesUsed > 1) nodes.sort(newest ? (a, b) => compareNodes(b, a) : compareNodes);
    return nodes;
  }

  /** The first game in service order, its tickets forgotten; undefined when none can be assembled. */
  private nextGame(now: number, slots?: (TicketSlot | undefined)[]): Ticket[] | undefined {
    const nodes = this.gather();
    const candidates = this.gatheredTickets;
    for (let i = 0; i < nodes.length; i++) candidates.push(nodes[i].ticket);
    const avoid = this.context.avoid;
    const game = !avoid
      ? findOldestGame(candidates, this.context.teamSize)
      : (findOldestGame(candidates, this.context.teamSize, (a, b) => !avoid.isRepeat(a, b, now)) ??
        findOldestGame(candidates, this.context.teamSize, (a, b) => repeatAllowedAt(a, b, avoid) <= now));
    if (game) {
      for (const t of game) {
        const node = nodes[candidates.indexOf(t)];
        if (slots) slots.push(node.policyData as TicketSlot | undefined);
        this.drop(node);
      }
    }
    empty(nodes);
    empty(candidates);
    return game;
  }
}

/**
 * Empty a scratch list by popping: a store to `length` goes through a builtin V8 does not inline,
 * which cost more than the pops of the few candidates a poll gathers (about 4% of a step).
 */
function empty(list: unknown[]): void {
  while (list.length > 0) list.pop();
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
