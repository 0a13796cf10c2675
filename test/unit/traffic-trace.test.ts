/**
 * The traffic recorder on an engine driven by the simulator's arrivals (with departures), and the
 * exact replay: same games, ticket for ticket and side for side; the ring's bound; no identity.
 */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker, type MatchmakerOptions } from "../../src/options/matchmaker.js";
import type { Match } from "../../src/core/types.js";
import { recordTraffic, TrafficRecorder } from "../../src/colyseus/traffic-trace.js";
import { compareMatches, MAX_DRAIN_MS, replayExact, replayTrace } from "../../src/sim/replay.js";
import { checkTrace } from "../../src/trace/format.js";
import { compareOnTrace } from "../../src/sim/trace-cli.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { servesShape } from "../../src/core/policy.js";
import { arrivals } from "../../src/sim/traffic.js";
import { Random } from "../../src/sim/random.js";
import { thrown } from "../helpers/thrown.js";

/** Drive an engine like the room does: a heartbeat every `tickMs`, a tick on every join and leave. */
function liveQueue(options: MatchmakerOptions, tickets: number, seed: number, capacity = 100_000) {
  const engine = new Matchmaker(options);
  const recorder = recordTraffic(engine, options, capacity, "q");
  const random = new Random(seed + 1);
  const stream = arrivals(
    {
      arrivals: "poisson",
      rate: 4,
      parties: [
        { value: 1, weight: 3 },
        { value: 2, weight: 1 },
      ],
      skill: { kind: "normal", mean: 1500, sd: 300 },
      sides: [{ value: undefined, weight: 1 }],
    },
    seed,
  );
  const live: Match[] = [];
  const leaves: Array<{ at: number; id: string }> = [];
  let heartbeat = 0;
  for (let i = 0; i < tickets; i++) {
    const a = stream.next().value;
    const at = Math.round(a.time * 1000);
    // Heartbeats and departures due before this arrival, in time order.
    for (;;) {
      const leave = leaves[0];
      const next = Math.min(heartbeat + 250, leave?.at ?? Infinity);
      if (next > at) break;
      if (leave && leave.at === next) {
        leaves.shift();
        engine.cancel(leave.id, next);
      } else heartbeat = next;
      live.push(...engine.tick(next));
    }
    engine.enqueue({ ...a.ticket, enqueuedAt: at }, at);
    live.push(...engine.tick(at + (i % 3))); // the room's second reading of the clock may be later
    if (random.uniform() < 0.15) {
      leaves.push({ at: at + 1 + Math.floor(random.uniform() * 3000), id: a.ticket.id });
      leaves.sort((x, y) => x.at - y.at);
    }
  }
  return { engine, recorder, live };
}

