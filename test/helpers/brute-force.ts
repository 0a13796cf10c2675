/**
 * Brute-force references for the engine, written independently of src/: they enumerate
 * every assignment or every subset instead of using subset-sum tables or pruned searches.
 * Only for small inputs.
 */
import { ratingSumDifference, type ImbalanceFn } from "../../src/core/imbalance.js";
import type { Player, Ticket } from "../../src/core/types.js";

export interface BruteSplit {
  teamA: Ticket[];
  teamB: Ticket[];
}

const playersOf = (tickets: readonly Ticket[]): Player[] => tickets.flatMap((t) => [...t.players]);
const count = (tickets: readonly Ticket[]): number => tickets.reduce((n, t) => n + t.players.length, 0);

/** Every assignment of whole tickets to two teams that seats exactly `k` per team and honours sides. */
export function allValidSplits(tickets: readonly Ticket[], k: number): BruteSplit[] {
  if (tickets.length > 20) throw new Error("brute force: too many tickets");
  if (tickets.some((t) => t.players.length === 0)) return [];
  const splits: BruteSplit[] = [];
  for (let mask = 0; mask < 1 << tickets.length; mask++) {
    const teamA: Ticket[] = [];
    const teamB: Ticket[] = [];
    tickets.forEach((t, i) => (mask & (1 << i) ? teamA : teamB).push(t));
    if (count(teamA) !== k || count(teamB) !== k) continue;
    if (teamA.some((t) => t.side === "B") || teamB.some((t) => t.side === "A")) continue;
    splits.push({ teamA, teamB });
  }
  return splits;
}

export function bruteFeasible(tickets: readonly Ticket[], k: number): boolean {
  return allValidSplits(tickets, k).length > 0;
}

/** The least imbalance over every valid split, or undefined when there is none. */
export function bruteMinImbalance(
  tickets: readonly Ticket[],
  k: number,
  imbalance: ImbalanceFn = ratingSumDifference,
): number | undefined {
  let best: number | undefined;
  for (const s of allValidSplits(tickets, k)) {
    const value = imbalance(playersOf(s.teamA), playersOf(s.teamB));
    if (best === undefined || value < best) best = value;
  }
  return best;
}

/** Lexicographic order of ascending index lists. */
function compareIndexLists(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * The oldest game in `pool` (given in arrival order): among all subsets that can be split into
 * two valid teams, the one whose ascending arrival positions are lexicographically smallest.
 * Returns those positions, or undefined when the pool holds no game.
 */
export function bruteOldestGame(pool: readonly Ticket[], k: number): number[] | undefined {
  if (pool.length > 16) throw new Error("brute force: pool too large");
  const seats: number[][] = [];
  for (let mask = 1; mask < 1 << pool.length; mask++) {
    const members: number[] = [];
    for (let i = 0; i < pool.length; i++) if (mask & (1 << i)) members.push(i);
    if (count(members.map((i) => pool[i])) === 2 * k) seats.push(members);
  }
  seats.sort(compareIndexLists);
  return seats.find((members) =>
    bruteFeasible(
      members.map((i) => pool[i]),
      k,
    ),
  );
}

/**
 * Reference greedy: the pool in arrival order (enqueuedAt, then insertion); after each arrival
 * it takes the oldest game, again and again, until none is left.
 */
export class ReferenceGreedy {
  private pool: { ticket: Ticket; seq: number }[] = [];
  private seq = 0;

  constructor(private readonly k: number) {}

  get waiting(): Ticket[] {
    return this.pool.map((e) => e.ticket);
  }

  /** Tickets arrive together; then the games are taken, oldest first. */
  add(...tickets: Ticket[]): Ticket[][] {
    for (const ticket of tickets) this.pool.push({ ticket, seq: this.seq++ });
    this.pool.sort((a, b) => a.ticket.enqueuedAt - b.ticket.enqueuedAt || a.seq - b.seq);
    const games: Ticket[][] = [];
    for (let game = bruteOldestGame(this.waiting, this.k); game; game = bruteOldestGame(this.waiting, this.k)) {
      games.push(game.map((i) => this.pool[i].ticket));
      const taken = new Set(game);
      this.pool = this.pool.filter((_, i) => !taken.has(i));
    }
    return games;
  }

  remove(ticketId: string): void {
    this.pool = this.pool.filter((e) => e.ticket.id !== ticketId);
  }
}
