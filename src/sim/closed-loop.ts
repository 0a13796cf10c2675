/**
 * The closed loop: players with hidden true skills queue, the engine matches them on ratings
 * learned from their own results, the results are drawn from the win model (`win-model.ts`) by
 * the true skills, and players come back or leave. What players feel is measured in
 * `closed-loop-measures.ts`. Seeded: one seed, one run.
 */
import { Heap } from "heap-js";
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import { parseConfig } from "../core/validation.js";
import type { PolicyParams, PolicyRegistry } from "../core/policy.js";
import type { GameShape } from "../core/shape.js";
import type { Match, Ticket } from "../core/types.js";
import { Matchmaker, type MatchmakerOptions } from "../options/matchmaker.js";
import { shapeOptionsIn, type SHAPE_OPTIONS } from "../options/shape-options.js";
import { openskillSystem, rateGame, type RatingScale, type RatingSystem } from "../ratings/rating-system.js";
import type { Rating } from "../ratings/types.js";
import { closedLoopReport, type ClosedLoopReport } from "./closed-loop-measures.js";
import { Random } from "./random.js";
import { drawPlaces, winChances } from "./win-model.js";

/** Who plays: newcomers arriving, how long games last, who comes back, and the true skills. */
export interface ClosedLoopPopulation {
  /** Newcomers per second (a Poisson process). @defaultValue 0.05 */
  readonly newcomersPerSecond?: number;
  /** After each game a player queues again with this probability, else leaves for good. @defaultValue 0.9 */
  readonly returnProbability?: number;
  /** Mean seconds between a game's end and a returning player's next join (exponential). @defaultValue 30 */
  readonly thinkSeconds?: number;
  /** Seconds every game lasts. @defaultValue 300 */
  readonly gameSeconds?: number;
  /** True skills are Normal(mean, sd) on the rating scale. @defaultValue the scale's start and uncertainty */
  readonly skill?: { readonly mean: number; readonly sd: number };
  /** A true skill's random walk: Normal(0, drift²) added after each game it plays. @defaultValue 0 */
  readonly driftPerGame?: number;
}

/**
 * One closed-loop run. The game shape is stated as the simulator's (`teamSize`, `teams`,
 * `maxPlayers`, …; one versus one when neither `teamSize` nor `maxPlayers` is given). Players
 * queue alone (no parties) and no bots fill a game.
 */
export interface ClosedLoopConfig extends Pick<MatchmakerOptions, (typeof SHAPE_OPTIONS)[number]> {
  readonly policy: string;
  readonly params?: PolicyParams;
  /** Where `policy` is looked up (default: the built-in policies). */
  readonly policies?: PolicyRegistry;
  readonly population?: ClosedLoopPopulation;
  /** The rating system's scale (openskill's Weng-Lin); newcomers start at its `start` ± `uncertainty`. */
  readonly scale?: Partial<RatingScale>;
  /** The win model's β (each performance's sd around the skill). @defaultValue the scale's `performanceNoise` */
  readonly performanceNoise?: number;
  /** Simulated milliseconds (default 6 hours unless `games` is given). */
  readonly durationMs?: number;
  /** Or: stop once this many games have formed (the last tick's games all count, so a few more may). */
  readonly games?: number;
  /** Share of the run's games (the first ones) left out of the game measures. @defaultValue 0.2 */
  readonly warmupShare?: number;
  readonly seed?: number;
  /** Match on the true skills instead of the learned ratings: the reference a rating system aims at. */
  readonly oracle?: boolean;
  /** The forum's adjustment for a grown window (`rateGame`'s `adjustForGrownWindow`). */
  readonly adjustForGrownWindow?: boolean;
  /** A newcomer is placed once |rating − skill| < this. @defaultValue 100 */
  readonly newcomerBand?: number;
  /** The report's share of newcomers placed within this many games. @defaultValue 10 */
  readonly placedWithin?: number;
  /** The favourite's true chance from which a two-team game is a stomp. @defaultValue 0.8 (`DEFAULT_STOMP_CHANCE`) */
  readonly stompChance?: number;
}

/** Where a player is at the end of a run: every arrival is in exactly one of these. */
export type PlayerState = "waiting" | "playing" | "away" | "gone";

