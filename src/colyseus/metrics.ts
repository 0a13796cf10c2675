/**
 * Operators' figures outside the monitor: every live `MatchmakerRoom` of this process registers
 * itself, `collectMetrics()` gathers their `getMetrics()` and the figures of every other queue
 * defined in this process (no room live: its totals, nobody waiting; see queue-life.ts), `prometheusText()` formats them in
 * Prometheus's text exposition format (0.0.4), and `matchmakerMetrics()` serves both over HTTP
 * (an Express-compatible handler), with each queue's longest-waiting tickets at `/sample`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { SampleTicket } from "./queue-view.js";
import type { HourTotals } from "./last-hour.js";
import type { ShapeKind } from "../core/shape.js";

/** One queue room's figures, as plain JSON (the same figures its schema state shows the monitor). */
export interface QueueMetrics {
  /** The queue's room name (e.g. `"duel"`). */
  readonly queue: string;
  /** The queue's room in this process, or null when none is live here (between bursts, or on another process). */
  readonly roomId: string | null;
  readonly policy: string;
  /** The shape of the queue's games: `"two-teams"`, `"teams"` (more than two) or `"free-for-all"`. */
  readonly shapeKind: ShapeKind;
  /** Teams per game (in a free-for-all, one per player). */
  readonly teams: number;
  /** Players per team (1 in a free-for-all). */
  readonly teamSize: number;
  /** Players in a full game. */
  readonly maxPlayers: number;
  /** The fewest humans a game starts with (below `maxPlayers` where games may start short-handed). */
  readonly minPlayers: number;
  readonly waitingPlayers: number;
  readonly waitingTickets: number;
  /** Waiting players by party size (`"1"`, `"2"`, …). */
  readonly waitingByPartySize: Readonly<Record<string, number>>;
  /** Waiting players by side preference (`"A"`, `"B"`, `"any"`; all `"any"` in shapes without sides). */
  readonly waitingBySide: Readonly<Record<string, number>>;
  /** Waiting players by zone (a ticket accepting several zones counts in each). */
  readonly waitingByZone: Readonly<Record<string, number>>;
  /** Mean wait (ms) of recently matched tickets by side preference, and by the zone that matched them. */
  readonly meanWaitMsBySide: Readonly<Record<string, number>>;
  readonly meanWaitMsByZone: Readonly<Record<string, number>>;
  /** Xu et al.'s Fact 3 over the recent arrivals: |side A − side B| ≥ choice-free, so the surplus side's waits grow without bound. */
  readonly sideMixUnstable: boolean;
  /** Counters (this and every figure below documented as counted): cumulative for the queue's name in this process, across its rooms. */
  readonly matchesFormed: number;
  readonly playersMatched: number;
  /** Matches the recent figures cover (up to the stats window); 0 before the first match, when the next five are null. */
  readonly recentMatches: number;
  /** Waits of the players of recent matches (ms); null with no recent match ("no matches yet", not "nobody waits"). */
  readonly meanWaitMs: number | null;
  readonly p50WaitMs: number | null;
  readonly p95WaitMs: number | null;
  readonly p99WaitMs: number | null;
  /** Mean imbalance of recent team matches; null with no recent match, and in a free-for-all (which has none). */
  readonly meanImbalance: number | null;
  /** Mean rating spread (highest minus lowest human) of recent matches, a free-for-all's measure of a game; null with no recent match. */
  readonly meanSpread: number | null;
  /** The longest current wait among waiting tickets (ms); null when nobody waits. */
  readonly oldestWaitMs: number | null;
  /**
   * How much the running totals grew over the last hour (within a figures refresh): matches,
   * players seated, no-shows (seats expired unused) and players re-queued after their seat fell
   * through (expired, or its game room gone).
   */
  readonly lastHour: HourTotals;
  /** Players removed at the ready check (declined, timed out, or did not return in time). */
  readonly declines: number;
  /** Matches whose game room could not be created or seated (players re-queued). */
  readonly spawnFailures: number;
  /** Matches dropped because a player left while the game room was being created. */
  readonly abandonedMatches: number;
  /** Joins refused by the per-address join rate (`joinRateLimit`), since this process started (they outlive the queue room). */
  readonly joinsRateLimited: number;
  /** Party-code joins refused because their address tried too many wrong codes, since this process started. */
  readonly partyCodesLimited: number;
  /** Replacement seats game rooms asked for, seats filled, and attempts that failed. */
  readonly backfillRequested: number;
  readonly backfillFilled: number;
  readonly backfillFailures: number;
  /** Replacement seats asked for and not yet filled. */
  readonly backfillPending: number;
  /** Sent seats (a match's and replacement seats) whose player entered the game room. */
  readonly seatsEntered: number;
  /** Sent seats that expired unused; the player, still in the queue, went back to waiting (at the back, with `penalties`). */
  readonly seatsExpiredRequeued: number;
  /** Sent seats that expired unused after the player had left the queue, or that removed it with a cooldown: it is out. */
  readonly seatsExpiredRemoved: number;
  /** Sent seats whose game room (or its process) was gone before the player entered; the player went back to its place. */
  readonly seatsLostRequeued: number;
  /** Sent seats whose game room was gone before the player entered, after the player had left the queue. */
  readonly seatsLostRemoved: number;
  /** Seats sent whose players have not entered yet (nor been settled). */
  readonly seatsOpen: number;
  /**
   * Matches broken by a player and counted against its account (`penalties`): declined, timed out
   * or seat left unused while connected, or dropped past the forgiven ones. This and the next
   * three count for as long as the queue's name lives in this process, across its rooms.
   */
  readonly offences: number;
  /** Drops and leaves during a ready check that were forgiven. */
  readonly offencesForgiven: number;
  /** Offences that started a cooldown. */
  readonly cooldowns: number;
  /** Joins refused because the account was cooling down. */
  readonly cooldownRefusals: number;
}

