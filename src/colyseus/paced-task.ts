/**
 * A task run at most once per interval however often it is asked for: the first request after a
 * quiet interval runs it at once, later ones share one run at the end of the interval. The room
 * paces two things with it: the shared figures (each refresh is a frame to every client) and the
 * engine runs that joins and leaves ask for (under load, the joins of one interval are matched
 * in one run, and their players' first `status` and seats go out together).
 */

/** The room's clock, as far as pacing needs it. */
export interface PaceClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): { clear(): void };
}

export class PacedTask {
  private lastRun = -Infinity;
  private pending: { clear(): void } | undefined;

  /** `intervalOf` is read on every request, so it may follow the load (see `FiguresRefresh`). */
  constructor(
    private readonly intervalOf: () => number,
    private readonly task: () => void,
    private readonly clock: PaceClock,
  ) {}

  /** Run the task now if the interval since its last run is over, else once when it is. */
  request(): void {
    if (this.pending) return;
    const wait = this.lastRun + this.intervalOf() - this.clock.now();
    if (wait <= 0) return this.run();
    this.pending = this.clock.setTimeout(() => {
      this.pending = undefined;
      this.run();
    }, wait);
  }

  /** The task just ran by another path (a timer of the room's own): a pending request is served. */
  ran(): void {
    this.cancel();
    this.lastRun = this.clock.now();
  }

  /** Drop a pending run (the room is closing). */
  cancel(): void {
    this.pending?.clear();
    this.pending = undefined;
  }

  private run(): void {
    this.lastRun = this.clock.now();
    this.task();
  }
}
