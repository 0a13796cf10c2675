/**
 * `weighted-pairing` (the forum thread, paper 004, BTownTKD's "weight system" and myro's second
 * suggestion): on a short cycle, each waiting ticket in turn, the longest-waiting first, draws its
 * opponents at random from the waiting pool, every candidate weighted by the thread's three
 * factors:
 *
 * - **rating** (`ratingSd`): a bell curve of the rating difference, exp(−d² / (2 ratingSd²)),
 *   which "falls quickly" so that far-apart players (virtually) never meet;
 * - **wait time** (`waitTimePerSecond`): × (1 + waitTimePerSecond × (w₁ + w₂)), the two tickets'
 *   waits in seconds, so that the longer both have waited the likelier they play;
 * - **recent-ness of a partner pairing** (`recentPartnerFactor`): × that factor when the two
 *   played together within the queue's recent-opponent history (`avoidRecent`: the last N games,
 *   so the effect "dissipates after a few matches with other players"), until the engine's own
 *   rules would accept the repeat (its fallback wait or span).
 *
 * The thread's own objection ("with only 2 teams in the list their probability to match is 1")
 * is met twice: games form only on the cycle (`cycleMs`), so there is a pool to choose from, and
 * each first draw also holds the option of not playing this cycle, with weight `skipWeight` (the
 * weight of an equal-rated partner who has just joined), so a lone far-apart candidate is usually
 * declined. A ticket that has waited `boundMs` draws without that option, at once and at every
 * poll (not only on the cycle), and if its weighted draw cannot complete a game it takes the oldest
 * game its nearest tickets can form: nobody waits past the bound while a game with them exists.
 *
 * Games of more than two players (teams, or a free-for-all): after the first opponent the ticket
 * keeps drawing, each draw weighted around the mean rating of the tickets drawn so far, among the
 * tickets that still fit (parties whole, sides honoured: the shared assembly splits the players),
 * until the game's seats are filled.
 *
 * Randomness is seeded (`seed`) or injected (`random`), and the cycle follows the engine's clock,
 * so the simulator replays a run exactly.
 *
 * Cost: tickets are kept by rating in a B+tree, and the kernel is cut at ±{@link KERNEL_CUTOFF_SD}
 * standard deviations (the weight there is e^−8 ≈ 3·10⁻⁴ of the peak), so a draw looks only at the
 * m tickets within that band: a join is O(log n), a cycle O(n (log n + m)), O(n²) only when every
 * ticket sits within 4 ratingSd of every other. A forced draw (at the bound) with nobody in the
 * band looks at the {@link FORCED_NEIGHBOURS} nearest tickets per side instead.
 */
