/**
 * The queue's synchronized state: the aggregate figures only, the same for every client and
 * refreshed at a bounded rate. The waiting tickets are not in it (a state entry per ticket made
 * every join cost a walk of the whole queue and a frame to every client): on the server they are
 * `state.waiting` (a {@link WaitingRoster}, not synchronized), a player learns its own ticket from
 * `status`, and operators read them through `QueueViewRoom` (see queue-view.ts).
 */
import { schema, t, type MapSchema, type SchemaType } from "@colyseus/schema";
import type { ClassFigures, MatchmakerStats } from "../core/stats.js";
import { kindOf, minimumOf, seatsOf, teamCountOf, teamSizeOf, type GameShape } from "../core/shape.js";
import type { WaitingBreakdown } from "./status.js";
import type { WaitingRoster } from "./queue-view.js";
import type { SeatOutcome } from "./director/tickets.js";
import type { OffenceCounts } from "./offences.js";

/** One waiting ticket, as the operator view (`QueueViewRoom`) lists it; players learn their own from `status`. */
export const WaitingEntry = schema(
  {
    id: t.string(),
    rating: t.number(),
    partySize: t.uint8().default(1),
    /** "A", "B", or "" for choice-free. */
    side: t.string().default(""),
    zones: t.array("string"),
    /** Epoch milliseconds when the ticket first entered the queue (kept through re-queues). */
    waitingSince: t.number(),
  },
  "WaitingEntry",
);
export type WaitingEntry = SchemaType<typeof WaitingEntry>;

/** Aggregate figures every client and the monitor see. */
export const QueueFigures = schema(
  {
    policy: t.string().default(""),
    /** The shape of the queue's games: `"two-teams"`, `"teams"` (more than two) or `"free-for-all"`. */
    shapeKind: t.string().default("two-teams"),
    /** Teams per game (in a free-for-all, one per player). */
    teams: t.uint8().default(2),
    /** Players per team (1 in a free-for-all). */
    teamSize: t.uint8().default(1),
    /** Players in a full game (`teams` × `teamSize`). */
    maxPlayers: t.uint16().default(2),
    /** The fewest humans a game starts with (below `maxPlayers` in a queue whose games may start short-handed). */
    minPlayers: t.uint16().default(2),
    waitingPlayers: t.number().default(0),
    waitingTickets: t.number().default(0),
    /** Waiting players by party size ("1", "2", …); refreshed at most once per heartbeat (`tickMs`). */
    waitingByPartySize: t.map("number"),
    /** Waiting players by side preference ("A", "B", "any"); refreshed at most once per heartbeat (`tickMs`). */
    waitingBySide: t.map("number"),
    /** Waiting players by zone (a ticket in several zones counts in each); refreshed at most once per heartbeat (`tickMs`). */
    waitingByZone: t.map("number"),
    /** Mean wait (ms) of recently matched tickets by side preference ("A", "B", "any"), for the sides that had any. */
    meanWaitMsBySide: t.map("number"),
    /** Mean wait (ms) of recently matched tickets by the zone that matched them, in a queue with zones. */
    meanWaitMsByZone: t.map("number"),
    matchesFormed: t.number().default(0),
    playersMatched: t.number().default(0),
    meanWaitMs: t.number().default(0),
    /** Percentiles of the waits of players in recent matches (ms). */
    p50WaitMs: t.number().default(0),
    p95WaitMs: t.number().default(0),
    p99WaitMs: t.number().default(0),
    /** Mean imbalance of recent matches (team games; 0 in a free-for-all, which has none: see `meanSpread`). */
    meanImbalance: t.number().default(0),
    /** Mean rating spread (highest minus lowest human) of recent matches: a free-for-all's measure of a game. */
    meanSpread: t.number().default(0),
    /** Matches the recent figures (waits, imbalance) cover: while 0, those figures mean "no matches yet", not 0. */
    recentMatches: t.number().default(0),
    /** Players removed at the ready check (declined, timed out, or did not return in time). */
    declines: t.number().default(0),
    /** Matches whose game room could not be created or seated; their players were re-queued. */
    spawnFailures: t.number().default(0),
    /** Matches dropped because a player left while the game room was being created. */
    abandonedMatches: t.number().default(0),
    /** Joins refused by the queue's per-address join rate (`joinRateLimit`), since this process started. */
    joinsRateLimited: t.number().default(0),
    /** Party-code joins refused because their address tried too many wrong codes, since this process started. */
    partyCodesLimited: t.number().default(0),
    /**
     * True when, over the recent arrivals, |side A − side B| ≥ choice-free (Xu et al.'s Fact 3):
     * the surplus side's waits then grow without bound; allow fewer side choices.
     */
    sideMixUnstable: t.boolean().default(false),
    /** The policy's own report as JSON (e.g. `{"mode":"greedy","estimatedQ":0.21}` for patient in auto mode), or "". */
    policyStatus: t.string().default(""),
    /** Replacement seats game rooms asked for (`requestBackfill`), filled, and failed reservations. */
    backfillRequested: t.number().default(0),
    backfillFilled: t.number().default(0),
    backfillFailures: t.number().default(0),
    /** Replacement seats asked for and not yet filled. */
    backfillPending: t.number().default(0),
    /**
     * How sent seats ended (a match's and replacement seats alike): the player entered the game
     * room (its game room reported it with `playerArrived`)...
     */
    seatsEntered: t.number().default(0),
    /** ...the reservation expired unused and the player, still in the queue, went back to waiting (at the back, with `penalties`)... */
    seatsExpiredRequeued: t.number().default(0),
    /** ...the reservation expired unused and the player had left the queue, or was removed for a second such offence: it is out... */
    seatsExpiredRemoved: t.number().default(0),
    /** ...the game room or its process was gone before the player entered; back to its place... */
    seatsLostRequeued: t.number().default(0),
    /** ...or out, when it had left the queue. */
    seatsLostRemoved: t.number().default(0),
    /** Seats sent whose players have not entered yet (nor been settled). */
    seatsOpen: t.number().default(0),
    /**
     * Matches broken by a player, counted against its account (the queue option `penalties`):
     * declined, timed out or seat left unused while connected, or dropped past the forgiven ones.
     * These four count for as long as the queue's name lives in this process, across its rooms.
     */
    offences: t.number().default(0),
    /** Drops and leaves during a ready check that were forgiven (the first ones per window). */
    offencesForgiven: t.number().default(0),
    /** Offences that started a cooldown (the player was held out of the queue). */
    cooldowns: t.number().default(0),
    /** Joins refused because the account was cooling down. */
    cooldownRefusals: t.number().default(0),
  },
  "QueueFigures",
);
export type QueueFigures = SchemaType<typeof QueueFigures>;

