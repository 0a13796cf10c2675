/**
 * Colyseus's `QueueRoom` (0.18, `@colyseus/core/build/rooms/QueueRoom.mjs`) as a policy, so the
 * simulator can put our policies beside it on the same arrivals. Only the simulator registers it
 * (it is a model of another product, not a policy to serve).
 *
 * What it does, as QueueRoom does: on a timer (`cycleTickInterval`, 1 s, from time 0), it sorts
 * every waiting client by rank and walks the sorted list, putting each client in the current group
 * unless `compare` refuses it (QueueRoom's default: |rank − group's mean rank| < 10 or at most 2 ×
 * the group's mean rank, nearly always true for positive ratings), in which case a new group
 * starts; a group that reaches `maxPlayers` (the queue's players per game, `context.seats`: 2 ×
 * teamSize in two teams, k in a free-for-all of k) is ready and plays. Nothing forms between
 * cycles (a join only queues). Its incomplete-group and priority options are off by
 * default there and not modelled; parties are counted by seats.
 */
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { PolicyRegistry } from "../core/policy.js";
import { meanRating, type Ticket } from "../core/types.js";
import { defaultPolicies } from "../policies/default-registry.js";

class QueueRoomModel implements Policy {
  readonly name = "queue-room";
  private readonly waiting = new Map<string, Ticket>();
  private nextCycle: number;

  constructor(
    private readonly seats: number,
    private readonly cycleMs: number,
  ) {
    this.nextCycle = cycleMs;
  }

  add(ticket: Ticket): void {
    this.waiting.set(ticket.id, ticket);
  }

  remove(ticketId: string): void {
    this.waiting.delete(ticketId);
  }

  poll(now: number): Ticket[][] {
    if (now < this.nextCycle) return [];
    this.nextCycle = (Math.floor(now / this.cycleMs) + 1) * this.cycleMs;
    const sorted = [...this.waiting.values()].sort((a, b) => meanRating(a) - meanRating(b));
    const games: Ticket[][] = [];
    let group: Ticket[] = [];
    let players = 0;
    let total = 0;
    for (const t of sorted) {
      const rank = meanRating(t);
      const average = players > 0 ? total / players : 0;
      const accepts = average <= 0 || Math.abs(rank - average) < 10 || Math.abs(rank - average) / average <= 2;
      if (!accepts || players + t.players.length > this.seats) {
        group = [];
        players = 0;
        total = 0;
      }
      group.push(t);
      players += t.players.length;
      total += rank * t.players.length;
      if (players === this.seats) {
        games.push(group);
        for (const g of group) this.waiting.delete(g.id);
        group = [];
        players = 0;
        total = 0;
      }
    }
    return games;
  }

  nextWakeup(): number | undefined {
    return this.waiting.size > 0 ? this.nextCycle : undefined;
  }
}

/** The model as a policy definition (`cycleMs`: QueueRoom's `cycleTickInterval`, default 1000). */
export const queueRoomModel: PolicyDefinition = {
  name: "queue-room",
  summary:
    "A model of Colyseus's QueueRoom: every second, sort by rank and cut consecutive groups of a game's players.",
  // QueueRoom groups clients without teams; the engine seats each group in the queue's shape.
  shapes: ["two-teams", "teams", "free-for-all"],
  create(context: PolicyContext, params: PolicyParams): Policy {
    const cycleMs = typeof params.cycleMs === "number" && params.cycleMs > 0 ? params.cycleMs : 1000;
    return new QueueRoomModel(context.seats, cycleMs);
  },
};

/** The built-in policies and the QueueRoom model, for simulations that compare with QueueRoom. */
export function policiesWithQueueRoom(): PolicyRegistry {
  return new PolicyRegistry([...defaultPolicies.all(), queueRoomModel]);
}
