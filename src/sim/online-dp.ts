/**
 * The best ONLINE policy on Schlup's setup (1v1, one criterion uniform on [0, 1], Poisson
 * arrivals, bots at tau_max, cost eq. (1)), approximated by dynamic programming: what no online
 * policy can beat, to set beside the offline optimum (`optimum.ts`) and `density-window`.
 *
 * Time is measured in tau_max, so the problem has one parameter, lambda = a·tau_max (arrivals
 * expected within one maximum wait): the cost per arrival of every policy depends on nothing else.
 *
 * The model (an average-cost MDP, solved by relative value iteration):
 * - Time advances in `steps` steps per tau_max (dt = 1 / steps); at most one player arrives in a
 *   step, with probability p = lambda / steps (Bernoulli, so arrivals keep their rate; as steps
 *   grow this tends to the Poisson process), with a rating bin drawn uniformly among `ratingBins`.
 * - The state after each decision is the waiting pool: at most `pool` players, each a rating bin
 *   and an age in steps (0..steps - 1; ages are distinct since at most one player arrives a step).
 * - Each step every waiting player pays dt (Schlup's tau / tau_max), then ages by one step; a
 *   player reaching `steps` is at tau_max and must play now: another player, or a bot for 3 more
 *   (spread 1 for 2, the bot's own full wait; with the player's wait, Schlup's 4).
 * - Then the decision: any set of disjoint pairs of the pool (the new arrival included) plays,
 *   a pair costing 2·E|rating gap| (exact between bins: the centres' distance; within a bin,
 *   a third of its width); no more than `pool` may be left waiting.
 *
 * The solution is optimal for the model. The model tends to the real problem as steps, bins and
 * pool grow (lab/density-window-study.md measures how fast): coarser steps make arrivals more regular
 * than Poisson (cheaper), coarser bins hide where a rating lies within its bin (dearer), a smaller
 * pool forbids waiting with many (dearer). The policy it defines (`onlineDpPolicy`) knows the
 * rate and the rating law, which `density-window` has to measure.
 */
import type { Policy, PolicyContext, PolicyDefinition } from "../core/policy.js";
import type { Ticket } from "../core/types.js";

/** The discretisation of the model. */
export interface OnlineDpOptions {
  /** Arrivals expected within one tau_max (a·tau_max), > 0. */
  readonly lambda: number;
  /** Rating bins on [0, 1] (2..64). */
  readonly ratingBins: number;
  /** Steps per tau_max (> lambda, so that p = lambda / steps < 1; at most 120). */
  readonly steps: number;
  /** Most players left waiting after a decision (1..4). */
  readonly pool: number;
  /** Stop when the span of one iteration's change is below this (default 5e-6). */
  readonly tolerance?: number;
  /** Stop after this many iterations anyway (default 5000). */
  readonly maxIterations?: number;
}

/** The solved model. */
export interface OnlineDpSolution {
  readonly options: OnlineDpOptions;
  /** The optimal long-run cost per arriving player (eq. (1) units), in the model. */
  readonly costPerArrival: number;
  /** The optimal long-run cost per step. */
  readonly costPerStep: number;
  readonly iterations: number;
  /** The last iteration's span of change (an error bound on costPerStep). */
  readonly span: number;
  /** Relative value of each post-decision pool (see `poolValue`). */
  readonly values: Float32Array;
  /** Number of pools of each size before it: the index of the first pool of size n. */
  readonly offsets: readonly number[];
}

/** Binomial coefficients up to n = 120, k = 6. */
const BINOM: number[][] = (() => {
  const t: number[][] = [];
  for (let n = 0; n <= 121; n++) {
    t.push([]);
    for (let k = 0; k <= 6; k++) t[n].push(k === 0 ? 1 : n === 0 ? 0 : t[n - 1][k - 1] + t[n - 1][k]);
  }
  return t;
})();

