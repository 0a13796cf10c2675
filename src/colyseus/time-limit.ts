/**
 * A bound on how long the queue waits for the game's code or a store (a resolver, a rating read,
 * opening a match): past it the caller refuses or re-queues, so no join and no ticket waits on a
 * promise that never settles.
 */

/** `work` did not settle within its time. */
export class TimedOut extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "TimedOut";
  }
}

/** `work`'s outcome, or a `TimedOut` rejection once `ms` have passed first. */
export async function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(ms)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
