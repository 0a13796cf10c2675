/**
 * `density-window`: rating windows sized by the measured arrival density, for games of any shape
 * (each player's window is their own; a game is the oldest that the nearest tickets above its
 * lowest can form, as the shared search finds it for the queue's shape).
 *
 * Where arrivals are dense a close game comes soon, where they are sparse it does not: a ticket
 * rated r accepts tickets within a window proportional to 1 / sqrt(rho(r)), rho(r) = lambda·phi(r)
 * the measured arrivals per second per rating point (lambda: players per second over the last
 * 64 arrivals; phi: the rating density of the last `population` arrivals, from the `m` ratings
 * on each side of r). The square root is the balance of spread against wait (a Lagrangian
 * argument: a window theta at density rho costs about theta in spread and 1 / (rho·theta) in
 * wait, so the best theta goes as 1 / sqrt(rho); it is also the optimal-stopping reservation
 * value of one player searching among Poisson arrivals with a cost per second of waiting).
 *
 * How the window grows with the wait:
 * - With the queue's `maxWaitMs` (Schlup's tau_max; a bot game after it costs as much as a game
 *   of spread 1 and a full wait for both seats), the window follows the optimal-stopping profile
 *   of a player with T = tau_max − wait left: V(T) = V∞·coth(rho·V∞·T / 2 + artanh(V∞ / 3)),
 *   V∞ = sqrt(2 / (rho·tau_max)) in Schlup's units (spread as a fraction of the rating range,
 *   wait in tau_max), so it stays near V∞ / 2 most of the wait and opens to everyone as tau_max
 *   comes (the player becomes critical, in Akbarpour, Li and Oveis Gharan's sense). Window =
 *   `c` × V(T) / 2 × rating range.
 * - Without a maximum wait: sqrt(2 × `waitWorth` / rho) × (1 + `growth` × wait), `waitWorth` the
 *   rating points one second of a player's wait is worth (default 10% of the rating range).
 *
 * A game forms when the mean of its members' windows covers its spread (`combine: "mean"`, the
 * default), closest game first. Why the mean: two waiting players who do not play now each go on
 * paying their own expected cost of the rest of the search, V_i + V_j; playing now costs the
 * spread. So a player near tau_max, whose V is high (they are critical, in Akbarpour, Li and Oveis
 * Gharan's sense), pays for a partner who just arrived, where requiring every member's window
 * (`combine: "min"`, the previous rule) left that player to a bot or to the oldest other ticket
 * at tau_max. Measured: 0.005 to 0.05 closer to the optimum in every cell of Schlup's grid, and
 * 0.597x instead of 0.615x QueueRoom's spread at its wait (docs/density-window.md).
 *
 * The rate is measured over the last 64 arrivals (the first estimate after 4, not an assumed one
 * per second) and the windows refold as soon as it moves by 10% (and in batches of 5% of the
 * population or of the pool for the rating density), so a burst's end reaches the windows within
 * about a minute at one arrival per second. With tau_max a silence also counts: after a gap of g
 * seconds the rate is at most 4 / g (a gap of four mean gaps has probability e^-4), so when
 * traffic stops the last tickets' windows open instead of waiting for arrivals that do not come.
 * Patience (the queue's `targetWait`) divides every window.
 *
 * Cost: an arrival or a departure recomputes the games of the `lookahead` tickets below it; a
 * refold (every 5% of the population, a 10% move of the rate, or, with tau_max and tickets
 * waiting, a silence step, geometric in the silence's length: about log(g·rate / 4) / log(1.1)
 * of them in a silence of g seconds) recomputes every waiting ticket's game.
 */