import * as v from "valibot";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { ArrivalIndex } from "../core/arrival-order.js";
import { canAssembleGame, fitsGameWithBots } from "../core/game-assembly.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND } from "../core/shape.js";
import { repeatAllowedAt } from "../core/recent-opponents.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "../core/sorted-tree.js";
import { meanRating, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { findOldestGame } from "./shared/oldest-game.js";

/** Candidates lie within this many `ratingSd` of the draw's centre; beyond, a weight counts as 0. */
export const KERNEL_CUTOFF_SD = 4;
/** A forced draw with nobody within the cut-off looks at this many nearest tickets on each side. */
export const FORCED_NEIGHBOURS = 16;

const positive = (what: string) => v.pipe(v.number(what), v.finite("must be finite"), v.gtValue(0, "must be positive"));
const nonNegative = (what: string) =>
  v.pipe(v.number(what), v.finite("must be finite"), v.minValue(0, "must not be negative"));
const wholeMs = v.pipe(
  v.number("must be a number of milliseconds"),
  v.integer("must be a whole number of milliseconds"),
  v.minValue(1, "must be at least 1"),
);

const WeightedPairingParams = v.strictObject(
  {
    ratingSd: v.optional(positive("must be a number of rating points")),
    waitTimePerSecond: v.optional(nonNegative("must be a number")),
    recentPartnerFactor: v.optional(
      v.pipe(
        v.number("must be a number"),
        v.minValue(0, "must be between 0 and 1"),
        v.maxValue(1, "must be between 0 and 1"),
      ),
    ),
    skipWeight: v.optional(nonNegative("must be a number")),
    cycleMs: v.optional(wholeMs),
    boundMs: v.optional(wholeMs),
    seed: v.optional(v.pipe(v.number("must be a number"), v.integer("must be an integer"))),
  },
  unknownKeyMessage,
);

/** Validated parameters of `weighted-pairing` (see the module comment for what each does). */
export interface WeightedPairingOptions {
  /** Rating factor: the bell curve's standard deviation, in rating points. */
  readonly ratingSd: number;
  /** Wait-time factor: the weight is multiplied by 1 + this × (sum of the two waits in seconds). */
  readonly waitTimePerSecond: number;
  /** Recent-ness factor, 0 to 1: the weight of a pairing within the recent-opponent history is multiplied by it. */
  readonly recentPartnerFactor: number;
  /** Weight of "no opponent this cycle" in a ticket's first draw (0: everyone who can play, plays). */
  readonly skipWeight: number;
  /** Games form on every multiple of this many ms of the engine's clock. */
  readonly cycleMs: number;
  /** A ticket that has waited this long (ms) draws at once, without the option to skip. */
  readonly boundMs: number;
  /** Seed of the policy's random stream (ignored when a `random` function is given). */
  readonly seed: number;
}

/** Parameter defaults, some from the queue (its rating range and maximum wait). */
export function weightedPairingOptions(context: PolicyContext, params: PolicyParams): WeightedPairingOptions {
  const p = parseConfig("weighted-pairing policy parameters", WeightedPairingParams, params);
  const range = context.ratingRange;
  return {
    ratingSd: p.ratingSd ?? (range ? (range.max - range.min) / 40 : 50),
    waitTimePerSecond: p.waitTimePerSecond ?? 0.1,
    recentPartnerFactor: p.recentPartnerFactor ?? 0.2,
    skipWeight: p.skipWeight ?? 1,
    cycleMs: p.cycleMs ?? 1000,
    boundMs: p.boundMs ?? (context.maxWaitMs !== undefined ? Math.max(1, Math.floor(context.maxWaitMs / 2)) : 30_000),
    seed: p.seed ?? 1,
  };
}

/** A uniform [0, 1) stream from `seed` (xoroshiro128+, as the simulator's arrivals). */
export function seededRandom(seed: number): () => number {
  const rng = xoroshiro128plus(seed);
  return () => uniformFloat64(rng);
}

interface Entry {
  readonly ticket: Ticket;
  readonly rating: number;
  readonly key: RankedKey;
}

let nextSeq = 0;

export class WeightedPairingPolicy implements Policy {
  readonly name = "weighted-pairing";
  readonly options: WeightedPairingOptions;
  private readonly random: () => number;
  private readonly entries = new Map<string, Entry>();
  private readonly byRating: SortedTree<RankedKey, Entry> = sortedTree<RankedKey, Entry>(compareRanked);
  private readonly byArrival = new ArrivalIndex();
  private waitingPlayers = 0;
  /** The next multiple of `cycleMs` at which the cycle runs. */
  private nextCycleAt = 0;
  private cycles = 0;
  private skips = 0;
  private forced = 0;

  /**
   * @param random a uniform [0, 1) source to use instead of the seeded one (e.g. a test's or a
   *   driver's own seeded stream); the policy calls it once per draw.
   */
  constructor(
    private readonly context: PolicyContext,
    options: WeightedPairingOptions,
    random?: () => number,
  ) {
    this.options = options;
    this.random = random ?? seededRandom(options.seed);
  }

  add(ticket: Ticket): void {
    this.remove(ticket.id);
    const rating = meanRating(ticket);
    const entry: Entry = { ticket, rating, key: [rating, nextSeq++] };
    this.entries.set(ticket.id, entry);
    this.byRating.set(entry.key, entry);
    this.byArrival.add(ticket);
    this.waitingPlayers += ticket.players.length;
  }

  remove(ticketId: string): void {
    const entry = this.entries.get(ticketId);
    if (!entry) return;
    this.entries.delete(ticketId);
    this.byRating.delete(entry.key);
    this.byArrival.remove(ticketId);
    this.waitingPlayers -= entry.ticket.players.length;
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.entries.size;
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    const seats = this.context.seats;
    const cycle = now >= this.nextCycleAt;
    if (cycle) {
      this.nextCycleAt = (Math.floor(now / this.options.cycleMs) + 1) * this.options.cycleMs;
      this.cycles++;
    }
    if (this.waitingPlayers < seats) return games;
    // Between cycles only tickets at the bound draw; on the cycle every ticket does, oldest first.
    const choosers: Ticket[] = [];
    for (const t of this.byArrival.oldest()) {
      if (!cycle && !this.atBound(t, now)) break;
      choosers.push(t);
    }
    for (const chooser of choosers) {
      if (this.waitingPlayers < seats) break;
      if (!this.entries.has(chooser.id)) continue;
      const game = this.draw(chooser, now);
      if (!game) continue;
      for (const t of game) this.remove(t.id);
      games.push(game);
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (this.waitingPlayers < this.context.seats) return undefined;
    let next = Math.max(this.nextCycleAt, now);
    // The earliest bound still ahead (overdue tickets that found no game retry on every poll).
    for (const t of this.byArrival.oldest()) {
      const at = t.enqueuedAt + this.options.boundMs;
      if (at <= now) continue;
      if (at < next) next = at;
      break;
    }
    return next;
  }

  status(): Readonly<Record<string, string | number | boolean>> {
    return { cycles: this.cycles, skips: this.skips, forcedDraws: this.forced };
  }

  private atBound(ticket: Ticket, now: number): boolean {
    return ticket.enqueuedAt + this.options.boundMs <= now;
  }

  /**
   * The game `chooser` draws now, or undefined (it skipped this cycle, or no game with it could be
   * completed). At the bound the draw cannot skip, and a failed draw falls back to the oldest
   * game among the chooser's nearest tickets.
   */
  private draw(chooser: Ticket, now: number): Ticket[] | undefined {
    const seats = this.context.seats;
    const forced = this.atBound(chooser, now);
    if (forced) this.forced++;
    const group: Ticket[] = [chooser];
    let players = chooser.players.length;
    let ratingTotal = meanRating(chooser) * players;
    while (players < seats) {
      const pick = this.pick(group, ratingTotal / players, now, forced, !forced && group.length === 1);
      if (pick === "skip") {
        this.skips++;
        return undefined;
      }
      if (!pick) return forced ? this.fallback(chooser) : undefined;
      group.push(pick.ticket);
      players += pick.ticket.players.length;
      ratingTotal += pick.rating * pick.ticket.players.length;
    }
    if (canAssembleGame(group, this.context.shape)) return group;
    return forced ? this.fallback(chooser) : undefined;
  }

  /**
   * One weighted draw of the next ticket for `group`, centred on `centre`; "skip" when the skip
   * option won, undefined when no ticket fits.
   */
  private pick(
    group: readonly Ticket[],
    centre: number,
    now: number,
    widen: boolean,
    maySkip: boolean,
  ): Entry | "skip" | undefined {
    const { ratingSd, waitTimePerSecond, recentPartnerFactor } = this.options;
    const band = KERNEL_CUTOFF_SD * ratingSd;
    const candidates: Entry[] = [];
    // Whether a ticket fits beside the group depends only on its party size and side: one check per class.
    const fitsByClass = new Map<number, boolean>();
    const fits = (e: Entry) => {
      if (group.includes(e.ticket)) return false;
      const t = e.ticket;
      const cls = 3 * t.players.length + (t.side === "A" ? 1 : t.side === "B" ? 2 : 0);
      let fit = fitsByClass.get(cls);
      if (fit === undefined) fitsByClass.set(cls, (fit = fitsGameWithBots([...group, t], this.context.shape)));
      return fit;
    };
    for (const [, e] of this.byRating.entries([centre - band, -Infinity])) {
      if (e.rating > centre + band) break;
      if (fits(e)) candidates.push(e);
    }
    if (candidates.length === 0 && widen) candidates.push(...this.nearest(centre, fits));
    if (candidates.length === 0) return undefined;
    // Log-weights, so that a forced draw far out in the tails does not underflow to all zeros.
    const groupWait = now - group[0].enqueuedAt;
    const logWeights = candidates.map((e) => {
      const z = (e.rating - centre) / ratingSd;
      const waitSeconds = (groupWait + (now - e.ticket.enqueuedAt)) / 1000;
      let w = -0.5 * z * z + Math.log1p(waitTimePerSecond * waitSeconds);
      if (this.isRecent(group, e.ticket, now)) w += Math.log(recentPartnerFactor);
      return w;
    });
    const skipLog = maySkip ? Math.log(this.options.skipWeight) : -Infinity;
    let top = skipLog;
    for (const w of logWeights) if (w > top) top = w;
    if (top === -Infinity) return undefined; // every candidate a recent partner at factor 0
    let total = Math.exp(skipLog - top);
    const weights = logWeights.map((w) => Math.exp(w - top));
    for (const w of weights) total += w;
    let x = this.random() * total;
    for (let i = 0; i < candidates.length; i++) {
      x -= weights[i];
      if (x < 0 && weights[i] > 0) return candidates[i];
    }
    if (maySkip && this.options.skipWeight > 0) return "skip";
    // Rounding at the very end of the cumulative sum: the last candidate with weight.
    for (let i = candidates.length - 1; i >= 0; i--) if (weights[i] > 0) return candidates[i];
    return undefined;
  }

  /** True when the recent-ness factor applies between `ticket` and some ticket of `group` at `now`. */
  private isRecent(group: readonly Ticket[], ticket: Ticket, now: number): boolean {
    const avoid = this.context.avoid;
    if (!avoid || this.options.recentPartnerFactor === 1) return false;
    return group.some((g) => repeatAllowedAt(g, ticket, avoid) > now);
  }

  /** The `FORCED_NEIGHBOURS` nearest fitting tickets on each side of `centre`. */
  private nearest(centre: number, fits: (e: Entry) => boolean): Entry[] {
    const found: Entry[] = [];
    let below = 0;
    for (const [, e] of this.byRating.entriesReversed([centre, Infinity])) {
      if (below >= FORCED_NEIGHBOURS) break;
      if (!fits(e)) continue;
      found.push(e);
      below++;
    }
    let above = 0;
    for (const [, e] of this.byRating.entries([centre, Infinity])) {
      if (above >= FORCED_NEIGHBOURS) break;
      if (!fits(e)) continue;
      found.push(e);
      above++;
    }
    return found;
  }

  /** At the bound, when the weighted draw cannot complete a game: the oldest game among the nearest tickets. */
  private fallback(chooser: Ticket): Ticket[] | undefined {
    const entry = this.entries.get(chooser.id)!;
    const others = this.nearest(entry.rating, (e) => e.ticket !== chooser)
      .map((e) => e.ticket)
      .sort((a, b) => a.enqueuedAt - b.enqueuedAt);
    // The chooser first: the oldest game that includes it, if any does.
    const game = findOldestGame([chooser, ...others], this.context.shape);
    return game && game[0] === chooser ? game : undefined;
  }
}

export const weightedPairing: PolicyDefinition = {
  name: "weighted-pairing",
  shapes: EVERY_SHAPE_KIND,
  avoidsRepeats: true,
  summary:
    "The forum thread's weight system: on a short cycle each ticket draws opponents at random, weighted by a bell curve of the rating difference, the waits and recent partners.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    return new WeightedPairingPolicy(context, weightedPairingOptions(context, params));
  },
};
