/**
 * The one refusal a client should retry: the queue cannot take the join right now (Redis is
 * unreachable, or this queue's authority is moving to another room), but will shortly. The
 * client's join rejects with code {@link RETRY_LATER} and a message that says so and when to
 * retry; every other refusal (bad options, a wrong party code) is final.
 */
import { ServerError } from "@colyseus/core";
import { secondsToWait } from "../client-error.js";

/** The code of a join refused for now: retry (HTTP's "Service Unavailable"). */
export const RETRY_LATER = 503;

/** Why a join is refused for now. */
export type UnavailableReason = "redis_unreachable" | "queue_moving";

const EXPLAIN: Record<UnavailableReason, string> = {
  redis_unreachable: "the matchmaker cannot reach its Redis",
  queue_moving: "this queue is moving to another room",
};

/** A `ServerError` with code {@link RETRY_LATER}: `queue unavailable (<reason>): <why>; retry in N s`. */
export function retryLater(reason: UnavailableReason, retryInMs: number): ServerError {
  const seconds = secondsToWait(retryInMs);
  return new ServerError(RETRY_LATER, `queue unavailable (${reason}): ${EXPLAIN[reason]}; retry in ${seconds} s`);
}

/** Whether a client's join error is the retryable refusal (by code, never by wording). */
export function isRetryLater(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === RETRY_LATER;
}
