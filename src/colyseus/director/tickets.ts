/**
 * The director's socket-free side: where every player of the queue is ({@link Place}), and
 * every way a ticket moves between places once matched: a seat delivered (now, or held until
 * the player reconnects), a ticket back to the queue at its original place, a player out with
 * the reason it is told. `QueueSession` (joins, parties, ready checks), the backfill desk and
 * the room all move tickets through these functions, and nothing else does. The seat's own
 * lifecycle (expiry unused, game room gone) belongs here too.
 */
import type { Matchmaker } from "../../core/matchmaker.js";
import type { Match, Player, Side, Ticket } from "../../core/types.js";
import type { OffenceKind } from "../offences.js";
import type { Party, PartyBook, PartyMessage } from "../parties.js";
import type { SeatWatch, SettledSeats, WatchedSeat } from "./seat-watch.js";
import { MemberTable } from "./accounts.js";

/**
 * Where a player is:
 * - `party`: in a party that is not in matching (forming, or held after a member left);
 * - `waiting`: their ticket waits in the engine;
 * - `ready-check`: matched, the match waits for accepts (or for a dropped player to return);
 * - `spawning`: everyone accepted, the game room is being created;
 * - `backfill`: taken out of matching for a replacement seat in a running game, being reserved;
 * - `seated`: a seat was reserved for them (sent, or held until they reconnect).
 */
export type Place = "party" | "waiting" | "ready-check" | "spawning" | "backfill" | "seated";

/**
 * Why a player was taken out of the queue by the server: it declined its ready check, let it time
 * out, dropped and did not return, let its seat expire unused a second time (`seat_expired`, with a
 * cooldown), an internal error, or (`replaced`) its account joined again from another session,
 * which took its place (queue option `duplicateAccount: "replace"`).
 */
export type RemovalReason = "declined" | "timeout" | "disconnected" | "seat_expired" | "error" | "replaced";

/** Why a player left a match before its game room existed (a replaced player never had one). */
export type MatchExit = Exclude<RemovalReason, "replaced" | "seat_expired"> | "left";

/**
 * What breaking a match cost the receiver (the queue option `penalties`), in its `removed` or
 * `requeued` message: its place, and after repeated offences a cooldown before it may join again.
 */
export interface PenaltyNotice {
  /** Matches this account broke within the window, this one included. */
  readonly offences: number;
  /** Ms before this account may join the queue again; 0: it may rejoin now (at the back). */
  readonly cooldownMs: number;
  /** What happened and what it costs, in a sentence for the player. */
  readonly text: string;
}

/** The `removed` message: the receiver's ticket is gone; the server then closes the connection. */
export interface RemovedMessage {
  readonly reason: RemovalReason;
  readonly matchId?: string;
  /** Present when this removal was an offence (see {@link PenaltyNotice}). */
  readonly penalty?: PenaltyNotice;
}

/** What the session asks about an offence of one of its players (see `penalties.ts`). */
export interface OffenceJudge {
  /** `playerId` (a session id) broke a match: what it costs, or undefined when nothing (forgiven, or no account known). */
  offence(playerId: string, kind: OffenceKind, now: number): PenaltyNotice | undefined;
}

/**
 * Why a match fell through for players who keep their place: another player declined, timed out,
 * dropped or left; the game room could not be created (`spawn_failed`) or was dropped
 * (`abandoned`); the receiver's seat expired before it entered the game (`seat_expired`); the
 * game room, or its process, was gone before it entered (`game_lost`).
 */
export type RequeueReason =
  "declined" | "timeout" | "disconnected" | "left" | "spawn_failed" | "abandoned" | "seat_expired" | "game_lost";

/**
 * How a sent seat ended: its player entered the game room; or it was settled unused, the player
 * back in the queue (`*_requeued`) or out because it had left the queue or was removed for a
 * second seat left to expire (`*_removed`),
 * after the reservation expired (`expired_*`) or the game room was lost (`lost_*`).
 */
export type SeatOutcome = "entered" | "expired_requeued" | "expired_removed" | "lost_requeued" | "lost_removed";

/**
 * The `requeued` message: the match fell through; the receiver waits again at its original place,
 * or, with a `penalty` (its seat expired unused), at the back of the queue.
 */
