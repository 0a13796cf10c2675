/**
 * The queue options as each driver sees them, all derived from the one list in `fields.ts` and
 * the one set of rules in `rules.ts`: the engine's (`parseEngineOptions`), the queue room's
 * (`parseRoomOptions`, then `engineOptionsOf` and `waitEstimatorOptionsOf`). No Colyseus here:
 * the engine and the simulator use this module too.
 */
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import type { MatchmakerOptions } from "./matchmaker.js";
import { describeIssues, unknownKeyMessage } from "../core/validation.js";
import type { WaitEstimatorOptions } from "../core/wait-estimate.js";
import { resolveZones } from "../core/zones.js";
import { DEFAULTS, ENGINE_FIELDS, ENGINE_ONLY_FIELDS, ROOM_FIELDS } from "./fields.js";
import { checkQueueRoles } from "../core/role-rules.js";
import {
  capabilitiesOf,
  defaultPolicy,
  optionRuleProblem,
  ratingsRuleProblem,
  type PolicyCapabilities,
} from "./rules.js";
import { isShapeProblem, shapeFromOptions } from "./shape-options.js";
import type { GameShape } from "../core/shape.js";

/**
 * The options a user writes for the field table `F`: each field's input type, read-only, keeping
 * the entry's TSDoc (a homomorphic mapped type carries it to every property).
 */
type OptionsOf<F extends v.ObjectEntries> = ReadonlyInput<v.InferInput<v.ObjectSchema<F, undefined>>>;

/** `T` with every property and array read-only; functions as they are. */
type ReadonlyInput<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly ReadonlyInput<E>[]
    : T extends object
      ? { readonly [K in keyof T]: ReadonlyInput<T[K]> }
      : T;

/**
 * The options the engine and the queue room have in common (durations in ms), as declared in
 * `fields.ts` ({@link ENGINE_FIELDS}): each option's documentation, default and bounds are there.
 */
export type SharedQueueOptions = OptionsOf<typeof ENGINE_FIELDS>;

/**
 * Configuration of one queue: the second argument of `defineRoom(MatchmakerRoom, …)` or
 * `defineQueue`. Declared in `fields.ts` ({@link ENGINE_FIELDS} and {@link ROOM_FIELDS}): each
 * option's documentation, default and bounds are there.
 */
export type MatchmakerRoomOptions = OptionsOf<typeof ENGINE_FIELDS & typeof ROOM_FIELDS>;

/** The label every error about a queue's configuration starts with, once. */
export const ROOM_OPTIONS_LABEL = "MatchmakerRoom options";
/** The label of errors about the engine's own options. */
export const ENGINE_OPTIONS_LABEL = "matchmaker options";

/** A game's size is required: `teamSize` for teams, or `maxPlayers` alone for a free-for-all. */
const SIZE_REQUIRED = "is required (or give maxPlayers alone for a free-for-all)";

const EngineOptionsSchema = v.pipe(
  v.object({ ...ENGINE_FIELDS, ...ENGINE_ONLY_FIELDS }),
  v.forward(
    v.partialCheck(
      [["teamSize"], ["maxPlayers"]],
      (o) => o.teamSize !== undefined || o.maxPlayers !== undefined,
      SIZE_REQUIRED,
    ),
    ["teamSize"],
  ),
);
const RoomOptionsSchema = v.pipe(
  v.strictObject({ ...ENGINE_FIELDS, ...ROOM_FIELDS }, unknownKeyMessage),
  v.forward(
    v.partialCheck(
      [["teamSize"], ["maxPlayers"]],
      (o) => o.teamSize !== undefined || o.maxPlayers !== undefined,
      SIZE_REQUIRED,
    ),
    ["teamSize"],
  ),
);

/** The engine's options as checked, with the defaults filled. */
export type ResolvedEngineOptions = v.InferOutput<typeof EngineOptionsSchema> & { readonly shape: GameShape };

/** A queue's configuration as checked, with the defaults filled and the policy chosen. */
export type ResolvedRoomOptions = Omit<v.InferOutput<typeof RoomOptionsSchema>, "policy"> & {
  policy: string;
  /** The shape of the queue's games, from `teamSize`, `teams`, `maxPlayers` and the minimums. */
  readonly shape: GameShape;
};

/**
 * Check the engine's options (the fields in `fields.ts` and the rules in `rules.ts`); throws
 * `MatchmakerError("invalid_config")` naming the field. Options checked elsewhere (`policy`,
 * `params`, `imbalance`) pass through untouched.
 */
export function parseEngineOptions(
  options: MatchmakerOptions,
  capabilities: PolicyCapabilities = capabilitiesOf(),
): ResolvedEngineOptions {
  const parsed = parseWith(ENGINE_OPTIONS_LABEL, EngineOptionsSchema, options);
  const shape = checkRules(ENGINE_OPTIONS_LABEL, { ...parsed, policy: options.policy }, capabilities);
  return { ...parsed, shape };
}

