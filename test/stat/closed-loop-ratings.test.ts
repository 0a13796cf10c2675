/**
 * The closed loop against closed forms: the rating system's own update (Weng and Lin's
 * Plackett-Luce, as openskill 5 computes it with its default γ = σ/c), the fairness of
 * rating-blind pairing, the oracle's fairness and the newcomers' convergence.
 */
import { describe, expect, it } from "vitest";
import { closedLoop, type ClosedLoopTrace } from "../../src/sim/closed-loop.js";
import { closedLoopReport } from "../../src/sim/closed-loop-measures.js";
import { normalCdf } from "../../src/sim/win-model.js";
import type { Rating } from "../../src/ratings/types.js";

/** openskill's floor on the factor that shrinks a variance (its default κ). */
const KAPPA = 1e-4;

/**
 * One 1v1 under Plackett-Luce (openskill's rate with τ, then the model), written out: τ first
 * widens both (σ̃² = σ² + τ²); c² = σ̃w² + σ̃l² + 2β²; p = e^{μw/c} / (e^{μw/c} + e^{μl/c}) is the
 * winner's modelled chance; each mean moves by σ̃²/c·(1 − p) (the winner up, the loser down), and
 * σ'² = σ̃²·max(1 − σ̃²/c²·γ·p(1 − p), κ) with γ = σ̃/c.
 */
function wengLin1v1(winner: Rating, loser: Rating, beta: number, tau: number): [Rating, Rating] {
  const sw2 = winner.sigma ** 2 + tau ** 2;
  const sl2 = loser.sigma ** 2 + tau ** 2;
  const c = Math.sqrt(sw2 + sl2 + 2 * beta ** 2);
  const p = 1 / (1 + Math.exp((loser.mu - winner.mu) / c));
  const after = (mu: number, s2: number, sign: number): Rating => ({
    mu: mu + (sign * s2 * (1 - p)) / c,
    sigma: Math.sqrt(s2 * Math.max(1 - (s2 / c ** 2) * (Math.sqrt(s2) / c) * p * (1 - p), KAPPA)),
  });
  return [after(winner.mu, sw2, 1), after(loser.mu, sl2, -1)];
}

describe("closed loop: the rating system's own update", () => {
  it("every 1v1 of a run moves mu and sigma exactly as Weng-Lin's recurrence says", () => {
    const trace = closedLoop({ policy: "expanding-window", games: 1500, seed: 3 });
    const { performanceNoise: beta, drift: tau } = trace.system.scale;
    const ended = trace.games.filter((g) => g.after);
    expect(ended.length).toBeGreaterThan(1400);
    for (const game of ended) {
      const w = game.places.indexOf(0);
      const [winner, loser] = wengLin1v1(game.before[w][0], game.before[1 - w][0], beta, tau);
      for (const [got, want] of [
        [game.after![w][0], winner],
        [game.after![1 - w][0], loser],
      ] as const) {
        expect(got.mu).toBeCloseTo(want.mu, 8);
        expect(got.sigma).toBeCloseTo(want.sigma, 8);
      }
    }
    // And a player's next game starts from the rating its last one left.
    const last = new Map<number, Rating>();
    for (const game of trace.games)
      game.players.forEach((team, t) =>
        team.forEach((player, i) => {
          if (last.has(player)) expect(game.before[t][i]).toEqual(last.get(player));
          if (game.after) last.set(player, game.after[t][i]);
        }),
      );
  });
});

/** E|Φ(X) − 1/2| for X ~ N(0, s²): arcsin(s/√(1 + s²))/π (an orthant probability of a bivariate normal). */
const blindFairness = (s: number) => Math.asin(s / Math.sqrt(1 + s * s)) / Math.PI;

