/**
 * The one place where the queue's errors become what a Colyseus client receives. Everything in
 * the room raises `MatchmakerError(code, message, field)`; at the edge of a Colyseus call
 * (`onCreate`, `onAuth`, `onJoin`) its code, never its wording, picks the client's error.
 */
import { ErrorCode, ServerError } from "@colyseus/core";
import { MatchmakerError } from "../core/errors.js";

/** The code of a join refused by a per-address limit: HTTP's "too many requests" (Colyseus has none of its own). */
export const TOO_MANY_REQUESTS = 429;

/** The whole seconds a client is told to wait ("try again in N s") for `ms`: rounded up, at least 1. */
export function secondsToWait(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** What a refused join's message starts with, for the client (the fields follow). */
export const JOIN_REFUSED = "invalid join options";
/** What the message of a join refused by the queue's `players.resolve` starts with, for the client. */
export const PLAYER_REFUSED = "player refused";

/**
 * The error to throw to Colyseus for `error`: a refused join is the client's 525 (auth failed)
 * naming the fields (a player `players.resolve` refused too), a malformed one (a key named after an
 * `Object.prototype` member) its 400; a bad queue configuration is 523 (a `ServerError` whose
 * message Colyseus hands to the client intact, which a `MatchmakerError`'s string code would not
 * survive); a client over a per-address limit, or whose account is cooling down after breaking
 * matches, is 429 (too many requests), its message saying when to retry.
 * Anything else is thrown as it is.
 */
export function toClientError(error: unknown): unknown {
  if (!(error instanceof MatchmakerError)) return error;
  switch (error.code) {
    case "join_refused":
      return new ServerError(ErrorCode.AUTH_FAILED, `${JOIN_REFUSED}: ${error.message}`);
    case "malformed_request": // a 4xx: the request itself is malformed, as Colyseus answers bad JSON
      return new ServerError(400, `${JOIN_REFUSED}: ${error.message}`);
    case "player_refused":
      return new ServerError(ErrorCode.AUTH_FAILED, `${PLAYER_REFUSED}: ${error.message}`);
    case "invalid_ticket": // the engine's own check of a join (a zone's rating band), already prefixed
      return new ServerError(ErrorCode.AUTH_FAILED, error.message);
    case "rate_limited":
    case "cooldown":
      return new ServerError(TOO_MANY_REQUESTS, error.message);
    case "invalid_config":
    case "unknown_policy":
      return new ServerError(ErrorCode.MATCHMAKE_UNHANDLED, error.message);
    default:
      return error;
  }
}

/** Run `call`, throwing any error it raises as the client's error. */
export function asClientError<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toClientError(error);
  }
}
