/**
 * Record and replay: a queue room with `trafficTrace` records real clients' arrivals, departures
 * and games; the trace, downloaded from the operator route, replayed through the same policy on
 * the recorded clock, forms the same games (same tickets, same sides); no player identity is in it.
 */
import { defineRoom, Room } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineQueue, matchmakerTraces, operatorAuth } from "../../src/index.js";
import type { TrafficTrace } from "../../src/sim/index.js";
import { compareMatches, replayExact, replayTrace } from "../../src/sim/replay.js";
import { checkTrace } from "../../src/trace/format.js";
import { Random } from "../../src/sim/random.js";
import { joinQueue, testPort, within, type QueuedClient } from "../helpers/sdk.js";

class TraceGame extends Room {}

const QUEUE = "traced_2v2";

describe("a queue's recorded traffic, replayed", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          [QUEUE]: defineQueue({
            teamSize: 2,
            gameRoom: "trace_game",
            // Windows that widen with the wait: games form on joins, on the timer and at wake-ups.
            policy: "expanding-window",
            params: { unit: "rating", initial: 40, growthPerSecond: 1500 },
            tickMs: 25,
            rating: { min: 0, max: 3000 },
            trafficTrace: { events: 1000 },
          }),
          trace_game: defineRoom(TraceGame),
        },
        initializeExpress: (app) => {
          app.use("/matchmaker/traces", operatorAuth(), matchmakerTraces());
        },
      }),
      testPort(90),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("replays through the same policy into the same games, and through another policy", async () => {
    const random = new Random(7);
    const clients: QueuedClient[] = [];
    const ids: string[] = [];
    const leavers = new Set([3, 9, 14, 20]);
    for (let i = 0; i < 24; i++) {
      const rating = Math.round(1500 + 300 * random.normal());
      const client = await joinQueue(server, QUEUE, { rating });
      clients.push(client);
      ids.push(client.queue.sessionId);
      // A few players give up soon after joining (if they are still waiting).
      if (leavers.has(i)) await client.queue.leave();
      await new Promise((r) => setTimeout(r, 5 + Math.floor(random.uniform() * 30)));
    }
    const stayed = clients.filter((_, i) => !leavers.has(i));
    await within(Promise.all(stayed.map((c) => c.seat)), 10_000, "every remaining player's seat");

    const res = await fetch(`http://localhost:${testPort(90)}/matchmaker/traces?queue=${QUEUE}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const id of ids) expect(text).not.toContain(id);
    const trace: TrafficTrace = checkTrace(JSON.parse(text));
    expect(trace.dropped).toBe(0);
    const kinds = (kind: string) => trace.events.filter((e) => e.e === kind).length;
    expect(kinds("arrive")).toBe(24);
    expect(kinds("match")).toBeGreaterThanOrEqual(5);
    expect(kinds("leave")).toBeGreaterThan(0);
    expect(kinds("tick")).toBeGreaterThan(kinds("arrive"));

    const replay = replayExact(trace);
    const check = compareMatches(replay);
    expect(check).toEqual({ recorded: kinds("match"), replayed: kinds("match"), same: true });

    // Any policy: greedy plays the same arrivals and departures; everyone who stayed is placed.
    const greedy = replayTrace(trace, { policy: "greedy" });
    const placed = greedy.matches.reduce((n, m) => n + m.tickets.length, 0);
    expect(placed + greedy.unmatched.length + greedy.stats.ticketsCancelled).toBe(24);
    expect(greedy.matches.every((m) => m.teams.every((t) => t.players.length === 2))).toBe(true);

    for (const c of stayed) await c.queue.leave();
  });
});
