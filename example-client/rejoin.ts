/**
 * Joining a queue so that a crash or a deploy does not cost the player its place (issue 17), for
 * the bot client (the README client, example-client/minimal.ts, spells the same out by itself).
 * With Redis, the queue sends `resume` (`{ token, graceMs }`) at join; a rejoin with
 * `{ ...options, resume: token }` on any process gets the place back. See docs/scale-out.md.
 */

/** The player's resume token, kept across rejoins (`undefined`: none yet, or the place is gone). */
export interface QueuePlace {
  token?: string;
}

export interface EnterQueueOptions {
  /** Failures other than 503 tolerated before giving up (default 5); 503 ("retry") never counts. */
  retries?: number;
  /** Stop retrying once aborted: the pending attempt finishes, then the call rejects. */
  signal?: AbortSignal;
  /** Waits between attempts (default `setTimeout`); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

/** The wait before attempt `attempt + 1`: 250 ms doubling, at most 5 s. */
export const backoffMs = (attempt: number): number => Math.min(5000, 250 * 2 ** attempt);

/**
 * Join, or rejoin with `place.token` when there is one. Code 503 (the queue is moving, or Redis is
 * unreachable) says "retry", so it is retried without limit; code 525 with a token means the place
 * is gone (matched or expired), so the token is dropped and the player joins anew; other failures
 * are retried `retries` times, with backoff.
 */
export async function enterQueue<R>(
  join: (options: Record<string, unknown>) => Promise<R>,
  options: Record<string, unknown>,
  place: QueuePlace,
  { retries = 5, signal, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) }: EnterQueueOptions = {},
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await join(place.token ? { ...options, resume: place.token } : options);
    } catch (error) {
      const code = (error as { code?: number }).code;
      if (code === 525 && place.token) place.token = undefined;
      else if (code !== 503 && attempt >= retries) throw error;
      signal?.throwIfAborted();
      await sleep(backoffMs(attempt));
    }
  }
}

/**
 * Whether a queue connection that closed with `code` before the seat should be rejoined: every
 * close but a normal one (1000: the queue let a seated player go) and a consented one (4000: the
 * player left, or was removed). 4001 follows a `handover`; the SDK reports a lost process as 4003
 * once its own reconnection attempts failed.
 */
export const rejoinsAfter = (code: number): boolean => code !== 1000 && code !== 4000;
