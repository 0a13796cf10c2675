/**
 * What a client does after a refused join: retry (now, after the wait the queue named, or after a
 * backoff) or give up. Decided by the refusal's code, never by its wording; only the wait to retry
 * after is read from the message, where the queue states it ("retry in N s", "try again in N s").
 */
import { ErrorCode } from "@colyseus/sdk";
import type { TOO_MANY_REQUESTS as ServerTooManyRequests } from "../colyseus/client-error.js";
import type { RETRY_LATER as ServerRetryLater } from "../colyseus/durable/unavailable.js";

/** The queue cannot take the join now (Redis unreachable, the queue moving): retry. Typed as the server's code. */
export const RETRY_LATER: typeof ServerRetryLater = 503;
/** A per-address join limit, or the account cooling down after breaking matches: retry after the stated wait. */
export const TOO_MANY_REQUESTS: typeof ServerTooManyRequests = 429;

/** Refusals no retry changes: bad options or player (525 without a resume token), no such queue, a malformed request. */
const FINAL = new Set<number>([
  400,
  ErrorCode.MATCHMAKE_NO_HANDLER,
  ErrorCode.MATCHMAKE_INVALID_CRITERIA,
  ErrorCode.MATCHMAKE_INVALID_ROOM_ID,
  ErrorCode.AUTH_FAILED,
]);

/** The next attempt after a refused join. */
export interface JoinRetry {
  /** Wait this long first (ms). */
  readonly inMs: number;
  /** The resume token names a place that is gone (matched, or past its grace): join anew without it. */
  readonly dropToken: boolean;
  /** Whether this failure uses up one of the retries (the queue's own "retry later" refusals never do). */
  readonly counts: boolean;
}

/** The wait after `failures` failed attempts in a row: 250 ms doubling, at most 5 s. */
export const backoffMs = (failures: number): number => Math.min(5000, 250 * 2 ** failures);

/** The wait a refusal's message names ("... in N s"), in ms; undefined when it names none. */
export function statedWaitMs(message: string): number | undefined {
  const seconds = /\bin (\d+) s\b/.exec(message)?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}

/**
 * After a join that failed with `error`, the `failures`-th failure in a row: how to retry, or
 * undefined when the refusal is final. `withToken`: the join carried a resume token.
 *
 * - 525 with a token: the place is gone; join anew at once, without it.
 * - 503 and 429: retry without limit, after the wait the message states (else the backoff).
 * - 400, 520 to 522, and 525 without a token: final (the options, the player or the queue name is wrong).
 * - anything else (the network, an expired reservation, a server error, 523 included, which may pass):
 *   retry after the backoff; these count toward the caller's limit.
 */
export function retryAfter(error: unknown, failures: number, withToken: boolean): JoinRetry | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === ErrorCode.AUTH_FAILED && withToken) return { inMs: 0, dropToken: true, counts: false };
  if (code === RETRY_LATER || code === TOO_MANY_REQUESTS)
    return { inMs: statedWaitMs(message) ?? backoffMs(failures), dropToken: false, counts: false };
  if (typeof code === "number" && FINAL.has(code)) return undefined;
  return { inMs: backoffMs(failures), dropToken: false, counts: true };
}
