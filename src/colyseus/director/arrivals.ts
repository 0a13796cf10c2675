/**
 * The game room's side of a seat's life, across processes: the game room tells the queue who
 * entered (`playerArrived`, one line in `onJoin`), and the queue tells the game room who never
 * did (its `onNoShow(report)` method, when it has one). Both travel through
 * `matchMaker.remoteRoomCall`, so the queue and the game room may live in different processes
 * (`playerArrived` calls a queue in its own process directly).
 */
import { logger, matchMaker } from "@colyseus/core";
import { gameRoomAlive, seatReservationMs, type MatchInfo } from "./game-room.js";
import type { NoShowReport, SeatWatchHost, WatchTimer } from "./seat-watch.js";

/** What the queue room answers for `playerArrived` (see `MatchmakerRoom.playerArrived`). */
interface ArrivalDesk {
  playerArrived(matchId: unknown, sessionId: unknown): boolean;
}

/** The game room method the queue calls with a {@link NoShowReport}. */
export const NO_SHOW_METHOD = "onNoShow";

/**
 * A game room that wants to know who never took its seat implements this; the queue then calls
 * `onNoShow(report)` (through `matchMaker.remoteRoomCall`) once per batch of seats that expired
 * unused: the match's seats, or replacement seats from `requestBackfill`. Typical answers: ask
 * for replacements with `requestBackfill(match, team, count)`, or end the match.
 */
export interface NoShowListener {
  onNoShow(report: NoShowReport): void | Promise<void>;
}

/**
 * From a game room's `onJoin`: tell the queue that formed `match` that `sessionId` took its seat
 * (a match's seat or a replacement seat alike). Without this the queue cannot tell an entered
 * player from one who never came, and re-queues every player of the match when the seats expire.
 * Never rejects: resolves true when the queue had that seat open, false otherwise (an unknown
 * seat, a match not from a queue, or the queue gone; the last is logged).
 */
export function playerArrived(
  match: Pick<MatchInfo, "id" | "queueRoomId"> | undefined,
  sessionId: string,
): Promise<boolean> {
  if (!match?.queueRoomId) return Promise.resolve(false);
  // The queue in this process: call it directly (remoteRoomCall would copy the arguments through
  // JSON and add a promise hop for every player entering a game). Its method never throws.
  const local = matchMaker.getLocalRoomById(match.queueRoomId) as Partial<ArrivalDesk> | undefined;
  if (typeof local?.playerArrived === "function") return Promise.resolve(local.playerArrived(match.id, sessionId));
  return matchMaker.remoteRoomCall(match.queueRoomId, "playerArrived" as never, [match.id, sessionId]).then(
    (answer: unknown) => answer === true,
    (error: unknown) => {
      logger.warn(`playerArrived: could not reach the queue of match ${match.id}: ${messageOf(error)}`);
      return false;
    },
  );
}

/**
 * From the queue: tell the game room who never took a seat, if its room type has `onNoShow`
 * (checked on the registered class, so a room without it never receives a call it cannot answer).
 * Never rejects; a failure is logged.
 */
export async function tellNoShow(gameRoom: string, roomId: string, report: NoShowReport): Promise<void> {
  const klass = matchMaker.getRoomClass(gameRoom) as { prototype?: Record<string, unknown> } | undefined;
  if (typeof klass?.prototype?.[NO_SHOW_METHOD] !== "function") return;
  try {
    await matchMaker.remoteRoomCall(roomId, NO_SHOW_METHOD as never, [report]);
  } catch (error) {
    logger.warn(`could not tell game room ${roomId} about ${report.players.length} no-show(s): ${messageOf(error)}`);
  }
}

/**
 * The seat watch's Colyseus side for a queue whose game rooms are of type `gameRoom`: the room's
 * clock, the real reservation time of each game room, the liveness probe and the no-show notice.
 */
export function colyseusSeatWatch(
  gameRoom: string,
  clock: { now(): number; setTimeout(fn: () => void, ms: number): WatchTimer },
): Omit<SeatWatchHost, "settle" | "entered"> {
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    reservationMs: seatReservationMs,
    roomAlive: gameRoomAlive,
    tellGameRoom: (roomId, report) => void tellNoShow(gameRoom, roomId, report),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
