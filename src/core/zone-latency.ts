/**
 * Regions by latency (FlexMatch's latency rule on Xu et al.'s zones): in a queue with zones and a
 * maximum acceptable latency, each player gives its latency (ms) to every zone; a ticket waits in
 * every zone all its players reach within the maximum (choice-free across them), the maximum may
 * widen with the ticket's wait (up to a cap), and a match plays in the zone its players reach
 * best among those every ticket of it waits in.
 *
 * "Reach best" is the smallest worst latency of the match's players (nobody is sent to a server
 * that is bad for them to make it good for the rest); ties go to the smaller mean latency, then to
 * the zone listed first.
 */
import { Heap } from "heap-js";
import { MatchmakerError } from "./errors.js";
import type { Player, Ticket } from "./types.js";

/** The queue's latency rule (queue options `maxLatencyMs`, `maxLatencyGrowthPerSecond`, `maxLatencyCapMs`). */
export interface LatencyRule {
  /** A ticket waits in the zones all its players reach within this many ms. */
  readonly maxLatencyMs: number;
  /** The maximum grows by this many ms per second the ticket has waited (absent: it stays). */
  readonly maxLatencyGrowthPerSecond?: number;
  /** The most the maximum grows to (default: without limit). */
  readonly maxLatencyCapMs?: number;
}

/** The highest latency (ms) a player may report for a zone; send it for a zone it cannot reach. */
export const MAX_REPORTED_LATENCY_MS = 60_000;

/** The maximum acceptable latency after waiting `waitMs`. */
export function maxLatencyAt(rule: LatencyRule, waitMs: number): number {
  const growth = rule.maxLatencyGrowthPerSecond ?? 0;
  const grown = growth > 0 ? rule.maxLatencyMs + (growth * Math.max(0, waitMs)) / 1000 : rule.maxLatencyMs;
  return Math.min(grown, rule.maxLatencyCapMs ?? Infinity);
}

/** The worst latency of `ticket`'s players to `zone` (every player's must be known: see {@link checkLatencies}). */
export function ticketLatency(ticket: Ticket, zone: string): number {
  let worst = 0;
  for (const p of ticket.players) worst = Math.max(worst, p.latencies![zone]);
  return worst;
}

/**
 * Check a player's latencies against the queue's zones; throws `MatchmakerError("invalid_ticket")`
 * naming the field (`<prefix>latencies.eu: is required`) for a missing or out-of-range value.
 */
export function checkLatencies(
  latencies: Player["latencies"],
  zones: readonly string[],
  what: string,
  prefix = "",
): void {
  const refuse = (field: string, problem: string): never => {
    throw new MatchmakerError("invalid_ticket", `${what}: ${prefix}${field}: ${problem}`, `${prefix}${field}`);
  };
  if (latencies === undefined || latencies === null || typeof latencies !== "object") {
    return refuse("latencies", `is required: this queue chooses zones by latency (ms to each of ${zones.join(", ")})`);
  }
  for (const zone of zones) {
    const ms = latencies[zone];
    if (ms === undefined) refuse(`latencies.${zone}`, "is required");
    if (typeof ms !== "number" || !Number.isFinite(ms)) refuse(`latencies.${zone}`, "must be a finite number of ms");
    if (ms < 0) refuse(`latencies.${zone}`, "must not be negative");
    if (ms > MAX_REPORTED_LATENCY_MS) refuse(`latencies.${zone}`, `must be at most ${MAX_REPORTED_LATENCY_MS}`);
  }
  for (const zone of Object.keys(latencies)) {
    if (!zones.includes(zone)) refuse(`latencies.${zone}`, `is not one of ${zones.join(", ")}`);
  }
}

/**
 * The engine's latency bookkeeping for one queue: which zones a ticket may wait in now, when each
 * waiting ticket next reaches another zone (a min-heap of those moments), and the zone a match
 * plays in.
 */
export class LatencyZones {
  /** Per waiting ticket: its allowed zones it does not reach yet, nearest first. */
  private readonly pending = new Map<string, { ticket: Ticket; zones: string[] }>();
  /** [time the ticket reaches its next pending zone, ticket id]; stale entries are skipped. */
  private readonly due = new Heap<[number, string]>((a, b) => a[0] - b[0]);

  constructor(
    readonly rule: LatencyRule,
    /** Every zone of the queue, in its order. */
    readonly zones: readonly string[],
  ) {}