/** The schema figures as `QueueMetrics` fields read them (see `QueueFigures` in state.ts). */
type CountMap = { entries(): Iterable<[string, number]> };
export type FiguresLike = Omit<
  QueueMetrics,
  | "queue"
  | "roomId"
  | "meanWaitMs"
  | "p50WaitMs"
  | "p95WaitMs"
  | "p99WaitMs"
  | "meanImbalance"
  | "meanSpread"
  | "shapeKind"
  | "oldestWaitMs"
  | "lastHour"
  | "waitingByPartySize"
  | "waitingBySide"
  | "waitingByZone"
  | "meanWaitMsBySide"
  | "meanWaitMsByZone"
> & {
  readonly waitingByPartySize: CountMap;
  readonly waitingBySide: CountMap;
  readonly waitingByZone: CountMap;
  readonly meanWaitMsBySide: CountMap;
  readonly meanWaitMsByZone: CountMap;
  readonly meanWaitMs: number;
  readonly p50WaitMs: number;
  readonly p95WaitMs: number;
  readonly p99WaitMs: number;
  readonly meanImbalance: number;
  readonly meanSpread: number;
  readonly shapeKind: string;
};

/** What the metrics add to the schema figures (not synchronized to players: they move on every look). */
export interface MetricsExtras {
  /** The engine's longest current wait (ms). */
  readonly oldestWaitMs?: number;
  readonly lastHour?: HourTotals;
}

