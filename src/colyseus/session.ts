/**
 * The queue's ticket lifecycle, without Colyseus: players join (alone or in parties), wait in
 * the engine, are matched, accept or decline a ready check, drop and come back, are seated or
 * put back in the queue at their original place. `MatchmakerRoom` drives one `QueueSession`
 * with real clients; tests drive the same class with injected time and no sockets.
 *
 * Every player the session knows is in exactly one place ({@link Place}); a player leaves the
 * session only by leaving, by being removed with a reason the client is told (decline, ready
 * check timeout, grace expired, replaced by a new session of its account), or, once seated, by
 * leaving for their game. An account (`Player.playerId`) is at most one player of the session
 * (see `director/accounts.ts`); option `duplicateAccount` says what a second join of it does.
 */
import { MatchmakerError } from "../core/errors.js";
import type { Matchmaker } from "../core/matchmaker.js";
import type { Match, Player, Side, Ticket } from "../core/types.js";
import {
  TicketDirector,
  type MatchExit,
  type Member,
  type OffenceJudge,
  type PenaltyNotice,
  type Place,
  type RequeueNotice,
  type SessionEffects,
} from "./director/tickets.js";
import { DEFAULTS } from "../options/fields.js";
import type { OffenceKind } from "./offences.js";
import { PartyBook, type Party, type PartyMessage } from "./parties.js";
import { accountRefusal, type DuplicateAccount, type MemberTable } from "./director/accounts.js";
import { SeatWatch, type SeatWatchHost, type SeatWatchOptions } from "./director/seat-watch.js";
import { PendingMatches, type MatchFoundMessage, type PendingMatch, type ReadyCheckOptions } from "./ready-check.js";

export type {
  OffenceJudge,
  PenaltyNotice,
  Place,
  RemovalReason,
  RemovedMessage,
  RequeueNotice,
  RequeueReason,
  RequeuedMessage,
  SeatOutcome,
  SessionEffects,
} from "./director/tickets.js";

/** A join as the session sees it (already validated). */
export interface SessionJoin {
  readonly player: Player;
  readonly side?: Side;
  /** The zones this player (or, for a leader, the party) accepts; absent: every zone that admits it. */
  readonly zones?: readonly string[];
  /** Open a party of this size, led by this player. */
  readonly party?: { readonly size: number };
  /** Join the party with this code. */
  readonly partyCode?: string;
}

export interface QueueSessionOptions {
  readonly matchmaker: Matchmaker;
  readonly effects: SessionEffects;
  /** Players must accept a found match within the timeout. Absent: matches go straight to their game room. */
  readonly readyCheck?: ReadyCheckOptions;
  /** Whether a party leader may `start` before the party is complete. */
  readonly allowPartialParties?: boolean;
  /**
   * What a join of an account already in the queue does: `"refuse"` or `"replace"` the first
   * session where it holds no match yet (the queue option `duplicateAccount`, and its default).
   */
  readonly duplicateAccount?: DuplicateAccount;
  /** Source of party codes (default: 128 random bits). */
  readonly partyCodes?: () => string;
  /** Called for internal failures that are handled but worth logging. */
  readonly onError?: (message: string) => void;
  /**
   * Follow every seat sent until its player enters the game room (see {@link SeatWatch}): the
   * clock, the game-room probes and the no-show notice. Absent: a seated player stays seated.
   */
  readonly seatWatch?: Omit<SeatWatchHost, "settle" | "entered"> & { readonly options?: Partial<SeatWatchOptions> };
  /**
   * Judges the players who break a match (decline, time out while connected, leave or drop during
   * the ready check or the game's creation, let a seat expire while connected): what it costs them
   * is told in their `removed` or `requeued` message. Absent: breaking a match costs nothing more.
   */
  readonly offences?: OffenceJudge;
}

/**
 * A join the session refuses: a `MatchmakerError` with code `"join_refused"`, whose message
 * names the field, e.g. `partyCode: no such party`.
 */
export class JoinRefused extends MatchmakerError {
  constructor(message: string, field?: string) {
    super("join_refused", message, field);
  }
}

