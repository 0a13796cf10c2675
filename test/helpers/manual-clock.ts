/**
 * A controlled clock for integration tests: queue rooms defined with `manualQueue` read the time
 * from `ManualClock.now` (the engine's `now` and the room's timers alike), and time moves only
 * when the test calls `advance`. Assertions can then be exact counts and exact waits instead of
 * wall-clock comparisons that fail under load.
 */
import { defineRoom } from "@colyseus/core";
import { MatchmakerRoom, type defineQueue, type MatchmakerRoomOptions } from "../../src/index.js";

export class ManualClock {
  /** Milliseconds; any origin will do, the engine only takes differences. */
  now = 1_000_000;
  private readonly rooms = new Set<MatchmakerRoom>();

  /**
   * Move time forward by `ms` in steps of at most `stepMs`, running every timer that falls due
   * in each step (the engine's tick, its wakeups, the status throttle) synchronously.
   */
  advance(ms: number, stepMs = ms): void {
    let left = ms;
    while (left > 0) {
      const step = Math.min(stepMs, left);
      this.now += step;
      left -= step;
      for (const room of this.rooms) room.clock.tick();
    }
  }

  /** @internal called by the rooms `manualQueue` defines. */
  attach(room: MatchmakerRoom): void {
    this.rooms.add(room);
  }

  /** @internal */
  detach(room: MatchmakerRoom): void {
    this.rooms.delete(room);
  }
}

/**
 * A queue room type (as `defineQueue` makes) whose clock is `clock`. Unless `options` say
 * otherwise, it runs the policy on every join (`joinBatchMs: 0`) and refreshes its figures on
 * every change (`figuresIntervalMs: 0`): with time standing still between `advance` calls, a
 * paced run or refresh would otherwise wait for the test to move the clock.
 */
export function manualQueue(options: MatchmakerRoomOptions, clock: ManualClock): ReturnType<typeof defineQueue> {
  options = { joinBatchMs: 0, figuresIntervalMs: 0, ...options };
  class ManualClockQueue extends MatchmakerRoom {
    override onCreate(roomOptions: MatchmakerRoomOptions): void {
      // Colyseus ticks the room's timer clock every 16 ms; reading our time, those ticks see no
      // elapsed time, so timers fire only inside `advance`.
      // `Clock.now` is protected in its typings but a plain property: the documented way to give
      // @colyseus/clock another time source.
      (this.clock as unknown as { now: () => number }).now = () => clock.now;
      this.clock.start();
      clock.attach(this);
      super.onCreate(roomOptions);
    }
    override onDispose(): void {
      clock.detach(this);
      super.onDispose();
    }
    protected override now(): number {
      return clock.now;
    }
    protected override preciseTimeout(fn: () => void, ms: number): { clear(): void } {
      return this.clock.setTimeout(fn, ms);
    }
  }
  // Typed as the base queue's definition: the subclass type would expose Room's private members.
  return defineRoom(ManualClockQueue, options) as unknown as ReturnType<typeof defineQueue>;
}