/** A queue's schema figures as plain JSON, with `extras`. */
export function figuresToMetrics(
  queue: string,
  roomId: string | null,
  f: FiguresLike,
  extras: MetricsExtras = {},
): QueueMetrics {
  const { oldestWaitMs } = extras;
  const counts = (map: CountMap) => Object.fromEntries(map.entries());
  const recent = (value: number) => (f.recentMatches > 0 ? value : null);
  return {
    queue,
    roomId,
    policy: f.policy,
    shapeKind: f.shapeKind as ShapeKind,
    teams: f.teams,
    teamSize: f.teamSize,
    maxPlayers: f.maxPlayers,
    minPlayers: f.minPlayers,
    waitingPlayers: f.waitingPlayers,
    waitingTickets: f.waitingTickets,
    waitingByPartySize: counts(f.waitingByPartySize),
    waitingBySide: counts(f.waitingBySide),
    waitingByZone: counts(f.waitingByZone),
    meanWaitMsBySide: counts(f.meanWaitMsBySide),
    meanWaitMsByZone: counts(f.meanWaitMsByZone),
    sideMixUnstable: f.sideMixUnstable,
    matchesFormed: f.matchesFormed,
    playersMatched: f.playersMatched,
    recentMatches: f.recentMatches,
    meanWaitMs: recent(f.meanWaitMs),
    p50WaitMs: recent(f.p50WaitMs),
    p95WaitMs: recent(f.p95WaitMs),
    p99WaitMs: recent(f.p99WaitMs),
    meanImbalance: f.shapeKind === "free-for-all" ? null : recent(f.meanImbalance),
    meanSpread: recent(f.meanSpread),
    oldestWaitMs: f.waitingTickets > 0 && oldestWaitMs !== undefined ? oldestWaitMs : null,
    lastHour: extras.lastHour ?? { matches: 0, playersSeated: 0, noShows: 0, requeued: 0 },
    declines: f.declines,
    spawnFailures: f.spawnFailures,
    abandonedMatches: f.abandonedMatches,
    joinsRateLimited: f.joinsRateLimited,
    partyCodesLimited: f.partyCodesLimited,
    backfillRequested: f.backfillRequested,
    backfillFilled: f.backfillFilled,
    backfillFailures: f.backfillFailures,
    backfillPending: f.backfillPending,
    seatsEntered: f.seatsEntered,
    seatsExpiredRequeued: f.seatsExpiredRequeued,
    seatsExpiredRemoved: f.seatsExpiredRemoved,
    seatsLostRequeued: f.seatsLostRequeued,
    seatsLostRemoved: f.seatsLostRemoved,
    seatsOpen: f.seatsOpen,
    offences: f.offences,
    offencesForgiven: f.offencesForgiven,
    cooldowns: f.cooldowns,
    cooldownRefusals: f.cooldownRefusals,
  };
}

/** Something that reports a queue's figures (a `MatchmakerRoom`). */
export interface MetricsSource {
  getMetrics(): QueueMetrics;
  /** The `limit` longest-waiting tickets, longest first (waited time in seconds). */
  waitingSample?(limit: number): readonly SampleTicket[];
}

/** One queue room's longest-waiting tickets, as `/matchmaker/metrics/sample` serves them. */
export interface QueueSample {
  readonly queue: string;
  readonly roomId: string | null;
  readonly sample: readonly SampleTicket[];
}

const sources = new Set<MetricsSource>();

/** The figures of the defined queues with no live room (queue-life.ts provides them), given the names that have one. */
let idleQueues: (live: ReadonlySet<string>) => QueueMetrics[] = () => [];

/** Where `collectMetrics` finds the defined queues with no live room (set by queue-life.ts). */
export function listIdleQueues(provider: (live: ReadonlySet<string>) => QueueMetrics[]): void {
  idleQueues = provider;
}

/** Add a live queue to this process's registry (a `MatchmakerRoom` does this in `onCreate`). */
export function registerQueue(source: MetricsSource): void {
  sources.add(source);
}

/** Remove a queue from the registry (a `MatchmakerRoom` does this in `onDispose`). */
export function unregisterQueue(source: MetricsSource): void {
  sources.delete(source);
}

/** Every live queue room's longest-waiting tickets (at most `limit` each), in the order of {@link collectMetrics}. */
export function collectSamples(limit: number): QueueSample[] {
  return [...sources]
    .map((s) => ({ metrics: s.getMetrics(), sample: s.waitingSample?.(limit) ?? [] }))
    .sort((a, b) => compareQueues(a.metrics, b.metrics))
    .map(({ metrics, sample }) => ({ queue: metrics.queue, roomId: metrics.roomId, sample }));
}

/** Queue name, then room id. */
function compareQueues(a: QueueMetrics, b: QueueMetrics): number {
  const [ra, rb] = [a.roomId ?? "", b.roomId ?? ""];
  return a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : ra < rb ? -1 : ra > rb ? 1 : 0;
}