/** The answer to a `start` message. */
export type StartResult = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** A read-only view of one player, for tests and operators. */
export interface PlayerView {
  readonly id: string;
  readonly place: Place;
  readonly connected: boolean;
  readonly partyId?: string;
  readonly matchId?: string;
}

/** The lifecycle of every ticket of one queue. */
export class QueueSession {
  readonly matchmaker: Matchmaker;
  readonly parties: PartyBook;
  readonly pending = new PendingMatches();
  /** Where every player is, and every way a matched ticket moves (seat, back to the queue, out). */
  readonly director: TicketDirector;
  /** The seats sent and not yet taken (absent without the `seatWatch` option). */
  readonly seatWatch?: SeatWatch;
  private readonly members: MemberTable;
  /** Accounts whose stored place is being resumed (durable queues), by account, and by session. */
  private readonly resuming = new Map<string, string>();
  private readonly resumingBySession = new Map<string, string>();
  private readonly duplicateAccount: DuplicateAccount;
  private readonly effects: SessionEffects;
  private readonly readyCheck: ReadyCheckOptions | undefined;
  private readonly allowPartialParties: boolean;
  private readonly onError: (message: string) => void;
  private readonly offences: OffenceJudge | undefined;

  constructor(options: QueueSessionOptions) {
    this.matchmaker = options.matchmaker;
    this.effects = options.effects;
    this.readyCheck = options.readyCheck;
    this.allowPartialParties = options.allowPartialParties ?? DEFAULTS.allowPartialParties;
    this.duplicateAccount = options.duplicateAccount ?? DEFAULTS.duplicateAccount;
    this.parties = new PartyBook(options.partyCodes);
    this.onError = options.onError ?? (() => undefined);
    this.offences = options.offences;
    this.director = new TicketDirector({
      matchmaker: this.matchmaker,
      parties: this.parties,
      effects: this.effects,
      tellParty: (party, event, reason) => this.tellParty(party, event, reason),
      onError: this.onError,
      ...(options.offences ? { judge: options.offences } : {}),
    });
    this.members = this.director.members;
    if (options.seatWatch) {
      const { options: watchOptions, ...host } = options.seatWatch;
      this.seatWatch = new SeatWatch(
        {
          ...host,
          onError: host.onError ?? this.onError,
          settle: (settled, now) => this.director.settleNoShows(settled, now),
          entered: () => this.effects.seatOutcome?.("entered", 1),
        },
        watchOptions,
      );
      this.director.seatWatch = this.seatWatch;
    }
  }

  /**
   * The game room reports that `sessionId` entered match `matchId` (untrusted arguments: false for
   * anything but a seat this queue sent and still waits for).
   */
  arrived(matchId: unknown, sessionId: unknown): boolean {
    return this.seatWatch?.arrived(matchId, sessionId) ?? false;
  }

  /** Stop following seats (the queue room is disposed). */
  dispose(): void {
    this.seatWatch?.dispose();
  }

  /** Why this join would be refused (a message naming the field), or undefined. */
  joinProblem(join: Omit<SessionJoin, "player">): string | undefined {
    return this.joinRefusal(join)?.message;
  }

  /**
   * A player arrives. Throws {@link JoinRefused} (changing nothing) for a bad party code, or for an
   * account already in the queue (`playerId`) that this join may not replace. A join that replaces
   * the account's first session removes it (told `removed`, reason `replaced`) and takes its place
   * where it is the same kind of place (see {@link takeOver}).
   */
  join(join: SessionJoin, now: number): void {
    const id = join.player.sessionId;
    if (this.members.has(id)) throw new JoinRefused(`player "${id}" is already in this queue`);
    const account = join.player.playerId;
    const refusal = this.joinRefusal(join, account);
    if (refusal) throw refusal;
    const holder = account === undefined ? undefined : this.members.holder(account);
    if (holder !== undefined && this.takeOver(holder, join, now)) return;
    const member: Member = {
      player: join.player,
      connected: true,
      place: "party",
      ...(join.side ? { side: join.side } : {}),
    };
    if (join.party) {
      this.members.set(id, member);
      this.tellParty(this.parties.create(id, join.party.size, { side: join.side, zones: join.zones }), "created");
    } else if (join.partyCode !== undefined) {
      this.members.set(id, member);
      const party = this.parties.join(join.partyCode, id);
      this.tellParty(party, "member_joined");
      if (party.status === "forming" && this.parties.isComplete(party)) {
        try {
          this.enterMatching(party, now, now);
        } catch (error) {
          this.director.holdParty(party, "member_joined", messageOf(error));
        }
      }
    } else {
      const ticket: Ticket = {
        id,
        players: [join.player],
        enqueuedAt: now,
        ...(join.side ? { side: join.side } : {}),
        ...(join.zones ? { zones: join.zones } : {}),
      };
      this.matchmaker.enqueue(ticket, now); // throws before anything changed
      member.place = "waiting";
      this.members.set(id, member);
      this.effects.waiting(ticket);
    }
  }