describe("traffic trace", () => {
  const options: MatchmakerOptions = {
    teamSize: 2,
    policy: "expanding-window",
    params: { unit: "rating", initial: 20, growthPerSecond: 60 },
    ratingRange: { min: 0, max: 3000 },
  };

  it("an exact replay forms the live queue's games, tickets and sides", () => {
    const { recorder, live } = liveQueue(options, 400, 3);
    const trace = checkTrace(JSON.parse(JSON.stringify(recorder.trace())));
    expect(live.length).toBeGreaterThan(50);
    expect(trace.events.filter((e) => e.e === "leave").length).toBeGreaterThan(10);
    expect(trace.events.filter((e) => e.e === "match").length).toBe(live.length);
    const result = replayExact(trace);
    expect(compareMatches(result)).toEqual({ recorded: live.length, replayed: live.length, same: true });
    // The replayed games are the live ones, wait for wait.
    expect(result.matches.map((m) => m.quality.meanWaitMs)).toEqual(live.map((m) => m.quality.meanWaitMs));
  });

  it("a replay through another policy sees the same arrivals and loses nobody", () => {
    const { recorder } = liveQueue(options, 300, 5);
    const trace = recorder.trace();
    const result = replayTrace(trace, { policy: "difference-wait", params: { fWait: 2 } });
    const placed = result.matches.reduce((n, m) => n + m.tickets.length, 0);
    expect(result.arrivals.length).toBe(300);
    expect(placed + result.unmatched.length + result.stats.ticketsCancelled).toBe(300);
    // A different policy forms different games on the same traffic.
    expect(compareMatches(result).same).toBe(false);
  });

  it("a replay ends when the policy's wake-ups stop forming games (brackets' odd ones out), losing nobody", () => {
    const { recorder } = liveQueue(options, 300, 5);
    const trace = recorder.trace();
    const lastEvent = Math.max(...trace.events.map((e) => ("t" in e ? e.t : 0)));
    const result = replayTrace(trace, { policy: "brackets", params: {} });
    const placed = result.matches.reduce((n, m) => n + m.tickets.length, 0);
    expect(placed + result.unmatched.length + result.stats.ticketsCancelled).toBe(300);
    expect(result.unmatched.length).toBeGreaterThan(0);
    expect(result.endTime * 1000).toBeLessThanOrEqual(lastEvent + MAX_DRAIN_MS + 60_000);
  });

  it("keeps at most `capacity` events, counts the ones it dropped, and keeps no identity", () => {
    const { recorder } = liveQueue(options, 200, 9, 150);
    const trace = recorder.trace();
    expect(trace.events.length).toBe(150);
    expect(trace.dropped).toBeGreaterThan(0);
    expect(trace.capacity).toBe(150);
    const text = JSON.stringify(trace);
    expect(text).not.toMatch(/sessionId|playerId|"p\d+\.\d+"/);
    // Times are relative to the first event, in order.
    const times = trace.events.map((e) => e.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("records and replays every shape: a free-for-all's and four teams' games, team by team", () => {
    for (const shaped of [
      { maxPlayers: 3, policy: "periodic", params: { x: 2 } },
      { teamSize: 2, teams: 4, policy: "greedy" },
    ] satisfies MatchmakerOptions[]) {
      const { recorder, live } = liveQueue({ ...shaped, ratingRange: { min: 0, max: 3000 } }, 300, 4);
      const trace = checkTrace(JSON.parse(JSON.stringify(recorder.trace())));
      const matches = trace.events.filter((e) => e.e === "match");
      expect(matches.length).toBe(live.length);
      expect(live.length).toBeGreaterThan(20);
      // No sides: each team's tickets, as many teams as the game has.
      for (const [i, e] of matches.entries()) expect("teams" in e && e.teams.length).toBe(live[i].teams.length);
      expect(compareMatches(replayExact(trace))).toEqual({ recorded: live.length, replayed: live.length, same: true });
    }
  });

  it("compares on a free-for-all's trace only the policies that form its games", () => {
    const { recorder } = liveQueue({ maxPlayers: 3, policy: "greedy", ratingRange: { min: 0, max: 3000 } }, 200, 6);
    const comparison = compareOnTrace(recorder.trace(), 30);
    const policies = new Set(comparison.policies.map((p) => p.policy));
    for (const name of ["greedy", "periodic", "multi-queue"]) expect(policies).toContain(name);
    for (const name of policies) expect(defaultPolicies.get(name).shapes).toContain("free-for-all");
    for (const name of defaultPolicies.names())
      if (!servesShape(defaultPolicies.get(name), "free-for-all")) expect(policies).not.toContain(name);
  });

  it("replays a trace recorded before shapes (teamSize alone, sides a and b)", () => {
    const old = {
      format: "colyseus-matchmaker/traffic-trace",
      version: 1,
      origin: 0,
      engine: { teamSize: 1, policy: "greedy" },
      capacity: 10,
      dropped: 0,
      events: [
        { t: 0, e: "arrive", ticket: 0, enqueuedAt: 0, players: [{ rating: 1000 }] },
        { t: 0, e: "tick" },
        { t: 5, e: "arrive", ticket: 1, enqueuedAt: 5, players: [{ rating: 1100 }] },
        { t: 5, e: "tick" },
        { t: 5, e: "match", a: [0], b: [1], bots: 0 },
      ],
    };
    const result = replayExact(checkTrace(old));
    expect(result.shape).toEqual({ kind: "teams", teams: 2, teamSize: 1, minTeamSize: 1 });
    expect(compareMatches(result)).toEqual({ recorded: 1, replayed: 1, same: true });
  });

  it("refuses what is not a trace, naming what is wrong", () => {
    expect(thrown(() => checkTrace({}), MatchmakerError)).toMatchObject({ code: "invalid_trace", field: "format" });
    expect(() => checkTrace({})).toThrow(/not a traffic trace/);
    const good = new TrafficRecorder({ teamSize: 1, policy: "greedy" }, 100).trace();
    expect(() => checkTrace({ ...good, version: 2 })).toThrow(/version 2/);
    expect(() => checkTrace({ ...good, events: [{ t: 0, e: "arrive", ticket: 0, players: [{}] }] })).toThrow(
      /finite rating/,
    );
    expect(() => checkTrace({ ...good, events: [{ t: 0, e: "boom" }] })).toThrow(/unknown kind "boom"/);
    expect(() => checkTrace({ ...good, events: [{ t: 0, e: "match", a: [0], bots: 0 }] })).toThrow(
      /event 0 \(match\) needs its tickets/,
    );
    expect(thrown(() => checkTrace({ ...good, engine: { policy: "greedy" } }), MatchmakerError)).toMatchObject({
      code: "invalid_trace",
      field: "engine.teamSize",
    });
  });
});
