import { describe, expect, it } from "vitest";
import { prometheusText, type QueueMetrics } from "../../src/colyseus/metrics.js";
import { breakdown } from "../../src/colyseus/status.js";
import { FiguresRefresh } from "../../src/colyseus/status-notifier.js";
import type { Ticket } from "../../src/core/types.js";

const solo = (id: string, rating: number, extra: Partial<Ticket> = {}): Ticket => ({
  id,
  players: [{ sessionId: id, rating }],
  enqueuedAt: 0,
  ...extra,
});

describe("breakdown", () => {
  it("counts players by party size, side and zone", () => {
    const duo: Ticket = {
      id: "d",
      players: [
        { sessionId: "d1", rating: 1 },
        { sessionId: "d2", rating: 1 },
      ],
      enqueuedAt: 0,
      side: "B",
      zones: ["eu", "us"],
    };
    expect(breakdown([solo("a", 1, { side: "A", zones: ["eu"] }), duo, solo("c", 1)])).toEqual({
      players: 4,
      tickets: 3,
      byPartySize: { "1": 2, "2": 2 },
      bySide: { A: 1, B: 2, any: 1 },
      byZone: { eu: 3, us: 2 },
    });
  });
});

describe("FiguresRefresh", () => {
  it("runs at most once per interval, deferring requests to the interval's end", () => {
    let now = 0;
    const timers: Array<{ at: number; fn: () => void; cleared: boolean }> = [];
    const runs: number[] = [];
    // A small audience: the interval is not stretched.
    const throttle = new FiguresRefresh(
      100,
      1000,
      () => 10,
      () => runs.push(now),
      {
        now: () => now,
        setTimeout: (fn, ms) => {
          const timer = { at: now + ms, fn, cleared: false };
          timers.push(timer);
          return { clear: () => (timer.cleared = true) };
        },
      },
    );
    throttle.request(); // runs at once
    now = 30;
    throttle.request(); // deferred to 100
    now = 60;
    throttle.request(); // coalesced
    expect(runs).toEqual([0]);
    expect(timers.map((t) => t.at)).toEqual([100]);
    now = 100;
    timers[0].fn();
    expect(runs).toEqual([0, 100]);
    now = 250;
    throttle.request(); // an interval passed: at once
    expect(runs).toEqual([0, 100, 250]);
    now = 260;
    throttle.request();
    throttle.cancel();
    expect(timers.at(-1)!.cleared).toBe(true);
  });
});