/** Every partial matching of m players (m <= 6), as a flat list of pairs per matching. */
function matchings(m: number): number[][] {
  const out: number[][] = [];
  const used = new Array<boolean>(m).fill(false);
  const walk = (from: number, pairs: number[]) => {
    out.push(pairs.slice());
    for (let i = from; i < m; i++) {
      if (used[i]) continue;
      used[i] = true;
      for (let j = i + 1; j < m; j++) {
        if (used[j]) continue;
        used[j] = true;
        pairs.push(i, j);
        walk(i + 1, pairs);
        pairs.length -= 2;
        used[j] = false;
      }
      used[i] = false;
    }
  };
  walk(0, []);
  return out;
}

/** {@link matchings} of up to 6 players, each listed once (the policy asks at every poll). */
const MATCHINGS: readonly (readonly number[][])[] = Array.from({ length: 7 }, (_, m) => matchings(m));

function validate(o: OnlineDpOptions): void {
  const whole = (x: number, lo: number, hi: number) => Number.isInteger(x) && x >= lo && x <= hi;
  if (!(Number.isFinite(o.lambda) && o.lambda > 0))
    throw new RangeError(`online DP: lambda must be > 0, got ${o.lambda}`);
  if (!whole(o.ratingBins, 2, 64)) throw new RangeError(`online DP: ratingBins must be a whole number in 2..64`);
  if (!whole(o.steps, 2, 120) || o.lambda / o.steps >= 1)
    throw new RangeError(`online DP: steps must be a whole number in 2..120 above lambda (${o.lambda})`);
  if (!whole(o.pool, 1, 4)) throw new RangeError(`online DP: pool must be a whole number in 1..4`);
}

/** First index of the pools of each size 0..pool, and the total, for the options' sizes. */
function poolOffsets(steps: number, bins: number, pool: number): number[] {
  const offsets = [0];
  for (let n = 1; n <= pool + 1; n++) offsets.push(offsets[n - 1] + BINOM[steps][n - 1] * bins ** (n - 1));
  return offsets;
}

/**
 * Index of a pool in `values`: `ages` strictly ascending in 0..steps - 1, `bins` the players' bins
 * in the same order.
 */
function poolIndex(
  offsets: readonly number[],
  bins: number,
  n: number,
  ages: ArrayLike<number>,
  ratingBins: ArrayLike<number>,
): number {
  let subset = 0;
  let digits = 0;
  let power = 1;
  for (let i = 0; i < n; i++) {
    subset += BINOM[ages[i]][i + 1];
    digits += ratingBins[i] * power;
    power *= bins;
  }
  return offsets[n] + subset * power + digits;
}

