/**
 * `npm run sim -- --closed-loop --policy NAME[,NAME...|all] [options]`: the closed loop
 * (`closed-loop.ts`) for each policy named, one table row each (and with `--oracle` a second row
 * matching on the true skills).
 */
import Table from "cli-table3";
import { MatchmakerError } from "../core/errors.js";
import { describeShape } from "../core/shape.js";
import { optionsOfShape } from "../options/shape-options.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { DEFAULT_SCALE } from "../ratings/rating-system.js";
import { runClosedLoop, type ClosedLoopConfig } from "./closed-loop.js";
import type { ClosedLoopReport } from "./closed-loop-measures.js";
import { withError } from "./compare.js";
import {
  finite,
  integer,
  keyValue,
  nonNegative,
  parseFlags,
  parseOrExplain,
  parseShape,
  parseValue,
  positive,
  UsageError,
  withParam,
} from "./options.js";

export const CLOSED_LOOP_USAGE = `usage: npm run sim -- --closed-loop --policy NAME[,NAME...|all] [options]

  Players with hidden true skills; results drawn from the win model (Thurstone–Mosteller: each
  performance ~ Normal(skill, beta²), a team's is the sum, the higher wins); ratings learned from
  them (Weng-Lin, ${DEFAULT_SCALE.start} ± ${DEFAULT_SCALE.uncertainty}, beta ${DEFAULT_SCALE.performanceNoise}); the queue matching on the learned ratings.

  --policy NAMES           policies, comma-separated, or all (those that serve the shape)
  --set KEY=VALUE          a policy parameter for every policy named, repeatable
  --team-size K, --teams T, --players K   the game's shape, as for a plain run (default 1v1)
  --rate A                 newcomers per second (default 0.05)
  --return P               after a game a player queues again with probability P (default 0.9)
  --think S                mean seconds before a returning player queues again (default 30)
  --game S                 seconds a game lasts (default 300)
  --skill-mean MU          true skills' mean (default ${DEFAULT_SCALE.start}, the newcomers' rating)
  --skill-sd SD            true skills' standard deviation (default ${DEFAULT_SCALE.uncertainty}, the newcomers' uncertainty)
  --drift D                a true skill moves by Normal(0, D²) after each game (default 0)
  --beta B                 the win model's performance noise (default ${DEFAULT_SCALE.performanceNoise}, the rating system's)
  --band R                 a newcomer is placed once |rating − skill| < R (default 100)
  --within N               report the share placed within N games (default 10)
  --adjust-window          the forum's rating adjustment for a grown window
  --duration S             simulated seconds (default 21600)
  --games N                or: stop after N games
  --seed S                 RNG seed (default 1)
  --oracle                 also run each policy matching on the true skills (the reference)
  --json                   print the reports as one JSON array`;

export interface ClosedLoopRequest {
  readonly policies: readonly string[];
  readonly base: Omit<ClosedLoopConfig, "policy">;
  readonly oracle: boolean;
  readonly json: boolean;
}