/** One player of a run. */
export interface ClosedLoopPlayer {
  readonly index: number;
  /** When the player first arrived (ms). */
  readonly arrivedAt: number;
  /** The true skill now (it moves with drift). */
  skill: number;
  /** The learned rating now. */
  rating: Rating;
  /** Rated games played. */
  games: number;
  /** Rated games after which |rating − skill| < band first held (0: already at arrival); absent: not yet. */
  placedAfter?: number;
  state: PlayerState;
}

/** One game of a run, as the win model and the rating system saw it. */
export interface ClosedLoopGame {
  readonly match: Match;
  /** Player indices per team, in the match's team order. */
  readonly players: ReadonlyArray<readonly number[]>;
  /** True skills per team at the start of the game. */
  readonly skills: ReadonlyArray<readonly number[]>;
  /** Each team's true chance of finishing first. */
  readonly chances: readonly number[];
  /** The places drawn (0 first). */
  readonly places: readonly number[];
  /** Learned ratings before the game and after it (once it ended). */
  readonly before: ReadonlyArray<readonly Rating[]>;
  after?: Rating[][];
}

/** Everything a run produced. */
export interface ClosedLoopTrace {
  readonly config: ClosedLoopConfig;
  readonly shape: GameShape;
  readonly system: RatingSystem;
  readonly players: readonly ClosedLoopPlayer[];
  /** Every game formed, in order. */
  readonly games: readonly ClosedLoopGame[];
  /** When the run stopped (ms). */
  readonly endMs: number;
  /** The players the engine still held at the end, by index (the queue's own count, beside `state`). */
  readonly queued: readonly number[];
  /** When each of `queued` joined (ms), in the same order. */
  readonly waitingSince: readonly number[];
  /** The players due back after a game (a return still pending at the end), by index. */
  readonly returning: readonly number[];
}

const DEFAULT_DURATION_MS = 6 * 3600 * 1000;
/** A policy that keeps asking to be woken at the same instant without forming a game is a bug. */
const MAX_IDLE_WAKEUPS = 10_000;

const positive = v.pipe(v.number(), v.finite("must be finite"), v.gtValue(0, "must be positive"));
const share = v.pipe(v.number(), v.minValue(0, "must be at least 0"), v.maxValue(1, "must be at most 1"));
const Settings = v.looseObject({
  population: v.optional(
    v.object({
      newcomersPerSecond: v.optional(positive),
      returnProbability: v.optional(v.pipe(share, v.maxValue(0.999, "must be below 1"))),
      thinkSeconds: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must be at least 0"))),
      gameSeconds: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must be at least 0"))),
      skill: v.optional(v.object({ mean: v.pipe(v.number(), v.finite("must be finite")), sd: positive })),
      driftPerGame: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, "must be at least 0"))),
    }),
  ),
  performanceNoise: v.optional(positive),
  durationMs: v.optional(positive),
  games: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
  warmupShare: v.optional(v.pipe(share, v.maxValue(0.9, "must be at most 0.9"))),
  seed: v.optional(v.pipe(v.number(), v.integer("must be a whole number"))),
  newcomerBand: v.optional(positive),
  placedWithin: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1))),
  stompChance: v.optional(v.pipe(v.number(), v.gtValue(0.5, "must be above 0.5"), v.ltValue(1, "must be below 1"))),
});

/** The population with every default filled in from the rating scale. */
export function populationOf(config: ClosedLoopConfig, scale: RatingScale): Required<ClosedLoopPopulation> {
  const p = config.population ?? {};
  return {
    newcomersPerSecond: p.newcomersPerSecond ?? 0.05,
    returnProbability: p.returnProbability ?? 0.9,
    thinkSeconds: p.thinkSeconds ?? 30,
    gameSeconds: p.gameSeconds ?? 300,
    skill: p.skill ?? { mean: scale.start, sd: scale.uncertainty },
    driftPerGame: p.driftPerGame ?? 0,
  };
}

type LoopEvent =
  | { readonly at: number; readonly seq: number; readonly kind: "return"; readonly player: number }
  | { readonly at: number; readonly seq: number; readonly kind: "end"; readonly game: ClosedLoopGame };

/**
 * Run the loop. A bad configuration throws `MatchmakerError("invalid_config")` naming the field
 * (the engine checks the queue's options, a missing openskill is `invalid_config` too).
 */
