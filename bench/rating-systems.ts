/**
 * The rating system the queue updates, against the alternative the issue names: openskill
 * (Weng-Lin, Plackett-Luce, through `openskillSystem` and `rateGame`, main's scale 1500 ± 500,
 * beta 250, tau 5) beside the `glicko2` package (1.2.2), on players whose true skill is known.
 *
 *     npx tsx bench/rating-systems.ts [--seed N]     (under a minute; lab/rating-systems.md holds runs)
 *
 * The world (Thurstone): true skills ~ N(1500, 300); in a game each player performs at
 * N(skill, 250²), a team at the sum of its players, and places follow performance. A season of
 * ESTABLISHED (800) players plays WARMUP (100) rounds from 1500, then NEWCOMERS (400) join at 1500 and everyone
 * plays ROUNDS (60) more; each round, everyone is sorted by rating plus N(0, 100²) noise (random-ish pairing
 * of near ratings) and dealt into consecutive games: 1v1, 2v2 (sorted four a b c d as a+d against
 * b+c) or a four-player free-for-all.
 *
 * Glicko-2 has no teams and rates in periods. A matchmaker rates every game as it ends, so here a
 * period is one game and only its players are updated (their deviation grows by the volatility at
 * each of their games, not with time). 2v2: each player against one composite opponent, the other
 * team's mean rating with the root mean square of its deviations. Free-for-all: the package's
 * pairwise decomposition (`makeRace`: each pair of players is a win or a draw, all in one period).
 * Its scale is fixed by its logistic (173.7 points per logit); it is read on the world's scale
 * through the factor k at which its logistic best matches the world's normal (logistic(1.702·x)
 * ≈ Φ(x)): 0.836 for a pair of players (1v1 and the free-for-all's pairs), 1.183 for a player
 * against a composite in 2v2. The ratings are shown and paired on that scale; the scale fit column
 * says how far each system's ratings actually lie on the world's scale.
 *
 * Measures, per system and game shape:
 * - settle (median, p90): games until a newcomer's rating is within 100 of its skill and stays
 *   there for 5 games running ("—" past the run);
 * - |r − s| after 10, 25, 50 games: mean over the newcomers;
 * - log-loss and Brier of the pre-game win prediction over every game of the newcomers' rounds,
 *   scored against the world's true win probability (their expectations, free of the draw), and
 *   the oracle's (the true probabilities themselves) on the same games: the excess is what the
 *   ratings lose (the excess column); free-for-all: who finishes first (each system's pairwise predictions combined
 *   as openskill's `predictWin` does), and the six pairs' orders;
 * - µs per game: one game's rating update, as the queue would call it;
 * - scale fit: the least-squares slope of (rating − 1500) on (skill − 1500) over the established
 *   players at the end (1 is the world's scale).
 */
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { nearestRank } from "../src/core/stats.js";
import {
  DEFAULT_SCALE,
  openskillSystem,
  rateGame,
  type RatingScale,
  type RatingSystem,
} from "../src/ratings/rating-system.js";
import type { Rating } from "../src/ratings/types.js";
import { Random } from "../src/sim/random.js";

const { values: args } = parseArgs({ options: { seed: { type: "string" } } });
const SEED = Number(args.seed ?? 36);
const MEAN = 1500;
const SKILL_SD = 300;
const PERFORMANCE_SD = 250;
const PAIRING_NOISE = 100;
const ESTABLISHED = 800;
const WARMUP = 100;
const NEWCOMERS = 400;
const ROUNDS = 60;
const BAND = 100;
const SETTLED_FOR = 5;
const AFTER = [10, 25, 50] as const;

/** The shape of every game in a run. */
interface Shape {
  readonly name: string;
  readonly teams: number;
  readonly teamSize: number;
}
const SHAPES: readonly Shape[] = [
  { name: "1v1", teams: 2, teamSize: 1 },
  { name: "2v2", teams: 2, teamSize: 2 },
  { name: "4-player free-for-all", teams: 4, teamSize: 1 },
];