  /**
   * Players whose queue room was lost rejoined with their resume tokens: their ticket is back in
   * matching at its original place (`ticket.enqueuedAt`). A party comes back as a party (led by
   * the ticket's first player, with a fresh code); with `complete` false (members did not come
   * back) it is held and its leader may `start` it. Throws {@link JoinRefused} or the engine's
   * `MatchmakerError`, changing nothing, when a player is already here or the engine refuses it.
   */
  restore(ticket: Ticket, party: { readonly size: number; readonly complete: boolean } | undefined, now: number): void {
    for (const p of ticket.players) {
      if (this.members.has(p.sessionId)) throw new JoinRefused(`player "${p.sessionId}" is already in this queue`);
      const account = p.playerId;
      if (account === undefined) continue;
      const other = this.resuming.get(account);
      if (this.members.holder(account) !== undefined || (other !== undefined && other !== p.sessionId))
        throw new JoinRefused(`playerId: account ${JSON.stringify(account)} is already in this queue`, "playerId");
    }
    // The accounts are held by the restored players from here on.
    for (const p of ticket.players) this.releaseAccount(p.sessionId);
    if (!party) {
      const player = ticket.players[0]!;
      this.matchmaker.enqueue(ticket, now); // throws before anything changed
      this.members.set(player.sessionId, {
        player,
        connected: true,
        place: "waiting",
        ...(ticket.side ? { side: ticket.side } : {}),
      });
      this.effects.waiting(ticket);
      return;
    }
    const [leader, ...others] = ticket.players;
    for (const player of ticket.players)
      this.members.set(player.sessionId, { player, connected: true, place: "party" });
    const restored = this.parties.create(leader!.sessionId, party.size, { side: ticket.side, zones: ticket.zones });
    for (const p of others) this.parties.join(restored.code, p.sessionId);
    if (!party.complete) {
      this.director.holdParty(restored, "reconnected", "some members did not come back; the leader may start");
      return;
    }
    try {
      this.enterMatching(restored, ticket.enqueuedAt, now);
    } catch (error) {
      this.director.holdParty(restored, "reconnected", messageOf(error));
    }
  }

  /**
   * A stored place of account `playerId` is being resumed through `sessionId` (durable queues):
   * the account is held for it until the place is restored or the session goes
   * ({@link releaseAccount}). With `duplicateAccount: "replace"`, a member holding the account in a
   * replaceable place is removed (told `replaced`); otherwise a held account throws {@link JoinRefused}.
   */
  claimAccount(playerId: string, sessionId: string, now: number): void {
    const refusal = this.accountRefusal(playerId, sessionId);
    if (refusal) throw refusal;
    const holder = this.members.holder(playerId);
    if (holder !== undefined) this.vacate(holder, now);
    this.resuming.set(playerId, sessionId);
    this.resumingBySession.set(sessionId, playerId);
  }

  /** The account `sessionId` claimed for a resume, if any, is free again (restored, or the session went). */
  releaseAccount(sessionId: string): void {
    const account = this.resumingBySession.get(sessionId);
    if (account === undefined) return;
    this.resumingBySession.delete(sessionId);
    if (this.resuming.get(account) === sessionId) this.resuming.delete(account);
  }