export interface RequeuedMessage {
  readonly matchId: string;
  readonly reason: RequeueReason;
  /** With `spawn_failed`: ms until the queue tries that game room type again (told once per failure streak). */
  readonly retryInMs?: number;
  /** Present when the receiver broke this match: it lost its place (see {@link PenaltyNotice}). */
  readonly penalty?: PenaltyNotice;
}

/** Which message a player hears when its ticket goes back: `notice` as it is, another one, or none (undefined). */
export type RequeueNotice = (playerId: string, notice: RequeuedMessage) => RequeuedMessage | undefined;

/** What the session (and so the director) asks its driver (the room, or a test) to do. */
export interface SessionEffects {
  /** Send a message to a connected player. */
  send(playerId: string, type: string, payload: unknown): void;
  /** A ticket entered matching (or re-entered it, with its original `enqueuedAt`). */
  waiting(ticket: Ticket): void;
  /** A ticket left matching (matched, or cancelled). */
  notWaiting(ticketId: string): void;
  /** Everyone in the match accepted and is connected: create its game room, then call `spawned` or `spawnFailed`. */
  spawn(match: Match): void;
  /** The player is out of the queue: tell it why if it is connected, then disconnect it (or cancel its reconnection). */
  remove(playerId: string, message: RemovedMessage): void;
  /** Count how sent seats ended (for the figures). */
  seatOutcome?(outcome: SeatOutcome, players: number): void;
}

/** One player the queue holds. */
export interface Member {
  readonly player: Player;
  readonly side?: Side;
  connected: boolean;
  place: Place;
  /** A seat reserved while the player was away, delivered when it reconnects. */
  heldSeat?: unknown;
  /** The match of the seat it was sent (while `seated`). */
  seatMatch?: string;
}

/** A party as it was when seated (seating dissolves it), to restore it if its seats go unused. */
type PartySnapshot = Party;

/** A party's status and the place its members then have. */
export type PartyPlace = "held" | "queued" | "matched";

export interface TicketDirectorOptions {
  readonly matchmaker: Matchmaker;
  readonly parties: PartyBook;
  readonly effects: SessionEffects;
  /** Tell a party's connected members what happened to it. */
  readonly tellParty: (party: Party, event: PartyMessage["event"], reason?: string) => void;
  /** Internal failures that are handled but worth logging. */
  readonly onError: (message: string) => void;
  /** Judges offences (a seat left to expire while connected); absent: they cost nothing. */
  readonly judge?: OffenceJudge;
}

/** Where every player is, and the one way for each move a matched ticket can make. */
export class TicketDirector {
  /** Every player the queue holds, by session id and by account (one account, one place). */
  readonly members = new MemberTable();
  private readonly matchmaker: Matchmaker;
  private readonly parties: PartyBook;
  private readonly effects: SessionEffects;
  private readonly tellParty: TicketDirectorOptions["tellParty"];
  private readonly onError: (message: string) => void;
  private readonly judge: OffenceJudge | undefined;
  /** Watches the seats sent until their players enter the game room (absent: seats are not followed). */
  seatWatch?: SeatWatch;

  constructor(options: TicketDirectorOptions) {
    this.matchmaker = options.matchmaker;
    this.parties = options.parties;
    this.effects = options.effects;
    this.tellParty = options.tellParty;
    this.onError = options.onError;
    this.judge = options.judge;
  }

  /**
   * A match's seats are reserved: its parties have played (dissolved) and every human gets its
   * seat; the seat watch, if any, waits for each to enter the game room.
   */
  seatMatch(match: Match, humans: readonly string[], seats: ReadonlyMap<string, unknown>): void {
    const parties = this.dissolveParties(match.tickets);
    for (const id of humans) this.deliverSeat(id, seats.get(id), match.id);
    this.watchSeats(match.id, match.tickets, humans, seats, parties);
  }

  /**
   * A backfill ticket's seats are reserved: its players still here are seated (one away gets its
   * seat when it returns). Returns the players seated.
   */
  seatBackfill(ticket: Ticket, seats: ReadonlyMap<string, unknown>): string[] {
    const parties = this.dissolveParties([ticket]);
    const seated: string[] = [];
    for (const p of ticket.players) {
      if (this.members.get(p.sessionId)?.place !== "backfill" || !seats.has(p.sessionId)) continue;
      const seat = seats.get(p.sessionId);
      this.deliverSeat(p.sessionId, seat, seatFacts(seat)?.matchId);
      seated.push(p.sessionId);
    }
    const matchId = seatFacts(seats.values().next().value)?.matchId;
    if (matchId !== undefined) this.watchSeats(matchId, [ticket], seated, seats, parties);
    return seated;
  }