/**
 * The figures of every queue defined in this process, sorted by queue name (and room id): each
 * live queue room's, and for a queue with no room live here, its totals with nobody waiting
 * (`roomId: null`). Listed from the server's start, waiting or not.
 */
export function collectMetrics(): QueueMetrics[] {
  const live = [...sources].map((s) => s.getMetrics());
  return [...live, ...idleQueues(new Set(live.map((m) => m.queue)))].sort(compareQueues);
}

type Family = {
  name: string;
  type: "gauge" | "counter";
  help: string;
  samples: (m: QueueMetrics) => Array<[labels: Record<string, string>, value: number]>;
};

/** One sample, or none when the figure has no data (null): absent, never 0. */
const one = (value: (m: QueueMetrics) => number | null) => (m: QueueMetrics) => {
  const v = value(m);
  return v === null ? [] : [[{}, v] as [Record<string, string>, number]];
};
const inSeconds = (ms: number | null) => (ms === null ? null : ms / 1000);
const each = (label: string, values: (m: QueueMetrics) => Readonly<Record<string, number>>) => (m: QueueMetrics) =>
  Object.entries(values(m)).map(([key, value]) => [{ [label]: key }, value] as [Record<string, string>, number]);

const seconds = (ms: Readonly<Record<string, number>>) =>
  Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, v / 1000]));

/** The figures by side, only in queues whose games have sides (two teams). */
const withSides =
  (samples: Family["samples"]): Family["samples"] =>
  (m) =>
    m.shapeKind === "two-teams" ? samples(m) : [];

