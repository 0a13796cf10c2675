import { describe, expect, it } from "vitest";
import { delayMs, SpawnBackoff, SpawnBackoffs, type SpawnAttempt } from "../../src/colyseus/spawn-backoff.js";
import { parseRoomOptions, spawnBackoffTimingOf } from "../../src/options/index.js";
import { ManualClock } from "../helpers/manual-clock.js";

const timing = { initialMs: 100, maxMs: 1000 };
const boom = new Error("game server out of capacity");

/** Attempt now; the test fails if the backoff refuses. */
function attempt(backoff: SpawnBackoff, now: number): SpawnAttempt {
  const a = backoff.begin(now);
  expect(a).toBeDefined();
  return a!;
}

describe("spawn backoff", () => {
  it("doubles the wait after each failure in a row, up to the cap", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("game");
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const failure = backoff.failed(attempt(backoff, clock.now), boom, clock.now, timing);
      waits.push(failure.retryInMs);
      expect(failure.failuresInRow).toBe(i + 1);
      clock.advance(failure.retryInMs);
    }
    expect(waits).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    expect(delayMs(0, timing)).toBe(0);
    expect(delayMs(10_000, timing)).toBe(1000); // no overflow past the cap
  });

  it("attempts nothing while waiting, then one trial; a success restores the normal pace", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("game");
    expect(backoff.blocked(clock.now)).toBe(false);
    // At normal pace every match gets an attempt, however many are under way.
    const first = attempt(backoff, clock.now);
    attempt(backoff, clock.now);
    backoff.failed(first, boom, clock.now, timing);
    expect(backoff.retryAt).toBe(clock.now + 100);

    clock.advance(99);
    expect(backoff.blocked(clock.now)).toBe(true);
    expect(backoff.begin(clock.now)).toBeUndefined();
    expect(backoff.waitLeft(clock.now)).toBe(1);

    clock.advance(1);
    const trial = attempt(backoff, clock.now);
    expect(trial.trial).toBe(true);
    // The trial goes alone: the others wait for its outcome.
    expect(backoff.begin(clock.now)).toBeUndefined();
    expect(backoff.blocked(clock.now)).toBe(true);

    expect(backoff.succeeded()).toBe(true);
    expect(backoff.failuresInRow).toBe(0);
    expect(backoff.retryAt).toBeUndefined();
    expect(backoff.blocked(clock.now)).toBe(false);
    expect(attempt(backoff, clock.now).trial).toBe(false);
    expect(attempt(backoff, clock.now).trial).toBe(false);
    expect(backoff.succeeded()).toBe(false); // no streak to end
  });

  it("lets another trial start when one hangs longer than the wait before it", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("game");
    backoff.failed(attempt(backoff, clock.now), boom, clock.now, timing); // wait 100 ms
    clock.advance(100);
    const hanging = attempt(backoff, clock.now);
    expect(hanging.trial).toBe(true);
    clock.advance(99);
    expect(backoff.begin(clock.now)).toBeUndefined();
    clock.advance(1);
    const next = attempt(backoff, clock.now);
    expect(next.trial).toBe(true);
    // The second trial fails: one step (200 ms); the first one failing late does not double it again.
    expect(backoff.failed(next, boom, clock.now, timing).retryInMs).toBe(200);
    expect(backoff.failed(hanging, boom, clock.now, timing).retryInMs).toBe(200);
    expect(backoff.failuresInRow).toBe(3);
  });

  it("counts attempts that failed together as one step of the wait", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("game");
    const together = [0, 1, 2, 3].map(() => attempt(backoff, clock.now));
    const failures = together.map((a) => backoff.failed(a, boom, clock.now, timing));
    expect(failures.map((f) => f.failuresInRow)).toEqual([1, 2, 3, 4]);
    expect(failures.map((f) => f.retryInMs)).toEqual([100, 100, 100, 100]);
    // The next failure (the trial's) doubles it.
    clock.advance(100);
    expect(backoff.failed(attempt(backoff, clock.now), boom, clock.now, timing).retryInMs).toBe(200);
  });

  it("logs one line per failure with the error's message, the stack only the first time in a streak", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("flaky_game");
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const failure = backoff.failed(attempt(backoff, clock.now), boom, clock.now, timing);
      texts.push(failure.logText);
      clock.advance(failure.retryInMs);
    }
    expect(texts[0]).toMatch(
      /^game room "flaky_game" failed to start \(failure 1 in a row; next attempt in 100 ms\): game server out of capacity\n/,
    );
    expect(texts[0]).toContain(boom.stack!);
    expect(texts.slice(1)).toEqual([
      'game room "flaky_game" failed to start (failure 2 in a row; next attempt in 200 ms): game server out of capacity',
      'game room "flaky_game" failed to start (failure 3 in a row; next attempt in 400 ms): game server out of capacity',
    ]);
    // A new streak after a success shows the stack again; a thrown non-Error is logged as text.
    backoff.succeeded();
    const again = backoff.failed(attempt(backoff, clock.now), "no capacity", clock.now, timing);
    expect(again).toMatchObject({ firstInStreak: true, failuresInRow: 1 });
    expect(again.logText).toBe(
      'game room "flaky_game" failed to start (failure 1 in a row; next attempt in 100 ms): no capacity',
    );
  });

  it("tells each player once per streak", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("game");
    backoff.failed(attempt(backoff, clock.now), boom, clock.now, timing);
    expect(["a", "b", "a", "b", "c"].map((id) => backoff.firstNotice(id))).toEqual([true, true, false, false, true]);
    backoff.succeeded();
    expect(backoff.firstNotice("a")).toBe(true);
  });

  it("retried on every 100 ms tick for 2 s, a failing room type is attempted 5 times instead of 21", () => {
    const clock = new ManualClock();
    const backoff = new SpawnBackoff("game");
    let attempts = 0;
    // The room's loop: on each tick, attempt when allowed; the room type always fails.
    for (let t = 0; t <= 2000; t += 100) {
      const a = backoff.begin(clock.now);
      if (a) {
        attempts++;
        backoff.failed(a, boom, clock.now, timing);
      }
      clock.advance(100);
    }
    // Failures at 0, 100, 300, 700 and 1500 ms (waits 100, 200, 400, 800).
    expect(attempts).toBe(5);
  });

  it("keeps one state per game room type in a process", () => {
    const backoffs = new SpawnBackoffs();
    expect(backoffs.of("a")).toBe(backoffs.of("a"));
    expect(backoffs.of("a")).not.toBe(backoffs.of("b"));
    const a = backoffs.of("a");
    a.failed(attempt(a, 0), boom, 0, timing);
    expect(backoffs.of("a").blocked(50)).toBe(true);
    expect(backoffs.of("b").blocked(50)).toBe(false);
  });
});

