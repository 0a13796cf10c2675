/**
 * Schlup's offline optimum OPT ("Automatic Game Matching", sections 3 and 5): the cheapest way
 * to play a whole arrival sequence, known in advance, as 1v1 games (k = 2, one criterion).
 *
 * Cost model, eq. (1) with D = 1 and f = k = 2: a game costs f·q + Σ τ(P)/τ_max, where q is the
 * rating spread in the game and τ(P) a player's wait from arrival to the game.
 * - Two players x, y with t_x <= t_y play when y arrives: q = |γ_x - γ_y|, τ(x) = t_y - t_x,
 *   τ(y) = 0, so the game costs 2·|γ_x - γ_y| + (t_y - t_x)/τ_max; it is allowed only when
 *   t_y - t_x <= τ_max.
 * - A player nobody takes in time plays a computer player after waiting τ_max: q = 1 and both
 *   count τ = τ_max, so the game costs 2·1 + 1 + 1 = 4 (`SCHLUP_BOT_GAME_COST`).
 *
 * OPT is then a minimum-cost matching in which every player either pairs up or takes a bot.
 * Pairing x with y instead of giving both a bot saves w(x, y) = 8 - cost(x, y) >= 5 > 0, so
 * OPT = 4·N - (maximum-weight matching with weights w), solved with `maxWeightMatching` on the
 * sparse graph of pairs that arrived within τ_max of each other.
 *
 * A gap longer than τ_max in the sorted arrival times cuts every allowed pair, so the
 * sequence splits there into independent blocks, each solved on its own (exact).
 */
import { maxWeightMatching, type WeightedEdge } from "./matching.js";

/** One player of an offline sequence. */
export interface OfflineArrival {
  /** Arrival time in seconds. */
  readonly time: number;
  /** The player's criterion value (rating), already scaled to [0, 1]. */
  readonly rating: number;
}

/** Cost of a game of one player against a computer player: 2·1 + τ_max/τ_max + τ_max/τ_max. */
export const SCHLUP_BOT_GAME_COST = 4;

/** The offline optimum of an arrival sequence. */
export interface SchlupOptimum {
  /** Total cost of the optimal matching under eq. (1). */
  cost: number;
  /** Number of games: `pairs.length + botGames.length`. */
  games: number;
  /**
   * The player-vs-player games, as indices into the input array, earlier arrival first;
   * listed in the order the games start (the later player's arrival).
   */
  pairs: Array<[number, number]>;
  /** Indices of the players who play a computer player, in arrival order. */
  botGames: number[];
}

/**
 * Schlup's cost of the game between two players, matched when the later of them arrives:
 * 2·|rating_a - rating_b| + |time_a - time_b| / tauMax.
 *
 * @returns the cost, or `Infinity` when they arrived more than `tauMax` apart (such a game is
 *   not allowed: the earlier player gets a bot at τ_max).
 */
export function schlupPairCost(a: OfflineArrival, b: OfflineArrival, tauMax: number): number {
  const wait = Math.abs(b.time - a.time);
  if (wait > tauMax) return Infinity;
  return 2 * Math.abs(a.rating - b.rating) + wait / tauMax;
}

/**
 * The offline optimum OPT of an arrival sequence under Schlup's cost model (k = 2): every
 * player either plays another player who arrived within `tauMax` of them or plays a bot, and
 * the total cost is the least possible.
 *
 * @param arrivals the players, in any order (ties in time are fine).
 * @param tauMax the longest wait, in seconds, before a bot is matched (> 0).
 * @throws RangeError on a non-positive or non-finite `tauMax`, a non-finite time, or a rating
 *   outside [0, 1].
 */
export function schlupOptimum(arrivals: readonly OfflineArrival[], tauMax: number): SchlupOptimum {
  if (typeof tauMax !== "number" || !Number.isFinite(tauMax) || tauMax <= 0) {
    throw new RangeError(`schlupOptimum: tauMax must be a finite number > 0, got ${String(tauMax)}`);
  }
  const count = arrivals.length;
  for (let i = 0; i < count; i++) {
    const a = arrivals[i];
    if (a == null || typeof a.time !== "number" || !Number.isFinite(a.time)) {
      throw new RangeError(`schlupOptimum: arrival ${i} has time ${String(a?.time)}; times must be finite numbers`);
    }
    if (typeof a.rating !== "number" || !(a.rating >= 0 && a.rating <= 1)) {
      throw new RangeError(`schlupOptimum: arrival ${i} has rating ${String(a.rating)}; ratings must lie in [0, 1]`);
    }
  }

  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((x, y) => arrivals[x].time - arrivals[y].time || x - y);

  const pairs: Array<[number, number]> = [];
  const bot = new Uint8Array(count); // by sorted position
  let cost = 0;

  // Blocks: maximal runs of the sorted sequence without a gap longer than tauMax.
  let start = 0;
  while (start < count) {
    let end = start + 1;
    while (end < count && arrivals[order[end]].time - arrivals[order[end - 1]].time <= tauMax) end++;
    cost += solveBlock(arrivals, order, start, end, tauMax, pairs, bot);
    start = end;
  }

  const botGames: number[] = [];
  for (let i = 0; i < count; i++) if (bot[i] === 1) botGames.push(order[i]);
  return { cost, games: pairs.length + botGames.length, pairs, botGames };
}

/**
 * Solves sorted positions start..end-1 (no gap longer than tauMax inside); appends its pairs in
 * game-start order, flags its bot players, and returns its cost.
 */
function solveBlock(
  arrivals: readonly OfflineArrival[],
  order: readonly number[],
  start: number,
  end: number,
  tauMax: number,
  pairs: Array<[number, number]>,
  bot: Uint8Array,
): number {
  const size = end - start;
  if (size === 1) {
    bot[start] = 1;
    return SCHLUP_BOT_GAME_COST;
  }
  // Sweep: pair each player with every later one that arrived within tauMax.
  const edges: WeightedEdge[] = [];
  for (let i = 0; i < size; i++) {
    const a = arrivals[order[start + i]];
    for (let j = i + 1; j < size; j++) {
      const b = arrivals[order[start + j]];
      const c = schlupPairCost(a, b, tauMax);
      if (c === Infinity) break; // sorted: everyone later waited even longer
      edges.push([i, j, 2 * SCHLUP_BOT_GAME_COST - c]);
    }
  }
  const mate = maxWeightMatching(size, edges);

  let cost = 0;
  for (let j = 0; j < size; j++) {
    const i = mate[j];
    if (i === -1) {
      bot[start + j] = 1;
      cost += SCHLUP_BOT_GAME_COST;
    } else if (i < j) {
      const x = order[start + i];
      const y = order[start + j];
      pairs.push([x, y]);
      cost += schlupPairCost(arrivals[x], arrivals[y], tauMax);
    }
  }
  return cost;
}