export function closedLoop(config: ClosedLoopConfig): ClosedLoopTrace {
  parseConfig("closed loop", Settings, config);
  const system = openskillSystem(config.scale);
  const population = populationOf(config, system.scale);
  const beta = config.performanceNoise ?? system.scale.performanceNoise;
  const band = config.newcomerBand ?? 100;
  const seed = config.seed ?? 1;
  // Separate streams, so that the same seed brings the same newcomers whatever the policy does.
  const arrivalsRandom = new Random(seed);
  const skillsRandom = new Random(seed + 0x5bd1e995);
  const resultsRandom = new Random(seed + 0x2545f491);
  const returnsRandom = new Random(seed + 0x9e3779b9);
  const { mean, sd } = population.skill;
  const engine = new Matchmaker({
    ...(config.teamSize === undefined && config.maxPlayers === undefined ? { teamSize: 1 } : {}),
    ...shapeOptionsIn(config),
    policy: config.policy,
    params: config.params ?? {},
    ...(config.policies ? { policies: config.policies } : {}),
    ratingRange: { min: mean - 3 * sd, max: mean + 3 * sd },
    statsWindow: 1,
  });
  const players: ClosedLoopPlayer[] = [];
  const games: ClosedLoopGame[] = [];
  const events = new Heap<LoopEvent>((a, b) => a.at - b.at || a.seq - b.seq);
  let seq = 0;
  let tickets = 0;
  const endMs = config.games !== undefined ? Infinity : (config.durationMs ?? DEFAULT_DURATION_MS);
  const gameLimit = config.games ?? Infinity;
  let nextNewcomer = arrivalsRandom.exponential(population.newcomersPerSecond) * 1000;

  const placed = (player: ClosedLoopPlayer) => {
    if (player.placedAfter === undefined && Math.abs(player.rating.mu - player.skill) < band)
      player.placedAfter = player.games;
  };
  const join = (player: ClosedLoopPlayer, now: number) => {
    player.state = "waiting";
    const ticket: Ticket = {
      id: `t${tickets++}`,
      players: [
        {
          sessionId: `s${tickets}`,
          playerId: `p${player.index}`,
          ...(config.oracle
            ? { rating: player.skill }
            : { rating: player.rating.mu, uncertainty: player.rating.sigma }),
        },
      ],
      enqueuedAt: now,
    };
    engine.enqueue(ticket, now);
  };
  const start = (match: Match, now: number) => {
    const indices = match.teams.map((team) => team.players.map((p) => playerIndex(p.playerId)));
    const skills = indices.map((team) => team.map((i) => players[i].skill));
    const order = canonicalOrder(indices);
    const game: ClosedLoopGame = {
      match,
      players: indices,
      skills,
      chances: order.restoreTeams(winChances(order.arrange(skills), beta)),
      places: order.restoreTeams(drawPlaces(order.arrange(skills), beta, resultsRandom)),
      before: indices.map((team) => team.map((i) => players[i].rating)),
    };
    for (const team of indices) for (const i of team) players[i].state = "playing";
    games.push(game);
    events.push({ at: now + population.gameSeconds * 1000, seq: seq++, kind: "end", game });
  };
  const end = (game: ClosedLoopGame, now: number) => {
    const seats = game.match.teams.map((team, t) =>
      team.players.map((p, i) => ({
        rating: game.before[t][i],
        ...(p.window ? { window: { initial: p.window.initial, width: p.window.width } } : {}),
      })),
    );
    const order = canonicalOrder(game.players);
    game.after = order.restore(
      rateGame(system, order.arrange(seats), order.arrangeTeams(game.places), config.adjustForGrownWindow ?? false),
    );
    // Returns drawn in the canonical order too, so that the same game brings the same players back the same way.
    for (const index of order.arrange(game.players).flat()) {
      const player = players[index];
      const [t, i] = order.seatOf(index);
      player.rating = game.after[t][i];
      player.games++;
      if (population.driftPerGame > 0) player.skill += population.driftPerGame * skillsRandom.normal();
      placed(player);
      if (returnsRandom.uniform() < population.returnProbability) {
        player.state = "away";
        const think = population.thinkSeconds > 0 ? returnsRandom.exponential(1 / population.thinkSeconds) : 0;
        events.push({ at: now + think * 1000, seq: seq++, kind: "return", player: index });
      } else player.state = "gone";
    }
  };

  let now = 0;
  let idle = 0;
  for (;;) {
    const event = events.peek();
    const eventMs = Math.min(event?.at ?? Infinity, nextNewcomer);
    const wakeup = engine.nextWakeup(now);
    const wakeMs = wakeup === undefined ? Infinity : Math.max(wakeup, now);
    const at = Math.min(eventMs, wakeMs);
    if (at > endMs || at === Infinity || games.length >= gameLimit) break;
    idle = at === now && wakeMs < eventMs ? idle + 1 : 0;
    now = at;
    if (wakeMs >= eventMs) {
      if (event && event.at <= nextNewcomer) {
        events.pop();
        if (event.kind === "end") end(event.game, now);
        else join(players[event.player], now);
      } else {
        const player: ClosedLoopPlayer = {
          index: players.length,
          arrivedAt: now,
          skill: mean + sd * skillsRandom.normal(),
          rating: system.newcomer,
          games: 0,
          state: "waiting",
        };
        players.push(player);
        placed(player);
        join(player, now);
        nextNewcomer = now + arrivalsRandom.exponential(population.newcomersPerSecond) * 1000;
      }
    }
    // The tick's games in a canonical order too: policies that list the same games differently run on alike.
    const formed = engine.tick(now).map((match) => ({ match, first: lowestPlayer(match) }));
    for (const { match } of formed.sort((a, b) => a.first - b.first)) {
      idle = 0;
      start(match, now);
    }
    if (idle > MAX_IDLE_WAKEUPS)
      throw new MatchmakerError(
        "policy_contract",
        `policy "${config.policy}" keeps asking to be woken at t=${now} ms without forming a game`,
        "policy",
      );
  }
  const waiting = [...engine.waiting()];
  const queued = waiting.flatMap((t) => t.players.map((p) => playerIndex(p.playerId)));
  const waitingSince = waiting.flatMap((t) => t.players.map(() => t.enqueuedAt));
  const returning = events.toArray().flatMap((e) => (e.kind === "return" ? [e.player] : []));
  return {
    config,
    shape: engine.shape,
    system,
    players,
    games,
    endMs: Number.isFinite(endMs) ? endMs : now,
    queued,
    waitingSince,
    returning,
  };
}