  /**
   * The zones of `allowed` (those the ticket may enter by name and rating) that all its players
   * reach at `now`; throws `MatchmakerError("invalid_ticket")` naming the field when a latency is
   * missing or out of range, or when no allowed zone is within the maximum.
   */
  reachable(ticket: Ticket, allowed: readonly string[], now: number, what = "invalid ticket"): string[] {
    ticket.players.forEach((p, i) => checkLatencies(p.latencies, this.zones, what, `players.${i}.`));
    const max = maxLatencyAt(this.rule, now - ticket.enqueuedAt);
    const reached = allowed.filter((z) => ticketLatency(ticket, z) <= max);
    if (reached.length > 0) return reached;
    const nearest = [...allowed].sort((a, b) => ticketLatency(ticket, a) - ticketLatency(ticket, b))[0];
    const whose = ticket.players.length > 1 ? "every player of the party reaches" : "is reached";
    throw new MatchmakerError(
      "invalid_ticket",
      `${what}: latencies: no zone ${whose} within ${max} ms (the nearest, ${nearest}, at ${ticketLatency(ticket, nearest)} ms)`,
      "latencies",
    );
  }

  /** Remember the zones of `allowed` that `ticket` does not reach yet but will, as the maximum widens. */
  schedule(ticket: Ticket, allowed: readonly string[], reached: readonly string[]): void {
    if (!((this.rule.maxLatencyGrowthPerSecond ?? 0) > 0)) return;
    const cap = this.rule.maxLatencyCapMs ?? Infinity;
    const later = allowed
      .filter((z) => !reached.includes(z) && ticketLatency(ticket, z) <= cap)
      .sort((a, b) => ticketLatency(ticket, a) - ticketLatency(ticket, b));
    if (later.length === 0) return;
    this.pending.set(ticket.id, { ticket, zones: later });
    this.due.push([this.reachedAt(ticket, later[0]), ticket.id]);
  }

  /** The ticket stopped waiting. */
  forget(ticketId: string): void {
    this.pending.delete(ticketId);
  }

  /** The earliest moment a waiting ticket reaches another zone. */
  nextAt(): number | undefined {
    for (;;) {
      const top = this.due.peek();
      if (!top) return undefined;
      if (this.isCurrent(top)) return top[0];
      this.due.pop();
    }
  }

  /** The tickets that reach more zones by `now`, and those zones (each returned once). */
  widen(now: number): Array<{ ticket: Ticket; zones: string[] }> {
    const widened: Array<{ ticket: Ticket; zones: string[] }> = [];
    for (let top = this.due.peek(); top && top[0] <= now; top = this.due.peek()) {
      this.due.pop();
      if (!this.isCurrent(top)) continue;
      const entry = this.pending.get(top[1])!;
      const max = maxLatencyAt(this.rule, now - entry.ticket.enqueuedAt);
      // The first zone is reached by definition (its moment is due); others at the same wait too.
      const zones = [entry.zones.shift()!];
      while (entry.zones.length > 0 && ticketLatency(entry.ticket, entry.zones[0]) <= max + 1e-9)
        zones.push(entry.zones.shift()!);
      widened.push({ ticket: entry.ticket, zones });
      if (entry.zones.length === 0) this.pending.delete(top[1]);
      else this.due.push([this.reachedAt(entry.ticket, entry.zones[0]), top[1]]);
    }
    return widened;
  }

  /**
   * The zone a match of `tickets` plays in: among `allowed` (zones every ticket waits in), the one
   * whose worst player latency is smallest; ties: smaller mean latency, then queue order.
   */
  bestZone(tickets: readonly Ticket[], allowed: readonly string[]): string | undefined {
    let best: string | undefined;
    let bestWorst = Infinity;
    let bestMean = Infinity;
    for (const zone of this.zones) {
      if (!allowed.includes(zone)) continue;
      let worst = 0;
      let sum = 0;
      let n = 0;
      for (const t of tickets) {
        for (const p of t.players) {
          const ms = p.latencies?.[zone];
          if (ms === undefined) continue; // a bot
          worst = Math.max(worst, ms);
          sum += ms;
          n++;
        }
      }
      const mean = n > 0 ? sum / n : 0;
      if (worst < bestWorst || (worst === bestWorst && mean < bestMean)) {
        best = zone;
        bestWorst = worst;
        bestMean = mean;
      }
    }
    return best;
  }

  /** When `ticket` reaches `zone`: the wait at which the widening maximum first covers its latency. */
  private reachedAt(ticket: Ticket, zone: string): number {
    const over = ticketLatency(ticket, zone) - this.rule.maxLatencyMs;
    return ticket.enqueuedAt + Math.ceil((over / this.rule.maxLatencyGrowthPerSecond!) * 1000);
  }

  private isCurrent([at, id]: [number, string]): boolean {
    const entry = this.pending.get(id);
    return entry !== undefined && entry.zones.length > 0 && this.reachedAt(entry.ticket, entry.zones[0]) === at;
  }
}