const FAMILIES: Family[] = [
  {
    name: "matchmaker_game_shape_info",
    type: "gauge",
    help: "The shape of the queue's games (always 1): kind (two-teams, teams, free-for-all), teams per game, players per team, players in a full game, fewest humans a game starts with.",
    samples: (m) => [
      [
        {
          kind: m.shapeKind,
          teams: String(m.teams),
          team_size: String(m.teamSize),
          max_players: String(m.maxPlayers),
          min_players: String(m.minPlayers),
        },
        1,
      ],
    ],
  },
  {
    name: "matchmaker_waiting_players",
    type: "gauge",
    help: "Players waiting in the queue.",
    samples: one((m) => m.waitingPlayers),
  },
  {
    name: "matchmaker_waiting_tickets",
    type: "gauge",
    help: "Tickets (parties) waiting in the queue.",
    samples: one((m) => m.waitingTickets),
  },
  {
    name: "matchmaker_waiting_players_by_party_size",
    type: "gauge",
    help: "Waiting players by party size.",
    samples: each("party_size", (m) => m.waitingByPartySize),
  },
  {
    name: "matchmaker_waiting_players_by_side",
    type: "gauge",
    help: "Waiting players by side preference (A, B, any); only in queues of two teams.",
    samples: withSides(each("side", (m) => m.waitingBySide)),
  },
  {
    name: "matchmaker_waiting_players_by_zone",
    type: "gauge",
    help: "Waiting players by zone.",
    samples: each("zone", (m) => m.waitingByZone),
  },
  {
    name: "matchmaker_oldest_wait_seconds",
    type: "gauge",
    help: "The longest current wait among waiting tickets; absent when nobody waits.",
    samples: one((m) => inSeconds(m.oldestWaitMs)),
  },
  {
    name: "matchmaker_queue_room_live",
    type: "gauge",
    help: "1 when the queue's room lives in this process, 0 between rooms (or when it lives on another process).",
    samples: one((m) => (m.roomId === null ? 0 : 1)),
  },
  {
    name: "matchmaker_recent_matches",
    type: "gauge",
    help: "Matches the recent-wait and imbalance figures cover (0: those figures are absent).",
    samples: one((m) => m.recentMatches),
  },
  {
    name: "matchmaker_matches_formed_total",
    type: "counter",
    help: "Matches formed.",
    samples: one((m) => m.matchesFormed),
  },
  {
    name: "matchmaker_players_matched_total",
    type: "counter",
    help: "Human players seated in matches.",
    samples: one((m) => m.playersMatched),
  },
  {
    name: "matchmaker_recent_wait_seconds",
    type: "gauge",
    help: "Waits of the players of recent matches: quantiles 0.5, 0.95, 0.99.",
    samples: (m) =>
      m.p50WaitMs === null || m.p95WaitMs === null || m.p99WaitMs === null
        ? []
        : [
            [{ quantile: "0.5" }, m.p50WaitMs / 1000],
            [{ quantile: "0.95" }, m.p95WaitMs / 1000],
            [{ quantile: "0.99" }, m.p99WaitMs / 1000],
          ],
  },
  {
    name: "matchmaker_recent_wait_mean_seconds",
    type: "gauge",
    help: "Mean wait of the players of recent matches.",
    samples: one((m) => inSeconds(m.meanWaitMs)),
  },
  {
    name: "matchmaker_recent_wait_mean_seconds_by_side",
    type: "gauge",
    help: "Mean wait of recently matched tickets by side preference (A, B, any); only in queues of two teams.",
    samples: withSides(each("side", (m) => seconds(m.meanWaitMsBySide))),
  },
  {
    name: "matchmaker_recent_wait_mean_seconds_by_zone",
    type: "gauge",
    help: "Mean wait of recently matched tickets by the zone that matched them.",
    samples: each("zone", (m) => seconds(m.meanWaitMsByZone)),
  },
  {
    name: "matchmaker_side_mix_unstable",
    type: "gauge",
    help: "1 when |side A - side B| >= choice-free over the recent arrivals (waits of the surplus side grow without bound); only in queues of two teams.",
    samples: withSides(one((m) => Number(m.sideMixUnstable))),
  },
  {
    name: "matchmaker_recent_imbalance_mean",
    type: "gauge",
    help: "Mean imbalance of recent team matches (absent in a free-for-all).",
    samples: one((m) => m.meanImbalance),
  },
  {
    name: "matchmaker_recent_spread_mean",
    type: "gauge",
    help: "Mean rating spread (highest minus lowest human) of recent matches: a free-for-all's measure of a game.",
    samples: one((m) => m.meanSpread),
  },
  {
    name: "matchmaker_declines_total",
    type: "counter",
    help: "Players removed at the ready check (declined, timed out, did not return).",
    samples: one((m) => m.declines),
  },
  {
    name: "matchmaker_spawn_failures_total",
    type: "counter",
    help: "Matches whose game room could not be created or seated.",
    samples: one((m) => m.spawnFailures),
  },
  {
    name: "matchmaker_abandoned_matches_total",
    type: "counter",
    help: "Matches dropped because a player left during game creation.",
    samples: one((m) => m.abandonedMatches),
  },
  {
    name: "matchmaker_joins_limited_total",
    type: "counter",
    help: "Joins refused by a per-address limit: join_rate (joinRateLimit) or party_code (too many wrong party codes).",
    samples: (m) => [
      [{ limit: "join_rate" }, m.joinsRateLimited],
      [{ limit: "party_code" }, m.partyCodesLimited],
    ],
  },
  {
    name: "matchmaker_backfill_requested_total",
    type: "counter",
    help: "Replacement seats requested by game rooms.",
    samples: one((m) => m.backfillRequested),
  },
  {
    name: "matchmaker_backfill_filled_total",
    type: "counter",
    help: "Replacement seats filled.",
    samples: one((m) => m.backfillFilled),
  },
  {
    name: "matchmaker_backfill_failures_total",
    type: "counter",
    help: "Replacement seat reservations that failed.",
    samples: one((m) => m.backfillFailures),
  },
  {
    name: "matchmaker_backfill_pending",
    type: "gauge",
    help: "Replacement seats requested and not yet filled.",
    samples: one((m) => m.backfillPending),
  },
  {
    name: "matchmaker_seats_total",
    type: "counter",
    help: "Sent seats by how they ended: entered, expired_requeued, expired_removed, lost_requeued, lost_removed.",
    samples: (m) => [
      [{ outcome: "entered" }, m.seatsEntered],
      [{ outcome: "expired_requeued" }, m.seatsExpiredRequeued],
      [{ outcome: "expired_removed" }, m.seatsExpiredRemoved],
      [{ outcome: "lost_requeued" }, m.seatsLostRequeued],
      [{ outcome: "lost_removed" }, m.seatsLostRemoved],
    ],
  },
  {
    name: "matchmaker_seats_open",
    type: "gauge",
    help: "Seats sent whose players have not entered the game room yet.",
    samples: one((m) => m.seatsOpen),
  },
  {
    name: "matchmaker_offences_total",
    type: "counter",
    help: "Matches broken by a player, counted against its account (declined, timed out or seat left unused while connected, dropped past the forgiven).",
    samples: one((m) => m.offences),
  },
  {
    name: "matchmaker_offences_forgiven_total",
    type: "counter",
    help: "Drops and leaves during a ready check that were forgiven.",
    samples: one((m) => m.offencesForgiven),
  },
  {
    name: "matchmaker_cooldowns_total",
    type: "counter",
    help: "Offences that held the player out of the queue for a cooldown.",
    samples: one((m) => m.cooldowns),
  },
  {
    name: "matchmaker_cooldown_refusals_total",
    type: "counter",
    help: "Joins refused because the account was cooling down.",
    samples: one((m) => m.cooldownRefusals),
  },
];

