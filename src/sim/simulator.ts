/**
 * The discrete-event simulator: seeded arrivals drive the same `Matchmaker` the room runs.
 * Events are arrivals and the engine's own wake-ups (`nextWakeup`), taken in time order.
 */
import * as v from "valibot";
import { Matchmaker, type MatchmakerOptions } from "../options/matchmaker.js";
import { MatchmakerError } from "../core/errors.js";
import { parseConfig } from "../core/validation.js";
import type { ImbalanceFn, ImbalanceSpec } from "../core/imbalance.js";
import type { PolicyParams, PolicyRegistry } from "../core/policy.js";
import type { Match } from "../core/types.js";
import type { LatencyRule } from "../core/zone-latency.js";
import type { MatchmakerStats } from "../core/stats.js";
import type { GameShape } from "../core/shape.js";
import { shapeOptionsIn, type SHAPE_OPTIONS } from "../options/shape-options.js";
import { arrivals, criteriaOf, ratingScale, zoneNames, type Arrival, type TrafficModel } from "./traffic.js";

/**
 * One run. The shape of its games is stated as a queue states it (docs/shapes.md): `teamSize`
 * (two teams of it; with `teams`, that many teams) or `maxPlayers` alone (a free-for-all), and
 * the minimums with `shortHandedAfterMs`; the engine checks them.
 */
export interface SimulationConfig extends Pick<MatchmakerOptions, (typeof SHAPE_OPTIONS)[number]> {
  readonly policy: string;
  readonly params?: PolicyParams;
  /** Where `policy` is looked up (default: the built-in policies). */
  readonly policies?: PolicyRegistry;
  readonly traffic: TrafficModel;
  /** Milliseconds after which bots fill a waiting ticket's game (Schlup's tau_max). */
  readonly maxWaitMs?: number;
  readonly imbalance?: ImbalanceFn | ImbalanceSpec;
  /** Stop after this many arrivals (default 20,000 unless `durationMs` is given). */
  readonly tickets?: number;
  /** Stop arrivals after this many simulated milliseconds. */
  readonly durationMs?: number;
  readonly seed?: number;
  /** Recent-opponent avoidance (the engine's `avoidRecent`; meaningful with a traffic `community`). */
  readonly avoidRecent?: { readonly games: number; readonly fallbackMs?: number; readonly withinMs?: number };
  /** With `traffic.latencies`: the queue's maximum latency (and its widening), which zones by latency. */
  readonly latency?: LatencyRule;
  /** The queue option `targetWait`: hold this wait by turning the policy's patience. */
  readonly targetWait?: { readonly waitMs: number; readonly percentile?: number; readonly gain?: number };
  /** Called with the engine once it exists (e.g. to record its traffic). */
  readonly onEngine?: (engine: Matchmaker, options: MatchmakerOptions) => void;
  /** Called now and then with the arrivals so far and the planned total (if known). */
  readonly onProgress?: (arrived: number, total: number | undefined) => void;
}

/** Everything a run produced, for the measures and for the offline optimum. */
export interface SimulationTrace {
  /** The shape of the run's games (a game that started short-handed says so in `emptySeats`). */
  readonly shape: GameShape;
  readonly arrivals: readonly Arrival[];
  readonly matches: readonly Match[];
  /** Arrivals still waiting when the run ended (only possible without a maximum wait). */
  readonly unmatched: readonly Arrival[];
  /** Simulated seconds from 0 to the last event. */
  readonly endTime: number;
  /** The engine's own statistics at the end of the run (side mix, per zone, per side). */
  readonly stats: MatchmakerStats;
  /**
   * Arrivals the queue refused because an account of theirs was already waiting (a traffic
   * `community` member who comes back while still in the queue: one account, one place); they are
   * not among `arrivals`.
   */
  readonly refused?: number;
}

/** A policy that keeps asking to be woken at the same instant without forming a game is a bug. */
const MAX_IDLE_WAKEUPS = 10_000;

/** The simulation's own settings (the engine checks the queue's, `arrivals` the traffic's). */
const RunSettings = v.looseObject({
  tickets: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
  durationMs: v.optional(v.pipe(v.number(), v.finite("must be finite"), v.gtValue(0, "must be positive"))),
  seed: v.optional(v.pipe(v.number(), v.integer("must be a whole number"))),
});

