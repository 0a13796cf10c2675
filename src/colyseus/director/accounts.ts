/**
 * One account, one place, in the whole queue session: every player the queue holds (forming a
 * party, waiting, in a ready check, in a game being created, seated and still connected) is a
 * {@link Member}, and an account (`Player.playerId`) is at most one member. The member table keeps
 * the index by account as members come and go, so every path that adds or drops a member (joins,
 * restores, removals, leaves) keeps it without a line of its own. A player without `playerId` is
 * its own account, known by its session id, which is unique anyway.
 *
 * What a second join of a held account does is the queue option `duplicateAccount`
 * ({@link DuplicateAccount}); {@link accountRefusal} says when it is refused.
 */
import type { Member, Place } from "./tickets.js";

/** The queue option `duplicateAccount`: refuse the second join, or let it replace the first session. */
export type DuplicateAccount = "refuse" | "replace";

/** The places whose holder a new session may replace: they hold no match yet. */
const REPLACEABLE: ReadonlySet<Place> = new Set<Place>(["party", "waiting"]);

/** The queue's members by session id, indexed by account. */
export class MemberTable extends Map<string, Member> {
  private readonly byAccount = new Map<string, string>();

  override set(sessionId: string, member: Member): this {
    const before = super.get(sessionId);
    if (before) this.unindex(sessionId, before);
    super.set(sessionId, member);
    const account = member.player.playerId;
    if (account !== undefined) this.byAccount.set(account, sessionId);
    return this;
  }

  override delete(sessionId: string): boolean {
    const member = super.get(sessionId);
    if (!member) return false;
    this.unindex(sessionId, member);
    return super.delete(sessionId);
  }

  override clear(): void {
    this.byAccount.clear();
    super.clear();
  }

  /** The session id of the member holding account `playerId` (undefined: none). */
  holder(playerId: string): string | undefined {
    return this.byAccount.get(playerId);
  }

  private unindex(sessionId: string, member: Member): void {
    const account = member.player.playerId;
    if (account !== undefined && this.byAccount.get(account) === sessionId) this.byAccount.delete(account);
  }
}

/** Whether a new session may replace a holder in `place` (only before it has a match). */
export function replaceable(place: Place): boolean {
  return REPLACEABLE.has(place);
}

/**
 * Why a join of account `playerId`, held by a member in `place` (or by a place being resumed,
 * `place` undefined), is refused under `mode`; undefined when the new session replaces the holder.
 */
export function accountRefusal(playerId: string, place: Place | undefined, mode: DuplicateAccount): string | undefined {
  const account = `account ${JSON.stringify(playerId)}`;
  if (place === undefined) return `${account} is already in this queue (its place is being resumed)`;
  if (mode === "refuse") return `${account} is already in this queue`;
  if (!replaceable(place))
    return `${account} has a match in progress in this queue; a new session cannot replace it until that match ends`;
  return undefined;
}