const playerIndex = (playerId: string | undefined) => Number(playerId!.slice(1));
const lowestPlayer = (match: Match) =>
  Math.min(...match.teams.flatMap((team) => team.players.map((p) => playerIndex(p.playerId))));

/**
 * A game's canonical order: each team's players by index, the teams by their lowest player.
 * Results are drawn and ratings updated in it, so that the same game with its sides (or seats)
 * listed otherwise gets the same result to the last bit, whichever policy formed it.
 */
export interface CanonicalOrder {
  /** Per-seat values (`[team][seat]`) in the canonical order. */
  arrange<T>(rows: ReadonlyArray<readonly T[]>): T[][];
  /** Per-team values in the canonical order. */
  arrangeTeams<T>(values: readonly T[]): T[];
  /** Per-seat values in the canonical order back to the game's order. */
  restore<T>(rows: ReadonlyArray<readonly T[]>): T[][];
  /** Per-team values in the canonical order back to the game's order. */
  restoreTeams<T>(values: readonly T[]): T[];
  /** A player's team and seat in the game's order. */
  seatOf(player: number): readonly [number, number];
}

/** The canonical order of a game given its player indices per team (in the game's order). */
export function canonicalOrder(players: ReadonlyArray<readonly number[]>): CanonicalOrder {
  const seats = players.map((team) => team.map((_, i) => i).sort((a, b) => team[a] - team[b]));
  const teams = players.map((_, t) => t).sort((a, b) => players[a][seats[a][0]] - players[b][seats[b][0]]);
  const where = new Map(players.flatMap((team, t) => team.map((p, i) => [p, [t, i] as const])));
  return {
    arrange: (rows) => teams.map((t) => seats[t].map((i) => rows[t][i])),
    arrangeTeams: (values) => teams.map((t) => values[t]),
    restore: (rows) => {
      const out = players.map((team) => new Array(team.length));
      teams.forEach((t, k) => seats[t].forEach((i, j) => (out[t][i] = rows[k][j])));
      return out;
    },
    restoreTeams: (values) => {
      const out = new Array(values.length);
      teams.forEach((t, k) => (out[t] = values[k]));
      return out;
    },
    seatOf: (player) => where.get(player)!,
  };
}

/** One closed-loop run and its report: deterministic for a seed. */
export function runClosedLoop(config: ClosedLoopConfig): ClosedLoopReport {
  return closedLoopReport(closedLoop(config));
}
