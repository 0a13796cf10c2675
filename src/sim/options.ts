/**
 * `npm run sim` arguments → a validated simulation request. Every refusal names the option
 * and what it accepts; nothing is half-parsed.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Side } from "../core/types.js";
import { resolveImbalance, type ImbalanceSpec } from "../core/imbalance.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { LIMITS } from "../options/fields.js";
import type { SkillModel, TrafficCriterion, TrafficModel, Weighted } from "./traffic.js";
import { CRITERION_NAME, MAX_CRITERIA } from "../core/criteria.js";
import { MAX_REPORTED_LATENCY_MS, type LatencyRule } from "../core/zone-latency.js";
import { hasSides, maxPartyOf, seatsOf, type GameShape } from "../core/shape.js";
import { isShapeProblem, shapeFromOptions, type ShapeInput } from "../options/shape-options.js";

export interface SimulationRequest {
  readonly policy: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** The shape of the games (`--team-size`, `--teams`, `--players` and the minimums). */
  readonly shape: GameShape;
  /** `--short-handed-after`, in seconds: with a minimum below a full game, when a game may start short. */
  readonly shortHandedAfter?: number;
  readonly traffic: TrafficModel;
  /** `--max-wait`, in seconds as the command line takes it (the simulator's `maxWaitMs` / 1000). */
  readonly maxWait?: number;
  readonly imbalanceCost: number;
  /** How team splits are scored (the engine's default when absent). */
  readonly imbalance?: ImbalanceSpec;
  readonly tickets?: number;
  /** `--duration`, in seconds as the command line takes it (the simulator's `durationMs` / 1000). */
  readonly duration?: number;
  /** Arrivals left out of the statistics; default 10% of the run's tickets. */
  readonly warmup?: number;
  readonly seed: number;
  /** `--avoid-recent N` [`--avoid-recent-fallback T` seconds]: the engine's recent-opponent avoidance. */
  readonly avoidRecent?: { readonly games: number; readonly fallbackMs?: number; readonly withinMs?: number };
  /** `--max-latency MS` [`--max-latency-growth`, `--max-latency-cap`], with `--latencies`: zones by latency. */
  readonly latency?: LatencyRule;
  readonly opt: boolean;
  readonly json: boolean;
  readonly plot?: string;
  readonly sweep?: { readonly key: string; readonly values: readonly unknown[] };
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * `parse(argv)`, or undefined once its {@link UsageError} is printed with `usage` (the caller then
 * exits with 2); any other error is thrown.
 */
export function parseOrExplain<T>(
  parse: (argv: readonly string[]) => T,
  argv: readonly string[],
  usage: string,
): T | undefined {
  try {
    return parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`sim: ${error.message}\n\n${usage}`);
    return undefined;
  }
}

/** The values of {@link parseFlags}: each option's type as declared. */
export type ParsedFlags<T extends NonNullable<ParseArgsConfig["options"]>> = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: T }>
>["values"];

/**
 * Strict flags (no positionals, no unknown option) for `npm run sim` and its subcommands; a
 * refusal is a {@link UsageError}, prefixed with the subcommand's flag when there is one.
 */
export function parseFlags<const T extends NonNullable<ParseArgsConfig["options"]>>(
  subcommand: string | undefined,
  argv: readonly string[],
  options: T,
): ParsedFlags<T> {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(subcommand ? `${subcommand}: ${message}` : message);
  }
}

