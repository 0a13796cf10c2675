/**
 * Record and replay: a queue's traffic, as its engine saw it, in a bounded trace an operator can
 * download and replay with `npm run sim -- --trace FILE` (through the same policy, or any other).
 *
 * The recorder sits on one `Matchmaker` instance and notes, in a ring buffer of `capacity` events:
 * - `arrive`: a ticket started waiting (its players' ratings, roles and uncertainties, its side,
 *   its zones and its `enqueuedAt`); `requeue`: it came back after a failed match, keeping its
 *   original `enqueuedAt`;
 * - `leave`: a waiting ticket left; `match`: a game took it (the tickets of each team, side A's
 *   first in a game of two teams, and its bots);
 * - `tick`: the engine ran its policy (`Matchmaker.tick`) at that time. The room ticks on every
 *   join and leave, on its heartbeat and at the policy's wake-ups, on its own clock: replaying the
 *   recorded ticks with the recorded times through the same policy forms the same games, whatever
 *   the room's timer did.
 *
 * No player identity is kept: session ids, player ids and party codes never enter the trace. Its
 * format, which the simulator reads back, is `src/trace/format.ts`.
 *
 * Nothing here imports Colyseus: the room attaches a recorder with {@link recordTraffic}, and
 * {@link matchmakerTraces} serves every live recorder of this process over HTTP (mount it behind
 * `operatorAuth`, beside `/matchmaker/metrics`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Matchmaker } from "../core/matchmaker.js";
import type { MatchmakerOptions } from "../options/matchmaker.js";
import type { Match, Ticket } from "../core/types.js";
import { hasSides } from "../core/shape.js";
import {
  TRACE_FORMAT,
  traceEngineOptions,
  type TraceEngineOptions,
  type TraceEvent,
  type TrafficTrace,
} from "../trace/format.js";

/** A bounded recording of one queue's traffic. */
export class TrafficRecorder {
  private readonly ring: (TraceEvent | undefined)[];
  private next = 0;
  private count = 0;
  private lost = 0;
  private origin: number | undefined;
  /** The latest time seen (a `cancel` without a time is noted then). */
  lastNow = 0;
  private seq = 0;
  /** Ticket id → number; the oldest entries are forgotten beyond `capacity` (insertion order). */
  private readonly numbers = new Map<string, number>();

  constructor(
    readonly engine: TraceEngineOptions,
    /** Events kept (the queue option `trafficTrace.events`). */
    readonly capacity: number,
    readonly queue?: string,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`trace capacity must be a whole number >= 1`);
    this.ring = new Array<TraceEvent | undefined>(capacity);
  }

  /** Events held now. */
  get size(): number {
    return this.count;
  }

  /** Events lost off the start of the ring so far. */
  get dropped(): number {
    return this.lost;
  }

  arrived(ticket: Ticket, now: number, requeued = false): void {
    const known = this.numbers.get(ticket.id);
    const number = known ?? this.number(ticket.id);
    this.push({
      t: this.time(now),
      e: requeued ? "requeue" : "arrive",
      ticket: number,
      enqueuedAt: this.time(ticket.enqueuedAt),
      players: ticket.players.map((p) => ({
        rating: p.rating,
        ...(p.roles ? { roles: [...p.roles] } : {}),
        ...(p.uncertainty !== undefined ? { uncertainty: p.uncertainty } : {}),
        ...(p.criteria ? { criteria: { ...p.criteria } } : {}),
      })),
      ...(ticket.side ? { side: ticket.side } : {}),
      ...(ticket.zones ? { zones: [...ticket.zones] } : {}),
    });
  }

  left(ticketId: string, now: number): void {
    const number = this.numbers.get(ticketId);
    if (number !== undefined) this.push({ t: this.time(now), e: "leave", ticket: number });
  }

  ticked(now: number, matches: readonly Match[]): void {
    const t = this.time(now);
    this.push({ t, e: "tick" });
    for (const m of matches) {
      // Bots have no number: their teams' lists leave them out.
      const teams = m.teams.map((team) =>
        team.ticketIds.flatMap((id) => {
          const n = this.numbers.get(id);
          return n === undefined ? [] : [n];
        }),
      );
      this.push({
        t,
        e: "match",
        ...(hasSides(m.shape) ? { a: teams[0], b: teams[1] } : { teams }),
        bots: m.bots,
        ...(m.zone !== undefined ? { zone: m.zone } : {}),
      });
    }
  }

  /** The trace as it stands (a copy: recording goes on). */
  trace(): TrafficTrace {
    const events: TraceEvent[] = [];
    const start = this.count === this.capacity ? this.next : 0;
    for (let i = 0; i < this.count; i++) events.push(this.ring[(start + i) % this.capacity]!);
    return {
      format: TRACE_FORMAT,
      version: 1,
      ...(this.queue !== undefined ? { queue: this.queue } : {}),
      origin: this.origin ?? 0,
      engine: this.engine,
      capacity: this.capacity,
      dropped: this.lost,
      events,
    };
  }

  private number(ticketId: string): number {
    const n = this.seq++;
    this.numbers.set(ticketId, n);
    if (this.numbers.size > this.capacity) this.numbers.delete(this.numbers.keys().next().value!);
    return n;
  }

  private time(ms: number): number {
    this.origin ??= ms;
    this.lastNow = Math.max(this.lastNow, ms);
    return ms - this.origin;
  }

  private push(event: TraceEvent): void {
    if (this.count === this.capacity) this.lost++;
    else this.count++;
    this.ring[this.next] = event;
    this.next = (this.next + 1) % this.capacity;
  }
}

