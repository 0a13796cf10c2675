/**
 * What a simulation run measured: waits (seconds, per human player, every party member
 * counted), game quality, and the papers' cost functions.
 */
import { criterionValue, dimensionsOf, schlupFactors, scaled, type Criterion } from "../core/criteria.js";
import { nearestRank } from "../core/stats.js";
import { hasSides, seatsOf } from "../core/shape.js";
import type { Match, Ticket } from "../core/types.js";
import type { SimulationTrace } from "./simulator.js";

export interface MeasureOptions {
  /**
   * Players per team: optional, and not needed; each game's players come from its own shape
   * (`Match.shape`), whatever the shape.
   */
  readonly teamSize?: number;
  /** Arrivals left out of the statistics (their games too). */
  readonly warmup: number;
  /** Schlup's tau_max in milliseconds; without it there is no Schlup cost. */
  readonly maxWaitMs?: number;
  /** Wu's alpha: cost per player per unit of H-count imbalance (H means rating 1). */
  readonly imbalanceCost?: number;
  /** The rating range scaled to Schlup's criterion [0, 1]. */
  readonly ratingScale: { readonly min: number; readonly max: number };
  /** The queue's criteria beside the rating (Schlup's D > 1): eq. (1) sums over all of them. */
  readonly criteria?: readonly Criterion[];
}

export interface Measures {
  readonly tickets: number;
  readonly players: number;
  readonly games: number;
  readonly bots: number;
  readonly meanWait: number;
  readonly varWait: number;
  readonly p50Wait: number;
  readonly p95Wait: number;
  readonly p99Wait: number;
  /** Mean wait per class: `party:N`, and in games of two teams `side:A`, `side:B`, `side:any`. */
  readonly waitByClass: Readonly<Record<string, number>>;
  /** Mean team imbalance per game; null when no game has teams to compare (a free-for-all). */
  readonly meanImbalance: number | null;
  /** Mean of (highest − lowest human rating) per game: a free-for-all's measure of a game. */
  readonly meanSpread: number;
  /** Eq. (1) of Schlup per game; null without a maximum wait. */
  readonly schlupCostPerGame: number | null;
  /** (total wait + alpha x I x players per game, summed over games) / measured time. */
  readonly wuCostPerTime: number;
  /** Arrivals still waiting when the run ended. */
  readonly unmatched: number;
  /** With latency profiles: the mean latency (ms) of human players to the zone they played in; else null. */
  readonly meanLatency: number | null;
  /**
   * With criteria: the mean dispersion per game of every criterion, the rating's included, each
   * scaled to Schlup's [0, 1] (a bot game counts 1); absent without criteria.
   */
  readonly meanDispersion?: Readonly<Record<string, number>>;
}

/**
 * Schlup's eq. (1) for one game: Σ_d f_d·q_d + Σ τ/τ_max, a bot counting q = 1 and τ = τ_max.
 * k is the game's players (every shape's: two teams of m seat 2m, a free-for-all of k seats k;
 * a game that started short-handed without bots counts the players it has). Without
 * `criteria`, one criterion (the rating) with f = k; with them, every criterion's dispersion on
 * its range scaled to [0, 1], weighted f_d = k·w_d / Σw (see `schlupFactors`).
 */
export function schlupGameCost(
  match: Match,
  tauMax: number,
  scale: { min: number; max: number },
  criteria?: readonly Criterion[],
): number {
  if (criteria && criteria.length > 0) return schlupGameCostD(match, tauMax, scale, criteria);
  const seats = playersIn(match);
  // Ratings are scaled to the criterion's [0, 1] and clamped there (a normal skill model has tails).
  const criterion = (rating: number) => Math.min(1, Math.max(0, (rating - scale.min) / (scale.max - scale.min)));
  let low = Infinity;
  let high = -Infinity;
  let time = match.bots; // each bot waits tau_max by definition
  for (const team of match.teams) {
    for (const p of team.players) {
      if (p.bot) continue;
      time += p.waitMs / 1000 / tauMax;
      low = Math.min(low, criterion(p.rating));
      high = Math.max(high, criterion(p.rating));
    }
  }
  const q = match.bots > 0 ? 1 : high - low;
  return seats * q + time;
}