describe("closed loop: fairness against the true skills", () => {
  it("rating-blind pairing (greedy, 1v1) has the closed-form fairness and stomp share of random pairs", () => {
    // Greedy pairs in arrival order, so a game's skill gap is the difference of two independent
    // Normal(1500, sd²) skills: X = gap/(β√2) ~ N(0, s²) with s = sd/β.
    const report = closedLoopReport(closedLoop({ policy: "greedy", games: 4000, seed: 5 }));
    const s = 500 / 250;
    expect(report.fairness).toBeGreaterThan(blindFairness(s) - 0.015);
    expect(report.fairness).toBeLessThan(blindFairness(s) + 0.015);
    // A stomp: |X| ≥ Φ⁻¹(0.8) = 0.8416.
    const stomps = 2 * (1 - normalCdf(0.841621 / s));
    expect(Math.abs(report.stompShare - stomps)).toBeLessThan(0.03);
  });

  it("matching on the true skills beats matching on learned ones, and its favourites win as often as predicted", () => {
    const config = { policy: "expanding-window", games: 3000, seed: 9 } as const;
    const learned = closedLoop(config);
    const oracle = closedLoop({ ...config, oracle: true });
    const [l, o] = [closedLoopReport(learned), closedLoopReport(oracle)];
    expect(o.fairness).toBeLessThan(l.fairness - 0.05);
    expect(o.stompShare).toBeLessThan(l.stompShare);
    // Both fairness figures are the closed form on the games' skill gaps; the drawn results
    // confirm them: the favourites' wins are within 4.5 standard errors of Σ P(favourite).
    for (const trace of [learned, oracle]) {
      const games = trace.games.slice(Math.floor(trace.games.length * 0.2));
      let expected = 0;
      let variance = 0;
      let won = 0;
      for (const game of games) {
        const p = Math.max(...game.chances);
        expected += p;
        variance += p * (1 - p);
        if (game.places[game.chances.indexOf(p)] === 0) won++;
      }
      expect(Math.abs(won - expected)).toBeLessThan(4.5 * Math.sqrt(variance));
    }
  });
});

/** Players with at least `min` rated games. */
const veterans = (trace: ClosedLoopTrace, min: number) => trace.players.filter((p) => p.games >= min);
const meanError = (players: ClosedLoopTrace["players"]) =>
  players.reduce((s, p) => s + Math.abs(p.rating.mu - p.skill), 0) / players.length;

describe("closed loop: newcomers converge", () => {
  it("ratings find the skills: placement within a few games, errors shrinking with games, sigma not overconfident", () => {
    const trace = closedLoop({
      policy: "expanding-window",
      games: 3000,
      seed: 13,
      population: { returnProbability: 0.95 },
    });
    const { placement } = closedLoopReport(trace);
    // Prior error: E|N(0, 500²)| = 500·√(2/π) ≈ 399; a 1v1 moves a newcomer's mean by up to
    // σ̃²/c ≈ 316 a game, so the band (±100) is first reached within a handful of games.
    expect(placement.medianGames).not.toBeNull();
    expect(placement.medianGames!).toBeGreaterThanOrEqual(1);
    expect(placement.medianGames!).toBeLessThanOrEqual(8);
    expect(placement.shareWithin).toBeGreaterThan(0.5);
    const error10 = meanError(veterans(trace, 10));
    expect(error10).toBeLessThan(0.6 * 500 * Math.sqrt(2 / Math.PI));
    expect(meanError(veterans(trace, 20))).toBeLessThan(error10);
    // The learned sigma is an honest (if cautious) error bar: RMS of (mu − skill)/sigma at most about 1.
    const z = veterans(trace, 10).map((p) => (p.rating.mu - p.skill) / p.rating.sigma);
    expect(Math.sqrt(z.reduce((s, x) => s + x * x, 0) / z.length)).toBeLessThan(1.2);
    // Every newcomer started at the rating system's newcomer rating.
    const seen = new Set<number>();
    for (const game of trace.games)
      game.players.forEach((team, t) =>
        team.forEach((player, i) => {
          if (!seen.has(player)) expect(game.before[t][i]).toEqual(trace.system.newcomer);
          seen.add(player);
        }),
      );
  });
});
