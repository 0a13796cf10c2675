/**
 * A queue's last hour at a glance: how much its running totals grew over the last 60 minutes.
 * The totals are cumulative (see queue-life.ts), so the last hour is the totals now minus the
 * totals an hour ago; this keeps one snapshot of them per minute they were looked at, at most 61,
 * whatever the traffic. A queue's figures are refreshed whenever they move, so a snapshot taken at
 * the first look in a minute is within one figures refresh of that minute's start.
 *
 * No clock here: time is passed in (ms).
 */

/** The running totals the last hour is counted from (and what it reports). */
export interface HourTotals {
  readonly matches: number;
  readonly playersSeated: number;
  /** Seats that expired unused (the player back in the queue, or out). */
  readonly noShows: number;
  /** Players put back in the queue after their seat fell through (expired unused, or its game room gone). */
  readonly requeued: number;
}

const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;
const NONE: HourTotals = { matches: 0, playersSeated: 0, noShows: 0, requeued: 0 };

/** Snapshots of one queue's totals, one per minute, over the last hour. */
export class LastHour {
  /** Oldest first, one per minute; at most an hour and one. */
  private readonly snapshots: Array<{ minute: number; totals: HourTotals }> = [];
  private readonly startMinute: number;

  /** `since` (ms): when counting began; the totals were all 0 then. */
  constructor(since: number) {
    this.startMinute = Math.floor(since / MINUTE_MS);
  }

  /** The totals are `totals` at `now`: returns how much they grew over the last hour. */
  observe(totals: HourTotals, now: number): HourTotals {
    const minute = Math.floor(now / MINUTE_MS);
    const last = this.snapshots.at(-1);
    if (!last || last.minute < minute) this.snapshots.push({ minute, totals });
    // Keep the newest snapshot at least an hour old (the baseline) and everything after it.
    while (this.snapshots.length > 1 && this.snapshots[1]!.minute <= minute - HOUR_MINUTES) this.snapshots.shift();
    const oldest = this.snapshots[0]!;
    // Younger than an hour, or no look as old: the totals were 0 when counting began.
    const hourAgo = minute - HOUR_MINUTES;
    const base = oldest.minute > hourAgo && this.startMinute > hourAgo ? NONE : oldest.totals;
    return {
      matches: totals.matches - base.matches,
      playersSeated: totals.playersSeated - base.playersSeated,
      noShows: totals.noShows - base.noShows,
      requeued: totals.requeued - base.requeued,
    };
  }
}
