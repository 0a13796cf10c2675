/**
 * Regions by latency in the engine: a ticket waits in every zone all its players reach within
 * `maxLatencyMs` (widening with its wait, up to a cap), a match plays in the zone its players
 * reach best among those all its tickets wait in, and missing or out-of-range latencies are
 * refused naming the field.
 */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker, type MatchmakerOptions } from "../../src/options/matchmaker.js";
import type { Ticket } from "../../src/core/types.js";
import { maxLatencyAt } from "../../src/core/zone-latency.js";
import { parseRoomOptions } from "../../src/options/index.js";
import { joinOptionsSchema, parseJoinOptions } from "../../src/colyseus/join-options.js";
import { resolveZones } from "../../src/core/zones.js";
import { thrown } from "../helpers/thrown.js";
import { twoTeams } from "../../src/core/shape.js";

const ZONES = ["eu", "us", "asia"];

function player(id: string, latencies: Record<string, number>, rating = 1500, at = 0): Ticket {
  return { id, players: [{ sessionId: id, rating, latencies }], enqueuedAt: at };
}

function engine(options: Partial<MatchmakerOptions> = {}): Matchmaker {
  return new Matchmaker({ teamSize: 1, policy: "greedy", zones: ZONES, maxLatencyMs: 100, ...options });
}

const refusal = (call: () => unknown): MatchmakerError => thrown(call, MatchmakerError);

describe("latency: the zones a ticket waits in", () => {
  it("every zone within the maximum, choice-free across them", () => {
    const mm = engine();
    mm.enqueue(player("a", { eu: 30, us: 95, asia: 250 }), 0);
    expect(mm.zonesOfTicket("a")).toEqual(["eu", "us"]);
  });

  it("a party: the zones every member reaches", () => {
    const mm = engine({ teamSize: 2 });
    const duo: Ticket = {
      id: "duo",
      players: [
        { sessionId: "d1", rating: 1500, latencies: { eu: 30, us: 90, asia: 80 } },
        { sessionId: "d2", rating: 1500, latencies: { eu: 120, us: 40, asia: 60 } },
      ],
      enqueuedAt: 0,
    };
    mm.enqueue(duo, 0);
    expect(mm.zonesOfTicket("duo")).toEqual(["us", "asia"]);
  });

  it("refuses a ticket that reaches no zone, a missing zone and an out-of-range value, naming the field", () => {
    const mm = engine();
    expect(refusal(() => mm.enqueue(player("far", { eu: 180, us: 150, asia: 300 }), 0))).toMatchObject({
      code: "invalid_ticket",
      field: "latencies",
      message: "invalid ticket: latencies: no zone is reached within 100 ms (the nearest, us, at 150 ms)",
    });
    expect(refusal(() => mm.enqueue(player("m", { eu: 30, us: 40 }), 0))).toMatchObject({
      field: "players.0.latencies.asia",
      message: "invalid ticket: players.0.latencies.asia: is required",
    });
    expect(refusal(() => mm.enqueue(player("o", { eu: -1, us: 40, asia: 50 }), 0))).toMatchObject({
      field: "players.0.latencies.eu",
    });
    expect(refusal(() => mm.enqueue(player("x", { eu: 30, us: 40, asia: 50, mars: 1 }), 0)).field).toBe(
      "players.0.latencies.mars",
    );
    expect(
      refusal(() => mm.enqueue({ id: "n", players: [{ sessionId: "n", rating: 1 }], enqueuedAt: 0 }, 0)).field,
    ).toBe("players.0.latencies");
    expect(mm.size).toBe(0);
  });

  it("the room's join check names the join option itself", () => {
    const mm = engine();
    expect(refusal(() => mm.checkLatencyReach(1500, { eu: 30 }, undefined, "invalid join options"))).toMatchObject({
      field: "latencies.us",
      message: "invalid join options: latencies.us: is required",
    });
    expect(() => mm.checkLatencyReach(1500, { eu: 30, us: 400, asia: 400 }, undefined)).not.toThrow();
    // A zone named by the player must itself be within reach.
    expect(refusal(() => mm.checkLatencyReach(1500, { eu: 30, us: 400, asia: 400 }, ["us"])).field).toBe("latencies");
  });
});

describe("latency: the zone a match plays in", () => {
  it("the zone whose worst player latency is smallest, among those both wait in", () => {
    const mm = engine();
    // Both wait in eu and us; eu is listed first, so eu's policy forms the game...
    mm.enqueue(player("a", { eu: 20, us: 60, asia: 300 }), 0);
    mm.enqueue(player("b", { eu: 90, us: 40, asia: 300 }), 0);
    const [match] = mm.tick(0);
    // ...but us serves both within 60 ms, eu one of them at 90 ms.
    expect(match.zone).toBe("us");
  });

  it("players in two regions and one between: each plays where it and its opponent both reach", () => {
    const mm = engine({ teamSize: 1 });
    mm.enqueue(player("eu1", { eu: 20, us: 140, asia: 250 }), 0);
    mm.enqueue(player("us1", { eu: 140, us: 20, asia: 250 }), 1);
    expect(mm.tick(1)).toEqual([]); // no common zone
    mm.enqueue(player("mid", { eu: 70, us: 60, asia: 250 }), 2);
    const [match] = mm.tick(2);
    // The oldest, eu1, plays the newcomer in the only zone both reach.
    expect(match.tickets.map((t) => t.id).sort()).toEqual(["eu1", "mid"]);
    expect(match.zone).toBe("eu");
    mm.enqueue(player("mid2", { eu: 65, us: 55, asia: 250 }), 3);
    expect(mm.tick(3)[0]).toMatchObject({ zone: "us" });
  });
});