/**
 * Record `matchmaker`'s traffic from now on: its `enqueue`, `requeue`, `cancel` and `tick` are
 * wrapped on this instance (the engine's code is untouched; the calls behave exactly as before,
 * the recorder notes only what succeeded).
 */
export function recordTraffic(
  matchmaker: Matchmaker,
  engine: MatchmakerOptions,
  capacity: number,
  queue?: string,
): TrafficRecorder {
  const recorder = new TrafficRecorder(traceEngineOptions(engine), capacity, queue);
  const { enqueue, requeue, cancel, tick } = matchmaker;
  const target = matchmaker as {
    -readonly [K in "enqueue" | "requeue" | "cancel" | "tick"]: Matchmaker[K];
  };
  target.enqueue = (ticket, now) => {
    enqueue.call(matchmaker, ticket, now);
    recorder.arrived(ticket, now);
  };
  target.requeue = (tickets, now) => {
    const refused = requeue.call(matchmaker, tickets, now);
    for (const t of tickets) if (!refused.includes(t)) recorder.arrived(t, now, true);
    return refused;
  };
  target.cancel = (ticketId, now) => {
    const cancelled = cancel.call(matchmaker, ticketId, now);
    if (cancelled) recorder.left(ticketId, now ?? recorder.lastNow);
    return cancelled;
  };
  target.tick = (now) => {
    const matches = tick.call(matchmaker, now);
    recorder.ticked(now, matches);
    return matches;
  };
  return recorder;
}

// ---- the operator route -----------------------------------------------------------------------

interface Registered {
  readonly queue: string;
  readonly roomId: string;
  readonly recorder: TrafficRecorder;
}

const recorders = new Map<string, Registered>();

/** Make a room's recorder downloadable (a `MatchmakerRoom` with `trafficTrace` does this). */
export function registerTrace(queue: string, roomId: string, recorder: TrafficRecorder): void {
  recorders.set(roomId, { queue, roomId, recorder });
}

/** Stop serving a room's recorder (the room is disposed). */
export function unregisterTrace(roomId: string): void {
  recorders.delete(roomId);
}

/**
 * An HTTP handler (Express middleware or a plain Node listener) serving the traffic traces of this
 * process's queue rooms that record one (queue option `trafficTrace`). Mount it behind the
 * operator gate: `app.use("/matchmaker/traces", operatorAuth(), matchmakerTraces())`; then
 * - `GET /matchmaker/traces`: `{ traces: [{ queue, roomId, events, dropped, capacity }] }`;
 * - `GET /matchmaker/traces/ROOM_ID` (or `?queue=NAME`, the first room of that queue): the trace
 *   as a JSON download, for `npm run sim -- --trace FILE`.
 */
export function matchmakerTraces() {
  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const notFound = () => {
      if (next) return next();
      res.statusCode = 404;
      res.end();
    };
    if (req.method !== "GET" && req.method !== "HEAD") return notFound();
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    const queue = url.searchParams.get("queue");
    if (path === "/" && queue === null) {
      const traces = [...recorders.values()]
        .map(({ queue, roomId, recorder }) => ({
          queue,
          roomId,
          events: recorder.size,
          dropped: recorder.dropped,
          capacity: recorder.capacity,
        }))
        .sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : a.roomId < b.roomId ? -1 : 1));
      res.statusCode = 200;
      res.end(req.method === "HEAD" ? undefined : JSON.stringify({ traces }));
      return;
    }
    const found =
      path === "/"
        ? [...recorders.values()].find((r) => r.queue === queue)
        : recorders.get(decodeURIComponent(path.slice(1)));
    if (!found) return notFound();
    res.statusCode = 200;
    const name = `trace-${found.queue}-${found.roomId}`.replace(/[^\w-]/g, "_");
    res.setHeader("Content-Disposition", `attachment; filename="${name}.json"`);
    res.end(req.method === "HEAD" ? undefined : JSON.stringify(found.recorder.trace()));
  };
}