describe("spawn backoff options", () => {
  it("defaults to 1 s doubling up to 30 s, and a longer initial wait raises the default cap", () => {
    expect(spawnBackoffTimingOf(parseRoomOptions({ teamSize: 1, gameRoom: "g" }))).toEqual({
      initialMs: 1000,
      maxMs: 30_000,
    });
    expect(spawnBackoffTimingOf(parseRoomOptions({ teamSize: 1, gameRoom: "g", spawnRetryMs: 60_000 }))).toEqual({
      initialMs: 60_000,
      maxMs: 60_000,
    });
    expect(
      spawnBackoffTimingOf(parseRoomOptions({ teamSize: 1, gameRoom: "g", spawnRetryMs: 50, spawnRetryMaxMs: 400 })),
    ).toEqual({ initialMs: 50, maxMs: 400 });
  });

  it("refuses bad values, naming the option", () => {
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", spawnRetryMs: 5 })).toThrow(
      "MatchmakerRoom options: spawnRetryMs: must be at least 10",
    );
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", spawnRetryMaxMs: "1s" })).toThrow(
      "MatchmakerRoom options: spawnRetryMaxMs: must be a number of milliseconds",
    );
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", spawnRetryMs: 2000, spawnRetryMaxMs: 1000 })).toThrow(
      "MatchmakerRoom options: spawnRetryMaxMs: must be at least spawnRetryMs (2000)",
    );
  });
});
