/**
 * The director's side facing Colyseus: create a match's game room (anywhere in the cluster),
 * reserve seats in it (a new match's, or replacements in a running game), and build the `seat`
 * message, one way for both. Everything the game room needs travels in its creation options
 * and the seat options, so it may live in another process.
 */
import { matchMaker, type IRoomCache } from "@colyseus/core";
import { MatchmakerError } from "../../core/errors.js";
import type { GameShape } from "../../core/shape.js";
import type { Match, PlayerWindow, Side } from "../../core/types.js";
import { backfillRefusal, warnIfTakesClientsOwnJoins } from "./seat-gate.js";

type ISeatReservation = ReturnType<typeof matchMaker.buildSeatReservation>;

/** The match as a game room receives it in `onCreate(options.match)`: plain JSON. */
export interface MatchInfo {
  readonly id: string;
  /** The queue (room name) that formed it. */
  readonly queue: string;
  /**
   * The roomId of the queue room that formed it: a game room calls back through it, e.g.
   * `requestBackfill(match, team, count)` for replacements when a player left.
   */
  readonly queueRoomId?: string;
  /** Players per team (1 in a free-for-all). */
  readonly teamSize: number;
  /** The shape of the queue's games: teams (how many, of how many) or a free-for-all. */
  readonly shape: GameShape;
  /** Seats of the full shape left empty, in a game that started short-handed without bots. */
  readonly emptySeats?: number;
  /**
   * Whether the players' `playerId` and `rating` come from the server (the queue's `players`
   * option): only then may a game update ratings or records by `playerId`. Otherwise they are
   * what each client declared.
   */
  readonly trustedPlayers: boolean;
  /**
   * True in a ranked queue (option `ratings`): the queue opened this match in its ratings before
   * sending any seat, and the game room reports its result once the game is over with
   * `ratings.reportResult(match, result)` (the same `Ratings` the queue was given). Only the players
   * in `teams` are rated; replacements seated later by `requestBackfill` are not in the match's
   * result.
   */
  readonly rated?: true;
  /**
   * In a ranked queue: the key a report of this match's result must carry (`reportResult(match, …)`
   * passes it with the `MatchInfo`). A secret for the game room: never send it to a client. Players
   * know the match's `id` from their seat; the key is what a room a client made up cannot have.
   */
  readonly ratingKey?: string;
  /** The teams in order (a player's team index is its team's position): `[side A, side B]` in a two-team game, one per player in a free-for-all. */
  readonly teams: ReadonlyArray<{
    /** In a two-team game, the side this team plays. */
    readonly side?: Side;
    readonly players: ReadonlyArray<{
      readonly sessionId: string;
      /** The account, where the queue knows one (the server's with `trustedPlayers`, else the client's word). */
      readonly playerId?: string;
      readonly rating: number;
      readonly ticketId: string;
      readonly waitMs: number;
      /** A computer player: no client will take this seat; the game plays it. */
      readonly bot: boolean;
      /** In a role queue: the role this player plays (one per role on each team). */
      readonly role?: string;
      /**
       * With a window policy (`expanding-window`): the player's acceptance window
       * when matched; `width − initial` is how far it grew (scale rating changes by it).
       */
      readonly window?: PlayerWindow;
      /** In a queue with criteria: the player's value on each (as given at join). */
      readonly criteria?: Readonly<Record<string, number>>;
    }>;
  }>;
  /** How many seats are bots. */
  readonly bots: number;
  /** In a queue with zones: the zone this match was formed in. */
  readonly zone?: string;
  readonly quality: Match["quality"];
}

/** What a game room's `onJoin` receives as options for a seat the queue reserved. */
export interface SeatOptions {
  readonly matchId: string;
  /** In a two-team game: the player's side. Absent in other shapes. */
  readonly side?: Side;
  /** The player's team index (`MatchInfo.teams`): 0 for side A and 1 for side B in a two-team game; in a free-for-all, the player's own. */
  readonly team: number;
  readonly rating: number;
  /** In a role queue: the role this player plays. */
  readonly role?: string;
  /** In a queue with zones: the match's zone. */
  readonly zone?: string;
  /** True for a replacement the game room asked for with `requestBackfill` (joining a running game). */
  readonly backfill?: boolean;
}

