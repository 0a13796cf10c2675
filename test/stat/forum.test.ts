/**
 * The forum thread's claim, measured: at equal mean wait, a window that widens with the wait
 * gives closer games than a fixed window when ratings are normally distributed (sparse top and
 * bottom ranks). Seeded runs; the fixed window's spread-against-wait curve is interpolated at
 * the expanding window's mean wait, and the gap must exceed four standard errors (batch means).
 *
 * Waits count the players still waiting at the end (censored at the end of the run): a fixed
 * window strands far-tail players, and leaving them out would flatter it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { simulate } from "../../src/sim/simulator.js";
import type { TrafficModel } from "../../src/sim/traffic.js";
import { batchMeans } from "../helpers/statistics.js";

const TICKETS = 10_000;
const WARMUP = 1_000;
const traffic: TrafficModel = {
  arrivals: "poisson",
  rate: 1,
  parties: [{ value: 1, weight: 1 }],
  skill: { kind: "normal", mean: 1500, sd: 300 },
  sides: [{ value: undefined, weight: 1 }],
};

interface Point {
  readonly wait: number;
  readonly spread: { mean: number; standardError: number };
}

function run(params: Record<string, unknown>): Point {
  const trace = simulate({ policy: "expanding-window", params, teamSize: 1, traffic, tickets: TICKETS, seed: 1 });
  let waitSum = 0;
  let players = 0;
  const spreads: number[] = [];
  for (const m of trace.matches) {
    const measured = m.tickets.filter((t) => Number(t.id.slice(1)) >= WARMUP);
    if (measured.length === 0) continue;
    for (const t of measured) waitSum += (m.createdAt - t.enqueuedAt) / 1000;
    players += measured.length;
    spreads.push(m.quality.spread);
  }
  for (const a of trace.unmatched) {
    if (a.index < WARMUP) continue;
    waitSum += trace.endTime - a.time;
    players++;
  }
  return { wait: waitSum / players, spread: batchMeans(spreads) };
}

/** The fixed curve's spread at `wait` (linear between the two runs that bracket it). */
function interpolate(curve: readonly Point[], wait: number): { mean: number; standardError: number } {
  const byWait = [...curve].sort((a, b) => a.wait - b.wait);
  for (let i = 0; i + 1 < byWait.length; i++) {
    const [lo, hi] = [byWait[i], byWait[i + 1]];
    if (lo.wait <= wait && wait <= hi.wait) {
      const f = (wait - lo.wait) / (hi.wait - lo.wait);
      return {
        mean: lo.spread.mean + f * (hi.spread.mean - lo.spread.mean),
        standardError: Math.max(lo.spread.standardError, hi.spread.standardError),
      };
    }
  }
  throw new Error(
    `wait ${wait} is outside the fixed window's curve ${byWait.map((p) => p.wait.toFixed(1)).join(", ")}`,
  );
}

describe("forum thread: expanding window against a fixed window at equal mean wait", () => {
  let fixed: Point[];
  beforeAll(() => {
    fixed = [15, 20, 30, 40, 60].map((width) => run({ initial: width, growthPerSecond: 0 }));
  });

  for (const [initial, growth] of [
    [10, 1],
    [20, 1],
  ] as const) {
    it(`initial ${initial} + ${growth}/s gives a lower mean spread than the fixed window with the same mean wait`, () => {
      const expanding = run({ initial, growthPerSecond: growth });
      const reference = interpolate(fixed, expanding.wait);
      const tolerance = 4 * Math.hypot(expanding.spread.standardError, reference.standardError);
      expect(expanding.spread.mean + tolerance).toBeLessThan(reference.mean);
    });
  }

  it("the fixed window strands far-tail players that the expanding window serves", () => {
    const stranded = simulate({
      policy: "expanding-window",
      params: { initial: 20, growthPerSecond: 0 },
      teamSize: 1,
      traffic,
      tickets: TICKETS,
      seed: 1,
    }).unmatched;
    const served = simulate({
      policy: "expanding-window",
      params: { initial: 20, growthPerSecond: 1 },
      teamSize: 1,
      traffic,
      tickets: TICKETS,
      seed: 1,
    }).unmatched;
    expect(stranded.length).toBeGreaterThan(served.length);
    // Those left behind by the fixed window sit in the sparse tails, not in the dense middle.
    const far = stranded.filter((a) => Math.abs(a.ticket.players[0].rating - 1500) > 300).length;
    expect(far).toBeGreaterThan(stranded.length / 2);
  });
});
