/**
 * Xu, Yu and Wu, "Rule Designs for Optimal Online Game Matchmaking", section III: how a queue
 * with premade parties serves them.
 *
 * - `fifo`: one central queue; a game forms as soon as one can, oldest tickets first
 *   (the `greedy` policy under the paper's name).
 * - `lifo`: the same, newest tickets first.
 * - `packing`: tickets are packed into teams of exactly k as soon as possible (a subset-sum
 *   packing that never splits a party and prefers the oldest tickets); packed teams are then
 *   matched in FIFO order (two, or as many as the game has teams). For 2v2 this is FIFO. A
 *   free-for-all has no teams to pack: packing refuses it.
 * - `two-queue`: solos play only with solos, premade parties only with parties of their size.
 *
 * These decide who plays and when; the shared assembly still picks the fairest split of them.
 * FIFO, LIFO and the two queues are greedy queues, and serve every shape greedy serves.
 */
import * as v from "valibot";
import { ArrivalIndex, type Arrival } from "../core/arrival-order.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND, teamCountOf } from "../core/shape.js";
import type { Side, Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { GreedyPolicy, GreedyQueue, withoutAvoidance } from "./greedy.js";

const NoParams = v.strictObject({}, unknownKeyMessage);

/** One greedy queue per party size: solos meet solos, duos meet duos. */
export class TwoQueuePolicy implements Policy {
  readonly name = "two-queue";
  private readonly queues = new Map<number, GreedyQueue>();
  /** Each waiting ticket's place in its queue (the queue of its party's size). */
  private readonly held = new Map<string, Arrival>();

  constructor(private readonly context: PolicyContext) {}

  /** Number of waiting tickets. */
  get size(): number {
    return this.held.size;
  }

  add(ticket: Ticket): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.held.set(ticket.id, this.queueOf(ticket).add(ticket));
  }

  remove(ticketId: string): void {
    const arrival = this.held.get(ticketId);
    if (!arrival) return;
    this.held.delete(ticketId);
    this.queueOf(arrival.ticket).remove(arrival);
  }

  private queueOf(ticket: Ticket): GreedyQueue {
    const size = ticket.players.length;
    let queue = this.queues.get(size);
    if (!queue) this.queues.set(size, (queue = new GreedyQueue(withoutAvoidance(this.context))));
    return queue;
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (const queue of this.queues.values()) {
      for (const game of queue.poll(now)) {
        // The queue let the game's tickets go.
        for (const { ticket } of game) this.held.delete(ticket.id);
        games.push(game.map((arrival) => arrival.ticket));
      }
    }
    return games;
  }

  nextWakeup(): undefined {
    return undefined;
  }
}

/** A packed team: tickets totalling exactly k players, all on one side (or choice-free). */
interface PackedTeam {
  readonly tickets: Ticket[];
  readonly side: Side | undefined;
  /** Arrival of its oldest ticket: teams are served in this order. */
  readonly since: number;
}

export class PackingPolicy implements Policy {
  readonly name = "packing";
  private readonly loose = new ArrivalIndex();
  private teams: PackedTeam[] = [];
  private readonly teamOf = new Map<string, PackedTeam>();

  constructor(private readonly context: PolicyContext) {}

