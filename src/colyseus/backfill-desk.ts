/**
 * Backfill: a game room whose player left asks its queue for replacements on one team (by its
 * index in `MatchInfo.teams`; in a free-for-all each player is a team of one seat, and the seats a
 * short-handed game left empty are the teams after its players'). The
 * queue remembers the game room of every match it started; a request waits, ahead of new
 * matches, until the best waiting tickets that fit are found (see `selectPartialBackfill`);
 * they are withdrawn from the engine, seated in that same game room and sent `seat`. If the
 * reservation fails they go back to the queue with their original enqueue time. A replacement is
 * never an account that played in that match when it formed, nor one blocked with such a player
 * (queue option `blocked`), nor blocked with another replacement chosen with it.
 */
import { logger, matchMaker } from "@colyseus/core";
import { MAX_BACKFILL_SEATS, selectPartialBackfill } from "../core/backfill-selection.js";
import { accountOf, blockedPair, type BlockRule } from "../core/blocks.js";
import { MatchmakerError } from "../core/errors.js";
import { teamCountOf, teamSizeOf } from "../core/shape.js";
import type { Match, Player, Side, Ticket } from "../core/types.js";
import { reserveBackfillSeats, type MatchInfo, type SeatMessage, type SeatRequest } from "./director/game-room.js";

/** What `requestBackfill` answers. */
export interface BackfillReceipt {
  readonly matchId: string;
  readonly team: number;
  /** Seats on that team still sought (this request's and earlier ones'). */
  readonly pending: number;
}

/** How the desk reaches the queue room (kept narrow so the room's flow stays its own). */
export interface BackfillHost {
  readonly queue: string;
  /** Waiting tickets, oldest first. */
  waiting(): Iterable<Ticket>;
  /** The zones a waiting ticket waits in (in a queue with zones). */
  zonesOf(ticket: Ticket): readonly string[] | undefined;
  /** Take a ticket out of the queue (engine and state); false if it no longer waits. */
  withdraw(ticket: Ticket): boolean;
  /** Put tickets back at their original place; only those whose players are all still connected. */
  restore(tickets: readonly Ticket[]): void;
  /** The player's auth data, passed on to the game room. */
  auth(playerId: string): unknown;
  /**
   * The ticket's seats are reserved: seat its players still here (send `seat`, or hold it for one
   * away) and return who was seated.
   */
  seatTicket(ticket: Ticket, seats: ReadonlyMap<string, SeatMessage>): readonly string[];
  /** Counters for the figures. */
  count(what: "requested" | "filled" | "failures", n: number): void;
  /** The queue option `blocked`: accounts that never play in one match. */
  readonly blocked?: BlockRule | undefined;
}

interface TrackedMatch {
  readonly roomId: string;
  readonly zone: string | undefined;
  /** Every team of the full shape, in order (a short-handed free-for-all's empty seats last, with no ratings). */
  readonly teams: Array<{ side?: Side; ratings: number[] }>;
  /** Seats per team: the most replacements one team may seek. */
  readonly teamSize: number;
  /** The mean rating of its players when it formed: the target of a team that has none. */
  readonly meanRating: number;
  /**
   * The accounts of its human players when it formed (`playerId`, else the session id). Not its
   * replacements: one whose seat went unused is back in the queue and may be offered it again.
   */
  readonly accounts: Set<string>;
}

interface Request {
  readonly matchId: string;
  readonly team: number;
  /** Seats not yet filled nor being reserved. */
  open: number;
  /** Seats being reserved right now. */
  inFlight: number;
  failures: number;
  /** Cancelled by the game room: seats in flight are not sought again. */
  cancelled: boolean;
}

/** Matches remembered for backfill; the oldest are forgotten beyond this. */
const MAX_TRACKED_MATCHES = 10_000;
/** Failed reservations after which a request is dropped (the game room is full or broken). */
const MAX_FAILURES = 3;

export class BackfillDesk {
  private readonly matches = new Map<string, TrackedMatch>();
  private readonly requests: Request[] = [];

  constructor(private readonly host: BackfillHost) {}

  /** Remember the game room a match was seated in, so that it may ask for replacements. */
  trackMatch(match: Match | MatchInfo, roomId: string): void {
    if (this.matches.size >= MAX_TRACKED_MATCHES) this.forget(this.matches.keys().next().value!);
    const teams: TrackedMatch["teams"] = match.teams.map((team) => ({
      ...(team.side ? { side: team.side } : {}),
      ratings: team.players.map((p) => p.rating),
    }));
    // A free-for-all that started short-handed: its empty seats are teams of their own, to fill.
    for (let i = teams.length; i < teamCountOf(match.shape); i++) teams.push({ ratings: [] });
    const ratings = teams.flatMap((t) => t.ratings);
    this.matches.set(match.id, {
      roomId,
      zone: match.zone,
      teams,
      teamSize: teamSizeOf(match.shape),
      meanRating: ratings.reduce((s, x) => s + x, 0) / Math.max(1, ratings.length),
      accounts: new Set(
        match.teams.flatMap((team) => team.players.filter((p) => !p.bot).map((p) => accountOf(p as Player))),
      ),
    });
  }

