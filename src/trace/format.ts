/**
 * The traffic trace's file format: what a queue room records (`src/colyseus/traffic-trace.ts`)
 * and the simulator replays (`src/sim/replay.ts`, `npm run sim -- --trace FILE`). It lives below
 * both so that neither imports the other: the types of a trace, its format tag, the engine
 * options it carries and the check of a file read back.
 *
 * No player identity is kept: tickets are numbered in order of arrival, players are only ratings.
 * Times are milliseconds since the first recorded event (`origin` is that time on the room's clock).
 */
import { MatchmakerError } from "../core/errors.js";
import type { MatchmakerOptions } from "../options/matchmaker.js";
import type { Side } from "../core/types.js";
import { isShapeProblem, shapeFromOptions } from "../options/shape-options.js";

/** The engine options a trace carries (what replaying it through the same engine needs). */
export type TraceEngineOptions = Omit<MatchmakerOptions, "policies" | "onPolicyError" | "policy" | "matchIdPrefix"> & {
  readonly policy: string;
};

/** One player of a recorded ticket: no identity, only what the engine matches on. */
export interface TracePlayer {
  readonly rating: number;
  readonly roles?: readonly string[];
  readonly uncertainty?: number;
  /** In a queue with criteria: the player's value on each. */
  readonly criteria?: Readonly<Record<string, number>>;
}

/** A ticket entering the queue (`arrive`) or coming back at its original place (`requeue`). */
export interface TraceArrival {
  readonly t: number;
  readonly e: "arrive" | "requeue";
  /** The ticket's number in this trace (order of first arrival). */
  readonly ticket: number;
  /** Its original enqueue time (ms, on the trace's time scale). */
  readonly enqueuedAt: number;
  readonly players: readonly TracePlayer[];
  readonly side?: Side;
  readonly zones?: readonly string[];
}

/**
 * A game formed at the tick before it, and its bots: in a game of two teams, side A's tickets
 * (`a`) and side B's (`b`); in any other shape, each team's tickets in order (`teams`; a
 * free-for-all has one team per player, so a party's ticket is on as many teams as it has players).
 */
export type TraceMatch = { readonly t: number; readonly e: "match"; readonly bots: number; readonly zone?: string } & (
  { readonly a: readonly number[]; readonly b: readonly number[] } | { readonly teams: readonly (readonly number[])[] }
);

export type TraceEvent =
  | TraceArrival
  | { readonly t: number; readonly e: "leave"; readonly ticket: number }
  | { readonly t: number; readonly e: "tick" }
  | TraceMatch;

/** A recorded game's tickets, team by team (side A's then side B's in a game of two teams). */
export function matchTeams(e: TraceMatch): readonly (readonly number[])[] {
  return "teams" in e ? e.teams : [e.a, e.b];
}

/** A recorded queue's traffic, as downloaded from the operator route. */
export interface TrafficTrace {
  readonly format: typeof TRACE_FORMAT;
  readonly version: 1;
  readonly queue?: string;
  /** The room's clock (ms) at time 0 of the trace. */
  readonly origin: number;
  readonly engine: TraceEngineOptions;
  /** The ring buffer's size in events. */
  readonly capacity: number;
  /**
   * Events lost off the start of the ring. With 0 the trace holds everything since recording began
   * and replays exactly; otherwise tickets whose arrival fell off are left out of a replay.
   */
  readonly dropped: number;
  readonly events: readonly TraceEvent[];
}

/** The `format` tag of every trace file, checked before anything else is read. */
export const TRACE_FORMAT = "colyseus-matchmaker/traffic-trace";

/** The serializable engine options (a policy instance or a custom imbalance function cannot be replayed). */
export function traceEngineOptions(options: MatchmakerOptions): TraceEngineOptions {
  const { policies: _r, onPolicyError: _e, matchIdPrefix: _m, policy, imbalance, ...rest } = options;
  return {
    ...rest,
    policy: typeof policy === "string" ? policy : (policy?.name ?? "greedy"),
    ...(imbalance && typeof imbalance !== "function" ? { imbalance } : {}),
  };
}

/**
 * Check a parsed JSON value is a trace this version reads; throws
 * `MatchmakerError("invalid_trace")` saying what is wrong and naming the field.
 */
export function checkTrace(value: unknown): TrafficTrace {
  const t = value as Partial<TrafficTrace> | null;
  if (!t || typeof t !== "object" || t.format !== TRACE_FORMAT)
    refuse("format", `not a traffic trace (expected "format": "${TRACE_FORMAT}")`);
  if (t.version !== 1) refuse("version", `traffic trace version ${String(t.version)} is not supported (1 is)`);
  if (!t.engine || typeof t.engine.policy !== "string")
    refuse("engine", "traffic trace: engine options missing (policy, and teamSize or maxPlayers)");
  // The queue's shape: a trace of two teams has teamSize alone (as every trace before shapes had).
  const shape = shapeFromOptions(t.engine);
  if (isShapeProblem(shape)) refuse(`engine.${shape.field}`, `traffic trace: engine: ${shape.field}: ${shape.message}`);
  if (!Array.isArray(t.events)) refuse("events", "traffic trace: events missing");
  for (const [i, e] of t.events.entries()) {
    if (!e || typeof e.t !== "number" || !Number.isFinite(e.t))
      refuse(`events.${i}.t`, `traffic trace: event ${i} has no time`);
    if (e.e === "arrive" || e.e === "requeue") {
      if (!Number.isInteger(e.ticket) || !Array.isArray(e.players) || e.players.length === 0)
        refuse(`events.${i}`, `traffic trace: event ${i} (${e.e}) needs a ticket number and players`);
      if (
        e.players.some((p: { rating?: unknown } | null) => typeof p?.rating !== "number" || !Number.isFinite(p.rating))
      )
        refuse(`events.${i}.players`, `traffic trace: event ${i} has a player without a finite rating`);
    } else if (e.e === "leave") {
      if (!Number.isInteger(e.ticket))
        refuse(`events.${i}.ticket`, `traffic trace: event ${i} (leave) needs a ticket number`);
    } else if (e.e === "match") {
      const teams = matchTeams(e);
      if (!Array.isArray(teams) || !teams.every((team) => Array.isArray(team) && team.every(Number.isInteger)))
        refuse(`events.${i}`, `traffic trace: event ${i} (match) needs its tickets (a and b, or teams)`);
    } else if (e.e !== "tick") {
      refuse(`events.${i}.e`, `traffic trace: event ${i} has unknown kind "${String((e as { e: unknown }).e)}"`);
    }
  }
  return t as TrafficTrace;
}

function refuse(field: string, problem: string): never {
  throw new MatchmakerError("invalid_trace", problem, field);
}