/** The `seat` message a queued client receives: a seat reservation plus its place in the game. */
export type SeatMessage = ISeatReservation & {
  readonly matchId: string;
  /** In a two-team game: the player's side. Absent in other shapes. */
  readonly side?: Side;
  /** The player's team index (see `SeatOptions.team`). */
  readonly team: number;
  /** In a role queue: the role this player plays. */
  readonly role?: string;
  /** In a queue with zones: the match's zone. */
  readonly zone?: string;
  /** True for a replacement seat in a running game (see `requestBackfill`). */
  readonly backfill?: boolean;
};

/** What the game room learns about the queue that formed its match, beside the match itself. */
export interface MatchSource {
  /** The queue room's roomId (for calls back: backfill, arrivals). */
  readonly queueRoomId?: string;
  /** Whether `playerId` and `rating` are the server's (the queue's `players` option). */
  readonly trustedPlayers?: boolean;
  /** The match's report key, when the queue opened it in its ratings (the queue's `ratings` option). */
  readonly ratingKey?: string;
}

export function matchInfo(match: Match, queue: string, source: MatchSource = {}): MatchInfo {
  const { queueRoomId, trustedPlayers = false, ratingKey } = source;
  return {
    id: match.id,
    queue,
    ...(queueRoomId !== undefined ? { queueRoomId } : {}),
    teamSize: match.teamSize,
    shape: match.shape,
    ...(match.emptySeats ? { emptySeats: match.emptySeats } : {}),
    trustedPlayers,
    ...(ratingKey !== undefined ? { rated: true as const, ratingKey } : {}),
    teams: match.teams.map((team) => ({
      ...(team.side ? { side: team.side } : {}),
      players: team.players.map((p) => ({
        sessionId: p.sessionId,
        ...(p.playerId !== undefined ? { playerId: p.playerId } : {}),
        rating: p.rating,
        ticketId: p.ticketId,
        waitMs: p.waitMs,
        bot: p.bot === true,
        ...(p.role !== undefined ? { role: p.role } : {}),
        ...(p.window ? { window: p.window } : {}),
        ...(p.criteria ? { criteria: p.criteria } : {}),
      })),
    })),
    bots: match.bots,
    ...(match.zone !== undefined ? { zone: match.zone } : {}),
    quality: match.quality,
  };
}

/** Every human player's seat in a match, in team order (bots take no seat reservation). */
export function seatsOf(match: Match): Array<{ sessionId: string; options: SeatOptions }> {
  return match.teams.flatMap((team, index) =>
    team.players
      .filter((p) => !p.bot)
      .map((p) => ({
        sessionId: p.sessionId,
        options: {
          matchId: match.id,
          ...(team.side ? { side: team.side } : {}),
          team: index,
          rating: p.rating,
          ...(p.role !== undefined ? { role: p.role } : {}),
          ...(match.zone !== undefined ? { zone: match.zone } : {}),
        },
      })),
  );
}

/** One seat to reserve: the player's session id and what the game room's `onJoin` receives. */
export interface SeatRequest {
  readonly sessionId: string;
  readonly options: SeatOptions;
}

/** The `seat` message for a reserved seat: the reservation plus the player's place in the game. */
export function seatMessage(room: IRoomCache, seat: SeatRequest): SeatMessage {
  const { matchId, side, team, role, zone, backfill } = seat.options;
  return {
    ...matchMaker.buildSeatReservation(room, seat.sessionId),
    matchId,
    ...(side !== undefined ? { side } : {}),
    team,
    ...(role !== undefined ? { role } : {}),
    ...(zone !== undefined ? { zone } : {}),
    ...(backfill ? { backfill } : {}),
  };
}

/**
 * Reserve every seat in `room`, all or nothing, and return each player's `seat` message.
 * Throws when any seat could not be reserved (the reserved ones then expire unused).
 */
export async function reserveSeats(
  room: IRoomCache,
  seats: readonly SeatRequest[],
  auth: (sessionId: string) => unknown,
): Promise<Map<string, SeatMessage>> {
  const reserved = await matchMaker.reserveMultipleSeatsFor(
    room,
    seats.map((s) => ({ sessionId: s.sessionId, options: s.options, auth: auth(s.sessionId) })),
  );
  const missing = seats.filter((_, i) => !reserved?.[i]);
  if (!reserved || missing.length > 0) {
    throw new Error(
      `could not reserve ${missing.length || seats.length} of ${seats.length} seats in ${room.name} ${room.roomId}`,
    );
  }
  return new Map(seats.map((s) => [s.sessionId, seatMessage(room, s)]));
}