export const USAGE = `usage: npm run sim -- --policy NAME [options]

  --policy NAME            a registered policy (${"{policies}"})
  --set KEY=VALUE          a policy parameter, repeatable (e.g. --set r=6, --set x=auto); a
                           dotted KEY sets a nested one (--set criteria.think.initial=0.1)
  --team-size K            players per team; two teams seat 2K (default 1)
  --teams T                teams per game, with --team-size (default 2; sides A and B
                           exist only with two)
  --players K              a free-for-all of K players (instead of --team-size, --teams)
  --min-team-size M        with --short-handed-after: teams may start with M players each
  --min-players N          with --short-handed-after: a free-for-all may start with N
  --count-multiple M       a short-handed free-for-all seats a multiple of M (default 1)
  --short-handed-after T   seconds after which a game may start short-handed (at the minimum)
  --arrivals poisson|regular   arrival process (default poisson)
  --rate A                 tickets per second (default 1)
  --rate A..B              a rate rising linearly from A to B (Schlup's Table 2, e.g. 0..2):
                           over --duration T, or with --tickets N over 2N/(A+B) seconds
  --parties S:W,...        party-size mix by weight (default 1:1)
  --skill uniform|normal:MU:SD|two-type:Q   ratings (default uniform on [0,1])
  --sides A:W,B:W,any:W    side preference mix (default any:1)
  --zones Z:W,...          zone mix; Z1+Z2:W marks tickets that accept either zone
  --max-wait T             seconds after which bots fill a waiting ticket's game (tau_max)
  --imbalance SPEC         team split score: rating-sum (default), high-low[:T],
                           alman-mckay[:alpha=A,p=P,q=Q,floor=F] (P, Q may be inf)
  --imbalance-cost A       Wu's alpha, per player per unit of H-count imbalance (default 0)
  --tickets N              arrivals to simulate (default 20000)
  --duration T             or: simulated seconds of arrivals
  --warmup N               arrivals left out of the statistics (default 10%)
  --seed S                 RNG seed (default 1)
  --community N            players come back: each is one of N members (fixed rating each)
  --avoid-recent N         avoid rematches within each player's last N games
  --avoid-recent-fallback T   seconds after which a rematch is accepted (default 30)
  --avoid-recent-span T    only games of the last T seconds count
  --latencies Z=MS+Z=MS:W,...   where players play from: latency profiles (ms to each zone) by
                           weight, e.g. eu=20+us=140:0.45,eu=140+us=20:0.45,eu=70+us=60:0.1;
                           the queue's zones are the profiles' zones (needs --max-latency)
  --max-latency MS         a ticket waits in every zone it reaches within MS
  --max-latency-growth R   the maximum widens by R ms per second of waiting
  --max-latency-cap MS     the widest the maximum gets
  --criteria NAME[:W[:VALUES]],...   criteria beside the rating (Schlup's D > 1), each with
                           its weight W (default 1; the rating's is 1) and how players' values
                           spread, as --skill (default uniform on [0,1]), e.g.
                           --criteria think:1,region:2:normal:0.5:0.1; multi-queue then takes
                           one number of ranges per criterion, rating first (--set r=3x2)
  --sweep KEY=V1,V2,...    run the policy once per parameter value
  --opt                    also solve the offline optimum (team size 1, needs --max-wait)
  --json                   print one JSON object as the last line
  --plot FILE.svg          with --sweep: write a plot of wait against cost`;