import * as v from "valibot";
import type { AcceptanceWindow, Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { EVERY_SHAPE_KIND, type GameShape } from "../core/shape.js";
import { DEFAULT_POPULATION, RatingRanks } from "../core/rating-ranks.js";
import type { PlayerWindow, Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "../core/sorted-tree.js";
import { meanRating } from "../core/types.js";
import { ArrivalRate } from "./shared/arrival-rate.js";
import { LazyHeap } from "./shared/lazy-heap.js";
import { findOldestGame } from "./shared/oldest-game.js";

/** Share of the population (or pool) new arrivals must reach before the density is refolded. */
const DENSITY_BATCH = 0.05;
/** Arrivals the rate is measured over: short enough to follow a burst's end within a minute at 1/s. */
const RATE_WINDOW = 64;
/** Relative change of the measured rate that refolds the windows before the density's next batch. */
const RATE_STEP = 0.1;
/** Arrivals before the first measured rate (fewer: the rate is taken as 1 per second). */
const FIRST_RATE_ARRIVALS = 4;
/**
 * With tau_max, a silence this many mean gaps long (probability e^-4 at a steady rate) bounds the
 * rate: it is taken as at most SILENCE_ARRIVALS / silence, so windows open when traffic stops
 * instead of leaving the last tickets to wait for arrivals that do not come.
 */
const SILENCE_ARRIVALS = 4;
/** Schlup's cost of a bot game beyond the waiting player's own wait: spread 1 for the seats, the bot's tau_max. */
const TERMINAL_VALUE = 3;

/** Most tickets above an anchor its game may take. */
const MAX_LOOKAHEAD = 1024;

const positive = v.pipe(v.number("must be a number"), v.finite("must be finite"), v.gtValue(0, "must be positive"));
const DensityWindowParams = v.strictObject(
  {
    c: v.optional(positive),
    waitWorth: v.optional(positive),
    growth: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must not be negative"))),
    population: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(20), v.maxValue(1e6))),
    m: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(2), v.maxValue(10_000))),
    lookahead: v.optional(
      v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1), v.maxValue(MAX_LOOKAHEAD)),
    ),
    combine: v.optional(v.picklist(["min", "mean"])),
  },
  unknownKeyMessage,
);

/** Validated parameters of `density-window`. */
export interface DensityWindowOptions {
  /** Scale of the window (1: the optimal-stopping value; default 1.2, measured best on Schlup's cost). */
  readonly c: number;
  /** Without `maxWaitMs`: rating points one second of a player's wait is worth. */
  readonly waitWorth: number;
  /** Without `maxWaitMs`: relative widening per second of waiting. */
  readonly growth: number;
  /** How many recent arrivals make the rating density. */
  readonly population: number;
  /** Ratings on each side of r that measure the density at r. */
  readonly m: number;
  /** Tickets above an anchor its game may take (default 4 × the players of a game). */
  readonly lookahead: number;
  /**
   * How the members' windows decide a game: every one covers its spread (`min`, the default without
   * `maxWaitMs`), or their mean does (`mean`, the default with it: see the class comment).
   */
  readonly combine: "min" | "mean";
}

interface Entry {
  readonly ticket: Ticket;
  readonly key: RankedKey;
  readonly rating: number;
  alive: boolean;
  /** Bumped at each recomputation: older candidates of this anchor are stale. */
  version: number;
}

/** The game anchored at a ticket (its lowest-rated member): its spread and when it becomes acceptable. */
interface Candidate {
  readonly anchor: Entry;
  readonly version: number;
  readonly members: readonly Entry[];
  readonly spread: number;
  readonly oldest: number;
  /** The time every member's window covers the spread (ms). */
  readonly at: number;
}

const isLive = (c: Candidate): boolean =>
  c.anchor.alive && c.version === c.anchor.version && c.members.every((m) => m.alive);

export class DensityWindowPolicy implements Policy {
  readonly name = "density-window";
  private readonly shape: GameShape;
  private readonly ranks: RatingRanks;
  private readonly rate = new ArrivalRate(RATE_WINDOW);
  private readonly range: number;
  private readonly tauMax: number | undefined;
  private readonly tree: SortedTree<RankedKey, Entry> = sortedTree<RankedKey, Entry>(compareRanked);
  private readonly byId = new Map<string, Entry>();
  /** Acceptable games, closest first. */
  private readonly ready = new LazyHeap<Candidate>(
    (a, b) => a.spread - b.spread || a.oldest - b.oldest || compareRanked(a.anchor.key, b.anchor.key),
    isLive,
  );
  /** Games not yet acceptable, by the time they will be. */
  private readonly timers = new LazyHeap<Candidate>(
    (a, b) => a.at - b.at || compareRanked(a.anchor.key, b.anchor.key),
    isLive,
  );
  private seq = 0;
  private lastNow = -Infinity;
  private patience = 1;
  /** Arrival rate (players per second) as of the last fold: the measured one, or lower after a silence. */
  private lambda: number | undefined;
  /** The rate measured over the last RATE_WINDOW arrivals, as of the last arrival that refolded. */
  private measured: number | undefined;
  private pending: number[] = [];
  private latestArrival = -Infinity;
  /** Density (players per second per rating point) by rating, as of the last fold. */
  private readonly densities = new Map<number, number>();