/** A label value escaped as the exposition format requires. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/**
 * The figures in Prometheus's text exposition format (version 0.0.4): one family per figure,
 * every sample labelled with its `queue`, not its room: a queue's counters continue across its
 * rooms, so a series lives as long as the process. A second room of one queue name live at once
 * in this process (a client's explicit `create`) has its own figures: its samples also carry
 * `room_id`, so no two series collide.
 */
export function prometheusText(metrics: readonly QueueMetrics[]): string {
  const lines: string[] = [];
  // The first entry of each queue name is the name's; any other (a second room live at once) is told apart by its room.
  const firstOfName = new Set(new Map(metrics.map((m) => [m.queue, m] as const).reverse()).values());
  for (const family of FAMILIES) {
    lines.push(`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`);
    for (const m of metrics) {
      const own = firstOfName.has(m) ? { queue: m.queue } : { queue: m.queue, room_id: m.roomId ?? "" };
      for (const [extra, value] of family.samples(m)) {
        const labels = Object.entries({ ...own, ...extra })
          .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
          .join(",");
        lines.push(`${family.name}{${labels}} ${formatValue(value)}`);
      }
    }
  }
  return lines.join("\n") + "\n";
}

/** The content type of {@link prometheusText}. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * An HTTP handler (Express middleware, or a plain Node `request` listener) serving the figures
 * of every queue defined in this process, live or between rooms. Mount it with
 * `app.use("/matchmaker/metrics", matchmakerMetrics())`; then
 * - `GET /matchmaker/metrics`: JSON `{ queues: QueueMetrics[] }`;
 * - `GET /matchmaker/metrics/prometheus` or `GET /matchmaker/metrics?format=prometheus`: text
 *   for a Prometheus scrape.
 * With several server processes, each serves its own rooms: scrape every process.
 */
export function matchmakerMetrics(collect: () => QueueMetrics[] = collectMetrics) {
  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if ((req.method !== "GET" && req.method !== "HEAD") || !["/", "/prometheus", "/sample"].includes(path)) {
      if (next) return next();
      res.statusCode = 404;
      res.end();
      return;
    }
    const format = url.searchParams.get("format");
    let body: string;
    if (path === "/sample") {
      // `?limit=N` (1 to 1,000, default 20) longest-waiting tickets per queue room.
      const limit = Math.min(1000, Math.max(1, Math.floor(Number(url.searchParams.get("limit") ?? 20)) || 20));
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      body = JSON.stringify({ queues: collectSamples(limit) });
    } else if (path === "/prometheus" || format === "prometheus") {
      res.setHeader("Content-Type", PROMETHEUS_CONTENT_TYPE);
      body = prometheusText(collect());
    } else {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      body = JSON.stringify({ queues: collect() });
    }
    res.setHeader("Cache-Control", "no-store");
    res.statusCode = 200;
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