  /**
   * Why account `playerId` may not join now (naming `playerId`), or undefined: it is not in the
   * queue, or (with `duplicateAccount: "replace"`) the new session may replace its holder.
   * `by`: the session asking (its own resume does not count against it).
   */
  accountRefusal(playerId: string | undefined, by?: string): JoinRefused | undefined {
    if (playerId === undefined) return undefined;
    const resumedBy = this.resuming.get(playerId);
    const holder = this.members.holder(playerId);
    let problem: string | undefined;
    if (resumedBy !== undefined && resumedBy !== by)
      problem = accountRefusal(playerId, undefined, this.duplicateAccount);
    else if (holder !== undefined)
      problem = accountRefusal(playerId, this.members.get(holder)!.place, this.duplicateAccount);
    return problem === undefined ? undefined : new JoinRefused(`playerId: ${problem}`, "playerId");
  }

  /** The party leader starts matching (a held party, or an incomplete one where the queue allows it). */
  start(playerId: string, now: number): StartResult {
    const party = this.parties.of(playerId);
    if (!party) return { ok: false, error: "you are not in a party" };
    if (party.leader !== playerId) return { ok: false, error: "only the party leader can start" };
    if (party.status === "queued" || party.status === "matched")
      return { ok: false, error: "the party is already in the queue" };
    if (!this.parties.isComplete(party) && !this.allowPartialParties) {
      return {
        ok: false,
        error: `the party has ${party.members.length} of ${party.size} players and this queue does not start incomplete parties`,
      };
    }
    try {
      this.enterMatching(party, now, now);
    } catch (error) {
      return { ok: false, error: messageOf(error) };
    }
    return { ok: true };
  }

  /** Accept the ready check of the player's match. Ignored when there is none. */
  accept(playerId: string): void {
    if (this.members.get(playerId)?.place !== "ready-check" || !this.readyCheck) return;
    const pending = this.pending.accept(playerId);
    if (pending) this.proceedIfReady(pending);
  }

  /** Decline the player's match: the player is removed (an offence), the others keep their place. */
  decline(playerId: string, now: number): void {
    if (this.members.get(playerId)?.place !== "ready-check" || !this.readyCheck) return;
    const pending = this.pending.of(playerId);
    if (pending) this.fallThrough(pending, new Map([[playerId, "declined"]]), now);
  }

  /**
   * The player is gone for good (left, or did not come back within the grace). While matched
   * and before its game room exists, that counts as declining ("disconnected" when it had dropped).
   */
  leave(playerId: string, now: number): void {
    const member = this.members.get(playerId);
    if (!member) return;
    switch (member.place) {
      case "party":
        this.members.delete(playerId);
        this.director.leaveParty(playerId, "left");
        return;
      case "waiting":
        this.stopWaiting(playerId, now);
        this.members.delete(playerId);
        this.director.leaveParty(playerId, "left");
        return;
      case "ready-check":
        this.fallThrough(
          this.pending.of(playerId)!,
          new Map([[playerId, member.connected ? "left" : "disconnected"]]),
          now,
        );
        return;
      case "spawning":
        // The game being created is dropped when creation completes (`spawned`); the others go back then.
        this.offences?.offence(playerId, "gone", now);
        this.pending.of(playerId)!.gone.add(playerId);
        this.members.delete(playerId);
        this.parties.remove(playerId);
        return;
      case "backfill":
        // Its replacement seat is being reserved: it is simply gone (the seat expires unused).
        this.members.delete(playerId);
        this.director.leaveParty(playerId, "left");
        return;
      case "seated":
        this.members.delete(playerId);
        return;
    }
  }

  /**
   * The player's connection dropped unexpectedly. Returns whether to hold its place for a
   * reconnection (false for a seated player: it has its seat and is leaving anyway).
   */
  drop(playerId: string): boolean {
    const member = this.members.get(playerId);
    if (!member || member.place === "seated") return false;
    member.connected = false;
    return true;
  }