  constructor(
    context: PolicyContext,
    readonly options: DensityWindowOptions,
  ) {
    this.shape = context.shape;
    this.ranks = RatingRanks.recent(options.population);
    this.range = context.ratingRange ? context.ratingRange.max - context.ratingRange.min : 1;
    this.tauMax = context.maxWaitMs === undefined ? undefined : context.maxWaitMs / 1000;
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.byId.size;
  }

  add(ticket: Ticket, now: number): void {
    this.remove(ticket.id);
    this.lastNow = Math.max(this.lastNow, now);
    const rating = meanRating(ticket);
    const entry: Entry = { ticket, key: [rating, this.seq++], rating, alive: true, version: 0 };
    this.tree.set(entry.key, entry);
    this.byId.set(ticket.id, entry);
    if (this.arrived(ticket)) return; // the density moved: every game was recomputed
    for (const anchor of [entry, ...this.below(entry)]) this.recompute(anchor, this.lastNow);
  }

  remove(ticketId: string): void {
    const entry = this.byId.get(ticketId);
    if (!entry) return;
    const affected = this.below(entry);
    this.drop(entry);
    for (const anchor of affected) this.recompute(anchor, this.lastNow);
  }

  poll(now: number): Ticket[][] {
    this.lastNow = Math.max(this.lastNow, now);
    this.silence(now);
    const games: Ticket[][] = [];
    this.due(now);
    for (let top = this.ready.pop(); top; top = this.ready.pop()) {
      const affected = new Set<Entry>();
      for (const m of top.members) for (const anchor of this.below(m)) affected.add(anchor);
      for (const m of top.members) this.drop(m);
      games.push(top.members.map((m) => m.ticket));
      for (const anchor of affected) if (anchor.alive) this.recompute(anchor, now);
      this.due(now);
    }
    this.ready.compact(this.byId.size, 64);
    this.timers.compact(this.byId.size, 64);
    return games;
  }

  nextWakeup(): number | undefined {
    const timer = this.timers.peek()?.at;
    const quiet = this.silenceFoldAt();
    if (quiet === undefined) return timer;
    return timer === undefined ? quiet : Math.min(timer, quiet);
  }

  /** Target wait: every window `patience` times narrower (every game's time is recomputed). */
  setPatience(patience: number, now: number): void {
    this.patience = patience;
    this.recomputeAll(Math.max(now, this.lastNow));
  }

  /** A waiting ticket's window at `now`, as ratings (shown to the player in `status`). */
  acceptanceWindow(ticketId: string, now: number): AcceptanceWindow | undefined {
    const entry = this.byId.get(ticketId);
    if (!entry) return undefined;
    const width = this.window(entry.rating, now - entry.ticket.enqueuedAt);
    return { min: entry.rating - width, max: entry.rating + width };
  }

  windowOf(ticket: Ticket, now: number): PlayerWindow {
    const rating = meanRating(ticket);
    return { unit: "rating", initial: this.window(rating, 0), width: this.window(rating, now - ticket.enqueuedAt) };
  }

  status(): Readonly<Record<string, string | number | boolean>> {
    return {
      ...(this.lambda !== undefined ? { arrivalRate: Number(this.lambda.toPrecision(4)) } : {}),
      densitySample: this.ranks.size,
    };
  }

  // ---- games --------------------------------------------------------------------------------

  /** The anchors whose game may include `entry`: the `lookahead` tickets just below it. */
  private below(entry: Entry): Entry[] {
    const anchors: Entry[] = [];
    for (const [, e] of this.tree.entriesReversed(entry.key, undefined, true)) {
      if (anchors.length >= this.options.lookahead) break;
      anchors.push(e);
    }
    return anchors;
  }

  /** The closest game with `anchor` as its lowest-rated ticket, and when it becomes acceptable. */
  private recompute(anchor: Entry, now: number): void {
    anchor.version++;
    const near: Entry[] = [];
    for (const [, e] of this.tree.entries(anchor.key)) {
      near.push(e);
      if (near.length > this.options.lookahead) break;
    }
    // Among the nearest tickets above the anchor, the game of the lowest positions (parties and sides honoured).
    const game = findOldestGame(
      near.map((e) => e.ticket),
      this.shape,
    );
    if (!game || game[0] !== anchor.ticket) return;
    const members = game.map((t) => this.byId.get(t.id)!);
    let spread = 0;
    let oldest = Infinity;
    let at = -Infinity;
    for (const m of members) spread = Math.max(spread, m.rating - anchor.rating);
    for (const m of members) oldest = Math.min(oldest, m.ticket.enqueuedAt);
    if (this.options.combine === "mean") at = this.meanReach(members, spread);
    else for (const m of members) at = Math.max(at, m.ticket.enqueuedAt + this.waitToReach(m.rating, spread));
    if (at === Infinity) return; // never by itself: the queue's bot fill, or a closer game, takes it
    const candidate: Candidate = { anchor, version: anchor.version, members, spread, oldest, at };
    if (at <= now) this.ready.push(candidate);
    else this.timers.push(candidate);
  }

