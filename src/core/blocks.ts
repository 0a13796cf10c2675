/**
 * Blocks: accounts that must never play in one match (a player blocked another, e.g. after a
 * report). The rule is the queue option `blocked`, a predicate on two accounts that the engine asks
 * about the players of every game before it forms it; {@link BlockList} is a ready store for it.
 * An account is a player's `playerId`, else its `sessionId` (see {@link accountOf}).
 */
import type { Player, Ticket } from "./types.js";

/**
 * The queue option `blocked`: true when accounts `a` and `b` must never play in one match. The
 * engine asks once per pair of players of different tickets, in either order, so answer for both
 * directions (a block by either side). It runs for every game the queue forms: keep it synchronous
 * and cheap (an in-memory lookup, e.g. {@link BlockList.has}).
 */
export type BlockRule = (a: string, b: string) => boolean;

/** A player's account: its stable `playerId` if it has one, else its `sessionId` (unique anyway). */
export const accountOf = (player: Player): string => player.playerId ?? player.sessionId;

/**
 * Who blocked whom, in memory, for the queue option `blocked`: `blocked: (a, b) => blocks.has(a, b)`.
 * A block goes one way (`block(reporter, reported)`) and keeps the two apart both ways. The server
 * fills it (from its own storage, or when a player reports another); it is as big as the blocks
 * put in it. With several processes each holds its own copy: fill every process's list alike.
 */
export class BlockList {
  private readonly byAccount = new Map<string, Set<string>>();
  private count = 0;

  /** `account` blocks `other`: the queue never puts the two in one match. */
  block(account: string, other: string): void {
    if (account === other) return;
    let blocked = this.byAccount.get(account);
    if (!blocked) this.byAccount.set(account, (blocked = new Set()));
    if (blocked.has(other)) return;
    blocked.add(other);
    this.count++;
  }

  /** `account` lifts its block of `other` (a block by `other` stays). */
  unblock(account: string, other: string): void {
    const blocked = this.byAccount.get(account);
    if (!blocked?.delete(other)) return;
    this.count--;
    if (blocked.size === 0) this.byAccount.delete(account);
  }

  /** True when either account blocked the other. */
  has(a: string, b: string): boolean {
    return (this.byAccount.get(a)?.has(b) ?? false) || (this.byAccount.get(b)?.has(a) ?? false);
  }

  /** Number of blocks (each direction counts once). */
  get size(): number {
    return this.count;
  }
}

/**
 * The first blocked pair among `tickets` (two tickets with players whose accounts are blocked), in
 * the list's order, or undefined. Pairs within one ticket (a party) are its players' own choice.
 */
export function blockedPair(tickets: readonly Ticket[], blocked: BlockRule): [Ticket, Ticket] | undefined {
  for (let i = 1; i < tickets.length; i++) {
    const b = tickets[i];
    for (let j = 0; j < i; j++) if (blockedBetween(tickets[j], b, blocked)) return [tickets[j], b];
  }
  return undefined;
}

/** True when a player of `a` and a player of `b` are blocked. */
export function blockedBetween(a: Ticket, b: Ticket, blocked: BlockRule): boolean {
  for (const p of a.players) for (const q of b.players) if (blocked(accountOf(p), accountOf(q))) return true;
  return false;
}
