/**
 * The target-wait controller on a queue whose waits are proportional to the patience it sets
 * (so the patience that meets the target is known exactly), and the queue option through the engine.
 */
import { Heap } from "heap-js";
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { TargetWaitController } from "../../src/core/target-wait.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { Random } from "../../src/sim/random.js";

/**
 * Players arrive (Poisson, `perSecond`) and each waits patience × `baseMs` × Exp(1), the patience
 * as the controller has it when they arrive. Returns the mean patience seen by the arrivals after
 * the first `settle`, and their mean wait.
 */
function queue(
  controller: TargetWaitController,
  random: Random,
  stages: ReadonlyArray<{ arrivals: number; perSecond: number; baseMs: number }>,
  settle: number,
) {
  const departures = new Heap<number>((a, b) => a - b);
  // Percentile target: the moments waiting players pass the target.
  const overdue = new Heap<number>((a, b) => a - b);
  let now = 0;
  let arrived = 0;
  let patienceSum = 0;
  let waitSum = 0;
  let counted = 0;
  const step = (until: number) => {
    while (overdue.length > 0 && overdue.peek()! <= until && overdue.peek()! <= (departures.peek() ?? Infinity)) {
      controller.advance(overdue.peek()!, departures.length);
      overdue.pop();
      controller.overdue(1);
    }
    while (departures.length > 0 && departures.peek()! <= until) {
      const at = departures.pop()!;
      controller.advance(at, departures.length + 1);
      controller.departed(1);
    }
    controller.advance(until, departures.length);
  };
  for (const stage of stages)
    for (let i = 0; i < stage.arrivals; i++) {
      now += 1000 * random.exponential(stage.perSecond);
      step(now);
      const wait = controller.patience * stage.baseMs * random.exponential(1);
      if (arrived++ >= settle) {
        patienceSum += controller.patience;
        waitSum += wait;
        counted++;
      }
      departures.push(now + wait);
      if (wait > controller.waitMs) overdue.push(now + controller.waitMs);
    }
  return { patience: patienceSum / counted, wait: waitSum / counted };
}

describe("target-wait controller", () => {
  it("finds the patience at which the mean wait is the target", () => {
    // Waits are patience × 200 ms × Exp(1): the mean is 650 ms at patience 3.25. With gain 0.01
    // the log-patience wanders by about sqrt(0.01 / 2) = 0.07; over 8000 arrivals (80 stretches
    // of 1 / gain) the mean's error is about 0.07 / sqrt(80) < 1%, so 6% is 6 of them.
    const controller = new TargetWaitController({ waitMs: 650 });
    const result = queue(controller, new Random(11), [{ arrivals: 10_000, perSecond: 10, baseMs: 200 }], 2000);
    expect(result.patience).toBeGreaterThan(3.25 * 0.94);
    expect(result.patience).toBeLessThan(3.25 * 1.06);
    expect(result.wait).toBeGreaterThan(650 * 0.94);
    expect(result.wait).toBeLessThan(650 * 1.06);
  });

  it("finds the patience at which the 90th percentile is the target", () => {
    // P(patience × 100 × Exp(1) ≤ 1000) = 0.9 at patience 10 / ln 10 = 4.343.
    const controller = new TargetWaitController({ waitMs: 1000, percentile: 90 });
    const result = queue(controller, new Random(12), [{ arrivals: 12_000, perSecond: 10, baseMs: 100 }], 3000);
    expect(result.patience).toBeGreaterThan(4.343 * 0.92);
    expect(result.patience).toBeLessThan(4.343 * 1.08);
  });

  it("follows a tenfold change of the waits' scale within a few hundred players", () => {
    const controller = new TargetWaitController({ waitMs: 500 });
    // Patience 10, then the traffic thins tenfold and the same patience waits ten times as long: patience 1.
    const result = queue(
      controller,
      new Random(13),
      [
        { arrivals: 3000, perSecond: 10, baseMs: 50 },
        { arrivals: 4000, perSecond: 1, baseMs: 500 },
      ],
      3500,
    );
    expect(result.patience).toBeGreaterThan(0.9);
    expect(result.patience).toBeLessThan(1.1);
  });

  it("refuses bad options, naming them", () => {
    expect(() => new TargetWaitController({ waitMs: 0 })).toThrow(/waitMs/);
    expect(() => new TargetWaitController({ waitMs: 100, percentile: 100 })).toThrow(/percentile/);
    expect(() => new TargetWaitController({ waitMs: 100, gain: 2 })).toThrow(/gain/);
  });
});

describe("the targetWait queue option", () => {
  it("needs a policy with a patience to turn", () => {
    const make = () => new Matchmaker({ teamSize: 1, policy: "greedy", targetWait: { waitMs: 1000 } });
    expect(make).toThrow(MatchmakerError);
    expect(make).toThrow(/targetWait: policy "greedy" has no patience/);
    expect(() => new Matchmaker({ teamSize: 1, policy: "greedy", targetWait: { waitMs: -1 } as never })).toThrow(
      /targetWait/,
    );
  });

  it("reports the target and the patience in the policy's status, and the tuned window to the player", () => {
    const mm = new Matchmaker({
      teamSize: 1,
      policy: "expanding-window",
      params: { unit: "rating", initial: 10, growthPerSecond: 10 },
      targetWait: { waitMs: 2000, gain: 0.05 },
    });
    mm.enqueue({ id: "a", players: [{ sessionId: "a", rating: 1000 }], enqueuedAt: 0 }, 0);
    mm.enqueue({ id: "b", players: [{ sessionId: "b", rating: 1005 }], enqueuedAt: 0 }, 0);
    mm.enqueue({ id: "c", players: [{ sessionId: "c", rating: 2000 }], enqueuedAt: 0 }, 0);
    // Two players leave the queue at once, against a target of 2 s: more patience (e^(2 × 0.05)),
    // so c's window (10 + 10/s as configured) grows more slowly, and its status says so.
    expect(mm.tick(0)).toHaveLength(1);
    const status = mm.stats(0).policyStatus as { targetWaitMs: number; patience: number };
    expect(status.targetWaitMs).toBe(2000);
    expect(status.patience).toBeCloseTo(Math.exp(0.1), 3);
    const width = 10 + 10 / status.patience;
    const window = mm.acceptanceWindow("c", 1000)!;
    expect(window.min).toBeCloseTo(2000 - width, 1);
    expect(window.max).toBeCloseTo(2000 + width, 1);
    expect(mm.policy.name).toBe("expanding-window");
  });
});
