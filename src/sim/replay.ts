/**
 * Replaying a recorded queue's traffic (the format is `src/trace/format.ts`; a queue room records it
 * with `src/colyseus/traffic-trace.ts`) through the engine.
 *
 * Two ways:
 * - **exact** (`replayExact`): the same policy and options, driven by the recorded clock: every
 *   arrival, requeue and departure at its recorded time and the engine's `tick` exactly when the
 *   room ran it. The engine is pure and deterministic, so this forms the live queue's games, one
 *   for one ({@link compareMatches} checks it).
 * - **any policy** (`replayTrace`): the recorded arrivals and departures (a ticket leaves at its
 *   recorded time if it is still waiting) through any policy and options, driven as the simulator
 *   drives seeded traffic: the engine ticks on every event and at its own wake-ups. Requeues after
 *   failed games are left out (they depend on the live queue's games), as are the live matches.
 */
import { MatchmakerError } from "../core/errors.js";
import { Matchmaker, type MatchmakerOptions } from "../options/matchmaker.js";
import type { PolicyParams, PolicyRegistry } from "../core/policy.js";
import type { Match, Ticket } from "../core/types.js";
import { matchTeams, type TraceArrival, type TraceEngineOptions, type TrafficTrace } from "../trace/format.js";
import type { SimulationTrace } from "./simulator.js";
import type { Arrival } from "./traffic.js";

/** After the last event, a replay stops once its wake-ups have formed no game for this long (simulated ms). */
export const MAX_DRAIN_MS = 600_000;
/** A policy that keeps asking to be woken at the same instant without forming a game is a bug. */
const MAX_IDLE_WAKEUPS = 10_000;

/** The ticket a recorded arrival describes, named `t<number>` (players `t<number>.<i>`). */
export function traceTicket(a: TraceArrival): Ticket {
  return {
    id: `t${a.ticket}`,
    enqueuedAt: a.enqueuedAt,
    players: a.players.map((p, i) => ({
      sessionId: `t${a.ticket}.${i}`,
      rating: p.rating,
      ...(p.roles ? { roles: p.roles } : {}),
      ...(p.uncertainty !== undefined ? { uncertainty: p.uncertainty } : {}),
      ...(p.criteria ? { criteria: p.criteria } : {}),
    })),
    ...(a.side ? { side: a.side } : {}),
    ...(a.zones ? { zones: a.zones } : {}),
  };
}

/**
 * A game as its teams' tickets, "side A | side B" in a game of two teams (ticket numbers, sorted
 * within each team; bots left out): equal keys, equal games.
 */
export type GameKey = string;

export function gameKey(teams: readonly (readonly number[])[]): GameKey {
  return teams.map((team) => [...team].sort((x, y) => x - y).join(",")).join("|");
}

/** The key of a match formed on replayed tickets (`t<number>`). */
export function matchKey(match: Match): GameKey {
  return gameKey(
    match.teams.map((team) => team.ticketIds.filter((id) => !id.includes("~")).map((id) => Number(id.slice(1)))),
  );
}

export interface ReplayResult extends SimulationTrace {
  /** The games the live queue formed, in the order it formed them (keys). */
  readonly recorded: readonly GameKey[];
}

/** The engine a trace's options describe, with `override`s (another policy, a target wait, ...). */
function engineFor(trace: TrafficTrace, override: ReplayOverride): Matchmaker {
  const { policy, params, ...rest } = trace.engine;
  return new Matchmaker({
    ...(rest as Omit<MatchmakerOptions, "policy" | "params">),
    policy: override.policy ?? policy,
    params: override.policy !== undefined ? (override.params ?? {}) : (override.params ?? params ?? {}),
    ...(override.engine ?? {}),
    ...(override.policies ? { policies: override.policies } : {}),
    matchIdPrefix: "replay",
    // Every waiting ticket counts (the simulator's setting).
    statsWindow: 1,
  });
}

export interface ReplayOverride {
  /** Another registered policy (default: the recorded one). */
  readonly policy?: string;
  /** Its parameters (default: the recorded ones when the policy is the recorded one, else none). */
  readonly params?: PolicyParams;
  /** Further engine options to change (e.g. `maxWaitMs`). */
  readonly engine?: Partial<TraceEngineOptions>;
  readonly policies?: PolicyRegistry;
}

/**
 * The live queue's run again, on the recorded clock: the recorded policy and options, the
 * recorded arrivals, requeues, departures and engine ticks at their times.
 */
