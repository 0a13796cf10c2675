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
import type { Party, PartyBook, PartyMessage } from "../parties.js";

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

/** Why a player was taken out of the queue by the server. */
export type RemovalReason = "declined" | "timeout" | "disconnected" | "error";

/** The `removed` message: the receiver's ticket is gone; the server then closes the connection. */
export interface RemovedMessage {
  readonly reason: RemovalReason;
  readonly matchId?: string;
}

/** Why a match fell through for players who keep their place. */
export type RequeueReason = "declined" | "timeout" | "disconnected" | "left" | "spawn_failed" | "abandoned";

/** The `requeued` message: the match fell through; the receiver waits again at its original place. */
export interface RequeuedMessage {
  readonly matchId: string;
  readonly reason: RequeueReason;
}

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
}

/** One player the queue holds. */
export interface Member {
  readonly player: Player;
  readonly side?: Side;
  connected: boolean;
  place: Place;
  /** A seat reserved while the player was away, delivered when it reconnects. */
  heldSeat?: unknown;
}

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
}

/** Where every player is, and the one way for each move a matched ticket can make. */
export class TicketDirector {
  readonly members = new Map<string, Member>();
  private readonly matchmaker: Matchmaker;
  private readonly parties: PartyBook;
  private readonly effects: SessionEffects;
  private readonly tellParty: TicketDirectorOptions["tellParty"];
  private readonly onError: (message: string) => void;

  constructor(options: TicketDirectorOptions) {
    this.matchmaker = options.matchmaker;
    this.parties = options.parties;
    this.effects = options.effects;
    this.tellParty = options.tellParty;
    this.onError = options.onError;
  }

  /** A match's seats are reserved: its parties have played (dissolved) and every human gets its seat. */
  seatMatch(tickets: readonly Ticket[], humans: readonly string[], seats: ReadonlyMap<string, unknown>): void {
    for (const t of tickets) {
      const party = this.parties.get(t.id);
      if (party) this.parties.dissolve(party);
    }
    for (const id of humans) this.deliverSeat(id, seats.get(id));
  }

  /**
   * A backfill ticket's seats are reserved: its players still here are seated (one away gets its
   * seat when it returns). Returns the players seated.
   */
  seatBackfill(ticket: Ticket, seats: ReadonlyMap<string, unknown>): string[] {
    const party = this.parties.get(ticket.id);
    if (party) this.parties.dissolve(party);
    const seated: string[] = [];
    for (const p of ticket.players) {
      if (this.members.get(p.sessionId)?.place !== "backfill" || !seats.has(p.sessionId)) continue;
      this.deliverSeat(p.sessionId, seats.get(p.sessionId));
      seated.push(p.sessionId);
    }
    return seated;
  }

  /** A seat for a player: sent now if it is connected, else held until it reconnects. */
  deliverSeat(playerId: string, seat: unknown): void {
    const member = this.members.get(playerId)!;
    member.place = "seated";
    if (member.connected) this.effects.send(playerId, "seat", seat);
    else member.heldSeat = seat;
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
  requeue(tickets: readonly Ticket[], now: number, notice?: RequeuedMessage): void {
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
      for (const p of t.players)
        if (this.members.get(p.sessionId)!.connected) this.effects.send(p.sessionId, "requeued", notice);
    }
  }

  /**
   * A match fell through before its game room existed: the `out` players are removed (told why
   * unless they left), their parties held; every other ticket goes back at its original place,
   * told the first reason.
   */
  matchFellThrough(match: Match, out: ReadonlyMap<string, RemovalReason | "left">, now: number): void {
    const back: Ticket[] = [];
    for (const t of match.tickets) {
      const leaving = t.players.filter((p) => out.has(p.sessionId));
      if (leaving.length === 0) {
        back.push(t);
        continue;
      }
      const party = this.parties.get(t.id);
      if (party) this.placeParty(party, "held");
      for (const p of leaving) this.remove(p.sessionId, out.get(p.sessionId)!, match.id);
    }
    const first = out.values().next().value!;
    this.requeue(back, now, { matchId: match.id, reason: first === "error" ? "disconnected" : first });
  }

  /**
   * A match's tickets go back after its game room failed or was abandoned: complete ones at their
   * place (told `reason`); a party that lost a member meanwhile is held.
   */
  requeueMatch(tickets: readonly Ticket[], matchId: string, reason: RequeueReason, now: number): void {
    this.requeue(this.completeOrHold(tickets), now, { matchId, reason });
  }

  /**
   * Backfill tickets whose seats could not be reserved go back silently (their players were never
   * offered the game); a party that lost a member meanwhile is held.
   */
  requeueBackfill(ticket: Ticket, now: number): void {
    this.requeue(this.completeOrHold([ticket], "backfill"), now);
  }

  /**
   * A player out of the queue for good, told why (`removed`) unless it left; its party, if
   * any, loses it and the others are told.
   */
  remove(playerId: string, reason: RemovalReason | "left", matchId?: string): void {
    this.members.delete(playerId);
    if (reason !== "left") this.effects.remove(playerId, { reason, ...(matchId !== undefined ? { matchId } : {}) });
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