/** A rating system as the bench drives it: opaque state, read on the world's scale. */
interface Rater<S> {
  readonly name: string;
  newcomer(): S;
  /** The rating on the world's scale. */
  estimate(state: S, shape: Shape): number;
  /** The states after a game whose team `i` took place `ranks[i]` (0 first). */
  rate(teams: readonly S[][], ranks: readonly number[]): S[][];
  /** Each team's chance of finishing first. */
  predictWin(teams: readonly S[][]): number[];
}

// ---- openskill, as the queue calls it -------------------------------------------------------

function openskillRater(label: string, scale: Partial<RatingScale> & { defaultGamma?: boolean } = {}): Rater<Rating> {
  const { defaultGamma, ...given } = scale;
  const system = defaultGamma ? openskillAtDefaultGamma(given) : openskillSystem(given);
  return {
    name: label,
    newcomer: () => system.newcomer,
    estimate: (r) => r.mu,
    rate: (teams, ranks) =>
      rateGame(
        system,
        teams.map((team) => team.map((rating) => ({ rating }))),
        ranks,
      ),
    predictWin: (teams) => system.predictWin(teams),
  };
}

/** openskill as first configured: its default gamma (sigma / c), which the queue no longer uses. */
function openskillAtDefaultGamma(scale: Partial<RatingScale>): RatingSystem {
  const full = { ...DEFAULT_SCALE, ...scale };
  const openskill = createRequire(import.meta.url)("openskill") as {
    rate(teams: Rating[][], options: Record<string, unknown>): Rating[][];
    predictWin(teams: Rating[][], options: Record<string, unknown>): number[];
  };
  const options = { mu: full.start, sigma: full.uncertainty, beta: full.performanceNoise, tau: full.drift };
  const copy = (teams: ReadonlyArray<readonly Rating[]>) => teams.map((team) => team.map((r) => ({ ...r })));
  return {
    scale: full,
    newcomer: { mu: full.start, sigma: full.uncertainty },
    rate: (teams, ranks) => openskill.rate(copy(teams), { ...options, rank: [...ranks] }),
    predictWin: (teams) => openskill.predictWin(copy(teams), options),
  };
}

// ---- glicko2, per game ----------------------------------------------------------------------

interface GlickoPlayer {
  getRating(): number;
  getRd(): number;
  getVol(): number;
  predict(other: GlickoPlayer): number;
}
interface GlickoRanking {
  makePlayer(rating: number, rd: number, vol: number): GlickoPlayer;
  makeRace(places: GlickoPlayer[][]): unknown;
  updateRatings(matches: unknown): void;
}
interface GlickoModule {
  Glicko2: new (settings: { tau: number; rating: number; rd: number; vol: number }) => GlickoRanking;
}
// No type declarations ship with glicko2; this is the part of its API the bench uses.
const glicko2 = createRequire(import.meta.url)("glicko2") as GlickoModule;

interface GlickoState {
  readonly rating: number;
  readonly rd: number;
  readonly vol: number;
}

/** Glicko's logistic scale against the world's normal, per kind of comparison (see the header). */
const LOGIT_POINTS = 173.7178;
const pairFactor = (1.702 * LOGIT_POINTS) / (PERFORMANCE_SD * Math.SQRT2);
const compositeFactor = (1.702 * LOGIT_POINTS) / PERFORMANCE_SD;
const glickoFactor = (shape: Shape) => (shape.teamSize > 1 ? compositeFactor : pairFactor);