/** Solve the model by relative value iteration. Time and memory grow as steps^pool · ratingBins^pool. */
export function solveOnlineDp(options: OnlineDpOptions): OnlineDpSolution {
  validate(options);
  const { lambda, ratingBins: R, steps: K, pool: N } = options;
  const tolerance = options.tolerance ?? 5e-6;
  const maxIterations = options.maxIterations ?? 5000;
  const p = lambda / K;
  const offsets = poolOffsets(K, R, N);
  const size = offsets[N + 1];
  const pairCost = new Float64Array(R * R);
  for (let i = 0; i < R; i++)
    for (let j = 0; j < R; j++) pairCost[i * R + j] = i === j ? 2 / (3 * R) : (2 * Math.abs(i - j)) / R;
  let values = new Float32Array(size);
  let next = new Float32Array(size);
  const age = new Int32Array(N + 2);
  const bin = new Int32Array(N + 2);
  const qa = new Int32Array(N + 2);
  const qb = new Int32Array(N + 2);
  let costPerStep = 0;
  let span = Infinity;
  let iterations: number;

  // Every partial matching of m players, flattened: matching t's pairs are pairs[start[t]..start[t + 1]).
  const plans = Array.from({ length: N + 2 }, (_, m) => {
    const list = MATCHINGS[m];
    const start = new Int32Array(list.length + 1);
    list.forEach((pairs, t) => (start[t + 1] = start[t] + pairs.length));
    const used = new Int32Array(list.map((pairs) => pairs.reduce((mask, i) => mask | (1 << i), 0)));
    return { count: list.length, start, pairs: Int32Array.from(list.flat()), used };
  });
  const binom = new Float64Array(122 * 7);
  for (let n = 0; n <= 121; n++) for (let k = 0; k <= 6; k++) binom[n * 7 + k] = BINOM[n][k];

  // The cheapest decision on the pre-decision pool qa/qb (m players, `due` at tau_max or -1).
  const decide = (m: number, due: number, v: Float32Array): number => {
    let best = Infinity;
    const plan = plans[m];
    for (let t = 0; t < plan.count; t++) {
      const used = plan.used[t];
      let cost = due >= 0 && !((used >> due) & 1) ? 3 : 0;
      for (let k = plan.start[t]; k < plan.start[t + 1]; k += 2)
        cost += pairCost[qb[plan.pairs[k]] * R + qb[plan.pairs[k + 1]]];
      // The pool left waiting, indexed as in poolIndex (ages ascending as qa is).
      let left = 0;
      let subset = 0;
      let digits = 0;
      let power = 1;
      for (let i = 0; i < m; i++) {
        if ((used >> i) & 1 || i === due) continue;
        left++;
        subset += binom[qa[i] * 7 + left];
        digits += qb[i] * power;
        power *= R;
      }
      if (left > N) continue;
      cost += v[offsets[left] + subset * power + digits];
      if (cost < best) best = cost;
    }
    return best;
  };

  for (iterations = 1; iterations <= maxIterations; iterations++) {
    let high = -Infinity;
    let low = Infinity;
    for (let n = 0; n <= N; n++) {
      const power = R ** n;
      for (let s = offsets[n]; s < offsets[n + 1]; s++) {
        // Decode: bins as base-R digits, ages from the combinatorial number system.
        let rest = s - offsets[n];
        let subset = Math.floor(rest / power);
        rest -= subset * power;
        for (let i = 0; i < n; i++) {
          bin[i] = rest % R;
          rest = (rest - bin[i]) / R;
        }
        for (let i = n; i >= 1; i--) {
          let c = i - 1;
          while (BINOM[c + 1][i] <= subset) c++;
          age[i - 1] = c;
          subset -= BINOM[c][i];
        }
        // One step: everyone waits dt and ages; then nobody arrives, or one player in each bin.
        let due = -1;
        for (let i = 0; i < n; i++) {
          qa[i] = age[i] + 1;
          qb[i] = bin[i];
          if (qa[i] === K) due = i;
        }
        let expected = (1 - p) * decide(n, due, values);
        for (let i = n; i > 0; i--) {
          qa[i] = qa[i - 1];
          qb[i] = qb[i - 1];
        }
        qa[0] = 0;
        let arrivals = 0;
        for (let b = 0; b < R; b++) {
          qb[0] = b;
          arrivals += decide(n + 1, due < 0 ? -1 : due + 1, values);
        }
        expected += (p / R) * arrivals;
        const updated = n / K + expected;
        next[s] = updated;
        const change = updated - values[s];
        if (change > high) high = change;
        if (change < low) low = change;
      }
    }
    costPerStep = next[0] - values[0];
    const reference = next[0];
    for (let s = 0; s < size; s++) next[s] -= reference;
    [values, next] = [next, values];
    span = high - low;
    if (iterations > K && span < tolerance) break;
  }
  return {
    options,
    costPerArrival: costPerStep / p,
    costPerStep,
    iterations: Math.min(iterations, maxIterations),
    span,
    values,
    offsets,
  };
}

/**
 * The relative value of a waiting pool (lower is better): `ages` strictly ascending in steps
 * (0..steps - 1), `bins` the players' rating bins in the same order, at most `pool` players.
 */
export function poolValue(solution: OnlineDpSolution, ages: readonly number[], bins: readonly number[]): number {
  return solution.values[poolIndex(solution.offsets, solution.options.ratingBins, ages.length, ages, bins)];
}

interface Waiting {
  readonly ticket: Ticket;
  readonly rating: number;
}