export function parseSimulationArgs(argv: readonly string[]): SimulationRequest {
  const o = parseFlags(undefined, argv, {
    policy: { type: "string" },
    set: { type: "string", multiple: true },
    "team-size": { type: "string" },
    teams: { type: "string" },
    players: { type: "string" },
    "min-team-size": { type: "string" },
    "min-players": { type: "string" },
    "count-multiple": { type: "string" },
    "short-handed-after": { type: "string" },
    arrivals: { type: "string" },
    rate: { type: "string" },
    parties: { type: "string" },
    skill: { type: "string" },
    sides: { type: "string" },
    zones: { type: "string" },
    "max-wait": { type: "string" },
    "imbalance-cost": { type: "string" },
    imbalance: { type: "string" },
    tickets: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    seed: { type: "string" },
    community: { type: "string" },
    "avoid-recent": { type: "string" },
    "avoid-recent-fallback": { type: "string" },
    "avoid-recent-span": { type: "string" },
    latencies: { type: "string" },
    "max-latency": { type: "string" },
    "max-latency-growth": { type: "string" },
    "max-latency-cap": { type: "string" },
    criteria: { type: "string" },
    sweep: { type: "string" },
    opt: { type: "boolean" },
    json: { type: "boolean" },
    plot: { type: "string" },
  });
  if (!o.policy) throw new UsageError("--policy is required");
  if (!defaultPolicies.names().includes(o.policy)) {
    throw new UsageError(`--policy: unknown policy "${o.policy}"; registered: ${defaultPolicies.names().join(", ")}`);
  }
  if (o.tickets !== undefined && o.duration !== undefined)
    throw new UsageError("--tickets and --duration: give one or the other");
  const maxWait = o["max-wait"] === undefined ? undefined : positive("--max-wait", o["max-wait"]);
  const skill = parseSkill(o.skill ?? "uniform");
  const imbalanceCost = o["imbalance-cost"] === undefined ? 0 : nonNegative("--imbalance-cost", o["imbalance-cost"]);
  if (imbalanceCost > 0 && skill.kind !== "two-type") {
    throw new UsageError("--imbalance-cost: Wu's H-count imbalance needs --skill two-type:Q");
  }
  const shortHandedAfter =
    o["short-handed-after"] === undefined ? undefined : positive("--short-handed-after", o["short-handed-after"]);
  const shape = parseShape(o, shortHandedAfter);
  if (imbalanceCost > 0 && !hasSides(shape))
    throw new UsageError("--imbalance-cost: Wu's H-count imbalance is between two teams; leave out --teams, --players");
  const parties = weights("--parties", o.parties ?? "1:1", (s) => integer("--parties", s, 1, maxPartyOf(shape)));
  const sides = weights("--sides", o.sides ?? "any:1", (s) => {
    if ((s === "A" || s === "B") && !hasSides(shape))
      throw new UsageError(`--sides: "${s}": sides A and B exist only in games of two teams`);
    if (s === "A" || s === "B") return s as Side;
    if (s === "any") return undefined;
    throw new UsageError(`--sides: "${s}" is not A, B or any`);
  });
  const zones =
    o.zones === undefined
      ? undefined
      : weights("--zones", o.zones, (s) => {
          const names = s.split("+");
          if (names.some((n) => !/^[\w-]{1,64}$/.test(n)))
            throw new UsageError(`--zones: "${s}" is not ZONE or ZONE1+ZONE2 (letters, digits, _ and -)`);
          if (new Set(names).size !== names.length) throw new UsageError(`--zones: "${s}" names a zone twice`);
          return names;
        });
  const params: Record<string, unknown> = {};
  for (const pair of o.set ?? []) {
    const [key, value] = keyValue("--set", pair);
    Object.assign(params, withParam(params, key, parseValue(value)));
  }
  let sweep: SimulationRequest["sweep"];
  if (o.sweep !== undefined) {
    const [key, list] = keyValue("--sweep", o.sweep);
    const values = list
      .split(",")
      .filter((s) => s !== "")
      .map(parseValue);
    if (values.length === 0) throw new UsageError("--sweep: give at least one value, e.g. --sweep r=2,4,6");
    sweep = { key, values };
  }
  if (o.plot !== undefined && !sweep)
    throw new UsageError("--plot: needs --sweep (the plot is wait against cost over the sweep)");
  if (o.plot !== undefined && !o.plot.endsWith(".svg")) throw new UsageError("--plot: the file name must end in .svg");
  if (o.opt && seatsOf(shape) !== 2)
    throw new UsageError("--opt: the offline optimum is for team size 1 (one-versus-one games) or --players 2");
  for (const flag of ["avoid-recent-fallback", "avoid-recent-span"] as const) {
    if (o[flag] !== undefined && o["avoid-recent"] === undefined)
      throw new UsageError(`--${flag}: needs --avoid-recent`);
  }
  const avoidRecent =
    o["avoid-recent"] === undefined
      ? undefined
      : {
          games: integer("--avoid-recent", o["avoid-recent"], LIMITS.avoidRecent.min, LIMITS.avoidRecent.max),
          ...(o["avoid-recent-fallback"] !== undefined
            ? { fallbackMs: nonNegative("--avoid-recent-fallback", o["avoid-recent-fallback"]) * 1000 }
            : {}),
          ...(o["avoid-recent-span"] !== undefined
            ? { withinMs: positive("--avoid-recent-span", o["avoid-recent-span"]) * 1000 }
            : {}),
        };
  const latencies = o.latencies === undefined ? undefined : parseLatencies(o.latencies);
  if (latencies && zones) throw new UsageError("--latencies: the zones come from the profiles; leave out --zones");
  if (latencies && o["max-latency"] === undefined) throw new UsageError("--latencies: needs --max-latency");
  for (const flag of ["max-latency", "max-latency-growth", "max-latency-cap"] as const) {
    if (o[flag] !== undefined && !latencies) throw new UsageError(`--${flag}: needs --latencies`);
  }
  const latency: LatencyRule | undefined = latencies && {
    maxLatencyMs: integer("--max-latency", o["max-latency"]!, 1, MAX_REPORTED_LATENCY_MS),
    ...(o["max-latency-growth"] !== undefined
      ? { maxLatencyGrowthPerSecond: nonNegative("--max-latency-growth", o["max-latency-growth"]) }
      : {}),
    ...(o["max-latency-cap"] !== undefined
      ? { maxLatencyCapMs: integer("--max-latency-cap", o["max-latency-cap"], 1, MAX_REPORTED_LATENCY_MS) }
      : {}),
  };
  const criteria = o.criteria === undefined ? undefined : parseCriteria(o.criteria);
  if (criteria && o.opt)
    throw new UsageError("--opt: the offline optimum is for the rating alone; leave out --criteria");
  if (criteria && imbalanceCost > 0)
    throw new UsageError("--criteria: Wu's imbalance cost is for the rating alone; leave out --imbalance-cost");
  if (o.opt && maxWait === undefined)
    throw new UsageError("--opt: needs --max-wait (the optimum's bots join after tau_max)");
  return {
    policy: o.policy,
    params,
    shape,
    ...(shortHandedAfter !== undefined ? { shortHandedAfter } : {}),
    traffic: {
      arrivals: choice("--arrivals", o.arrivals ?? "poisson", ["poisson", "regular"] as const),
      ...parseRate(o.rate ?? "1", o.duration, o.tickets),
      parties,
      skill,
      sides,
      ...(zones ? { zones } : {}),
      ...(latencies ? { latencies } : {}),
      ...(criteria ? { criteria } : {}),
      ...(o.community !== undefined ? { community: integer("--community", o.community, 2, 10_000_000) } : {}),
    },
    ...(maxWait !== undefined ? { maxWait } : {}),
    imbalanceCost,
    ...(o.imbalance !== undefined ? { imbalance: parseImbalance(o.imbalance) } : {}),
    ...(o.tickets !== undefined ? { tickets: integer("--tickets", o.tickets, 1, 10_000_000) } : {}),
    ...(o.duration !== undefined ? { duration: positive("--duration", o.duration) } : {}),
    ...(o.warmup !== undefined ? { warmup: integer("--warmup", o.warmup, 0, 10_000_000) } : {}),
    seed: o.seed === undefined ? 1 : integer("--seed", o.seed, 0, 2 ** 31 - 1),
    ...(avoidRecent ? { avoidRecent } : {}),
    ...(latency ? { latency } : {}),
    opt: o.opt ?? false,
    json: o.json ?? false,
    ...(o.plot !== undefined ? { plot: o.plot } : {}),
    ...(sweep ? { sweep } : {}),
  };
}