describe("prometheusText", () => {
  const metrics: QueueMetrics = {
    queue: 'we"ird\\queue\n',
    roomId: "r1",
    policy: "greedy",
    shapeKind: "two-teams",
    teams: 2,
    teamSize: 1,
    maxPlayers: 2,
    minPlayers: 2,
    waitingPlayers: 2,
    waitingTickets: 2,
    waitingByPartySize: { "1": 2 },
    waitingBySide: { any: 2 },
    waitingByZone: {},
    meanWaitMsBySide: { any: 1500, A: 4000 },
    meanWaitMsByZone: {},
    sideMixUnstable: true,
    matchesFormed: 5,
    playersMatched: 10,
    meanWaitMs: 1500,
    p50WaitMs: 1000,
    p95WaitMs: 2000,
    p99WaitMs: 2500,
    meanImbalance: 3,
    meanSpread: 40,
    recentMatches: 5,
    oldestWaitMs: 700,
    lastHour: { matches: 2, playersSeated: 4, noShows: 1, requeued: 1 },
    declines: 1,
    spawnFailures: 0,
    abandonedMatches: 0,
    joinsRateLimited: 6,
    partyCodesLimited: 0,
    backfillRequested: 0,
    backfillFilled: 0,
    backfillFailures: 0,
    backfillPending: 0,
    seatsEntered: 7,
    seatsExpiredRequeued: 2,
    seatsExpiredRemoved: 1,
    seatsLostRequeued: 3,
    seatsLostRemoved: 0,
    seatsOpen: 4,
    offences: 6,
    offencesForgiven: 2,
    cooldowns: 3,
    cooldownRefusals: 9,
  };

  it("writes one family per figure, labels escaped, waits in seconds", () => {
    const text = prometheusText([metrics]);
    const label = 'queue="we\\"ird\\\\queue\\n"';
    expect(text).toContain(`matchmaker_waiting_players{${label}} 2\n`);
    expect(text).toContain(`matchmaker_recent_wait_seconds{${label},quantile="0.5"} 1\n`);
    expect(text).toContain(`matchmaker_recent_wait_seconds{${label},quantile="0.99"} 2.5\n`);
    expect(text).toContain(`matchmaker_declines_total{${label}} 1\n`);
    expect(text).toContain(`matchmaker_recent_wait_mean_seconds_by_side{${label},side="A"} 4\n`);
    expect(text).toContain(`matchmaker_side_mix_unstable{${label}} 1\n`);
    expect(text).toContain(`matchmaker_seats_total{${label},outcome="entered"} 7\n`);
    expect(text).toContain(`matchmaker_seats_total{${label},outcome="expired_requeued"} 2\n`);
    expect(text).toContain(`matchmaker_seats_total{${label},outcome="lost_requeued"} 3\n`);
    expect(text).toContain(`matchmaker_seats_open{${label}} 4\n`);
    expect(text).toContain(`matchmaker_oldest_wait_seconds{${label}} 0.7\n`);
    expect(text).toContain(`matchmaker_queue_room_live{${label}} 1\n`);
    expect(text).toContain(`matchmaker_joins_limited_total{${label},limit="join_rate"} 6\n`);
    expect(text).toContain(`matchmaker_joins_limited_total{${label},limit="party_code"} 0\n`);
    expect(text).toContain(`matchmaker_offences_total{${label}} 6\n`);
    expect(text).toContain(`matchmaker_offences_forgiven_total{${label}} 2\n`);
    expect(text).toContain(`matchmaker_cooldowns_total{${label}} 3\n`);
    expect(text).toContain(`matchmaker_cooldown_refusals_total{${label}} 9\n`);
    const families = text.split("\n").filter((l) => l.startsWith("# TYPE"));
    expect(new Set(families).size).toBe(families.length);
    expect(families.length).toBeGreaterThanOrEqual(15);
  });

  it("leaves out the figures with no data (no recent match, nobody waiting) instead of writing 0", () => {
    const idle: QueueMetrics = {
      ...metrics,
      queue: "idle",
      roomId: null,
      waitingPlayers: 0,
      waitingTickets: 0,
      recentMatches: 0,
      meanWaitMs: null,
      p50WaitMs: null,
      p95WaitMs: null,
      p99WaitMs: null,
      meanImbalance: null,
      meanSpread: null,
      oldestWaitMs: null,
    };
    const lines = prometheusText([idle]).split("\n");
    for (const family of [
      "matchmaker_recent_wait_seconds",
      "matchmaker_recent_wait_mean_seconds",
      "matchmaker_recent_imbalance_mean",
      "matchmaker_recent_spread_mean",
      "matchmaker_oldest_wait_seconds",
    ])
      expect(lines.filter((l) => l.startsWith(family + "{"))).toEqual([]);
    // Its counters and the gauges that have a value are there: a queue between rooms.
    expect(lines).toContain('matchmaker_matches_formed_total{queue="idle"} 5');
    expect(lines).toContain('matchmaker_waiting_players{queue="idle"} 0');
    expect(lines).toContain('matchmaker_queue_room_live{queue="idle"} 0');
    expect(lines).toContain('matchmaker_recent_matches{queue="idle"} 0');
  });

  it("states each queue's shape; a free-for-all has its spread, and no imbalance or side figures", () => {
    const twoTeams = prometheusText([{ ...metrics, queue: "duel" }]).split("\n");
    expect(twoTeams).toContain(
      'matchmaker_game_shape_info{queue="duel",kind="two-teams",teams="2",team_size="1",max_players="2",min_players="2"} 1',
    );
    // A two-team queue keeps every figure it had, the spread beside them.
    expect(twoTeams).toContain('matchmaker_recent_imbalance_mean{queue="duel"} 3');
    expect(twoTeams).toContain('matchmaker_recent_spread_mean{queue="duel"} 40');
    expect(twoTeams).toContain('matchmaker_waiting_players_by_side{queue="duel",side="any"} 2');
    expect(twoTeams).toContain('matchmaker_side_mix_unstable{queue="duel"} 1');

    const ffa: QueueMetrics = {
      ...metrics,
      queue: "ffa",
      shapeKind: "free-for-all",
      teams: 4,
      teamSize: 1,
      maxPlayers: 4,
      minPlayers: 2,
      meanImbalance: null,
      sideMixUnstable: false,
    };
    const lines = prometheusText([ffa]).split("\n");
    expect(lines).toContain(
      'matchmaker_game_shape_info{queue="ffa",kind="free-for-all",teams="4",team_size="1",max_players="4",min_players="2"} 1',
    );
    expect(lines).toContain('matchmaker_recent_spread_mean{queue="ffa"} 40');
    for (const family of [
      "matchmaker_recent_imbalance_mean",
      "matchmaker_waiting_players_by_side",
      "matchmaker_recent_wait_mean_seconds_by_side",
      "matchmaker_side_mix_unstable",
    ])
      expect(lines.filter((l) => l.startsWith(family + "{"))).toEqual([]);
  });

  it("labels by queue name; a second room of one name live at once also carries its room id", () => {
    const lines = prometheusText([
      { ...metrics, queue: "duel", roomId: "r1" },
      { ...metrics, queue: "duel", roomId: "r2", matchesFormed: 2 },
    ]).split("\n");
    expect(lines).toContain('matchmaker_matches_formed_total{queue="duel"} 5');
    expect(lines).toContain('matchmaker_matches_formed_total{queue="duel",room_id="r2"} 2');
  });

  it("writes only the family headers when no queue is live", () => {
    expect(
      prometheusText([])
        .split("\n")
        .filter((l) => l && !l.startsWith("#")),
    ).toEqual([]);
  });
});