export const MatchmakerState = schema(
  {
    figures: QueueFigures,
  },
  "MatchmakerState",
);
/** The synchronized figures, and on the server only, `waiting`: every waiting ticket (never sent to clients). */
export type MatchmakerState = SchemaType<typeof MatchmakerState> & { readonly waiting: WaitingRoster };

/** Attach the roster to the state as a plain, non-synchronized property (schema fields alone are encoded). */
export function withRoster(state: SchemaType<typeof MatchmakerState>, roster: WaitingRoster): MatchmakerState {
  Object.defineProperty(state, "waiting", { value: roster, enumerable: false });
  return state as MatchmakerState;
}

/** Seats that ended, by outcome: counted as they end, shown in the figures at their next (paced) refresh. */
export type SeatOutcomeCounts = Record<SeatOutcome, number>;

export function newSeatOutcomeCounts(): SeatOutcomeCounts {
  return { entered: 0, expired_requeued: 0, expired_removed: 0, lost_requeued: 0, lost_removed: 0 };
}

/** Show `counts` in the shared figures (a field that did not move is not touched, so it costs no patch). */
export function showSeatOutcomes(figures: QueueFigures, counts: SeatOutcomeCounts): void {
  for (const outcome of Object.keys(SEAT_OUTCOME_FIGURE) as SeatOutcome[]) {
    const field = SEAT_OUTCOME_FIGURE[outcome];
    if (figures[field] !== counts[outcome]) figures[field] = counts[outcome];
  }
}

const SEAT_OUTCOME_FIGURE = {
  entered: "seatsEntered",
  expired_requeued: "seatsExpiredRequeued",
  expired_removed: "seatsExpiredRemoved",
  lost_requeued: "seatsLostRequeued",
  lost_removed: "seatsLostRemoved",
} as const satisfies Record<SeatOutcome, keyof QueueFigures>;

/**
 * What a queue's rooms count themselves (the engine counts matches and players), cumulative for
 * the queue's name in this process (see queue-life.ts): a room adds to them, never resets them.
 */
export interface QueueTotals {
  declines: number;
  spawnFailures: number;
  abandonedMatches: number;
  backfillRequested: number;
  backfillFilled: number;
  backfillFailures: number;
  readonly seats: SeatOutcomeCounts;
}

