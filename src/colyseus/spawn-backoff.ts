/**
 * Backing off from a failing game room type. When creating a match's game room fails, the queue
 * waits before it tries that room type again, twice as long after each failure in a row up to a
 * cap; while it waits, no new game of that type is attempted (the queue room holds matching, so
 * players keep waiting at their places), and once the wait is over a single trial attempt goes
 * first: the first success ends the streak and everything runs at normal pace again.
 *
 * The state is per process and per game-room type (a queue's `gameRoom`), not per queue room:
 * what fails is the room type (its `onCreate`, its seats, the capacity behind it), so every queue
 * of this process that spawns it learns of the failure at once, and one success tells them all it
 * works again. Sharing it across processes would cost a presence round trip per attempt for little:
 * each queue is one room on one process, so the attempts stay bounded per queue process.
 *
 * No Colyseus and no clock here: time is passed in (ms), so the unit tests run on a manual clock.
 */

/** How long to wait after failures (ms). */
export interface SpawnBackoffTiming {
  /** The wait after the first failure of a streak. */
  readonly initialMs: number;
  /** The longest wait: each failure in a row doubles the wait up to this. */
  readonly maxMs: number;
}

/** One attempt to create a game room, as {@link SpawnBackoff.begin} grants it. */
export interface SpawnAttempt {
  /** The backoff step when the attempt began: a failure of an attempt from an older step does not double the wait again. */
  readonly step: number;
  /** Whether this is the one attempt allowed when a wait is over (the others hold until it resolves). */
  readonly trial: boolean;
}

/** A failure as the queue reports it: what to log and when the next attempt may start. */
export interface SpawnFailure {
  /** Failures of this room type in a row (this one included). */
  readonly failuresInRow: number;
  /** Ms until the next attempt may start. */
  readonly retryInMs: number;
  /** Whether this failure started the streak: its stack is worth logging once; the later ones repeat it. */
  readonly firstInStreak: boolean;
  /** One log line: the room type, the count, the wait and the error's message (and, the first time in a streak, its stack). */
  readonly logText: string;
}

/** The backoff state of one game-room type. */
export class SpawnBackoff {
  /** Doublings so far in this streak (0: no streak, normal pace). */
  private step = 0;
  private failures = 0;
  /** When attempts may start again (ms); meaningful while `step > 0`. */
  private retryAtMs = 0;
  /** The wait before the current retry time: also how long a trial may take before another may start. */
  private waitMs = 0;
  private trialUnderWay = false;
  private trialStartedAt = 0;
  /** Players told in this streak that their match is delayed: each hears it once. */
  private readonly told = new Set<string>();

  constructor(readonly gameRoom: string) {}

  /** Failures of this room type in a row (0 when the last attempt succeeded). */
  get failuresInRow(): number {
    return this.failures;
  }

  /** When the current wait ends (ms), or undefined at normal pace. */
  get retryAt(): number | undefined {
    return this.step > 0 ? this.retryAtMs : undefined;
  }

  /**
   * Whether no new game of this type may be attempted now: the wait after a failure is not over,
   * or it is and the one trial attempt has not resolved yet. A trial that hangs holds the others
   * back no longer than the wait before it: then another trial may start.
   */
  blocked(now: number): boolean {
    if (this.step === 0) return false;
    return now < this.retryAtMs || (this.trialUnderWay && now - this.trialStartedAt < this.waitMs);
  }

  /** Ms until the wait is over (0 at normal pace or once it is over). */
  waitLeft(now: number): number {
    return this.step > 0 ? Math.max(0, this.retryAtMs - now) : 0;
  }

  /**
   * Start an attempt, or undefined when none may start now ({@link blocked}). At normal pace every
   * match gets its attempt; when a wait is over, only the first (the trial) does.
   */
  begin(now: number): SpawnAttempt | undefined {
    if (this.blocked(now)) return undefined;
    const trial = this.step > 0;
    if (trial) {
      this.trialUnderWay = true;
      this.trialStartedAt = now;
    }
    return { step: this.step, trial };
  }

  /** An attempt created the game room and reserved its seats: the streak, if any, is over. Returns whether one was. */
  succeeded(): boolean {
    const ended = this.step > 0 || this.failures > 0;
    this.step = 0;
    this.failures = 0;
    this.trialUnderWay = false;
    this.told.clear();
    return ended;
  }

  /**
   * The attempt failed. The wait doubles (from `timing.initialMs`, up to `timing.maxMs`) unless
   * the attempt began before the last doubling: attempts that were under way together when the
   * type started failing count as one step, not as many. Every failure counts in `failuresInRow`.
   */
  failed(attempt: SpawnAttempt, error: unknown, now: number, timing: SpawnBackoffTiming): SpawnFailure {
    if (attempt.trial) this.trialUnderWay = false;
    this.failures++;
    const firstInStreak = this.failures === 1;
    if (attempt.step === this.step || this.step === 0) {
      this.step++;
      this.waitMs = delayMs(this.step, timing);
      this.retryAtMs = now + this.waitMs;
    }
    const retryInMs = this.waitLeft(now);
    return {
      failuresInRow: this.failures,
      retryInMs,
      firstInStreak,
      logText: failureText(this.gameRoom, this.failures, retryInMs, error, firstInStreak),
    };
  }

  /**
   * Whether `playerId` is still to be told in this streak that its match is delayed; true once per
   * player and streak (the call records it).
   */
  firstNotice(playerId: string): boolean {
    if (this.told.has(playerId)) return false;
    this.told.add(playerId);
    return true;
  }
}

/** The wait after the `step`-th failure in a row: `initialMs` doubled `step − 1` times, at most `maxMs`. */
export function delayMs(step: number, timing: SpawnBackoffTiming): number {
  if (step <= 0) return 0;
  // 2^30 × any initial wait is past any cap: stop doubling there (no overflow to Infinity).
  return Math.min(timing.maxMs, timing.initialMs * 2 ** Math.min(step - 1, 30));
}

/** `game room "demo_game" failed to start (failure 3 in a row; next attempt in 4000 ms): out of capacity` (+ the stack the first time). */
function failureText(
  gameRoom: string,
  failures: number,
  retryInMs: number,
  error: unknown,
  withStack: boolean,
): string {
  const head = `game room "${gameRoom}" failed to start (failure ${failures} in a row; next attempt in ${retryInMs} ms): ${messageOf(error)}`;
  const stack = withStack && error instanceof Error && error.stack ? `\n${error.stack}` : "";
  return head + stack;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The backoff of every game-room type of one process, by room type name. */
export class SpawnBackoffs {
  private readonly byRoom = new Map<string, SpawnBackoff>();

  /** The backoff of `gameRoom` (created at normal pace on first use). */
  of(gameRoom: string): SpawnBackoff {
    let backoff = this.byRoom.get(gameRoom);
    if (!backoff) {
      backoff = new SpawnBackoff(gameRoom);
      this.byRoom.set(gameRoom, backoff);
    }
    return backoff;
  }
}

/** This process's backoffs: every queue room of the process shares them. */
export const processSpawnBackoffs = new SpawnBackoffs();
