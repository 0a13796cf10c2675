/**
 * Regions by latency in the simulator: `--latencies` profiles and `--max-latency` (with its
 * widening) reach the engine, every simulated player plays in a zone it reaches within the maximum
 * at its wait, the match's zone is the best-reached of those its tickets wait in, and a wider
 * maximum trades latency for wait.
 */
import { describe, expect, it } from "vitest";
import { maxLatencyAt, type LatencyRule } from "../../src/core/zone-latency.js";
import { parseSimulationArgs, UsageError } from "../../src/sim/options.js";
import { runRequest } from "../../src/sim/run.js";
import { simulate } from "../../src/sim/simulator.js";
import type { TrafficModel } from "../../src/sim/traffic.js";

const PROFILES = "eu=20+us=140:0.45,eu=140+us=20:0.45,eu=70+us=60:0.1";

describe("the simulator's latency options", () => {
  it("parse into latency profiles and the queue's rule", () => {
    const request = parseSimulationArgs([
      "--policy",
      "greedy",
      "--latencies",
      PROFILES,
      "--max-latency",
      "60",
      "--max-latency-growth",
      "10",
      "--max-latency-cap",
      "150",
    ]);
    expect(request.traffic.latencies).toEqual([
      { value: { eu: 20, us: 140 }, weight: 0.45 },
      { value: { eu: 140, us: 20 }, weight: 0.45 },
      { value: { eu: 70, us: 60 }, weight: 0.1 },
    ]);
    expect(request.latency).toEqual({ maxLatencyMs: 60, maxLatencyGrowthPerSecond: 10, maxLatencyCapMs: 150 });
  });

  it.each([
    [["--latencies", PROFILES], "--latencies: needs --max-latency"],
    [["--max-latency", "60"], "--max-latency: needs --latencies"],
    [
      ["--latencies", "eu=20+us=140:1,eu=30:1", "--max-latency", "60"],
      "every profile gives a latency to the same zones",
    ],
    [["--latencies", "eu=20+us=-1:1", "--max-latency", "60"], "--latencies us: must be a whole number from 0 to 60000"],
    [["--latencies", PROFILES, "--zones", "eu:1", "--max-latency", "60"], "leave out --zones"],
  ])("refuse %j", (args, message) => {
    expect(() => parseSimulationArgs(["--policy", "greedy", ...args])).toThrow(UsageError);
    expect(() => parseSimulationArgs(["--policy", "greedy", ...args])).toThrow(message);
  });
});

describe("simulated traffic from two regions and between them", () => {
  const traffic: TrafficModel = {
    arrivals: "poisson",
    rate: 0.5,
    parties: [
      { value: 1, weight: 2 },
      { value: 2, weight: 1 },
    ],
    skill: { kind: "uniform" },
    sides: [{ value: undefined, weight: 1 }],
    latencies: [
      { value: { eu: 20, us: 140 }, weight: 0.45 },
      { value: { eu: 140, us: 20 }, weight: 0.45 },
      { value: { eu: 70, us: 60 }, weight: 0.1 },
    ],
  };

  it("every player plays in a zone it reaches within the maximum at its wait, the best-reached one", () => {
    const rule: LatencyRule = { maxLatencyMs: 60, maxLatencyGrowthPerSecond: 10, maxLatencyCapMs: 150 };
    const { matches } = simulate({ policy: "greedy", teamSize: 2, traffic, tickets: 3000, latency: rule });
    expect(matches.length).toBeGreaterThan(500);
    for (const m of matches) {
      const zone = m.zone!;
      const humans = m.tickets.flatMap((t) => t.players.map((p) => ({ p, waitMs: m.createdAt - t.enqueuedAt })));
      for (const { p, waitMs } of humans) expect(p.latencies![zone]).toBeLessThanOrEqual(maxLatencyAt(rule, waitMs));
      // No zone every player also reaches serves the worst-placed player better.
      const worst = (z: string) => Math.max(...humans.map(({ p }) => p.latencies![z]));
      const reachable = ["eu", "us"].filter((z) =>
        humans.every(({ p, waitMs }) => p.latencies![z] <= maxLatencyAt(rule, waitMs)),
      );
      for (const z of reachable) expect(worst(zone)).toBeLessThanOrEqual(worst(z));
    }
  });

  it("a wider maximum shortens waits and lengthens latencies", () => {
    const run = (maxLatency: string) =>
      runRequest(
        parseSimulationArgs([
          "--policy",
          "greedy",
          "--team-size",
          "2",
          "--rate",
          "0.5",
          "--tickets",
          "4000",
          "--latencies",
          PROFILES,
          "--max-latency",
          maxLatency,
        ]),
      )[0];
    const narrow = run("60");
    const wide = run("150");
    expect(wide.meanWait).toBeLessThan(narrow.meanWait);
    expect(wide.meanLatency!).toBeGreaterThan(narrow.meanLatency!);
    expect(narrow.meanLatency!).toBeLessThanOrEqual(60);
  });
});
