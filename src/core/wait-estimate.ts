/**
 * Estimated waits: the recent waits of similar tickets. A ticket's class is its party size,
 * side preference, zone and rating band; each class keeps a bounded window of the most recent
 * waits, and a class without enough data falls back to ever coarser classes (dropping the
 * rating band, then the zone, then the side, then the party size). Pure and clock-free: the
 * caller says what each matched ticket waited.
 */
import { RecentWindow } from "./stats.js";
import { meanRating, type Side, type Ticket } from "./types.js";

/** The defaults of {@link WaitEstimatorOptions} (the queue option `waitEstimate` reads them too). */
export const WAIT_ESTIMATE_DEFAULTS = { window: 50, minSamples: 3, maxClasses: 4096 } as const;

/** Configuration of a {@link WaitEstimator}. */
export interface WaitEstimatorOptions {
  /** Width of a rating band (on the queue's rating scale). */
  readonly bandWidth: number;
  /** Where band 0 starts (default 0): band = floor((rating - origin) / bandWidth). */
  readonly ratingOrigin?: number;
  /** Most recent waits kept per class (default {@link WAIT_ESTIMATE_DEFAULTS}). */
  readonly window?: number;
  /** Waits a class needs before its own estimate is used rather than a coarser one (default {@link WAIT_ESTIMATE_DEFAULTS}). */
  readonly minSamples?: number;
  /** Most classes kept; the least recently fed are forgotten beyond it (default {@link WAIT_ESTIMATE_DEFAULTS}). */
  readonly maxClasses?: number;
}

/** An estimate and the class it came from. */
export interface WaitEstimate {
  /** The median of the class's recent waits (ms). */
  readonly waitMs: number;
  /** How many recent waits it is based on. */
  readonly samples: number;
  /**
   * How specific the class is: `"exact"` (party size, side, zone, rating band), `"zone"` (the
   * band dropped), `"side"` (zone dropped too), `"party"` (only the party size) or `"queue"`.
   */
  readonly basis: WaitBasis;
}

export type WaitBasis = "exact" | "zone" | "side" | "party" | "queue";

const LEVELS: readonly WaitBasis[] = ["exact", "zone", "side", "party", "queue"];

/** A bounded window of waits whose median is computed once per change. */
class ClassWaits {
  private readonly window: RecentWindow;
  private median: number | undefined;

  constructor(capacity: number) {
    this.window = new RecentWindow(capacity);
  }

  push(waitMs: number): void {
    this.window.push(waitMs);
    this.median = undefined;
  }

  get size(): number {
    return this.window.size;
  }

  get medianMs(): number {
    return (this.median ??= this.window.percentile(50));
  }
}

/** Recent waits by ticket class, and estimates from them. */
export class WaitEstimator {
  private readonly classes = new Map<string, ClassWaits>();
  private readonly bandWidth: number;
  private readonly origin: number;
  private readonly capacity: number;
  private readonly minSamples: number;
  private readonly maxClasses: number;

  constructor(options: WaitEstimatorOptions) {
    if (!(options.bandWidth > 0) || !Number.isFinite(options.bandWidth))
      throw new RangeError("WaitEstimator: bandWidth must be a positive number");
    this.bandWidth = options.bandWidth;
    this.origin = options.ratingOrigin ?? 0;
    this.capacity = Math.max(1, Math.floor(options.window ?? WAIT_ESTIMATE_DEFAULTS.window));
    this.minSamples = Math.max(1, Math.floor(options.minSamples ?? WAIT_ESTIMATE_DEFAULTS.minSamples));
    this.maxClasses = Math.max(LEVELS.length, Math.floor(options.maxClasses ?? WAIT_ESTIMATE_DEFAULTS.maxClasses));
  }

  /** The rating band of a ticket (its players' mean rating). */
  band(ticket: Ticket): number {
    return Math.floor((meanRating(ticket) - this.origin) / this.bandWidth);
  }

  /**
   * Record what a matched ticket waited. `zone` is the zone it played in; when omitted, a ticket
   * that accepts exactly one zone counts for that zone and others for no zone.
   */
  record(ticket: Ticket, waitMs: number, zone?: string): void {
    if (!Number.isFinite(waitMs) || waitMs < 0) return;
    const z = zone ?? (ticket.zones?.length === 1 ? ticket.zones[0] : "");
    for (const key of this.keys(ticket, z)) {
      let waits = this.classes.get(key);
      if (waits) {
        this.classes.delete(key); // re-inserted below: the map stays in least-recently-fed order
      } else {
        waits = new ClassWaits(this.capacity);
        if (this.classes.size >= this.maxClasses) this.classes.delete(this.classes.keys().next().value!);
      }
      this.classes.set(key, waits);
      waits.push(waitMs);
    }
  }

  /**
   * The estimated total wait of a ticket like this one: the median recent wait of the most
   * specific class with at least `minSamples` waits (or, if none has that many, of the most
   * specific class with any); undefined before any wait was recorded. A ticket that accepts
   * several zones gets the shortest of its zones' estimates.
   */
  estimate(ticket: Ticket): WaitEstimate | undefined {
    const zones = ticket.zones && ticket.zones.length > 0 ? ticket.zones : [""];
    let best: WaitEstimate | undefined;
    for (const zone of zones) {
      const e = this.estimateIn(ticket, zone);
      if (e && (!best || rank(e) < rank(best) || (rank(e) === rank(best) && e.waitMs < best.waitMs))) best = e;
    }
    return best;
  }

  private estimateIn(ticket: Ticket, zone: string): WaitEstimate | undefined {
    const keys = this.keys(ticket, zone);
    let sparse: WaitEstimate | undefined;
    for (let level = 0; level < keys.length; level++) {
      const waits = this.classes.get(keys[level]);
      if (!waits || waits.size === 0) continue;
      const e: WaitEstimate = { waitMs: waits.medianMs, samples: waits.size, basis: LEVELS[level] };
      if (waits.size >= this.minSamples) return e;
      sparse ??= e;
    }
    return sparse;
  }

  /** The ticket's class keys, most specific first (one per {@link LEVELS} entry). */
  private keys(ticket: Ticket, zone: string): string[] {
    const party = ticket.players.length;
    const side: Side | "any" = ticket.side ?? "any";
    const z = JSON.stringify(zone); // a zone name may hold any character
    return [
      `0|${party}|${side}|${this.band(ticket)}|${z}`,
      `1|${party}|${side}|${z}`,
      `2|${party}|${side}`,
      `3|${party}`,
      "4",
    ];
  }
}

/** The estimate's precision, for choosing between zones (a more specific class wins). */
function rank(e: WaitEstimate): number {
  return LEVELS.indexOf(e.basis);
}