/** Each dimension's scaled dispersion in `match` (rating first), 1 in a game with bots. */
export function scaledDispersions(
  match: Match,
  scale: { min: number; max: number },
  criteria: readonly Criterion[],
): number[] {
  const dimensions = dimensionsOf(scale, criteria);
  return dimensions.map((dimension) => {
    if (match.bots > 0) return 1;
    let low = Infinity;
    let high = -Infinity;
    for (const team of match.teams) {
      for (const p of team.players) {
        const value = scaled(criterionValue(p, dimension.name) ?? 0, dimension);
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
    }
    return high - low;
  });
}

function schlupGameCostD(
  match: Match,
  tauMax: number,
  scale: { min: number; max: number },
  criteria: readonly Criterion[],
): number {
  const factors = schlupFactors(dimensionsOf(scale, criteria), playersIn(match));
  let cost = match.bots; // each bot waits tau_max by definition
  for (const team of match.teams) for (const p of team.players) if (!p.bot) cost += p.waitMs / 1000 / tauMax;
  scaledDispersions(match, scale, criteria).forEach((q, d) => (cost += factors[d] * q));
  return cost;
}

/** Players in `match`, bots included: its shape's seats less any left empty. */
function playersIn(match: Match): number {
  return seatsOf(match.shape) - (match.emptySeats ?? 0);
}

/** |number of H players (rating 1) on side A − on side B|, Wu's imbalance I (a game of two teams). */
export function wuImbalance(match: Match): number {
  const h = (i: 0 | 1) => match.teams[i].players.filter((p) => !p.bot && p.rating === 1).length;
  return Math.abs(h(0) - h(1));
}

/** Total Schlup cost of every game of a run (for comparison with the offline optimum). */
export function schlupTotalCost(
  matches: readonly Match[],
  tauMax: number,
  scale: { min: number; max: number },
  criteria?: readonly Criterion[],
): number {
  let total = 0;
  for (const m of matches) total += schlupGameCost(m, tauMax, scale, criteria);
  return total;
}

export function measure(trace: SimulationTrace, options: MeasureOptions): Measures {
  const measuredIndex = (t: Ticket) => Number(t.id.slice(1)) >= options.warmup;
  const games = trace.matches.filter((m) => m.tickets.every(measuredIndex));
  const waits: number[] = [];
  const byClass = new Map<string, { sum: number; count: number }>();
  const addClass = (key: string, wait: number) => {
    const c = byClass.get(key) ?? { sum: 0, count: 0 };
    c.sum += wait;
    c.count++;
    byClass.set(key, c);
  };
  let imbalance = 0;
  let imbalanced = 0; // games with teams to compare
  let spread = 0;
  let bots = 0;
  let schlup = 0;
  let wuImbalanceCost = 0;
  let latencySum = 0;
  let latencyCount = 0;
  const criteria = options.criteria && options.criteria.length > 0 ? options.criteria : undefined;
  const dispersionSums = criteria && new Array<number>(criteria.length + 1).fill(0);
  for (const m of games) {
    if (criteria) scaledDispersions(m, options.ratingScale, criteria).forEach((q, d) => (dispersionSums![d] += q));
    if (m.quality.imbalance !== undefined) {
      imbalance += m.quality.imbalance;
      imbalanced++;
    }
    spread += m.quality.spread;
    bots += m.bots;
    // Schlup's cost counts waits in seconds.
    if (options.maxWaitMs !== undefined)
      schlup += schlupGameCost(m, options.maxWaitMs / 1000, options.ratingScale, criteria);
    if (options.imbalanceCost && hasSides(m.shape))
      wuImbalanceCost += options.imbalanceCost * wuImbalance(m) * playersIn(m);
    const sides = hasSides(m.shape);
    for (const t of m.tickets) {
      const wait = (m.createdAt - t.enqueuedAt) / 1000;
      for (let i = 0; i < t.players.length; i++) {
        waits.push(wait);
        addClass(`party:${t.players.length}`, wait);
        if (sides) addClass(`side:${t.side ?? "any"}`, wait);
        if (t.zones) addClass(`zone:${t.zones.join("+")}`, wait);
        const latencies = t.players[i].latencies;
        if (latencies && m.zone !== undefined) {
          addClass(
            `from:${Object.entries(latencies)
              .map(([z, ms]) => `${z}=${ms}`)
              .join("+")}`,
            wait,
          );
          latencySum += latencies[m.zone];
          latencyCount++;
        }
      }
    }
  }
  const sorted = Float64Array.from(waits).sort();
  const mean = waits.reduce((s, w) => s + w, 0) / (waits.length || 1);
  const variance = waits.reduce((s, w) => s + (w - mean) ** 2, 0) / Math.max(1, waits.length - 1);
  const measuredArrivals = trace.arrivals.filter((a) => a.index >= options.warmup);
  const start = measuredArrivals[0]?.time ?? 0;
  const span = Math.max(Number.EPSILON, trace.endTime - start);
  return {
    tickets: games.reduce((s, m) => s + m.tickets.length, 0),
    players: waits.length,
    games: games.length,
    bots,
    meanWait: mean,
    varWait: variance,
    p50Wait: nearestRank(sorted, 50),
    p95Wait: nearestRank(sorted, 95),
    p99Wait: nearestRank(sorted, 99),
    waitByClass: Object.fromEntries([...byClass].sort().map(([k, c]) => [k, c.sum / c.count])),
    meanImbalance: imbalanced > 0 ? imbalance / imbalanced : null,
    meanSpread: spread / (games.length || 1),
    schlupCostPerGame: options.maxWaitMs === undefined ? null : schlup / (games.length || 1),
    wuCostPerTime: (waits.reduce((s, w) => s + w, 0) + wuImbalanceCost) / span,
    unmatched: trace.unmatched.length,
    meanLatency: latencyCount > 0 ? latencySum / latencyCount : null,
    ...(criteria
      ? {
          meanDispersion: Object.fromEntries(
            ["rating", ...criteria.map((c) => c.name)].map((name, d) => [
              name,
              dispersionSums![d] / (games.length || 1),
            ]),
          ),
        }
      : {}),
  };
}