/** Each shape option's flag, for refusals. */
const SHAPE_FLAGS: Readonly<Record<string, string>> = {
  teamSize: "--team-size",
  teams: "--teams",
  maxPlayers: "--players",
  minPlayers: "--min-players",
  countMultiple: "--count-multiple",
  minTeamSize: "--min-team-size",
  shortHandedAfterMs: "--short-handed-after",
};

/**
 * The games' shape from `--team-size` (default 1), `--teams`, `--players` and the minimums; the
 * queue options' own rules (`shapeFromOptions`) decide, and a refusal names the flag and the option.
 */
export function parseShape(
  o: Partial<Record<"team-size" | "teams" | "players" | "min-team-size" | "min-players" | "count-multiple", string>>,
  shortHandedAfter: number | undefined,
): GameShape {
  const whole = (flag: keyof typeof o, limits: { min: number; max: number }) => {
    const text = o[flag];
    return text === undefined ? undefined : integer(`--${flag}`, text, limits.min, limits.max);
  };
  const players = whole("players", LIMITS.maxPlayers);
  if (players !== undefined && (o["team-size"] !== undefined || o.teams !== undefined))
    throw new UsageError("--players: a free-for-all has no teams; leave out --team-size and --teams");
  const input: ShapeInput = {
    teamSize: players === undefined ? (whole("team-size", LIMITS.teamSize) ?? 1) : undefined,
    teams: whole("teams", LIMITS.teams),
    maxPlayers: players,
    minTeamSize: whole("min-team-size", LIMITS.teamSize),
    minPlayers: whole("min-players", LIMITS.maxPlayers),
    countMultiple: whole("count-multiple", LIMITS.countMultiple),
    shortHandedAfterMs: shortHandedAfter === undefined ? undefined : Math.ceil(shortHandedAfter * 1000),
  };
  const shape = shapeFromOptions(input);
  if (isShapeProblem(shape))
    throw new UsageError(`${SHAPE_FLAGS[shape.field] ?? shape.field} (${shape.field}): ${shape.message}`);
  return shape;
}