export function newQueueTotals(): QueueTotals {
  return {
    declines: 0,
    spawnFailures: 0,
    abandonedMatches: 0,
    backfillRequested: 0,
    backfillFilled: 0,
    backfillFailures: 0,
    seats: newSeatOutcomeCounts(),
  };
}

/** Show `totals` in the shared figures (unchanged fields are not touched, so they cost no patch). */
export function showTotals(figures: QueueFigures, totals: QueueTotals): void {
  const f = figures;
  if (f.declines !== totals.declines) f.declines = totals.declines;
  if (f.spawnFailures !== totals.spawnFailures) f.spawnFailures = totals.spawnFailures;
  if (f.abandonedMatches !== totals.abandonedMatches) f.abandonedMatches = totals.abandonedMatches;
  if (f.backfillRequested !== totals.backfillRequested) f.backfillRequested = totals.backfillRequested;
  if (f.backfillFilled !== totals.backfillFilled) f.backfillFilled = totals.backfillFilled;
  if (f.backfillFailures !== totals.backfillFailures) f.backfillFailures = totals.backfillFailures;
  showSeatOutcomes(f, totals.seats);
}

/** Show the offence counts (see `offences.ts`) in the shared figures (unchanged fields are not touched). */
export function showOffenceCounts(figures: QueueFigures, counts: OffenceCounts): void {
  if (figures.offences !== counts.offences) figures.offences = counts.offences;
  if (figures.offencesForgiven !== counts.forgiven) figures.offencesForgiven = counts.forgiven;
  if (figures.cooldowns !== counts.cooldowns) figures.cooldowns = counts.cooldowns;
  if (figures.cooldownRefusals !== counts.refusedJoins) figures.cooldownRefusals = counts.refusedJoins;
}

/** Make a schema map of counts equal `values` (changed keys set, absent keys deleted). */
export function syncCounts(map: MapSchema<number>, values: Readonly<Record<string, number>>): void {
  for (const key of [...map.keys()]) if (!(key in values)) map.delete(key);
  for (const [key, value] of Object.entries(values)) if (map.get(key) !== value) map.set(key, value);
}

/** Copy the engine's stats (its snapshot at one instant) into the shared figures. */
export function showEngineStats(figures: QueueFigures, stats: MatchmakerStats): void {
  const f = figures;
  f.waitingPlayers = stats.waitingPlayers;
  f.waitingTickets = stats.waitingTickets;
  f.matchesFormed = stats.matchesFormed;
  f.playersMatched = stats.playersMatched;
  f.meanWaitMs = stats.meanWaitMs;
  f.p50WaitMs = stats.p50WaitMs;
  f.p95WaitMs = stats.p95WaitMs;
  f.p99WaitMs = stats.p99WaitMs;
  f.meanImbalance = stats.meanImbalance;
  f.meanSpread = stats.meanSpread;
  f.recentMatches = stats.recentMatches;
  f.sideMixUnstable = stats.sideMix.unstable;
  syncCounts(f.meanWaitMsBySide, recentMeans(stats.bySide));
  syncCounts(f.meanWaitMsByZone, recentMeans(stats.byZone ?? {}));
  f.policyStatus = stats.policyStatus ? JSON.stringify(stats.policyStatus) : "";
}

/** Fresh figures for a queue: its policy and the shape of its games (which never change for its life). */
export function queueFigures(policy: string, shape: GameShape): QueueFigures {
  const f = new QueueFigures();
  f.policy = policy;
  f.shapeKind = kindOf(shape);
  f.teams = teamCountOf(shape);
  f.teamSize = teamSizeOf(shape);
  f.maxPlayers = seatsOf(shape);
  f.minPlayers = minimumOf(shape);
  return f;
}

/** Copy the waiting breakdown (players by party size, side and zone) into the shared figures. */
export function showWaitingBreakdown(figures: QueueFigures, counts: WaitingBreakdown): void {
  syncCounts(figures.waitingByPartySize, counts.byPartySize);
  syncCounts(figures.waitingBySide, counts.bySide);
  syncCounts(figures.waitingByZone, counts.byZone);
}

/** Mean recent waits of the classes that had recent matches. */
function recentMeans(classes: Readonly<Record<string, ClassFigures>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(classes).flatMap(([key, c]) => (c.recentMatches > 0 ? [[key, c.meanWaitMs]] : [])),
  );
}