  /** The player is back within the grace: it gets whatever it missed that it still needs. */
  reconnect(playerId: string, now: number): void {
    const member = this.members.get(playerId);
    if (!member) return;
    member.connected = true;
    const party = this.parties.of(playerId);
    if (party && (member.place === "party" || member.place === "waiting")) {
      this.effects.send(playerId, "party", this.partyMessage(party, playerId, "reconnected"));
    }
    if (member.place === "ready-check") {
      const pending = this.pending.of(playerId)!;
      if (pending.deadline !== undefined && !pending.accepted.has(playerId)) {
        this.effects.send(playerId, "match_found", {
          matchId: pending.match.id,
          timeoutMs: Math.max(0, pending.deadline - now),
          players: pending.humans.length,
        } satisfies MatchFoundMessage);
      }
      this.proceedIfReady(pending);
    } else {
      this.director.deliverHeldSeat(playerId);
    }
  }

  /** Run the ready-check timeouts and the engine; returns the matches the engine formed. */
  tick(now: number): Match[] {
    for (const pending of this.pending.expired(now)) {
      this.fallThrough(pending, new Map(this.pending.unaccepted(pending).map((id) => [id, "timeout" as const])), now);
    }
    let matches: Match[] = [];
    try {
      matches = this.matchmaker.tick(now);
    } catch (error) {
      this.onError(`matchmaker tick failed: ${String(error)}`);
    }
    for (const match of matches) this.openMatch(match, now);
    return matches;
  }

  /** When the driver should call `tick` next (an engine deadline or a ready-check timeout). */
  nextWakeup(now: number): number | undefined {
    const engine = this.matchmaker.nextWakeup(now);
    const check = this.pending.nextDeadline();
    if (engine === undefined) return check;
    return check === undefined ? engine : Math.min(engine, check);
  }

  /**
   * The match's game room exists and every seat is reserved: seats go to connected players and
   * are held for those away. Returns `"abandoned"` if a player left meanwhile: the driver then
   * disposes the game room, and everyone else is back in the queue at their place.
   */
  spawned(matchId: string, seats: ReadonlyMap<string, unknown>, now: number): "seated" | "abandoned" {
    const pending = this.pending.close(matchId);
    if (!pending) throw new Error(`invariant broken: match "${matchId}" is not being created`);
    if (pending.gone.size > 0) {
      this.director.requeueMatch(pending.match.tickets, matchId, "abandoned", now);
      return "abandoned";
    }
    this.director.seatMatch(pending.match, pending.humans, seats);
    return "seated";
  }

  /**
   * The match's game room could not be created or seated: everyone still here goes back to their
   * place, told `requeued` (reason `spawn_failed`), or what `tell` says (e.g. only once per streak of failures).
   */
  spawnFailed(matchId: string, now: number, tell?: RequeueNotice): void {
    const pending = this.pending.close(matchId);
    if (pending) this.director.requeueMatch(pending.match.tickets, matchId, "spawn_failed", now, tell);
  }

  /**
   * Backfill: take a waiting ticket out of matching for replacement seats in a running game.
   * Only a ticket whose players all wait and are connected; returns it, or undefined.
   */
  takeForBackfill(ticketId: string, now: number): Ticket | undefined {
    return this.director.takeForBackfill(ticketId, now);
  }

  /**
   * A backfill ticket's seats are reserved: its players still here are seated (one away gets its
   * seat when it returns). Returns the players seated.
   */
  backfillSeated(ticket: Ticket, seats: ReadonlyMap<string, unknown>): string[] {
    return this.director.seatBackfill(ticket, seats);
  }

  /**
   * A backfill ticket's seats could not be reserved: it waits again at its original place
   * (nothing is sent: its players were never offered the game); a party that lost a member
   * meanwhile is held.
   */
  backfillFailed(ticket: Ticket, now: number): void {
    this.director.requeueBackfill(ticket, now);
  }

  /** Where a player is (undefined: not in this queue). */
  placeOf(playerId: string): Place | undefined {
    return this.members.get(playerId)?.place;
  }

  isConnected(playerId: string): boolean {
    return this.members.get(playerId)?.connected ?? false;
  }

  /** Every player the session holds, with its place, party and match. */
  *players(): IterableIterator<PlayerView> {
    for (const [id, m] of this.members) {
      const party = this.parties.of(id);
      const pending = this.pending.of(id);
      yield {
        id,
        place: m.place,
        connected: m.connected,
        ...(party ? { partyId: party.id } : {}),
        ...(pending && (m.place === "ready-check" || m.place === "spawning") ? { matchId: pending.match.id } : {}),
      };
    }
  }