  /** Seats sought and not yet filled, over all requests. */
  get pending(): number {
    return this.requests.reduce((sum, r) => sum + r.open + r.inFlight, 0);
  }

  /**
   * Ask for `count` replacements on `team` (its index in `MatchInfo.teams`: 0 for side A and 1
   * for side B in a two-team game) of a match this queue
   * started. Throws `MatchmakerError("invalid_request")` naming the bad argument; the request waits until filled or
   * cancelled, ahead of new matches.
   */
  request(matchId: unknown, team: unknown, count: unknown): BackfillReceipt {
    if (typeof matchId !== "string" || !this.matches.has(matchId)) {
      throw new MatchmakerError(
        "invalid_request",
        `requestBackfill: matchId: no running match ${JSON.stringify(matchId)} in queue "${this.host.queue}"`,
        "matchId",
      );
    }
    const tracked = this.matches.get(matchId)!;
    const teams = tracked.teams.length;
    if (typeof team !== "number" || !Number.isInteger(team) || team < 0 || team >= teams)
      throw new MatchmakerError(
        "invalid_request",
        teams === 2
          ? "requestBackfill: team: must be 0 (side A) or 1 (side B)"
          : `requestBackfill: team: must be a team index from 0 to ${teams - 1}`,
        "team",
      );
    const most = Math.min(tracked.teamSize, MAX_BACKFILL_SEATS);
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > most) {
      throw new MatchmakerError(
        "invalid_request",
        `requestBackfill: count: must be a whole number from 1 to ${most}`,
        "count",
      );
    }
    const sought = this.sought(matchId, team);
    if (sought + count > most) {
      throw new MatchmakerError(
        "invalid_request",
        `requestBackfill: count: ${sought} of the team's ${most} seats are already sought`,
        "count",
      );
    }
    // One request per team: seats asked for later join it (keeping its priority), so a party can fill them together.
    const existing = this.requests.find((r) => r.matchId === matchId && r.team === team && !r.cancelled);
    if (existing) existing.open += count;
    else this.requests.push({ matchId, team, open: count, inFlight: 0, failures: 0, cancelled: false });
    this.host.count("requested", count);
    return { matchId, team, pending: sought + count };
  }

  /** Stop seeking replacements for a match (one team, or all); returns the seats no longer sought. */
  cancel(matchId: string, team?: number): number {
    let dropped = 0;
    for (const r of this.requests) {
      if (r.matchId !== matchId || (team !== undefined && r.team !== team)) continue;
      dropped += r.open;
      r.open = 0;
      r.cancelled = true;
    }
    this.prune();
    return dropped;
  }

  /** Forget a match (its game ended): its requests are dropped. */
  forget(matchId: string): void {
    this.cancel(matchId);
    this.matches.delete(matchId);
  }

  /**
   * Serve open requests, oldest first, from the waiting tickets; call before the engine forms
   * new matches so replacements come first. Reservation is asynchronous.
   */
  serve(): void {
    for (const r of this.requests) {
      if (r.open === 0) continue;
      const match = this.matches.get(r.matchId);
      if (!match) {
        r.open = 0;
        continue;
      }
      const team = match.teams[r.team];
      const target =
        team.ratings.length > 0 ? team.ratings.reduce((s, x) => s + x, 0) / team.ratings.length : match.meanRating;
      const need = {
        count: r.open,
        ...(team.side ? { side: team.side } : {}),
        targetRating: target,
        ...(match.zone !== undefined ? { zone: match.zone } : {}),
      };
      const chosen = this.choose(match, need);
      if (!chosen) continue;
      const taken = chosen.filter((t) => this.host.withdraw(t));
      const seats = taken.reduce((s, t) => s + t.players.length, 0);
      if (seats === 0) continue;
      r.open -= seats;
      r.inFlight += seats;
      void this.seatTickets(r, match, taken, seats);
    }
    this.prune();
  }

  private async seatTickets(r: Request, match: TrackedMatch, tickets: Ticket[], seats: number): Promise<void> {
    const side = match.teams[r.team].side;
    const requests: SeatRequest[] = tickets.flatMap((t) =>
      t.players.map((p) => ({
        sessionId: p.sessionId,
        options: {
          matchId: r.matchId,
          ...(side ? { side } : {}),
          team: r.team,
          rating: p.rating,
          ...(match.zone !== undefined ? { zone: match.zone } : {}),
          backfill: true,
        },
      })),
    );
    let reserved: Map<string, SeatMessage> | undefined;
    let failed = false;
    let refused = false;
    try {
      reserved = await reserveBackfillSeats(match.roomId, requests, (id) => this.host.auth(id));
    } catch (error) {
      failed = true;
      // A game room that takes clients' own joins gets no replacements at all: retrying cannot help.
      refused = error instanceof MatchmakerError && error.code === "invalid_request";
      if (refused) logger.error(`[${this.host.queue}] match ${r.matchId}: ${(error as Error).message}`);
      else logger.error(`[${this.host.queue}] backfill of match ${r.matchId} failed:`, error);
    }
    r.inFlight -= seats;
    if (!failed && !reserved) {
      // The game is over: nothing to fill any more.
      this.host.restore(tickets);
      this.forget(r.matchId);
      return;
    }
    if (!reserved) {
      this.host.count("failures", 1);
      this.host.restore(tickets);
      if (r.cancelled) {
        // nothing more is sought
      } else if (refused) {
        this.cancel(r.matchId);
      } else if (++r.failures >= MAX_FAILURES) {
        logger.error(
          `[${this.host.queue}] giving up backfill of match ${r.matchId} team ${r.team} after ${r.failures} failed reservations`,
        );
      } else {
        r.open += seats;
      }
      this.prune();
      return;
    }
    const tracked = match.teams[r.team];
    for (const ticket of tickets) {
      const seatsOfTicket = new Map(ticket.players.map((p) => [p.sessionId, reserved.get(p.sessionId)!]));
      const seated = new Set(this.host.seatTicket(ticket, seatsOfTicket));
      for (const player of ticket.players) {
        if (seated.has(player.sessionId)) {
          this.host.count("filled", 1);
          tracked.ratings.push(player.rating);
        } else if (!r.cancelled) {
          r.open++; // the player left meanwhile: its reserved seat expires; seek another
        }
      }
    }
    this.prune();
  }

  /**
   * The best waiting tickets for `need` (see `selectPartialBackfill`) that may join the game: no
   * account already in it or blocked with one of its players; of two chosen replacements blocked
   * with each other, the newer steps aside and the choice is made again.
   */
  private choose(match: TrackedMatch, need: Parameters<typeof selectPartialBackfill>[1]): Ticket[] | undefined {
    const blocked = this.host.blocked;
    let pool = [...this.host.waiting()].filter((t) =>
      t.players.every((p) => {
        const account = accountOf(p);
        if (match.accounts.has(account)) return false;
        if (!blocked) return true;
        for (const other of match.accounts) if (blocked(account, other)) return false;
        return true;
      }),
    );
    const zonesOf = (t: Ticket) => this.host.zonesOf(t);
    let chosen = selectPartialBackfill(pool, need, zonesOf);
    for (let tries = 0; chosen && blocked && tries < MAX_BACKFILL_SEATS; tries++) {
      const pair = blockedPair(chosen, blocked);
      if (!pair) break;
      const newer = pair[0].enqueuedAt > pair[1].enqueuedAt ? pair[0] : pair[1];
      pool = pool.filter((t) => t !== newer);
      chosen = selectPartialBackfill(pool, need, zonesOf);
    }
    return chosen && (!blocked || !blockedPair(chosen, blocked)) ? chosen : undefined;
  }

  /** Seats of a team already sought. */
  private sought(matchId: string, team: number): number {
    let n = 0;
    for (const r of this.requests)
      if (r.matchId === matchId && r.team === team && !r.cancelled) n += r.open + r.inFlight;
    return n;
  }

  private prune(): void {
    for (let i = this.requests.length - 1; i >= 0; i--) {
      if (this.requests[i].open === 0 && this.requests[i].inFlight === 0) this.requests.splice(i, 1);
    }
  }
}