/** `think:1,region:2:normal:0.5:0.1`: criteria beside the rating, each with a weight and a value model. */
function parseCriteria(text: string): TrafficCriterion[] {
  const list = text.split(",").map((part) => {
    const [name, weight, ...values] = part.split(":");
    if (!CRITERION_NAME.test(name) || name === "rating")
      throw new UsageError(
        `--criteria: "${name}" is not a criterion name (a letter, then letters, digits, _ or -; not rating)`,
      );
    return {
      name,
      weight: weight === undefined || weight === "" ? 1 : positive(`--criteria ${name} weight`, weight),
      values: values.length === 0 ? { kind: "uniform" as const } : parseSkill(values.join(":"), `--criteria ${name}`),
    };
  });
  if (list.length > MAX_CRITERIA) throw new UsageError(`--criteria: at most ${MAX_CRITERIA} criteria`);
  if (new Set(list.map((c) => c.name)).size !== list.length)
    throw new UsageError("--criteria: names a criterion twice");
  return list;
}

/** `eu=20+us=140:0.45,...`: latency profiles by weight, each naming the same zones. */
function parseLatencies(text: string): Weighted<Readonly<Record<string, number>>>[] {
  const profiles = weights("--latencies", text, (s) => {
    const profile: Record<string, number> = {};
    for (const pair of s.split("+")) {
      const [zone, ms] = keyValue("--latencies", pair);
      if (!/^[\w-]{1,64}$/.test(zone)) throw new UsageError(`--latencies: "${zone}" is not a zone name`);
      if (zone in profile) throw new UsageError(`--latencies: "${s}" names ${zone} twice`);
      profile[zone] = integer(`--latencies ${zone}`, ms, 0, MAX_REPORTED_LATENCY_MS);
    }
    return profile;
  });
  const zones = Object.keys(profiles[0].value).sort().join(",");
  for (const p of profiles)
    if (Object.keys(p.value).sort().join(",") !== zones)
      throw new UsageError(`--latencies: every profile gives a latency to the same zones (${zones})`);
  return profiles;
}

/**
 * `--rate A` (constant) or `--rate A..B` (rising from A to B): over the run's `--duration`, or,
 * counted in tickets, over the time in which N tickets are expected (2N / (A + B)).
 */
function parseRate(
  text: string,
  duration: string | undefined,
  tickets: string | undefined,
): Pick<TrafficModel, "rate" | "rising"> {
  const at = text.indexOf("..");
  if (at < 0) return { rate: positive("--rate", text) };
  const from = nonNegative("--rate A..B: A", text.slice(0, at));
  const rate = positive("--rate A..B: B", text.slice(at + 2));
  if (from + rate <= 0) throw new UsageError("--rate A..B: A + B must be positive");
  const over =
    duration !== undefined
      ? positive("--duration", duration)
      : (2 * (tickets === undefined ? 20_000 : integer("--tickets", tickets, 1, 10_000_000))) / (from + rate);
  return { rate, rising: { from, over } };
}