  /**
   * The refusal of a join (naming the field) whose account (`playerId`) is already in the queue
   * and may not be replaced, or whose party options do not fit; undefined when it may join.
   */
  joinRefusal(
    join: Omit<SessionJoin, "player"> & { readonly playerId?: string | undefined },
    playerId = join.playerId,
  ): JoinRefused | undefined {
    const account = this.accountRefusal(playerId);
    if (account) return account;
    if (join.partyCode === undefined) return undefined;
    if (join.side !== undefined) return new JoinRefused("side: a party's side is chosen by its leader", "side");
    if (join.zones !== undefined) return new JoinRefused("zones: a party's zones are chosen by its leader", "zones");
    // A new session of a member takes its slot: the party is full (of it) and may be queued.
    if (playerId !== undefined && this.ownParty(playerId)?.code === join.partyCode) return undefined;
    const problem = this.parties.joinProblem(join.partyCode);
    return problem && new JoinRefused(`partyCode: ${problem}`, "partyCode");
  }

  /** The party the account's member is in (undefined: not in the queue, or in none). */
  private ownParty(playerId: string): Party | undefined {
    const holder = this.members.holder(playerId);
    return holder === undefined ? undefined : this.parties.of(holder);
  }

  /**
   * A new session of the account `holder` plays (`duplicateAccount: "replace"`, and `holder` has
   * no match yet): `holder` is removed, told `replaced`. The new session takes its place when the
   * join asks for the same kind of place: a solo waiting ticket (same enqueue time; the side and
   * zones the new join gives), or the member's slot in its party when it joins with the party's
   * code (a queued party waits on at its enqueue time). Returns false when the join asks for
   * something else (a party instead of a solo, another party): `holder` has left, as if it had
   * left, and the join goes on as any join.
   */
  private takeOver(holder: string, join: SessionJoin, now: number): boolean {
    const member = this.members.get(holder)!;
    const party = this.parties.of(holder);
    const id = join.player.sessionId;
    if (party && join.partyCode === party.code) {
      const queued = party.status === "queued" ? this.matchmaker.get(party.id) : undefined;
      if (queued) this.stopWaiting(holder, now);
      this.members.delete(holder);
      this.parties.replaceMember(holder, id);
      this.members.set(id, { player: join.player, connected: true, place: member.place });
      this.effects.remove(holder, { reason: "replaced" });
      this.tellParty(party, "member_replaced");
      if (queued) {
        try {
          this.enterMatching(party, queued.enqueuedAt, now);
        } catch (error) {
          this.director.holdParty(party, "member_replaced", messageOf(error));
        }
      }
      return true;
    }
    const waiting = !party && member.place === "waiting" ? this.matchmaker.get(holder) : undefined;
    if (!waiting || join.party || join.partyCode !== undefined) {
      this.vacate(holder, now);
      return false;
    }
    const ticket: Ticket = {
      id,
      players: [join.player],
      enqueuedAt: waiting.enqueuedAt,
      ...(join.side ? { side: join.side } : {}),
      ...(join.zones ? { zones: join.zones } : {}),
    };
    this.matchmaker.cancel(holder, now);
    try {
      this.matchmaker.enqueue(ticket, now);
    } catch (error) {
      this.matchmaker.requeue([waiting], now); // the first session keeps its place
      throw error;
    }
    this.effects.notWaiting(holder);
    this.members.delete(holder);
    this.members.set(id, {
      player: join.player,
      connected: true,
      place: "waiting",
      ...(join.side ? { side: join.side } : {}),
    });
    this.effects.remove(holder, { reason: "replaced" });
    this.effects.waiting(ticket);
    return true;
  }

  /** `holder` is out, told `replaced` (its party, if any, loses it and is held if it was queued). */
  private vacate(holder: string, now: number): void {
    if (this.members.get(holder)?.place === "waiting") this.stopWaiting(holder, now);
    this.director.remove(holder, "replaced");
  }

  /** The waiting ticket of `playerId` (its own, or its party's, which is then held) leaves matching. */
  private stopWaiting(playerId: string, now: number): void {
    const party = this.parties.of(playerId);
    const ticketId = party?.id ?? playerId;
    this.matchmaker.cancel(ticketId, now);
    this.effects.notWaiting(ticketId);
    if (party) this.director.placeParty(party, "held");
  }

