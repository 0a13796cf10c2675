/**
 * Seats only from the queue. Colyseus runs a room type's static `onAuth` on every matchmaking
 * request a client makes (`joinById`, `join`, `joinOrCreate`, `create`) and never on seats the
 * server reserves (`matchMaker.reserveSeatFor` / `reserveMultipleSeatsFor`, as the queue does). A
 * game room whose static `onAuth` is {@link queueSeatsOnly} therefore takes players only through
 * the seats its queue reserved, backfill included, and the seat options its `onJoin` receives are
 * always the queue's. With Colyseus's default static `onAuth` (which lets every client in), a
 * client that knows a running game's roomId reserves a seat there itself, with join options of
 * its choosing that reach `onJoin` exactly where the queue's seat options do (`{ backfill: true,
 * side: "A" }` took a seat in the demo game), and can create game rooms with a `match` it made up.
 */
import { ErrorCode, logger, matchMaker, Room, ServerError } from "@colyseus/core";

/** What a client's own join or creation of a game room is refused with (code 525). */
export const DIRECT_JOIN_REFUSED =
  "this game room takes players only through the seats its queue reserves: join the queue instead";

/**
 * A game room's static `onAuth`: `static override onAuth = queueSeatsOnly;`. Refuses every
 * client's own matchmaking request for the room type (joinById, join, joinOrCreate, create) with
 * code 525 ({@link DIRECT_JOIN_REFUSED}); the queue's seats never pass through it, so players enter
 * only through them, and `onJoin`'s seat options are the queue's, never a client's. Reconnection
 * (`allowReconnection`) is not affected. The player's auth data still reaches the game room as
 * `client.auth`: the queue passes its own client's with each seat.
 */
export async function queueSeatsOnly(_token?: string, _options?: unknown, _context?: unknown): Promise<never> {
  throw new ServerError(ErrorCode.AUTH_FAILED, DIRECT_JOIN_REFUSED);
}

/**
 * Whether the room type registered as `gameRoom` lets clients reserve seats in it themselves: it
 * keeps Colyseus's default static `onAuth`, which lets every client in. (A room type with a static
 * `onAuth` of its own is taken at its word.) False for a name not registered in this process.
 */
export function takesClientsOwnJoins(gameRoom: string): boolean {
  const klass = matchMaker.getRoomClass(gameRoom) as { onAuth?: unknown } | undefined;
  return klass !== undefined && klass.onAuth === Room.onAuth;
}

/** Room types this process has warned about. */
const warned = new Set<string>();

/**
 * Once per room type and process, when a queue starts a game in it: warn that a game room with
 * Colyseus's default static `onAuth` takes clients' own joins, and say the fix.
 */
export function warnIfTakesClientsOwnJoins(gameRoom: string, queue: string): void {
  if (warned.has(gameRoom) || !takesClientsOwnJoins(gameRoom)) return;
  warned.add(gameRoom);
  logger.warn(
    `[${queue}] game room "${gameRoom}" takes clients' own joins (Colyseus's default static onAuth): a client ` +
      `can joinById a running game with options of its choosing, or create one; give it ` +
      "`static override onAuth = queueSeatsOnly` (colyseus-matchmaker) so that players enter only through the queue's seats",
  );
}

/**
 * Why the queue refuses replacement seats in `gameRoom`, or undefined: a room type that takes
 * clients' own joins could not tell, in `onJoin`, the queue's replacement from a client claiming
 * one (`{ backfill: true }` in its own join options).
 */
export function backfillRefusal(gameRoom: string): string | undefined {
  if (!takesClientsOwnJoins(gameRoom)) return undefined;
  return (
    `game room "${gameRoom}" takes clients' own joins (Colyseus's default static onAuth), so its onJoin cannot ` +
    "tell a replacement the queue seated from a client claiming one: give it `static override onAuth = queueSeatsOnly`"
  );
}