/**
 * The model's policy on a real queue (1v1, ratings on [0, 1], the queue's maxWaitMs as tau_max):
 * at each arrival, every dt and just before each player's tau_max, the set of pairs to form now
 * that minimises their spread cost (exact ratings), plus 3 for a player at tau_max left to a bot,
 * plus the value of the pool left waiting (ages rounded to steps, made distinct; ratings to bins).
 */
export class OnlineDpPolicy implements Policy {
  readonly name = "online-dp";
  private pool: Waiting[] = [];
  private readonly tauMs: number;
  private readonly stepMs: number;

  constructor(
    context: PolicyContext,
    private readonly solution: OnlineDpSolution,
  ) {
    if (context.maxWaitMs === undefined || context.teamSize !== 1)
      throw new RangeError("online-dp: a 1v1 queue with a maximum wait only");
    this.tauMs = context.maxWaitMs;
    this.stepMs = this.tauMs / solution.options.steps;
  }

  add(ticket: Ticket): void {
    this.pool.push({ ticket, rating: ticket.players[0].rating });
  }

  remove(ticketId: string): void {
    this.pool = this.pool.filter((w) => w.ticket.id !== ticketId);
  }

  nextWakeup(now: number): number | undefined {
    if (this.pool.length === 0) return undefined;
    let next = now + this.stepMs;
    for (const w of this.pool) {
      const last = w.ticket.enqueuedAt + this.tauMs - 1;
      if (last > now) next = Math.min(next, last);
    }
    return next;
  }

  poll(now: number): Ticket[][] {
    const pool = this.pool;
    // Within 2 ms of tau_max: play now or take the bot.
    const due = pool.map((w) => w.ticket.enqueuedAt + this.tauMs - now <= 2);
    let best = Infinity;
    let bestPairs: readonly number[] = [];
    for (const pairs of MATCHINGS[Math.min(pool.length, 6)]) {
      const used = new Set(pairs);
      let cost = 0;
      for (let k = 0; k < pairs.length; k += 2) cost += 2 * Math.abs(pool[pairs[k]].rating - pool[pairs[k + 1]].rating);
      const left: Waiting[] = [];
      pool.forEach((w, i) => {
        if (used.has(i)) return;
        if (due[i]) cost += 3;
        else left.push(w);
      });
      cost += this.leftValue(left, now);
      if (cost < best) {
        best = cost;
        bestPairs = pairs;
      }
    }
    const games: Ticket[][] = [];
    for (let k = 0; k < bestPairs.length; k += 2)
      games.push([pool[bestPairs[k]].ticket, pool[bestPairs[k + 1]].ticket]);
    const gone = new Set(bestPairs);
    this.pool = pool.filter((_, i) => !gone.has(i));
    return games;
  }

  /** The model's value of the players left waiting (Infinity: more than the model's pool). */
  private leftValue(left: readonly Waiting[], now: number): number {
    const { steps: K, ratingBins: R, pool: N } = this.solution.options;
    if (left.length > N) return Infinity;
    const players = left
      .map((w) => ({ age: now - w.ticket.enqueuedAt, bin: Math.min(R - 1, Math.floor(w.rating * R)) }))
      .sort((x, y) => x.age - y.age);
    const ages = players.map((x) => Math.min(K - 1, Math.max(0, Math.round(x.age / this.stepMs))));
    // Distinct and within 0..K - 1: push ties up, then back down from the top.
    for (let i = 1; i < ages.length; i++) ages[i] = Math.max(ages[i], ages[i - 1] + 1);
    for (let i = ages.length - 1; i >= 0; i--) ages[i] = Math.min(ages[i], K - (ages.length - i));
    return poolValue(
      this.solution,
      ages,
      players.map((x) => x.bin),
    );
  }
}

/** The model's policy as a registrable definition (name `online-dp`; it takes no parameters). */
export function onlineDpPolicy(solution: OnlineDpSolution): PolicyDefinition {
  return {
    name: "online-dp",
    summary: "Schlup's 1v1 setup: the online optimum of a discretised model, solved by dynamic programming.",
    create: (context) => new OnlineDpPolicy(context, solution),
  };
}