  private recomputeAll(now: number): void {
    for (const [, e] of this.tree.entries()) this.recompute(e, now);
  }

  /** Move the games that became acceptable by `now` to the ready heap. */
  private due(now: number): void {
    for (let top = this.timers.peek(); top && top.at <= now; top = this.timers.peek()) {
      this.timers.pop();
      this.ready.push(top);
    }
  }

  private drop(entry: Entry): void {
    entry.alive = false;
    entry.version++;
    this.tree.delete(entry.key);
    this.byId.delete(entry.ticket.id);
  }

  // ---- windows ------------------------------------------------------------------------------

  /** Record an arrival in the rate and the density; true when the density was refolded (all recomputed). */
  private arrived(ticket: Ticket): boolean {
    // A re-queued ticket (enqueuedAt in the past) is already counted.
    if (ticket.enqueuedAt < this.latestArrival) return false;
    this.latestArrival = ticket.enqueuedAt;
    this.rate.record(ticket.enqueuedAt, ticket.players.length);
    for (const p of ticket.players) this.pending.push(p.rating);
    const rate = this.rate.perSecond(FIRST_RATE_ARRIVALS);
    const rateMoved =
      rate !== undefined && this.lambda !== undefined && Math.abs(Math.log(rate / this.lambda)) > Math.log1p(RATE_STEP);
    if (!rateMoved && this.pending.length < Math.max(1, DENSITY_BATCH * Math.max(this.ranks.size, this.size)))
      return false;
    for (const r of this.pending) this.ranks.add(r);
    this.pending = [];
    this.lambda = this.measured = this.rate.perSecond(FIRST_RATE_ARRIVALS);
    this.densities.clear();
    this.recomputeAll(this.lastNow);
    return true;
  }

  /**
   * With tau_max, when the silence since the last arrival will have brought the rate RATE_STEP below
   * the folded one (ms): the rate is at most SILENCE_ARRIVALS / silence. Undefined with no ticket
   * waiting, and without tau_max (there nobody is sent to a bot by a silence, the windows widen with
   * the wait anyway, and the bound measured worse under a target wait: 14.3% instead of 12.8% off
   * the target on the bursts scenario).
   */
  private silenceFoldAt(): number | undefined {
    if (this.tauMax === undefined || this.byId.size === 0 || this.lambda === undefined || this.measured === undefined)
      return undefined;
    const next = Math.min(this.measured, this.lambda) / (1 + RATE_STEP);
    return this.latestArrival + (SILENCE_ARRIVALS / next) * 1000;
  }

  /** Refold with the rate the silence allows, once it has fallen RATE_STEP below the folded one. */
  private silence(now: number): void {
    const at = this.silenceFoldAt();
    if (at === undefined || now < at) return;
    this.lambda = Math.min(this.measured!, SILENCE_ARRIVALS / ((now - this.latestArrival) / 1000));
    this.densities.clear();
    this.recomputeAll(now);
  }

  /** How long after joining a ticket rated `rating` has a window of at least `distance` (ms; Infinity: never). */
  private waitToReach(rating: number, distance: number): number {
    if (distance <= this.window(rating, 0)) return 0;
    const rho = this.density(rating);
    let ms: number;
    if (this.tauMax !== undefined) {
      // Invert V(T) = V∞·coth(x), x = rho_q·V∞·T / 2 + artanh(V∞ / 3): the T left when V reaches the need.
      const rhoQ = rho * this.range;
      const vInf = Math.sqrt(2 / (rhoQ * this.tauMax));
      const needed = (2 * distance * this.patience) / (this.options.c * this.range);
      if (needed > TERMINAL_VALUE) return Infinity; // only the bot fill takes it
      const x = Math.atanh(Math.min(1 - 1e-12, vInf / needed));
      const x0 = Math.atanh(Math.min(1 - 1e-12, vInf / TERMINAL_VALUE));
      ms = (this.tauMax - (2 * (x - x0)) / (rhoQ * vInf)) * 1000;
    } else {
      if (this.options.growth === 0) return Infinity;
      ms = ((distance / this.baseWindow(rho) - 1) / this.options.growth) * 1000;
    }
    // Whole ms, checked against `window` itself so the two never disagree by a rounding.
    let wait = Math.max(0, Math.ceil(ms));
    for (let i = 0; i < 8 && this.window(rating, wait) < distance; i++) wait += 1 + i * i;
    return this.window(rating, wait) >= distance ? wait : Infinity;
  }