  /** A seat for a player: sent now if it is connected, else held until it reconnects. */
  deliverSeat(playerId: string, seat: unknown, matchId?: string): void {
    const member = this.members.get(playerId)!;
    member.place = "seated";
    if (matchId !== undefined) member.seatMatch = matchId;
    if (member.connected) this.effects.send(playerId, "seat", seat);
    else member.heldSeat = seat;
  }

  /**
   * Seats settled with players missing (the reservation expired, or the game room is gone): each
   * ticket whose players are all still here, seated for this match and not entered, goes back at
   * its original place (a party as a party) and is told the reason (`requeued`); a party of which
   * some entered or left is held, its members still here told why (`party`); a player who left the
   * queue is out (counted). Every player is counted once by outcome.
   *
   * A seat that expired while its player was connected to the queue is an offence (see
   * `offences.ts`): its ticket goes back at the back of the queue (a fresh enqueue time), told
   * the `penalty`; one whose offence brings a cooldown is removed (`removed`, reason `seat_expired`).
   */
  settleNoShows(settled: SettledSeats, now: number): void {
    const expired = settled.reason === "seat_expired";
    const missing = new Set(settled.noShows.map((s) => s.sessionId));
    const parties = (settled.data as ReadonlyMap<string, PartySnapshot> | undefined) ?? new Map();
    const back: Ticket[] = [];
    const penalties = new Map<string, PenaltyNotice>();
    let requeued = 0;
    let removed = 0;
    for (const t of settled.tickets) {
      const absent = t.players.filter((p) => missing.has(p.sessionId));
      if (absent.length === 0) continue;
      const here = absent.filter((p) => this.isSeatedFor(p.sessionId, settled.matchId)).map((p) => p.sessionId);
      if (expired) this.judgeSeats(here, now, penalties);
      removed += absent.length - here.length;
      for (const id of here) this.unseat(id);
      const out = here.filter((id) => (penalties.get(id)?.cooldownMs ?? 0) > 0);
      for (const id of out) this.remove(id, "seat_expired", settled.matchId, penalties.get(id));
      removed += out.length;
      const stay = here.filter((id) => !out.includes(id));
      requeued += stay.length;
      if (stay.length === 0) continue;
      // An offender's ticket (its party with it) waits again from now: at the back.
      const ticket = stay.some((id) => penalties.has(id)) ? { ...t, enqueuedAt: now } : t;
      const snapshot = parties.get(t.id);
      if (stay.length === t.players.length) {
        if (snapshot) this.parties.restore(snapshot, stay, "queued");
        back.push(ticket);
      } else if (snapshot) {
        const why = out.length > 0 ? "removed" : absent.length > here.length ? "left" : "entered";
        this.holdParty(this.parties.restore(snapshot, stay, "held"), "member_left", why);
      } else {
        // A ticket of several players without a party does not happen; each goes back alone.
        for (const id of stay) back.push({ ...ticket, id, players: t.players.filter((p) => p.sessionId === id) });
      }
    }
    const tell: RequeueNotice = (id, notice) => {
      const penalty = penalties.get(id);
      return penalty ? { ...notice, penalty } : notice;
    };
    this.requeue(back, now, { matchId: settled.matchId, reason: settled.reason }, tell);
    if (requeued > 0) this.effects.seatOutcome?.(expired ? "expired_requeued" : "lost_requeued", requeued);
    if (removed > 0) this.effects.seatOutcome?.(expired ? "expired_removed" : "lost_removed", removed);
  }

  /** The players among `here` whose seat expired while they were connected: each an offence, judged into `penalties`. */
  private judgeSeats(here: readonly string[], now: number, penalties: Map<string, PenaltyNotice>): void {
    if (!this.judge) return;
    for (const id of here) {
      const m = this.members.get(id)!;
      // A seat held for a player who was away was never in its hands.
      if (!m.connected || m.heldSeat !== undefined) continue;
      const penalty = this.judge.offence(id, "seat_expired", now);
      if (penalty) penalties.set(id, penalty);
    }
  }