describe("latency: a maximum that widens with waiting", () => {
  it("reaches a further zone at the exact moment, and wakes the engine then", () => {
    expect(maxLatencyAt({ maxLatencyMs: 100, maxLatencyGrowthPerSecond: 10, maxLatencyCapMs: 160 }, 3000)).toBe(130);
    expect(maxLatencyAt({ maxLatencyMs: 100, maxLatencyGrowthPerSecond: 10, maxLatencyCapMs: 160 }, 30_000)).toBe(160);
    const mm = engine({ maxLatencyGrowthPerSecond: 10, maxLatencyCapMs: 160 });
    mm.enqueue(player("far", { eu: 150, us: 20, asia: 200 }), 0);
    mm.enqueue(player("eu", { eu: 20, us: 300, asia: 300 }), 0);
    expect(mm.tick(0)).toEqual([]);
    expect(mm.zonesOfTicket("far")).toEqual(["us"]);
    expect(mm.nextWakeup(0)).toBe(5000); // 100 + 10/s reaches 150 after 5 s
    expect(mm.tick(4999)).toEqual([]);
    const [match] = mm.tick(5000);
    expect(match.zone).toBe("eu");
    expect(match.tickets.map((t) => t.id).sort()).toEqual(["eu", "far"]);
    const byZone = mm.stats(5000).byZone!;
    expect(byZone.eu.recentMatches).toBeGreaterThan(0);
    expect(byZone.us.recentMatches).toBe(0);
  });

  it("never beyond the cap", () => {
    const mm = engine({ maxLatencyGrowthPerSecond: 10, maxLatencyCapMs: 140 });
    mm.enqueue(player("far", { eu: 150, us: 20, asia: 200 }), 0);
    expect(mm.nextWakeup(0)).toBeUndefined();
    mm.tick(1e9);
    expect(mm.zonesOfTicket("far")).toEqual(["us"]);
  });

  it("counts a widened ticket in its new zone's waiting figures, and forgets it when it leaves", () => {
    const mm = engine({ maxLatencyGrowthPerSecond: 100 });
    mm.enqueue(player("a", { eu: 150, us: 20, asia: 400 }), 0);
    mm.tick(1000);
    expect(mm.zonesOfTicket("a")).toEqual(["us", "eu"]);
    expect(mm.stats(1000).byZone?.eu.waitingTickets).toBe(1);
    expect(mm.nextWakeup(1000)).toBe(3000); // asia at 400 ms
    mm.cancel("a");
    expect(mm.nextWakeup(1000)).toBeUndefined();
    expect(mm.stats(1000).byZone?.eu.waitingTickets).toBe(0);
  });
});

describe("latency options", () => {
  it.each([
    [{ maxLatencyMs: 100 }, "maxLatencyMs: needs zones (the regions players give latencies to)"],
    [{ zones: ZONES, maxLatencyGrowthPerSecond: 5 }, "maxLatencyGrowthPerSecond: needs maxLatencyMs"],
    [{ zones: ZONES, maxLatencyMs: 100, maxLatencyCapMs: 200 }, "maxLatencyCapMs: needs maxLatencyGrowthPerSecond"],
    [
      { zones: ZONES, maxLatencyMs: 100, maxLatencyGrowthPerSecond: 5, maxLatencyCapMs: 50 },
      "maxLatencyCapMs: must not be below maxLatencyMs",
    ],
    [{ zones: ZONES, maxLatencyMs: 0 }, "maxLatencyMs: must be at least 1"],
  ])("refuses %j naming the field", (options, message) => {
    expect(() => parseRoomOptions({ teamSize: 1, gameRoom: "g", ...options })).toThrow(
      `MatchmakerRoom options: ${message}`,
    );
  });
});

describe("the join option latencies", () => {
  const parse = (zones: readonly string[] | undefined, latencyZones: readonly string[] | undefined, input: unknown) =>
    parseJoinOptions(
      joinOptionsSchema({ min: 0, max: 3000 }, undefined, twoTeams(1), zones && resolveZones(zones), latencyZones),
      input,
    );

  it("is required with every zone in a latency queue, each 0 to 60,000 ms", () => {
    expect(parse(ZONES, ZONES, { rating: 1, latencies: { eu: 1, us: 2, asia: 3 } })).toMatchObject({ ok: true });
    expect(parse(ZONES, ZONES, { rating: 1 })).toEqual({ ok: false, message: "latencies: is required" });
    expect(parse(ZONES, ZONES, { rating: 1, latencies: { eu: 1, us: null, asia: 3 } })).toEqual({
      ok: false,
      message: "latencies.us: must be a finite number (got null: NaN and Infinity are sent as null)",
    });
    expect(parse(ZONES, ZONES, { rating: 1, latencies: "fast" })).toEqual({
      ok: false,
      message: "latencies: must give the latency in ms to each of eu, us, asia",
    });
  });

  it("is refused in a queue that does not choose zones by latency", () => {
    expect(parse(ZONES, undefined, { rating: 1, latencies: { eu: 1 } })).toEqual({
      ok: false,
      message: "latencies: this queue does not choose zones by latency",
    });
    expect(parse(undefined, undefined, { rating: 1, latencies: { eu: 1 } })).toMatchObject({ ok: false });
  });
});