/**
 * Create the game room and reserve every seat, all or nothing: if any step fails the room
 * just created is disposed (best effort) and the error is thrown for the caller to re-queue.
 */
export async function startGame(
  gameRoom: string,
  match: Match,
  queue: string,
  extraOptions: Record<string, unknown>,
  auth: (sessionId: string) => unknown,
  source: MatchSource = {},
): Promise<Map<string, SeatMessage>> {
  warnIfTakesClientsOwnJoins(gameRoom, queue);
  const room: IRoomCache = await matchMaker.createRoom(gameRoom, {
    ...extraOptions,
    match: matchInfo(match, queue, source),
  });
  try {
    return await reserveSeats(room, seatsOf(match), auth);
  } catch (error) {
    await disposeGameRoom(room.roomId);
    throw error;
  }
}

/** Dispose a game room nobody will play in (best effort: it may be gone already). */
export async function disposeGameRoom(roomId: string): Promise<void> {
  await matchMaker.remoteRoomCall(roomId, "disconnect").catch(() => undefined);
}

/**
 * Reserve replacement seats in a running game room, all or nothing. Resolves with each
 * player's `seat` message, or undefined when the game room is gone (the game is over). Throws
 * `MatchmakerError("invalid_request")`, reserving nothing, when the game room's type takes
 * clients' own joins (see `queueSeatsOnly`).
 */
export async function reserveBackfillSeats(
  roomId: string,
  seats: readonly SeatRequest[],
  auth: (sessionId: string) => unknown,
): Promise<Map<string, SeatMessage> | undefined> {
  const room = await matchMaker.getRoomById(roomId);
  if (!room) return undefined;
  const refusal = backfillRefusal(room.name);
  if (refusal) throw new MatchmakerError("invalid_request", `backfill refused: ${refusal}`);
  return reserveSeats(room, seats, auth);
}

/** Colyseus's own default seat reservation time (s): `COLYSEUS_SEAT_RESERVATION_TIME`, else 15. */
export function defaultSeatReservationSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.COLYSEUS_SEAT_RESERVATION_TIME || 15);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 15;
}

/**
 * How long seats in this game room stay reserved (ms): the room's own `seatReservationTimeout`
 * (a game room may set its own), read from the room wherever it runs (at once for a room in this
 * process); Colyseus's default when the room does not answer.
 */
export function seatReservationMs(roomId: string): number | Promise<number> {
  const local = matchMaker.getLocalRoomById(roomId);
  if (local) return validSeconds(local.seatReservationTimeout) * 1000;
  return matchMaker.remoteRoomCall(roomId, "seatReservationTimeout").then(
    (seconds: unknown) => validSeconds(seconds) * 1000,
    () => defaultSeatReservationSeconds() * 1000, // gone or unreachable: the liveness probe will tell
  );
}

function validSeconds(seconds: unknown): number {
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0
    ? seconds
    : defaultSeatReservationSeconds();
}

/** A process that answered a health check this recently is taken as alive without asking again (ms). */
const PROCESS_ANSWER_VALID_MS = 500;
const processAnswered = new Map<string, number>();

/**
 * Whether a game room is still there: in this process, it is (answered at once); elsewhere, its
 * listing exists and its process passes Colyseus's health check (asked at most about twice a
 * second per process, whatever the number of its rooms). A process that fails the check is dead:
 * Colyseus then removes its listings and stops placing rooms on it.
 */
export function gameRoomAlive(roomId: string): boolean | Promise<boolean> {
  if (matchMaker.getLocalRoomById(roomId) !== undefined) return true;
  return remoteGameRoomAlive(roomId);
}

async function remoteGameRoomAlive(roomId: string): Promise<boolean> {
  const listing = await matchMaker.getRoomById(roomId);
  if (!listing) return false; // disposed
  const processId = listing.processId;
  if (processId === matchMaker.processId) return false; // a listing this process left behind
  const answered = processAnswered.get(processId);
  if (answered !== undefined && Date.now() - answered < PROCESS_ANSWER_VALID_MS) return true;
  const alive = await matchMaker.healthCheckProcessId(processId);
  if (alive) processAnswered.set(processId, Date.now());
  else processAnswered.delete(processId);
  return alive;
}