/**
 * Run `config`'s traffic through the engine. A bad configuration (the run's settings, the
 * queue's options, the traffic) throws `MatchmakerError("invalid_config")` naming the field.
 */
export function simulate(config: SimulationConfig): SimulationTrace {
  parseConfig("simulation", RunSettings, config);
  const maxWaitMs = config.maxWaitMs;
  const options: MatchmakerOptions = {
    ...shapeOptionsIn(config),
    policy: config.policy,
    params: config.params ?? {},
    ...(config.policies ? { policies: config.policies } : {}),
    ...(config.imbalance ? { imbalance: config.imbalance } : {}),
    ...(maxWaitMs !== undefined ? { maxWaitMs, fillWithBots: true } : {}),
    ratingRange: ratingScale(config.traffic.skill),
    ...(config.avoidRecent ? { avoidRecent: config.avoidRecent.games } : {}),
    ...(config.avoidRecent?.fallbackMs !== undefined
      ? { avoidRecentFallbackMs: Math.round(config.avoidRecent.fallbackMs) }
      : {}),
    ...(config.avoidRecent?.withinMs !== undefined ? { avoidRecentMs: Math.round(config.avoidRecent.withinMs) } : {}),
    statsWindow: 1,
    ...(config.traffic.zones || config.traffic.latencies ? { zones: zoneNames(config.traffic)! } : {}),
    ...(config.latency ?? {}),
    ...(config.targetWait ? { targetWait: config.targetWait } : {}),
    ...(config.traffic.criteria ? { criteria: criteriaOf(config.traffic)! } : {}),
  };
  const engine = new Matchmaker(options);
  config.onEngine?.(engine, options);
  const limit = config.tickets ?? (config.durationMs === undefined ? 20_000 : Infinity);
  const endOfArrivals = config.durationMs ?? Infinity;
  const stream = arrivals(config.traffic, config.seed ?? 1);
  const seen: Arrival[] = [];
  const matches: Match[] = [];
  let next = stream.next().value;
  let now = 0;
  let idle = 0;
  let refused = 0;

  for (;;) {
    // A refused arrival counts toward the limit too, so that a run always ends.
    const arrivalMs = seen.length + refused < limit && next.time * 1000 <= endOfArrivals ? next.time * 1000 : Infinity;
    const wakeup = engine.nextWakeup(now);
    const wakeMs = wakeup === undefined ? Infinity : Math.max(wakeup, now);
    if (arrivalMs === Infinity && wakeMs === Infinity) break;
    if (wakeMs < arrivalMs) {
      idle = wakeMs === now ? idle + 1 : 0;
      now = wakeMs;
    } else {
      idle = 0;
      now = arrivalMs;
      if (enter(engine, next.ticket, now)) seen.push(next);
      else refused++;
      next = stream.next().value;
      if ((seen.length + refused) % 1000 === 0)
        config.onProgress?.(seen.length + refused, Number.isFinite(limit) ? limit : undefined);
    }
    const formed = engine.tick(now);
    matches.push(...formed);
    if (formed.length > 0) idle = 0;
    if (idle > MAX_IDLE_WAKEUPS) {
      throw new MatchmakerError(
        "policy_contract",
        `policy "${config.policy}" keeps asking to be woken at t=${now} ms without forming a game`,
        "policy",
      );
    }
  }
  const waiting = new Set([...engine.waiting()].map((t) => t.id));
  return {
    shape: engine.shape,
    arrivals: seen,
    matches,
    unmatched: seen.filter((a) => waiting.has(a.ticket.id)),
    endTime: now / 1000,
    stats: engine.stats(now),
    ...(refused > 0 ? { refused } : {}),
  };
}

/** Enqueue an arrival; false when its account already waits (as a real queue refuses that join). */
function enter(engine: Matchmaker, ticket: Arrival["ticket"], now: number): boolean {
  try {
    engine.enqueue(ticket, now);
    return true;
  } catch (error) {
    if (error instanceof MatchmakerError && error.code === "duplicate_account") return false;
    throw error;
  }
}
