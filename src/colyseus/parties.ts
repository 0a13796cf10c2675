/**
 * Premade parties: a leader opens a party of a chosen size and receives an unguessable code
 * (128 random bits); members join with the code. Pure bookkeeping (no Colyseus, no clock): the
 * queue session decides when a party's ticket enters matching.
 */
import { createHash, randomBytes } from "node:crypto";
import { MatchmakerError } from "../core/errors.js";
import type { Side } from "../core/types.js";

/** A party code: 16 random bytes in base64url, 22 characters. */
export const PARTY_CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A fresh party code from the system's cryptographic random source (128 bits). */
export function newPartyCode(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * The ticket id of a party: derived from its code by SHA-256, so it is stable across restarts
 * and shows nothing of the code (operators see ticket ids in the monitor).
 */
export function partyTicketId(code: string): string {
  return `party-${createHash("sha256").update(code).digest("base64url").slice(0, 16)}`;
}

/**
 * Where a party stands:
 * - `forming`: gathering members; enters matching by itself once complete (or on `start`);
 * - `held`: a member left after the party had entered matching; only the leader's `start` puts it back;
 * - `queued`: its ticket is waiting in the engine;
 * - `matched`: its ticket is in a match (ready check or game creation).
 */
export type PartyStatus = "forming" | "held" | "queued" | "matched";

/** One party. `members` are player ids (sessionIds) in joining order; the leader is one of them. */
export interface Party {
  readonly id: string;
  readonly code: string;
  leader: string;
  /** The size the leader asked for. */
  readonly size: number;
  readonly members: string[];
  /** The side the leader insists on, for the whole party. */
  readonly side?: Side;
  /** The zones the leader chose for the whole party (absent: every zone that admits all members). */
  readonly zones?: readonly string[];
  status: PartyStatus;
}

/** What a party member learns in a `party` message. */
export interface PartyMessage {
  /** The code members join with (`partyCode`); share it only with your friends. */
  readonly code: string;
  /** The size the leader asked for. */
  readonly size: number;
  /** How many players are in the party now. */
  readonly members: number;
  /** Whether the receiver leads the party (only the leader may `start`). */
  readonly leader: boolean;
  readonly status: PartyStatus;
  /**
   * What just happened. `member_replaced`: a member's account joined again from a new session,
   * which took its slot (queue option `duplicateAccount: "replace"`); the party is unchanged.
   */
  readonly event: "created" | "member_joined" | "member_left" | "member_replaced" | "queued" | "reconnected";
  /** With `member_left`: why that member is gone. */
  readonly reason?: string;
}

/** Why a party code cannot be joined, or undefined when it can. */
export type PartyJoinProblem = "no such party" | "the party is full" | "the party is already in the queue";

/** The parties of one queue, indexed by id, code and member. */
export class PartyBook {
  private readonly byId = new Map<string, Party>();
  private readonly byCode = new Map<string, Party>();
  private readonly byPlayer = new Map<string, Party>();

  /** @param newCode where codes come from (tests may inject a deterministic source). */
  constructor(private readonly newCode: () => string = newPartyCode) {}

  /** Open a party led by `leaderId`, of `size` players. */
  create(
    leaderId: string,
    size: number,
    choices: { side?: Side | undefined; zones?: readonly string[] | undefined } = {},
  ): Party {
    const { side, zones } = choices;
    if (this.byPlayer.has(leaderId)) throw new Error(`invariant broken: player "${leaderId}" is already in a party`);
    let code = this.newCode();
    // A collision of 128 random bits does not happen; an injected source might repeat itself.
    while (this.byCode.has(code)) code = this.newCode();
    const party: Party = {
      id: partyTicketId(code),
      code,
      leader: leaderId,
      size,
      members: [leaderId],
      status: "forming",
      ...(side ? { side } : {}),
      ...(zones ? { zones } : {}),
    };
    this.byId.set(party.id, party);
    this.byCode.set(code, party);
    this.byPlayer.set(leaderId, party);
    return party;
  }

  /** Why `code` cannot be joined now (undefined: it can). */
  joinProblem(code: string): PartyJoinProblem | undefined {
    const party = this.byCode.get(code);
    if (!party) return "no such party";
    if (party.members.length >= party.size) return "the party is full";
    if (party.status === "queued" || party.status === "matched") return "the party is already in the queue";
    return undefined;
  }

  /** Add a member by code; throws with the {@link PartyJoinProblem} when it cannot join. */
  join(code: string, playerId: string): Party {
    const problem = this.joinProblem(code);
    if (problem) throw new MatchmakerError("join_refused", problem, "partyCode");
    if (this.byPlayer.has(playerId)) throw new Error(`invariant broken: player "${playerId}" is already in a party`);
    const party = this.byCode.get(code)!;
    party.members.push(playerId);
    this.byPlayer.set(playerId, party);
    return party;
  }

  /**
   * A member's slot goes to another player id (a new session of the same account): same place in
   * the party, the lead if it had it. Throws if `playerId` is not in a party or `by` is in one.
   */
  replaceMember(playerId: string, by: string): Party {
    const party = this.byPlayer.get(playerId);
    if (!party) throw new Error(`invariant broken: player "${playerId}" is not in a party`);
    if (this.byPlayer.has(by)) throw new Error(`invariant broken: player "${by}" is already in a party`);
    party.members[party.members.indexOf(playerId)] = by;
    if (party.leader === playerId) party.leader = by;
    this.byPlayer.delete(playerId);
    this.byPlayer.set(by, party);
    return party;
  }

  get(partyId: string): Party | undefined {
    return this.byId.get(partyId);
  }

  /** The party a player belongs to. */
  of(playerId: string): Party | undefined {
    return this.byPlayer.get(playerId);
  }

  isComplete(party: Party): boolean {
    return party.members.length >= party.size;
  }

  /**
   * Take a member out. The earliest remaining member leads if the leader left; a party left
   * empty is dissolved (its code stops working).
   */
  remove(playerId: string): { party: Party; dissolved: boolean } | undefined {
    const party = this.byPlayer.get(playerId);
    if (!party) return undefined;
    this.byPlayer.delete(playerId);
    party.members.splice(party.members.indexOf(playerId), 1);
    if (party.members.length === 0) {
      this.dissolve(party);
      return { party, dissolved: true };
    }
    if (party.leader === playerId) party.leader = party.members[0]!;
    return { party, dissolved: false };
  }

  /** Forget a party (it is seated, or empty); its code stops working. */
  dissolve(party: Party): void {
    this.byId.delete(party.id);
    this.byCode.delete(party.code);
    for (const m of party.members) if (this.byPlayer.get(m) === party) this.byPlayer.delete(m);
  }

  /**
   * Bring back a dissolved party (its seats went unused) with the `members` still here, under its
   * id and code, in `status`; its leader leads again if still here, else the earliest member.
   */
  restore(party: Party, members: readonly string[], status: PartyStatus): Party {
    const restored: Party = {
      ...party,
      leader: members.includes(party.leader) ? party.leader : members[0]!,
      members: [...members],
      status,
    };
    this.byId.set(restored.id, restored);
    this.byCode.set(restored.code, restored);
    for (const m of members) this.byPlayer.set(m, restored);
    return restored;
  }

  /** Every party, for inspection. */
  all(): IterableIterator<Party> {
    return this.byId.values();
  }
}