export function parseClosedLoopArgs(argv: readonly string[]): ClosedLoopRequest {
  const o = parseFlags("--closed-loop", argv, {
    "closed-loop": { type: "boolean" },
    policy: { type: "string" },
    set: { type: "string", multiple: true },
    "team-size": { type: "string" },
    teams: { type: "string" },
    players: { type: "string" },
    rate: { type: "string" },
    return: { type: "string" },
    think: { type: "string" },
    game: { type: "string" },
    "skill-mean": { type: "string" },
    "skill-sd": { type: "string" },
    drift: { type: "string" },
    beta: { type: "string" },
    band: { type: "string" },
    within: { type: "string" },
    "adjust-window": { type: "boolean" },
    duration: { type: "string" },
    games: { type: "string" },
    seed: { type: "string" },
    oracle: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (!o.policy) throw new UsageError("--closed-loop: --policy is required (a name, a list, or all)");
  const registered = defaultPolicies.names();
  const policies = o.policy === "all" ? registered : o.policy.split(",");
  for (const name of policies)
    if (!registered.includes(name))
      throw new UsageError(`--policy: unknown policy "${name}"; registered: ${registered.join(", ")}`);
  if (o.duration !== undefined && o.games !== undefined)
    throw new UsageError("--duration and --games: give one or the other");
  const returnProbability = o.return === undefined ? undefined : nonNegative("--return", o.return);
  if (returnProbability !== undefined && returnProbability >= 1)
    throw new UsageError(`--return: a probability below 1, got ${o.return}`);
  let params: Record<string, unknown> = {};
  for (const pair of o.set ?? []) {
    const [key, value] = keyValue("--set", pair);
    params = withParam(params, key, parseValue(value));
  }
  const optional = <T>(text: string | undefined, parse: (text: string) => T) =>
    text === undefined ? undefined : parse(text);
  const population = {
    newcomersPerSecond: optional(o.rate, (t) => positive("--rate", t)),
    returnProbability,
    thinkSeconds: optional(o.think, (t) => nonNegative("--think", t)),
    gameSeconds: optional(o.game, (t) => nonNegative("--game", t)),
    driftPerGame: optional(o.drift, (t) => nonNegative("--drift", t)),
  };
  const mean = optional(o["skill-mean"], (t) => finite("--skill-mean", t));
  const sd = optional(o["skill-sd"], (t) => positive("--skill-sd", t));
  const base: Omit<ClosedLoopConfig, "policy"> = {
    params,
    ...optionsOfShape(parseShape(o, undefined)),
    population: {
      ...definedOnly(population),
      ...(mean !== undefined || sd !== undefined
        ? { skill: { mean: mean ?? DEFAULT_SCALE.start, sd: sd ?? DEFAULT_SCALE.uncertainty } }
        : {}),
    },
    ...definedOnly({
      performanceNoise: optional(o.beta, (t) => positive("--beta", t)),
      newcomerBand: optional(o.band, (t) => positive("--band", t)),
      placedWithin: optional(o.within, (t) => integer("--within", t, 1, 10_000)),
      durationMs: optional(o.duration, (t) => positive("--duration", t) * 1000),
      games: optional(o.games, (t) => integer("--games", t, 1, 10_000_000)),
      seed: optional(o.seed, (t) => integer("--seed", t, 0, 2 ** 31 - 1)),
    }),
    ...(o["adjust-window"] ? { adjustForGrownWindow: true } : {}),
  };
  return { policies, base, oracle: o.oracle ?? false, json: o.json ?? false };
}

function definedOnly<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A policy that cannot serve the queue (its shape, or a role queue's policy without roles): why. */
export interface ClosedLoopRefusal {
  readonly policy: string;
  readonly refused: string;
}

/** Each policy's run, learned and, with `oracle`, on the true skills; a policy the queue refuses, once. */
export function runClosedLoopRequest(request: ClosedLoopRequest): Array<ClosedLoopReport | ClosedLoopRefusal> {
  return request.policies.flatMap((policy): Array<ClosedLoopReport | ClosedLoopRefusal> => {
    let learned: ClosedLoopReport;
    try {
      learned = runClosedLoop({ ...request.base, policy });
    } catch (error) {
      if (error instanceof MatchmakerError && error.code === "invalid_config")
        return [{ policy, refused: error.message }];
      throw error;
    }
    return request.oracle ? [learned, runClosedLoop({ ...request.base, policy, oracle: true })] : [learned];
  });
}

const fixed = (n: number | null, digits: number) => (n === null ? "never" : n.toFixed(digits));

/** One row per run; fairness and stomps with their standard errors (batch means). */
export function closedLoopTable(rows: ReadonlyArray<ClosedLoopReport | ClosedLoopRefusal>): string {
  const within = rows.find((r): r is ClosedLoopReport => "placement" in r)?.placement.within ?? 10;
  const table = new Table({
    head: [
      "policy",
      "games",
      "fairness |P−1/T|",
      "believed",
      "stomps",
      "favourite won",
      "mean wait s",
      "p95 wait s",
      "placed: median / p90 games",
      `placed ≤ ${within} games`,
      "rating error",
    ],
    style: { head: [], border: [] },
    // No rule between rows: a table of many policies stays readable.
    chars: { mid: "", "left-mid": "", "mid-mid": "", "right-mid": "" },
  });
  const refusals: string[] = [];
  for (const r of rows) {
    if ("refused" in r) {
      refusals.push(`${r.policy}: not for this queue: ${r.refused}`);
      continue;
    }
    table.push([
      r.oracle ? `${r.policy} (oracle)` : r.policy,
      String(r.games),
      withError(r.fairness, r.fairnessError),
      r.believedFairness.toFixed(3),
      withError(r.stompShare, r.stompError),
      r.favouriteWon.toFixed(3),
      (r.waitMeanMs / 1000).toFixed(1),
      (r.waitP95Ms / 1000).toFixed(1),
      `${fixed(r.placement.medianGames, 0)} / ${fixed(r.placement.p90Games, 0)}`,
      r.placement.shareWithin.toFixed(2),
      r.ratingError.toFixed(0),
    ]);
  }
  const shape = rows.find((r): r is ClosedLoopReport => "shape" in r)?.shape;
  return [...(shape ? [describeShape(shape)] : []), table.toString(), ...refusals].join("\n");
}

/** The subcommand: exit code 0, or 2 for bad options (printed with the usage). */
export function runClosedLoopCli(argv: readonly string[]): number {
  const request = parseOrExplain(parseClosedLoopArgs, argv, CLOSED_LOOP_USAGE);
  if (!request) return 2;
  const rows = runClosedLoopRequest(request);
  console.log(request.json ? JSON.stringify(rows) : closedLoopTable(rows));
  return 0;
}
