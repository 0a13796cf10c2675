import { describe, expect, it } from "vitest";
import { PacedTask } from "../../src/colyseus/paced-task.js";

/** A clock whose timers run only when the test moves time. */
function manualClock() {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; cleared: boolean }> = [];
  return {
    now: () => now,
    setTimeout(fn: () => void, ms: number) {
      const timer = { at: now + ms, fn, cleared: false };
      timers.push(timer);
      return { clear: () => (timer.cleared = true) };
    },
    advance(ms: number) {
      now += ms;
      for (const t of timers.filter((t) => !t.cleared && t.at <= now)) {
        t.cleared = true;
        t.fn();
      }
    },
    pending: () => timers.filter((t) => !t.cleared).length,
  };
}

describe("PacedTask", () => {
  it("runs the first request at once, shares one run at the end of the interval between later ones", () => {
    const clock = manualClock();
    const runs: number[] = [];
    const task = new PacedTask(
      () => 20,
      () => runs.push(clock.now()),
      clock,
    );
    task.request();
    expect(runs).toEqual([0]);
    clock.advance(5);
    task.request();
    task.request();
    task.request();
    expect(runs).toEqual([0]);
    expect(clock.pending()).toBe(1);
    clock.advance(15);
    expect(runs).toEqual([0, 20]);
    // After a quiet interval, at once again.
    clock.advance(100);
    task.request();
    expect(runs).toEqual([0, 20, 120]);
  });

  it("a run by another path serves the pending request and starts a new interval", () => {
    const clock = manualClock();
    let runs = 0;
    const task = new PacedTask(
      () => 20,
      () => runs++,
      clock,
    );
    task.request();
    clock.advance(5);
    task.request();
    task.ran(); // e.g. the room's heartbeat ran the policy
    expect(clock.pending()).toBe(0);
    clock.advance(50);
    expect(runs).toBe(1);
    task.request();
    expect(runs).toBe(2);
  });

  it("with interval 0 every request runs at once; cancel drops a pending run", () => {
    const clock = manualClock();
    let runs = 0;
    const eager = new PacedTask(
      () => 0,
      () => runs++,
      clock,
    );
    for (let i = 0; i < 5; i++) eager.request();
    expect(runs).toBe(5);
    const paced = new PacedTask(
      () => 10,
      () => runs++,
      clock,
    );
    paced.request();
    paced.request();
    paced.cancel();
    clock.advance(100);
    expect(runs).toBe(6);
  });
});
