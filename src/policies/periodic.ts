/**
 * `periodic` (Schlup's A_PM): collect arrivals in a FIFO queue; when x games' worth of players
 * wait, or the oldest has waited tau_max, sort the first n = m − m mod k players by rating and
 * match consecutive runs, k being the players per game (`context.seats`: 2m for two teams of m,
 * k for a free-for-all of k; the text's algorithm is for any k). Eq. (5) gives its cost, eq. (6)
 * the best period; `x: "auto"` applies eq. (6) to the arrival rate measured online.
 */
import * as v from "valibot";
import { ArrivalIndex } from "../core/arrival-order.js";
import { MatchmakerError } from "../core/errors.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { meanRating, reachedMaxWait, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { bestIntegerAround, schlupPeriodicCost, schlupPeriodicOptimalN } from "../core/closed-forms.js";
import { ArrivalRate } from "./shared/arrival-rate.js";
import { findOldestGame } from "./shared/oldest-game.js";

const PeriodicParams = v.strictObject(
  {
    x: v.optional(
      v.union(
        [v.pipe(v.number(), v.integer(), v.minValue(1)), v.literal("auto")],
        'must be a whole number of games per period (1 or more) or "auto"',
      ),
      1,
    ),
  },
  unknownKeyMessage,
);

export class PeriodicPolicy implements Policy {
  readonly name = "periodic";
  private readonly queue = new ArrivalIndex();
  private readonly rate = new ArrivalRate();
  private waitingPlayers = 0;
  private latestArrival = -Infinity;

  constructor(
    private readonly context: PolicyContext,
    private readonly x: number | "auto",
  ) {}

  add(ticket: Ticket): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.queue.add(ticket);
    this.waitingPlayers += ticket.players.length;
    // A re-queued ticket is no new arrival: only fresh arrivals measure the rate.
    if (ticket.enqueuedAt >= this.latestArrival) {
      this.latestArrival = ticket.enqueuedAt;
      this.rate.record(ticket.enqueuedAt, ticket.players.length);
    }
  }

  remove(ticketId: string): void {
    const ticket = this.queue.remove(ticketId);
    if (ticket) this.waitingPlayers -= ticket.players.length;
  }

  /** Games per period now in use (with `x: "auto"`, from the measured arrival rate). */
  gamesPerPeriod(): number {
    if (this.x !== "auto") return this.x;
    const a = this.rate.perSecond();
    if (a === undefined) return 1;
    const k = this.context.seats;
    const tauMax = this.context.maxWaitMs! / 1000;
    const nOpt = schlupPeriodicOptimalN(k, a, tauMax);
    return bestIntegerAround(nOpt / k, (x) => schlupPeriodicCost(k, x * k, a, tauMax));
  }

  poll(now: number): Ticket[][] {
    const seats = this.context.seats;
    if (this.waitingPlayers < seats) return [];
    const full = this.waitingPlayers >= this.gamesPerPeriod() * seats;
    if (!full && !this.oldestReachedMaxWait(now)) return [];
    // The period: the oldest tickets up to the largest multiple of a game, sorted by rating.
    const budget = this.waitingPlayers - (this.waitingPlayers % seats);
    const period: Ticket[] = [];
    let players = 0;
    for (const t of this.queue.oldest()) {
      if (players + t.players.length > budget) break;
      period.push(t);
      players += t.players.length;
    }
    period.sort((a, b) => meanRating(a) - meanRating(b));
    const games: Ticket[][] = [];
    for (
      let game = findOldestGame(period, this.context.shape);
      game;
      game = findOldestGame(period, this.context.shape)
    ) {
      for (const t of game) {
        this.remove(t.id);
        period.splice(period.indexOf(t), 1);
      }
      games.push(game);
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (this.context.maxWaitMs === undefined) return undefined;
    const oldest = this.queue.first();
    if (!oldest) return undefined;
    const deadline = oldest.enqueuedAt + this.context.maxWaitMs;
    return deadline > now ? deadline : undefined;
  }

  private oldestReachedMaxWait(now: number): boolean {
    if (this.context.maxWaitMs === undefined) return false;
    const oldest = this.queue.first();
    return oldest !== undefined && reachedMaxWait(oldest, this.context.maxWaitMs, now);
  }
}

export const periodic: PolicyDefinition = {
  name: "periodic",
  summary: "Schlup's A_PM: wait for x games' worth of players (or tau_max), sort by rating, match consecutive runs.",
  shapes: ["two-teams", "teams", "free-for-all"],
  create(context: PolicyContext, params: PolicyParams): Policy {
    const { x } = parseConfig("periodic policy parameters", PeriodicParams, params);
    if (x === "auto" && context.maxWaitMs === undefined) {
      throw new MatchmakerError(
        "invalid_config",
        'periodic policy parameters: x: "auto" needs the queue\'s maximum wait (tau_max)',
        "x",
      );
    }
    return new PeriodicPolicy(context, x);
  },
};