/** `alman-mckay:alpha=1,p=2,q=inf` → a spec the engine checks in full (and names bad fields). */
function parseImbalance(text: string): ImbalanceSpec {
  const at = text.indexOf(":");
  const kind = at < 0 ? text : text.slice(0, at);
  const spec: Record<string, unknown> = { kind };
  if (at >= 0) {
    for (const pair of text.slice(at + 1).split(",")) {
      const [key, value] = keyValue("--imbalance", pair);
      spec[key] = value === "inf" ? "inf" : parseValue(value);
    }
  }
  try {
    resolveImbalance(spec);
  } catch (error) {
    throw new UsageError(`--${(error as Error).message}`);
  }
  return spec as unknown as ImbalanceSpec;
}

function parseSkill(text: string, option = "--skill"): SkillModel {
  const [kind, ...args] = text.split(":");
  if (kind === "uniform" && args.length === 0) return { kind };
  if (kind === "normal" && args.length === 2) {
    return { kind, mean: finite(`${option} normal MU`, args[0]), sd: positive(`${option} normal SD`, args[1]) };
  }
  if (kind === "two-type" && args.length === 1) {
    const q = finite(`${option} two-type Q`, args[0]);
    if (q < 0 || q > 1) throw new UsageError(`${option} two-type:Q: Q is a probability in [0, 1]`);
    return { kind, q };
  }
  throw new UsageError(`${option}: "${text}" is not uniform, normal:MU:SD or two-type:Q`);
}

function weights<T>(option: string, text: string, value: (s: string) => T): Weighted<T>[] {
  const items = text.split(",").map((part) => {
    const at = part.lastIndexOf(":");
    if (at <= 0) throw new UsageError(`${option}: "${part}" is not VALUE:WEIGHT`);
    return { value: value(part.slice(0, at)), weight: nonNegative(`${option} weight`, part.slice(at + 1)) };
  });
  if (!items.some((i) => i.weight > 0)) throw new UsageError(`${option}: at least one weight must be positive`);
  return items;
}

/** `KEY=VALUE` split at the first `=`; throws `UsageError` naming `option` without a key. */
export function keyValue(option: string, text: string): [string, string] {
  const at = text.indexOf("=");
  if (at <= 0) throw new UsageError(`${option}: "${text}" is not KEY=VALUE`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/**
 * `params` with `key` set to `value`; a dotted key sets a nested field, keeping its siblings
 * (`criteria.think.growthPerSecond=0.05` is `{ criteria: { think: { growthPerSecond: 0.05 } } }`).
 */
export function withParam(
  params: Readonly<Record<string, unknown>>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const at = key.indexOf(".");
  if (at <= 0 || at === key.length - 1) return { ...params, [key]: value };
  const head = key.slice(0, at);
  const inner = params[head];
  const nested = typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : {};
  return { ...params, [head]: withParam(nested, key.slice(at + 1), value) };
}

/** Numbers as numbers, true/false as booleans, anything else (e.g. "auto") as text. */
export function parseValue(text: string): unknown {
  if (text === "true" || text === "false") return text === "true";
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? n : text;
}

export function finite(option: string, text: string): number {
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) throw new UsageError(`${option}: "${text}" is not a number`);
  return n;
}

export function positive(option: string, text: string): number {
  const n = finite(option, text);
  if (n <= 0) throw new UsageError(`${option}: must be positive, got ${text}`);
  return n;
}

export function nonNegative(option: string, text: string): number {
  const n = finite(option, text);
  if (n < 0) throw new UsageError(`${option}: must not be negative, got ${text}`);
  return n;
}

export function integer(option: string, text: string, min: number, max: number): number {
  const n = finite(option, text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${option}: must be a whole number from ${min} to ${max}, got ${text}`);
  return n;
}

/** A whole number in [min, max] for a subcommand's option (anything else is refused with that range). */
export function wholeInRange(option: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${option}: must be a whole number from ${min} to ${max}, got ${text}`);
  return n;
}

function choice<T extends string>(option: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text))
    throw new UsageError(`${option}: "${text}" is not one of ${allowed.join(", ")}`);
  return text as T;
}
