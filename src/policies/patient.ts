/**
 * `patient` (Wu, "Dynamic Matching With Teams"): a game whose imbalance is zero (at most
 * `tolerance`) forms at once (Lemma 3.1); when the only games available are imbalanced, wait for
 * further arrivals, at most `maxExtraArrivals` arrivals or `maxExtraWaitMs`, then form the least
 * imbalanced game that includes the oldest ticket. With two skill types and one extra arrival
 * this is exactly the paper's patient policy.
 *
 * `mode: "auto"` estimates q (the share of H players, rating ≥ `highRating`) online and applies
 * Theorem 3.3: greedy when alpha ≤ 1/(1 − (2q − 1)^(2n)), patient otherwise.
 */
import * as v from "valibot";
import { ArrivalIndex } from "../core/arrival-order.js";
import { assembleTeams, canAssemble } from "../core/assembly.js";
import { wuGreedyIsOptimal } from "../core/closed-forms.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import type { Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";

const PatientParams = v.strictObject(
  {
    mode: v.optional(v.picklist(["patient", "greedy", "auto"], 'must be "patient", "greedy" or "auto"'), "patient"),
    /** A game at most this imbalanced counts as balanced. */
    tolerance: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative")), 0),
    maxExtraArrivals: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0, "must not be negative")), 1),
    maxExtraWaitMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative"))),
    /** Wu's alpha (cost per player per unit of imbalance), for `mode: "auto"`. */
    alpha: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative")), 1),
    /** Ratings at or above this count as H when estimating q for `mode: "auto"`. */
    highRating: v.optional(v.pipe(v.number(), v.finite()), 0.5),
    /** How many of the oldest tickets the search considers (default 2 x teamSize + 2). */
    pool: v.optional(v.pipe(v.number(), v.integer(), v.minValue(2), v.maxValue(24))),
  },
  unknownKeyMessage,
);
type Params = v.InferOutput<typeof PatientParams>;

export class PatientPolicy implements Policy {
  readonly name = "patient";
  private readonly queue = new ArrivalIndex();
  /** When the pool first held only imbalanced games, and the arrivals since. */
  private waitingSince: number | undefined;
  private arrivalsSince = 0;
  private highs = 0;
  private arrivals = 0;
  private latestArrival = -Infinity;

  constructor(
    private readonly context: PolicyContext,
    private readonly params: Params,
  ) {}

  /** The policy in force: with `mode: "auto"`, Theorem 3.3 on the measured share of H players. */
  currentMode(): "patient" | "greedy" {
    if (this.params.mode !== "auto") return this.params.mode;
    if (this.arrivals < 16) return "patient";
    return wuGreedyIsOptimal(this.context.teamSize, this.highs / this.arrivals, this.params.alpha)
      ? "greedy"
      : "patient";
  }

  /** The mode in force and, with `mode: "auto"`, the estimate of q it rests on. */
  status(): Readonly<Record<string, string | number>> {
    return {
      mode: this.currentMode(),
      ...(this.params.mode === "auto"
        ? { estimatedQ: this.arrivals ? this.highs / this.arrivals : 0, playersSeen: this.arrivals }
        : {}),
    };
  }

  add(ticket: Ticket): void {
    // A ticket already held moves to its new position (never held twice).
    this.queue.remove(ticket.id);
    this.queue.add(ticket);
    if (ticket.enqueuedAt >= this.latestArrival) {
      this.latestArrival = ticket.enqueuedAt;
      this.arrivalsSince++;
      for (const p of ticket.players) {
        this.arrivals++;
        if (p.rating >= this.params.highRating) this.highs++;
      }
    }
  }

  remove(ticketId: string): void {
    this.queue.remove(ticketId);
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (;;) {
      const game = this.nextGame(now);
      if (!game) return games;
      for (const t of game) this.queue.remove(t.id);
      this.waitingSince = undefined;
      this.arrivalsSince = 0;
      games.push(game);
    }
  }

  nextWakeup(now: number): number | undefined {
    if (this.waitingSince === undefined || this.params.maxExtraWaitMs === undefined) return undefined;
    const at = this.waitingSince + this.params.maxExtraWaitMs;
    return at > now ? at : undefined;
  }

  private nextGame(now: number): Ticket[] | undefined {
    const k = this.context.teamSize;
    const pool = [...this.queue.oldest(this.params.pool ?? 2 * k + 2)];
    let best: { game: Ticket[]; imbalance: number } | undefined;
    for (const game of gamesOf(pool, k)) {
      const split = assembleTeams(game, k, this.context.imbalance)!;
      if (split.imbalance <= this.params.tolerance) return game; // the oldest balanced game
      if (game[0] === pool[0] && (!best || split.imbalance < best.imbalance))
        best = { game, imbalance: split.imbalance };
    }
    if (!best) {
      this.waitingSince = undefined;
      return undefined;
    }
    if (this.currentMode() === "greedy") return best.game;
    // Only imbalanced games: wait for more arrivals, within the bounds.
    if (this.waitingSince === undefined) {
      this.waitingSince = now;
      this.arrivalsSince = 0;
    }
    const waitedEnough =
      this.arrivalsSince >= this.params.maxExtraArrivals ||
      (this.params.maxExtraWaitMs !== undefined && now >= this.waitingSince + this.params.maxExtraWaitMs);
    return waitedEnough ? best.game : undefined;
  }
}

/** Every assemblable game among `pool` (in arrival order), in lexicographic order of arrival. */
function* gamesOf(pool: readonly Ticket[], k: number): Generator<Ticket[]> {
  const chosen: Ticket[] = [];
  function* visit(i: number, players: number): Generator<Ticket[]> {
    if (players === 2 * k) {
      if (canAssemble(chosen, k)) yield [...chosen];
      return;
    }
    for (let j = i; j < pool.length; j++) {
      const size = pool[j].players.length;
      if (players + size > 2 * k) continue;
      chosen.push(pool[j]);
      yield* visit(j + 1, players + size);
      chosen.pop();
    }
  }
  yield* visit(0, 0);
}

export const patient: PolicyDefinition = {
  name: "patient",
  summary: "Wu's patient policy: balanced games at once; otherwise wait for a few arrivals before an imbalanced one.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    return new PatientPolicy(context, parseConfig("patient policy parameters", PatientParams, params));
  },
};