  /** A reconnected player's held seat, if any, is sent now. */
  deliverHeldSeat(playerId: string): void {
    const member = this.members.get(playerId);
    if (member?.place !== "seated" || member.heldSeat === undefined) return;
    this.effects.send(playerId, "seat", member.heldSeat);
    delete member.heldSeat;
  }

  /**
   * Take a waiting ticket out of matching for replacement seats in a running game. Only a ticket
   * whose players all wait and are connected; returns it, or undefined.
   */
  takeForBackfill(ticketId: string, now: number): Ticket | undefined {
    const ticket = this.matchmaker.get(ticketId);
    if (!ticket) return undefined;
    for (const p of ticket.players) {
      const m = this.members.get(p.sessionId);
      if (m?.place !== "waiting" || !m.connected) return undefined;
    }
    if (!this.matchmaker.cancel(ticketId, now)) return undefined;
    this.effects.notWaiting(ticketId);
    const party = this.parties.get(ticketId);
    if (party) party.status = "matched";
    for (const p of ticket.players) this.members.get(p.sessionId)!.place = "backfill";
    return ticket;
  }

  /**
   * Tickets back into the engine at their original place. With a `notice`, their connected
   * players are told (`requeued`); without, nothing is sent (a backfill they were never offered).
   * A ticket the engine refuses is removed with an error, so nobody is left in limbo.
   */
  requeue(tickets: readonly Ticket[], now: number, notice?: RequeuedMessage, tell?: RequeueNotice): void {
    const refused = new Set(this.matchmaker.requeue(tickets, now));
    for (const t of tickets) {
      if (refused.has(t)) {
        // Cannot happen while the session alone feeds the engine.
        this.onError(`could not re-queue ticket ${t.id}; its players are removed`);
        this.removeTicket(t, { reason: "error", ...(notice ? { matchId: notice.matchId } : {}) });
        continue;
      }
      const party = this.parties.get(t.id);
      if (party) this.placeParty(party, "queued");
      else for (const p of t.players) this.members.get(p.sessionId)!.place = "waiting";
      this.effects.waiting(t);
      if (!notice) continue;
      for (const p of t.players) {
        if (!this.members.get(p.sessionId)!.connected) continue;
        const message = tell ? tell(p.sessionId, notice) : notice;
        if (message) this.effects.send(p.sessionId, "requeued", message);
      }
    }
  }

  /**
   * A match fell through before its game room existed: the `out` players are removed (told why
   * unless they left), their parties held; every other ticket goes back at its original place,
   * told the first reason.
   */
  matchFellThrough(
    match: Match,
    out: ReadonlyMap<string, MatchExit>,
    now: number,
    penalties?: ReadonlyMap<string, PenaltyNotice>,
  ): void {
    const back: Ticket[] = [];
    for (const t of match.tickets) {
      const leaving = t.players.filter((p) => out.has(p.sessionId));
      if (leaving.length === 0) {
        back.push(t);
        continue;
      }
      const party = this.parties.get(t.id);
      if (party) this.placeParty(party, "held");
      for (const p of leaving) this.remove(p.sessionId, out.get(p.sessionId)!, match.id, penalties?.get(p.sessionId));
    }
    const first = out.values().next().value!;
    this.requeue(back, now, { matchId: match.id, reason: first === "error" ? "disconnected" : first });
  }

  /**
   * A match's tickets go back after its game room failed or was abandoned: complete ones at their
   * place (told `reason`, or what `tell` says); a party that lost a member meanwhile is held.
   */
  requeueMatch(
    tickets: readonly Ticket[],
    matchId: string,
    reason: RequeueReason,
    now: number,
    tell?: RequeueNotice,
  ): void {
    this.requeue(this.completeOrHold(tickets), now, { matchId, reason }, tell);
  }

  /**
   * Backfill tickets whose seats could not be reserved go back silently (their players were never
   * offered the game); a party that lost a member meanwhile is held.
   */
  requeueBackfill(ticket: Ticket, now: number): void {
    this.requeue(this.completeOrHold([ticket], "backfill"), now);
  }

  /**
   * A player out of the queue for good, told why (`removed`, with what it cost when it was an
   * offence) unless it left; its party, if any, loses it and the others are told.
   */
  remove(playerId: string, reason: RemovalReason | "left", matchId?: string, penalty?: PenaltyNotice): void {
    this.members.delete(playerId);
    if (reason !== "left")
      this.effects.remove(playerId, {
        reason,
        ...(matchId !== undefined ? { matchId } : {}),
        ...(penalty ? { penalty } : {}),
      });
    this.leaveParty(playerId, reason);
  }