function glickoRater(label: string, settings: { tau: number; rd: number; vol: number }): Rater<GlickoState> {
  const ranking = () => new glicko2.Glicko2({ ...settings, rating: MEAN });
  const read = (p: GlickoPlayer): GlickoState => ({ rating: p.getRating(), rd: p.getRd(), vol: p.getVol() });
  const composite = (r: GlickoRanking, team: readonly GlickoState[]) =>
    r.makePlayer(
      team.reduce((s, p) => s + p.rating, 0) / team.length,
      Math.sqrt(team.reduce((s, p) => s + p.rd * p.rd, 0) / team.length),
      settings.vol,
    );
  return {
    name: label,
    newcomer: () => ({ rating: MEAN, rd: settings.rd, vol: settings.vol }),
    estimate: (s, shape) => MEAN + (s.rating - MEAN) / glickoFactor(shape),
    rate(teams, ranks) {
      const r = ranking();
      const players = teams.map((team) => team.map((s) => r.makePlayer(s.rating, s.rd, s.vol)));
      if (teams.every((team) => team.length === 1)) {
        const places = [...new Set(ranks)].sort((a, b) => a - b);
        r.updateRatings(r.makeRace(places.map((place) => players.filter((_, t) => ranks[t] === place).flat())));
      } else {
        if (teams.length !== 2) throw new RangeError("glicko2 teams: two teams only");
        const opponents = [composite(r, teams[1]), composite(r, teams[0])];
        const score = ranks[0] < ranks[1] ? 1 : ranks[0] > ranks[1] ? 0 : 0.5;
        const matches = players.flatMap((team, t) => team.map((p) => [p, opponents[t], t === 0 ? score : 1 - score]));
        r.updateRatings(matches);
      }
      return players.map((team) => team.map(read));
    },
    predictWin(teams) {
      const r = ranking();
      const sides = teams.map((team) =>
        team.length === 1 ? r.makePlayer(team[0].rating, team[0].rd, team[0].vol) : composite(r, team),
      );
      return combinePairwise(sides.length, (i, j) => sides[i].predict(sides[j]));
    },
  };
}

/** Each side's share of its pairwise win chances, as openskill's `predictWin` combines them. */
function combinePairwise(n: number, beats: (i: number, j: number) => number): number[] {
  const wins = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const p = beats(i, j);
      wins[i] += p;
      wins[j] += 1 - p;
    }
  return wins.map((w) => w / ((n * (n - 1)) / 2));
}

// ---- the world --------------------------------------------------------------------------------

