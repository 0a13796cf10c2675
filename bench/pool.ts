/**
 * Pools of waiting solos for the `best-game` benchmark: uniform random ratings on [0, 3000),
 * seeded, held by a {@link BestGamePolicy} with the queue defaults (rating-sum imbalance,
 * default window and budget, threshold Infinity).
 */
import { ratingSumDifference } from "../src/core/imbalance.js";
import type { Ticket } from "../src/core/types.js";
import { BestGamePolicy } from "../src/policies/best-game.js";
import { defaultPolicies } from "../src/policies/default-registry.js";
import { Random } from "../src/sim/random.js";
import { twoTeamFields } from "../src/core/policy.js";

export const RATING_MAX = 3000;

/** `count` solos with uniform ratings; ids start at `from`. */
export function solos(random: Random, from: number, count: number, prefix = "w"): Ticket[] {
  const tickets: Ticket[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${from + i}`;
    tickets[i] = { id, players: [{ sessionId: id, rating: random.uniform() * RATING_MAX }], enqueuedAt: from + i };
  }
  return tickets;
}

/** A best-game policy as the engine would create it for a default queue of `teamSize`. */
export function bestGamePolicy(teamSize: number): BestGamePolicy {
  return defaultPolicies.create(
    "best-game",
    { ...twoTeamFields(teamSize), imbalance: ratingSumDifference, imbalanceSpec: { kind: "rating-sum" } },
    {},
  ) as BestGamePolicy;
}

/**
 * A waiting pool that grows through the benchmark's sizes: `growTo(n)` adds uniform solos.
 */
export class GrowingPool {
  readonly policy: BestGamePolicy;
  readonly ratings: number[] = [];
  private readonly random: Random;

  constructor(
    readonly teamSize: number,
    seed: number,
  ) {
    this.policy = bestGamePolicy(teamSize);
    this.random = new Random(seed);
  }

  get size(): number {
    return this.policy.size;
  }

  /** The tickets that `growTo(n)` would add, created but not yet added (to measure them apart). */
  nextTickets(n: number): Ticket[] {
    return solos(this.random, this.size, n - this.size);
  }

  add(tickets: readonly Ticket[]): void {
    for (const t of tickets) this.policy.add(t);
    for (const t of tickets) this.ratings.push(t.players[0].rating);
  }
}

/**
 * The timed operation: one newcomer joins (insert), the best game is looked up (query: the
 * heap's top after dropping stale entries, i.e. what `poll` would form first), and the newcomer
 * leaves again (delete), so the pool stays at n tickets. Newcomers cycle through pre-made
 * tickets with fresh uniform ratings.
 */
export class JoinQueryLeave {
  private next = 0;
  private readonly newcomers: Ticket[];
  /** Sum of the imbalances seen, so that the query cannot be optimised away. */
  checksum = 0;

  constructor(
    private readonly policy: BestGamePolicy,
    seed: number,
    count = 4096,
  ) {
    this.newcomers = solos(new Random(seed), 0, count, "n");
  }

  run(): void {
    const t = this.newcomers[this.next];
    this.next = (this.next + 1) % this.newcomers.length;
    this.policy.add(t, 0);
    const best = this.policy.peek();
    if (best) this.checksum += best.imbalance;
    this.policy.remove(t.id);
  }
}