  /** Take a gone player out of its party and tell the others. */
  leaveParty(playerId: string, reason: string): void {
    const removed = this.parties.remove(playerId);
    if (removed && !removed.dissolved) this.tellParty(removed.party, "member_left", reason);
  }

  /** Set a party's status and its members' place to match. */
  placeParty(party: Party, status: PartyPlace): void {
    party.status = status;
    const place: Place = status === "held" ? "party" : status === "queued" ? "waiting" : "ready-check";
    for (const id of party.members) {
      const m = this.members.get(id);
      if (m) m.place = place;
    }
  }

  /** Hold a party out of matching and tell its members why. */
  holdParty(party: Party, event: PartyMessage["event"], reason: string): void {
    this.placeParty(party, "held");
    this.tellParty(party, event, reason);
  }

  /** The tickets whose players are all still here (in `place`, when given); a party missing one is held. */
  private completeOrHold(tickets: readonly Ticket[], place?: Place): Ticket[] {
    const complete: Ticket[] = [];
    for (const t of tickets) {
      if (
        t.players.every((p) => (place ? this.members.get(p.sessionId)?.place === place : this.members.has(p.sessionId)))
      ) {
        complete.push(t);
        continue;
      }
      const party = this.parties.get(t.id);
      if (party) this.holdParty(party, "member_left", "left");
    }
    return complete;
  }

  /** Whether the player is in the queue, seated in `matchId` (not re-queued, not gone). */
  private isSeatedFor(playerId: string, matchId: string): boolean {
    const m = this.members.get(playerId);
    return m?.place === "seated" && m.seatMatch === matchId;
  }

  /** Forget a player's seat (it goes back to the queue). */
  private unseat(playerId: string): void {
    const m = this.members.get(playerId)!;
    delete m.seatMatch;
    delete m.heldSeat;
  }

  /** Dissolve the parties of seated tickets; returns them as they were, by ticket id, for a later restore. */
  private dissolveParties(tickets: readonly Ticket[]): Map<string, PartySnapshot> {
    const snapshots = new Map<string, PartySnapshot>();
    for (const t of tickets) {
      const party = this.parties.get(t.id);
      if (!party) continue;
      snapshots.set(t.id, { ...party, members: [...party.members] });
      this.parties.dissolve(party);
    }
    return snapshots;
  }

  /** Hand the seats just sent to the seat watch (when there is one and the seats name their game room). */
  private watchSeats(
    matchId: string,
    tickets: readonly Ticket[],
    players: readonly string[],
    seats: ReadonlyMap<string, unknown>,
    parties: Map<string, PartySnapshot>,
  ): void {
    if (!this.seatWatch) return;
    const watched: WatchedSeat[] = [];
    let roomId: string | undefined;
    for (const id of players) {
      const facts = seatFacts(seats.get(id));
      if (!facts) continue;
      roomId = facts.roomId;
      watched.push({ sessionId: id, team: facts.team, backfill: facts.backfill });
    }
    if (roomId !== undefined) this.seatWatch.watch(matchId, roomId, tickets, watched, parties);
  }

  /** Every player of a ticket out with `message` (the "refused, remove with an error" case). */
  private removeTicket(ticket: Ticket, message: RemovedMessage): void {
    const party = this.parties.get(ticket.id);
    if (party) this.parties.dissolve(party);
    for (const p of ticket.players) {
      this.members.delete(p.sessionId);
      this.effects.remove(p.sessionId, message);
    }
  }
}

/** What the director reads from a seat message (a `SeatMessage`; tests may pass anything). */
function seatFacts(seat: unknown): { roomId: string; matchId: string; team: number; backfill: boolean } | undefined {
  if (typeof seat !== "object" || seat === null) return undefined;
  const { roomId, matchId, team, backfill } = seat as Record<string, unknown>;
  if (typeof roomId !== "string" || typeof matchId !== "string") return undefined;
  const index = typeof team === "number" && Number.isInteger(team) && team >= 0 ? team : 0;
  return { roomId, matchId, team: index, backfill: backfill === true };
}