  add(ticket: Ticket): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.loose.add(ticket);
    this.pack();
  }

  remove(ticketId: string): void {
    if (this.loose.remove(ticketId)) return;
    const team = this.teamOf.get(ticketId);
    if (!team) return;
    // The team lost a member: the rest are loose again (at their original places) and re-pack.
    this.teams = this.teams.filter((t) => t !== team);
    for (const t of team.tickets) {
      this.teamOf.delete(t.id);
      if (t.id !== ticketId) this.loose.add(t);
    }
    this.pack();
  }

  poll(): Ticket[][] {
    const games: Ticket[][] = [];
    for (;;) {
      const game = this.firstGame();
      if (!game) return games;
      for (const team of game) {
        this.teams = this.teams.filter((t) => t !== team);
        for (const t of team.tickets) this.teamOf.delete(t.id);
      }
      games.push(game.flatMap((team) => team.tickets));
    }
  }

  nextWakeup(): undefined {
    return undefined;
  }

  /** Pack loose tickets into teams while the oldest-first subset-sum finds one. */
  private pack(): void {
    for (let team = this.nextTeam(); team; team = this.nextTeam()) {
      for (const t of team.tickets) {
        this.loose.remove(t.id);
        this.teamOf.set(t.id, team);
      }
      this.teams.push(team);
      this.teams.sort((a, b) => a.since - b.since);
    }
  }

  /** The lexicographically oldest set of loose tickets, of one side, that fills a team exactly. */
  private nextTeam(): PackedTeam | undefined {
    const chosen = oldestExactFill([...this.loose.oldest()], this.context.teamSize);
    if (!chosen) return undefined;
    return {
      tickets: chosen,
      side: chosen.find((t) => t.side)?.side,
      since: Math.min(...chosen.map((t) => t.enqueuedAt)),
    };
  }

  /** The oldest packed teams that make a game: two that can face each other, or the oldest T of T teams. */
  private firstGame(): PackedTeam[] | undefined {
    const count = teamCountOf(this.context.shape);
    if (count !== 2) return this.teams.length >= count ? this.teams.slice(0, count) : undefined;
    return this.firstOpposingPair();
  }

  /** The two oldest teams that can face each other (not both bound to the same side). */
  private firstOpposingPair(): [PackedTeam, PackedTeam] | undefined {
    for (let i = 0; i < this.teams.length; i++) {
      for (let j = i + 1; j < this.teams.length; j++) {
        const a = this.teams[i].side;
        const b = this.teams[j].side;
        if (!a || !b || a !== b) return [this.teams[i], this.teams[j]];
      }
    }
    return undefined;
  }
}

/**
 * The oldest-first subset of `tickets` (in arrival order) whose players number exactly `k`,
 * without mixing side A and side B tickets (choice-free tickets go with either).
 */
function oldestExactFill(tickets: readonly Ticket[], k: number): Ticket[] | undefined {
  const chosen: Ticket[] = [];
  const dead = new Set<string>();
  const visit = (i: number, players: number, bound: Side | undefined): boolean => {
    if (players === k) return true;
    if (i >= tickets.length) return false;
    const key = `${i}|${players}|${bound ?? ""}`;
    if (dead.has(key)) return false;
    const t = tickets[i];
    if (players + t.players.length <= k && (!t.side || !bound || t.side === bound)) {
      chosen.push(t);
      if (visit(i + 1, players + t.players.length, bound ?? t.side)) return true;
      chosen.pop();
    }
    if (visit(i + 1, players, bound)) return true;
    dead.add(key);
    return false;
  };
  return visit(0, 0, undefined) ? chosen : undefined;
}

function noParams(name: string, params: PolicyParams): void {
  parseConfig(`${name} policy parameters`, NoParams, params);
}

export const fifo: PolicyDefinition = {
  name: "fifo",
  avoidsRepeats: true,
  shapes: EVERY_SHAPE_KIND,
  summary: "Xu et al.'s FIFO central queue: a game as soon as one can form, oldest tickets first.",
  create: (context, params) => (noParams("fifo", params), new GreedyPolicy(context, "oldest", "fifo")),
};

export const lifo: PolicyDefinition = {
  name: "lifo",
  avoidsRepeats: true,
  shapes: EVERY_SHAPE_KIND,
  summary: "Xu et al.'s LIFO central queue: a game as soon as one can form, newest tickets first.",
  create: (context, params) => (noParams("lifo", params), new GreedyPolicy(context, "newest", "lifo")),
};

export const packing: PolicyDefinition = {
  name: "packing",
  shapes: ["two-teams", "teams"],
  summary: "Xu et al.'s packing: pack teams of exactly k from parties (oldest first), then match packed teams FIFO.",
  create: (context, params) => (noParams("packing", params), new PackingPolicy(context)),
};

export const twoQueue: PolicyDefinition = {
  name: "two-queue",
  shapes: EVERY_SHAPE_KIND,
  summary: "Xu et al.'s two queues: solos only with solos, premade parties only with parties of the same size.",
  create: (context, params) => (noParams("two-queue", params), new TwoQueuePolicy(context)),
};