export function replayExact(trace: TrafficTrace, override: Pick<ReplayOverride, "policies"> = {}): ReplayResult {
  const engine = engineFor(trace, override);
  const run = new RunLog();
  const recorded: GameKey[] = [];
  let now = -Infinity;
  for (const e of trace.events) {
    now = Math.max(now, e.t);
    switch (e.e) {
      case "arrive":
      case "requeue": {
        const ticket = traceTicket(e);
        if (e.e === "arrive") {
          if (!tryEnter(() => engine.enqueue(ticket, e.t))) break;
          run.arrived(ticket, e.t);
        } else engine.requeue([ticket], e.t);
        break;
      }
      case "leave":
        engine.cancel(`t${e.ticket}`, e.t);
        break;
      case "tick":
        run.formed(engine.tick(e.t));
        break;
      case "match":
        recorded.push(gameKey(matchTeams(e)));
        break;
    }
  }
  return { ...run.finish(engine, now), recorded };
}

/**
 * The recorded arrivals and departures through any policy, driven like the simulator: the engine
 * ticks at each event and at its own wake-ups (`nextWakeup`), after the last event until nobody
 * can be matched any more: until no wake-up is asked for, or none has formed a game for
 * {@link MAX_DRAIN_MS} of simulated time (a policy that keeps waking for tickets it will never
 * match, e.g. the odd one out of a rating bracket, would otherwise run forever).
 */
export function replayTrace(trace: TrafficTrace, override: ReplayOverride = {}): ReplayResult {
  const engine = engineFor(trace, override);
  const run = new RunLog();
  const recorded: GameKey[] = [];
  const events = trace.events.filter((e) => e.e === "arrive" || e.e === "leave");
  for (const e of trace.events) if (e.e === "match") recorded.push(gameKey(matchTeams(e)));
  let now = events.length > 0 ? Math.min(...events.slice(0, 1).map((e) => e.t)) : 0;
  let i = 0;
  let idle = 0;
  let progressAt = now; // the last event or game
  for (;;) {
    const eventAt = i < events.length ? events[i].t : Infinity;
    const wakeup = engine.nextWakeup(now);
    const wakeAt = wakeup === undefined ? Infinity : Math.max(wakeup, now);
    if (eventAt === Infinity && (wakeAt === Infinity || wakeAt - progressAt > MAX_DRAIN_MS)) break;
    if (wakeAt < eventAt) {
      idle = wakeAt === now ? idle + 1 : 0;
      now = wakeAt;
    } else {
      idle = 0;
      const e = events[i++];
      now = Math.max(now, e.t);
      progressAt = now;
      if (e.e === "arrive") {
        const ticket = traceTicket(e);
        if (tryEnter(() => engine.enqueue(ticket, now))) run.arrived(ticket, now);
      } else if (e.e === "leave") engine.cancel(`t${e.ticket}`, now);
    }
    const formed = engine.tick(now);
    run.formed(formed);
    if (formed.length > 0) {
      idle = 0;
      progressAt = now;
    }
    if (idle > MAX_IDLE_WAKEUPS)
      throw new MatchmakerError(
        "policy_contract",
        `policy keeps asking to be woken at t=${now} ms without forming a game`,
        "policy",
      );
  }
  return { ...run.finish(engine, now), recorded };
}

/** Recorded games against replayed ones: how many agree, and the first that differs. */
export function compareMatches(result: ReplayResult): {
  readonly recorded: number;
  readonly replayed: number;
  readonly same: boolean;
  readonly firstDifference?: { readonly index: number; readonly recorded?: GameKey; readonly replayed?: GameKey };
} {
  const replayed = result.matches.map(matchKey);
  const n = Math.max(replayed.length, result.recorded.length);
  for (let i = 0; i < n; i++) {
    if (replayed[i] !== result.recorded[i])
      return {
        recorded: result.recorded.length,
        replayed: replayed.length,
        same: false,
        firstDifference: {
          index: i,
          ...(result.recorded[i] !== undefined ? { recorded: result.recorded[i] } : {}),
          ...(replayed[i] !== undefined ? { replayed: replayed[i] } : {}),
        },
      };
  }
  return { recorded: result.recorded.length, replayed: replayed.length, same: true };
}

/** A ticket the engine refuses (e.g. a zone the replayed queue does not have) is left out. */
function tryEnter(enter: () => void): boolean {
  try {
    enter();
    return true;
  } catch {
    return false;
  }
}

/** The arrivals and games of a replay, as the simulator's measures read them. */
class RunLog {
  private readonly arrivals: Arrival[] = [];
  private readonly matches: Match[] = [];

  arrived(ticket: Ticket, now: number): void {
    this.arrivals.push({ index: Number(ticket.id.slice(1)), time: now / 1000, ticket });
  }

  formed(matches: readonly Match[]): void {
    for (const m of matches) this.matches.push(m);
  }

  finish(engine: Matchmaker, now: number): SimulationTrace {
    const waiting = new Set([...engine.waiting()].map((t) => t.id));
    const end = Number.isFinite(now) ? now : 0;
    return {
      shape: engine.shape,
      arrivals: this.arrivals,
      matches: this.matches,
      unmatched: this.arrivals.filter((a) => waiting.has(a.ticket.id)),
      endTime: end / 1000,
      stats: engine.stats(end),
    };
  }
}