/** Standard normal CDF (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7). */
function phi(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = poly * Math.exp(-z * z);
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** The true chance that team A (skill sum) beats team B, each player performing at N(skill, 250²). */
function trueBeats(sumA: number, sumB: number, players: number): number {
  return phi((sumA - sumB) / (PERFORMANCE_SD * Math.sqrt(players)));
}

/** The true chance of each single player finishing first: ∫ φ(z) Π_j Φ((s_i − s_j)/σ + z) dz (Simpson). */
function trueFirst(skills: readonly number[]): number[] {
  const steps = 48;
  const h = 16 / steps;
  return skills.map((si, i) => {
    let sum = 0;
    for (let k = 0; k <= steps; k++) {
      const z = -8 + k * h;
      let f = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
      for (let j = 0; j < skills.length; j++) if (j !== i) f *= phi((si - skills[j]) / PERFORMANCE_SD + z);
      sum += f * (k === 0 || k === steps ? 1 : k % 2 === 1 ? 4 : 2);
    }
    return (sum * h) / 3;
  });
}

/** Expected log-loss and Brier of predicting `q` for outcomes that happen with probabilities `p`. */
function score(p: readonly number[], q: readonly number[]): { logLoss: number; brier: number } {
  let logLoss = 0;
  let brier = 0;
  for (let i = 0; i < p.length; i++) {
    const qi = Math.min(1 - 1e-12, Math.max(1e-12, q[i]));
    logLoss -= p[i] * Math.log(qi);
    brier += (qi - p[i]) ** 2 + p[i] * (1 - p[i]);
  }
  // Two teams: one binary outcome (A wins), not two.
  return p.length === 2 ? { logLoss, brier: brier / 2 } : { logLoss, brier };
}

class Tally {
  private sum = 0;
  private n = 0;
  add(x: number): void {
    this.sum += x;
    this.n++;
  }
  get mean(): number {
    return this.n === 0 ? NaN : this.sum / this.n;
  }
}

interface Member<S> {
  readonly skill: number;
  state: S;
  /** |rating − skill| after each of its games (index 0: before any), for newcomers. */
  readonly errors?: number[];
}

interface Result {
  readonly system: string;
  readonly shape: string;
  readonly settleMedian: number;
  readonly settleP90: number;
  readonly errorAfter: readonly number[];
  readonly logLoss: number;
  readonly brier: number;
  readonly oracleLogLoss: number;
  readonly oracleBrier: number;
  readonly pairLogLoss?: number;
  readonly oraclePairLogLoss?: number;
  readonly microsPerGame: number;
  readonly scaleFit: number;
}

function run<S>(rater: Rater<S>, shape: Shape): Result {
  const world = new Random(SEED);
  const dice = new Random(SEED + 1);
  const join = (newcomer: boolean): Member<S> => {
    const skill = MEAN + SKILL_SD * world.normal();
    const state = rater.newcomer();
    return newcomer ? { skill, state, errors: [Math.abs(rater.estimate(state, shape) - skill)] } : { skill, state };
  };
  const established = Array.from({ length: ESTABLISHED }, () => join(false));
  const newcomers = Array.from({ length: NEWCOMERS }, () => join(true));
  const seats = shape.teams * shape.teamSize;
  const [prediction, oracle, pairPrediction, oraclePair] = [new Tally(), new Tally(), new Tally(), new Tally()];
  const brier = new Tally();
  const oracleBrier = new Tally();
  let updateMs = 0;
  let updates = 0;

  const round = (everyone: Member<S>[], measured: boolean) => {
    const order = everyone
      .map((m) => ({ m, key: rater.estimate(m.state, shape) + PAIRING_NOISE * dice.normal() }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.m);
    for (let g = 0; g + seats <= order.length; g += seats) {
      const group = order.slice(g, g + seats);
      const teams: Member<S>[][] =
        shape.teamSize === 1
          ? group.map((m) => [m])
          : [
              [group[0], group[3]],
              [group[1], group[2]],
            ];
      const sums = teams.map((team) => team.reduce((s, m) => s + m.skill, 0));
      const states = teams.map((team) => team.map((m) => m.state));
      if (measured) {
        const truth = shape.teams === 2 ? [trueBeats(sums[0], sums[1], seats)] : trueFirst(sums);
        const p = truth.length === 1 ? [truth[0], 1 - truth[0]] : truth;
        const q = rater.predictWin(states);
        const s = score(p, q);
        const best = score(p, p);
        prediction.add(s.logLoss);
        brier.add(s.brier);
        oracle.add(best.logLoss);
        oracleBrier.add(best.brier);
        if (shape.teams > 2)
          for (let i = 0; i < shape.teams; i++)
            for (let j = i + 1; j < shape.teams; j++) {
              const pij = trueBeats(sums[i], sums[j], 2);
              const [qij] = rater.predictWin([states[i], states[j]]);
              pairPrediction.add(score([pij, 1 - pij], [qij, 1 - qij]).logLoss);
              oraclePair.add(score([pij, 1 - pij], [pij, 1 - pij]).logLoss);
            }
      }
      const performances = teams.map((team) => team.reduce((s, m) => s + m.skill + PERFORMANCE_SD * dice.normal(), 0));
      const byPerformance = [...performances.keys()].sort((a, b) => performances[b] - performances[a]);
      const ranks = new Array<number>(teams.length);
      byPerformance.forEach((t, place) => (ranks[t] = place));
      const start = performance.now();
      const after = rater.rate(states, ranks);
      updateMs += performance.now() - start;
      updates++;
      teams.forEach((team, t) =>
        team.forEach((m, i) => {
          m.state = after[t][i];
          m.errors?.push(Math.abs(rater.estimate(m.state, shape) - m.skill));
        }),
      );
    }
  };

  for (let r = 0; r < WARMUP; r++) round(established, false);
  const everyone = [...established, ...newcomers];
  for (let r = 0; r < ROUNDS; r++) round(everyone, true);

  const settle = newcomers
    .map(({ errors = [] }) => {
      for (let n = 0; n + SETTLED_FOR <= errors.length; n++)
        if (errors.slice(n, n + SETTLED_FOR).every((e) => e <= BAND)) return n;
      return Infinity;
    })
    .sort((a, b) => a - b);
  const errorAfter = AFTER.map((n) => newcomers.reduce((s, m) => s + (m.errors?.[n] ?? NaN), 0) / newcomers.length);
  let sxy = 0;
  let sxx = 0;
  for (const m of established) {
    sxy += (m.skill - MEAN) * (rater.estimate(m.state, shape) - MEAN);
    sxx += (m.skill - MEAN) ** 2;
  }
  return {
    system: rater.name,
    shape: shape.name,
    settleMedian: nearestRank(settle, 50),
    settleP90: nearestRank(settle, 90),
    errorAfter,
    logLoss: prediction.mean,
    brier: brier.mean,
    oracleLogLoss: oracle.mean,
    oracleBrier: oracleBrier.mean,
    ...(shape.teams > 2 ? { pairLogLoss: pairPrediction.mean, oraclePairLogLoss: oraclePair.mean } : {}),
    microsPerGame: (updateMs * 1000) / updates,
    scaleFit: sxy / sxx,
  };
}

// ---- the runs ---------------------------------------------------------------------------------

const raters: Array<(shape: Shape) => Rater<unknown>> = [
  () => openskillRater("openskill 5.0.1 (main: 1500 ± 350, β 175, τ 3.5, γ = 1)") as Rater<unknown>,
  // The first scale tried, at openskill's default gamma (sigma / c): its uncertainty shrinks slowly.
  () =>
    openskillRater("openskill 5.0.1 (1500 ± 500, β 250, τ 5, default γ)", {
      uncertainty: 500,
      performanceNoise: 250,
      drift: 5,
      defaultGamma: true,
    }) as Rater<unknown>,
  () =>
    glickoRater("glicko2 1.2.2 (its README: rd 350, vol 0.06, τ 0.5)", {
      rd: 350,
      vol: 0.06,
      tau: 0.5,
    }) as Rater<unknown>,
];

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : "—");
const began = performance.now();
console.log(
  `seed ${SEED}; skills N(${MEAN}, ${SKILL_SD}²), performance N(skill, ${PERFORMANCE_SD}²); ` +
    `${ESTABLISHED} established players, ${WARMUP} rounds; then ${NEWCOMERS} newcomers, ${ROUNDS} rounds; ` +
    `pairing noise ${PAIRING_NOISE}; glicko2 k = ${pairFactor.toFixed(3)} (pairs), ${compositeFactor.toFixed(3)} (2v2 composite)`,
);
for (const shape of SHAPES) {
  const results = raters.map((make) => run(make(shape), shape));
  const pairs = shape.teams > 2;
  console.log(`\n### ${shape.name}\n`);
  console.log(
    `| system | settle median | settle p90 | ${AFTER.map((n) => `\\|r − s\\| after ${n}`).join(" | ")} | log-loss (oracle) | excess log-loss | Brier (oracle) |` +
      `${pairs ? " pairs' log-loss (oracle) |" : ""} µs per game | scale fit |`,
  );
  console.log(`|---|${"---:|".repeat(AFTER.length + 7 + (pairs ? 1 : 0))}`);
  for (const r of results)
    console.log(
      `| ${r.system} | ${fixed(r.settleMedian, 0)} | ${fixed(r.settleP90, 0)} | ` +
        `${r.errorAfter.map((e) => fixed(e, 0)).join(" | ")} | ` +
        `${fixed(r.logLoss, 4)} (${fixed(r.oracleLogLoss, 4)}) | ${fixed(r.logLoss - r.oracleLogLoss, 4)} | ${fixed(r.brier, 4)} (${fixed(r.oracleBrier, 4)}) |` +
        `${pairs ? ` ${fixed(r.pairLogLoss ?? NaN, 4)} (${fixed(r.oraclePairLogLoss ?? NaN, 4)}) |` : ""}` +
        ` ${fixed(r.microsPerGame, 1)} | ${fixed(r.scaleFit, 2)} |`,
    );
}
console.log(`\n(${((performance.now() - began) / 1000).toFixed(1)} s)`);