  /** Whether `code` names no party of this queue (a wrong guess, not a full or queued party). */
  isUnknownPartyCode(code: string): boolean {
    return this.parties.joinProblem(code) === "no such party";
  }

  /** The ticket a party plays with (its members as they are now). */
  private partyTicket(party: Party, enqueuedAt: number): Ticket {
    return {
      id: party.id,
      players: party.members.map((id) => this.members.get(id)!.player),
      enqueuedAt,
      ...(party.side ? { side: party.side } : {}),
      ...(party.zones ? { zones: party.zones } : {}),
    };
  }

  /** Put a party's ticket in the engine; throws the engine's `MatchmakerError` (changing nothing) if it refuses. */
  private enterMatching(party: Party, enqueuedAt: number, now: number): void {
    const ticket = this.partyTicket(party, enqueuedAt);
    this.matchmaker.enqueue(ticket, now);
    this.director.placeParty(party, "queued");
    this.effects.waiting(ticket);
    this.tellParty(party, "queued");
  }

  private partyMessage(party: Party, to: string, event: PartyMessage["event"], reason?: string): PartyMessage {
    return {
      code: party.code,
      size: party.size,
      members: party.members.length,
      leader: party.leader === to,
      status: party.status,
      event,
      ...(reason !== undefined ? { reason } : {}),
    };
  }

  private tellParty(party: Party, event: PartyMessage["event"], reason?: string): void {
    for (const id of party.members) {
      if (this.members.get(id)?.connected) this.effects.send(id, "party", this.partyMessage(party, id, event, reason));
    }
  }

  private openMatch(match: Match, now: number): void {
    for (const t of match.tickets) {
      this.effects.notWaiting(t.id);
      const party = this.parties.get(t.id);
      if (party) party.status = "matched";
      for (const p of t.players) this.members.get(p.sessionId)!.place = "ready-check";
    }
    const pending = this.pending.open(match, this.readyCheck ? now + this.readyCheck.timeoutMs : undefined);
    if (this.readyCheck) {
      const message: MatchFoundMessage = {
        matchId: match.id,
        timeoutMs: this.readyCheck.timeoutMs,
        players: pending.humans.length,
      };
      for (const id of pending.humans)
        if (this.members.get(id)!.connected) this.effects.send(id, "match_found", message);
    }
    this.proceedIfReady(pending);
  }

  /** Everyone accepted and is connected: have the game room created. */
  private proceedIfReady(pending: PendingMatch): void {
    if (pending.stage !== "ready-check" || !this.pending.allAccepted(pending)) return;
    if (!pending.humans.every((id) => this.members.get(id)!.connected)) return;
    pending.stage = "spawning";
    for (const id of pending.humans) this.members.get(id)!.place = "spawning";
    this.effects.spawn(pending.match);
  }

  /**
   * A match fell through before its game room existed: the `out` players are removed (told why
   * unless they left), their parties held; every other ticket goes back at its original place.
   */
  private fallThrough(pending: PendingMatch, out: ReadonlyMap<string, MatchExit>, now: number): void {
    this.pending.close(pending.match.id);
    const penalties = new Map<string, PenaltyNotice>();
    for (const [id, reason] of out) {
      const kind = offenceOf(reason, this.members.get(id)?.connected ?? false);
      const penalty = kind && this.offences?.offence(id, kind, now);
      if (penalty) penalties.set(id, penalty);
    }
    this.director.matchFellThrough(pending.match, out, now, penalties);
  }
}

/**
 * Which offence breaking a ready check is: a decline; a time-out while connected; a time-out while
 * away, a drop or a leave is `gone` (the first ones in a window are forgiven).
 */
function offenceOf(reason: MatchExit, connected: boolean): OffenceKind | undefined {
  switch (reason) {
    case "declined":
      return "declined";
    case "timeout":
      return connected ? "timeout" : "gone";
    case "left":
    case "disconnected":
      return "gone";
    default:
      return undefined;
  }
}

/** An error's message, as a party or a `start` answer tells it. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