/**
 * From a game room: ask the queue that formed `match` for `count` replacements on `team` (its
 * index in `match.teams`: 0 for side A and 1 for side B in a two-team game; in a free-for-all, the
 * leaver's own team, one seat, or an empty seat's index from `match.teams.length` on in a game
 * that started short-handed). Works across processes (it is a `matchMaker.remoteRoomCall` to the
 * queue's room). Resolves with the seats of that team still sought; rejects when the queue
 * refuses (unknown match, bad team or count) or is gone.
 */
export function requestBackfill(
  match: Pick<MatchInfo, "id" | "queueRoomId">,
  team: number,
  count: number,
): Promise<BackfillReceipt> {
  if (!match.queueRoomId)
    return Promise.reject(
      new MatchmakerError("invalid_request", "requestBackfill: this match has no queueRoomId", "queueRoomId"),
    );
  return matchMaker.remoteRoomCall(match.queueRoomId, "requestBackfill", [
    match.id,
    team,
    count,
  ]) as Promise<BackfillReceipt>;
}

/** From a game room: stop seeking replacements (one team, or all). Resolves with the seats no longer sought. */
export function cancelBackfill(match: Pick<MatchInfo, "id" | "queueRoomId">, team?: number): Promise<number> {
  if (!match.queueRoomId)
    return Promise.reject(
      new MatchmakerError("invalid_request", "cancelBackfill: this match has no queueRoomId", "queueRoomId"),
    );
  return matchMaker.remoteRoomCall(
    match.queueRoomId,
    "cancelBackfill",
    team === undefined ? [match.id] : [match.id, team],
  ) as Promise<number>;
}