  /** The first time (whole ms) the members' mean window covers `spread` (Infinity: never). */
  private meanReach(members: readonly Entry[], spread: number): number {
    const covers = (t: number) => {
      let sum = 0;
      for (const m of members) sum += this.window(m.rating, t - m.ticket.enqueuedAt);
      return sum >= spread * members.length;
    };
    let lo: number;
    let latest = -Infinity;
    for (const m of members) latest = Math.max(latest, m.ticket.enqueuedAt);
    if (covers(latest)) return latest;
    lo = latest;
    // The mean only widens with time; the earliest deadline bounds the search (with tauMax).
    let hi = Infinity;
    if (this.tauMax !== undefined) for (const m of members) hi = Math.min(hi, m.ticket.enqueuedAt + this.tauMax * 1000);
    else hi = latest + 3_600_000;
    if (!covers(hi)) return Infinity;
    while (hi - lo > 0.5) {
      const mid = (lo + hi) / 2;
      if (covers(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** The window (rating points) of a ticket rated `rating` after waiting `waitMs`. */
  private window(rating: number, waitMs: number): number {
    const rho = this.density(rating);
    const wait = Math.max(0, waitMs) / 1000;
    if (this.tauMax === undefined) return this.baseWindow(rho) * (1 + this.options.growth * wait);
    const rhoQ = rho * this.range;
    const vInf = Math.sqrt(2 / (rhoQ * this.tauMax));
    const remaining = Math.max(0, this.tauMax - wait);
    const x = (rhoQ * vInf * remaining) / 2 + Math.atanh(Math.min(1 - 1e-12, vInf / TERMINAL_VALUE));
    return (this.options.c * (vInf / Math.tanh(x)) * this.range) / (2 * this.patience);
  }

  private baseWindow(rho: number): number {
    return (this.options.c * Math.sqrt((2 * this.options.waitWorth) / rho)) / this.patience;
  }

  /** Arrivals per second per rating point near `rating` (as of the last fold). */
  private density(rating: number): number {
    const cached = this.densities.get(rating);
    if (cached !== undefined) return cached;
    const lambda = this.lambda ?? 1;
    const n = this.ranks.size;
    let phi: number;
    if (n < 8) phi = 1 / this.range;
    else {
      const m = Math.min(this.options.m, Math.floor(n / 4));
      const k = Math.min(n - 1, Math.max(0, Math.round(this.ranks.percentile(rating) * n - 0.5)));
      const low = Math.max(0, k - m);
      const high = Math.min(n - 1, k + m);
      const span = this.ranks.atRank(high)! - this.ranks.atRank(low)!;
      // Ties or a tiny span: never denser than a thousand times the whole range's density.
      phi = (high - low) / n / Math.max(span, (this.range * (high - low)) / n / 1000);
    }
    const rho = lambda * phi;
    this.densities.set(rating, rho);
    return rho;
  }
}

/** Parse `density-window` parameters. */
export function densityWindowOptions(context: PolicyContext, params: PolicyParams): DensityWindowOptions {
  const parsed = parseConfig("density-window policy parameters", DensityWindowParams, params);
  const range = context.ratingRange ? context.ratingRange.max - context.ratingRange.min : 1;
  return {
    c: parsed.c ?? (context.maxWaitMs !== undefined ? 1.2 : 1),
    waitWorth: parsed.waitWorth ?? 0.1 * range,
    growth: parsed.growth ?? 0.25,
    population: parsed.population ?? DEFAULT_POPULATION,
    m: parsed.m ?? 30,
    lookahead: parsed.lookahead ?? Math.min(MAX_LOOKAHEAD, 4 * context.seats),
    combine: parsed.combine ?? "mean",
  };
}

export const densityWindow: PolicyDefinition = {
  name: "density-window",
  shapes: EVERY_SHAPE_KIND,
  summary:
    "Windows sized by the measured arrival rate and rating density (1 / sqrt of arrivals per rating point), opening as tau_max nears; closest game first.",
  create(context: PolicyContext, params: PolicyParams): Policy {
    return new DensityWindowPolicy(context, densityWindowOptions(context, params));
  },
};
