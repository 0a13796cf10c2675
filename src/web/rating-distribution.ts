/**
 * A ranked queue's rating distribution as the dashboard draws it: `/dashboard/ratings.json`. The
 * request says the queue and a bin width, both checked here; the answer is bounded in both: the
 * width within limits, and never more than `maxBins` bands from the lowest rating to the highest
 * (wider bands when the ratings spread further than that).
 */
import { MatchmakerError } from "../core/errors.js";
import type { Ratings } from "../ratings/ratings.js";
import type { RatingBin } from "../ratings/store.js";

/** The limits of a distribution request (rating points) and of its answer (bins). */
export const DISTRIBUTION_LIMITS = { defaultWidth: 50, minWidth: 10, maxWidth: 1000, maxBins: 100 } as const;

/** What `/dashboard/ratings.json?queue=NAME&width=W` answers. */
export interface RatingDistribution {
  readonly queue: string;
  /** The season the ratings are of (the current one). */
  readonly season: string;
  /** The bins' width: the one asked for, or a multiple of it when that made too many bins. */
  readonly width: number;
  /** Rated players this season. */
  readonly players: number;
  /** Players by rating band `[from, from + width)`, lowest first; empty bands left out. */
  readonly bins: readonly RatingBin[];
}

/** The bin width a request asks for: an integer within the limits, or the default when absent. */
export function parseBinWidth(value: string | null): number {
  if (value === null || value === "") return DISTRIBUTION_LIMITS.defaultWidth;
  const width = Number(value);
  const { minWidth, maxWidth } = DISTRIBUTION_LIMITS;
  if (!Number.isInteger(width) || width < minWidth || width > maxWidth)
    throw new MatchmakerError(
      "invalid_request",
      `width: must be a whole number from ${minWidth} to ${maxWidth}`,
      "width",
    );
  return width;
}

/**
 * `bins` (of `width`, starting at multiples of it, lowest first) merged into bands of the smallest
 * multiple of `width` that spans the lowest to the highest in at most `maxBins` bands, so both the
 * answer and the histogram drawn from it (every band, empty ones too) are bounded. Players are
 * neither lost nor moved across a band's edge: each new band is a run of whole old ones.
 */
export function boundBins(
  bins: readonly RatingBin[],
  width: number,
  maxBins: number,
): { width: number; bins: RatingBin[] } {
  if (bins.length === 0) return { width, bins: [] };
  const lowest = bins[0]!.from;
  const highest = bins[bins.length - 1]!.from;
  const bands = (w: number) => Math.floor(highest / w) - Math.floor(lowest / w) + 1;
  // About the span over the new width; aligning the bands to multiples of it may add one, hence the search upwards.
  let factor = Math.max(1, Math.ceil((highest - lowest + width) / (maxBins * width)));
  while (bands(width * factor) > maxBins) factor++;
  return factor === 1 ? { width, bins: [...bins] } : { width: width * factor, bins: mergeBins(bins, width * factor) };
}

function mergeBins(bins: readonly RatingBin[], width: number): RatingBin[] {
  const merged: RatingBin[] = [];
  for (const bin of bins) {
    const from = Math.floor(bin.from / width) * width;
    const last = merged[merged.length - 1];
    if (last?.from === from) merged[merged.length - 1] = { from, count: last.count + bin.count };
    else merged.push({ from, count: bin.count });
  }
  return merged;
}

/** The current season's distribution of `ratings`, in bins of `width`, bounded. */
export async function ratingDistribution(
  queue: string,
  ratings: Pick<Ratings, "currentSeason" | "distribution">,
  width: number,
): Promise<RatingDistribution> {
  const season = await ratings.currentSeason();
  const bounded = boundBins(await ratings.distribution({ width, season }), width, DISTRIBUTION_LIMITS.maxBins);
  const players = bounded.bins.reduce((sum, bin) => sum + bin.count, 0);
  return { queue, season, width: bounded.width, players, bins: bounded.bins };
}