/** Check a queue's configuration; throws `MatchmakerError("invalid_config")` naming every bad field. */
export function parseRoomOptions(options: unknown): ResolvedRoomOptions {
  const parsed = parseWith(ROOM_OPTIONS_LABEL, RoomOptionsSchema, options);
  if (parsed.zones) resolveZones(parsed.zones, ROOM_OPTIONS_LABEL);
  const shape = checkRules(ROOM_OPTIONS_LABEL, parsed);
  const ranked = ratingsRuleProblem(parsed);
  if (ranked)
    throw new MatchmakerError(
      "invalid_config",
      `${ROOM_OPTIONS_LABEL}: ${ranked.field}: ${ranked.message}`,
      ranked.field,
    );
  // A role queue's natural policy; an explicit one is kept (and refused above if it cannot serve roles).
  return { ...parsed, shape, policy: parsed.policy ?? defaultPolicy(parsed.roles) };
}

/**
 * The engine's options for a queue's configuration; `matchIdPrefix` is the room's id. Every
 * option in `ENGINE_FIELDS` is passed on as it is, so an option added there reaches the engine
 * without a line here.
 */
export function engineOptionsOf(config: ResolvedRoomOptions, matchIdPrefix: string): MatchmakerOptions {
  const shared = Object.fromEntries(
    Object.keys(ENGINE_FIELDS).flatMap((key) => {
      const value = config[key as keyof typeof ENGINE_FIELDS];
      return value === undefined ? [] : [[key, value]];
    }),
  ) as Pick<ResolvedRoomOptions, keyof typeof ENGINE_FIELDS>;
  return {
    ...shared,
    policy: config.policy,
    params: config.params,
    matchIdPrefix,
    ratingRange: { min: config.rating.min, max: config.rating.max },
    ...(config.imbalance ? { imbalance: config.imbalance } : {}),
  };
}

/** The `status` wait estimator's settings for a queue's configuration, defaults filled. */
export function waitEstimatorOptionsOf(config: ResolvedRoomOptions): WaitEstimatorOptions {
  const { bandWidth, window, minSamples } = config.waitEstimate;
  const defaults = DEFAULTS.waitEstimate;
  return {
    bandWidth: bandWidth ?? (config.rating.max - config.rating.min) / defaults.bandsPerRange,
    ratingOrigin: config.rating.min,
    window: window ?? defaults.window,
    minSamples: minSamples ?? defaults.minSamples,
  };
}

/** The per-address limits for a queue's configuration (see `src/colyseus/address-limits.ts`), defaults filled. */
export function addressLimitsOf(config: ResolvedRoomOptions): { joinRate: { perSecond: number; burst: number } } {
  return { joinRate: { perSecond: config.joinRateLimit.perSecond, burst: config.joinRateLimit.burst } };
}

/** The queue's penalties for breaking matches (see `src/colyseus/offences.ts`), defaults filled; undefined when off. */
export function penaltiesOf(config: ResolvedRoomOptions):
  | {
      windowMs: number;
      offencesBeforeCooldown: number;
      cooldownMs: number;
      maxCooldownMs: number;
      forgivenDrops: number;
    }
  | undefined {
  if (config.penalties === false) return undefined;
  const d = DEFAULTS.penalties;
  const p = config.penalties;
  const cooldownMs = p.cooldownMs ?? d.cooldownMs;
  return {
    windowMs: p.windowMs ?? d.windowMs,
    offencesBeforeCooldown: p.offencesBeforeCooldown ?? d.offencesBeforeCooldown,
    cooldownMs,
    maxCooldownMs: p.maxCooldownMs ?? Math.max(d.maxCooldownMs, cooldownMs),
    forgivenDrops: p.forgivenDrops ?? d.forgivenDrops,
  };
}

/** The backoff after game-room failures for a queue's configuration (see `src/colyseus/spawn-backoff.ts`), defaults filled. */
export function spawnBackoffTimingOf(config: ResolvedRoomOptions): { initialMs: number; maxMs: number } {
  const initialMs = config.spawnRetryMs;
  return { initialMs, maxMs: config.spawnRetryMaxMs ?? Math.max(DEFAULTS.spawnRetryMaxMs, initialMs) };
}

/** Parse or throw one `MatchmakerError` whose message starts with `label` once and names each bad field. */
function parseWith<S extends v.GenericSchema>(label: string, schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const field = v.getDotPath(result.issues[0]) ?? undefined;
  throw new MatchmakerError("invalid_config", `${label}: ${describeIssues(result.issues)}`, field);
}

/** The options' shape, once they follow every rule; throws `invalid_config` naming the option at fault. */
function checkRules(
  label: string,
  options: Omit<Parameters<typeof optionRuleProblem>[0], "shape"> & Parameters<typeof shapeFromOptions>[0],
  capabilities?: PolicyCapabilities,
): GameShape {
  const refuse = (field: string, message: string): never => {
    throw new MatchmakerError("invalid_config", `${label}: ${field}: ${message}`, field);
  };
  const shape = shapeFromOptions(options);
  if (isShapeProblem(shape)) return refuse(shape.field, shape.message);
  // A role queue's roles first: the rules below read them.
  if (options.roles && shape.kind === "teams") checkQueueRoles(options.roles, shape.teamSize, label);
  const problem = optionRuleProblem({ ...options, shape }, capabilities);
  if (problem) refuse(problem.field, problem.message);
  return shape;
}
