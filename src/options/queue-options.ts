/**
 * The queue options as each driver sees them, all derived from the one list in `fields.ts` and
 * the one set of rules in `rules.ts`: the engine's (`parseEngineOptions`), the queue room's
 * (`parseRoomOptions`, then `engineOptionsOf` and `waitEstimatorOptionsOf`). No Colyseus here:
 * the engine and the simulator use this module too.
 */
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import type { ImbalanceSpec } from "../core/imbalance.js";
import type { MatchmakerOptions } from "./matchmaker.js";
import { describeIssues, unknownKeyMessage } from "../core/validation.js";
import type { WaitEstimatorOptions } from "../core/wait-estimate.js";
import { resolveZones, type ZoneOption } from "../core/zones.js";
import type { CriterionOption } from "../core/criteria.js";
import type { BlockRule } from "../core/blocks.js";
import { DEFAULTS, ENGINE_FIELDS, ENGINE_ONLY_FIELDS, ROOM_FIELDS } from "./fields.js";
import { checkQueueRoles } from "../core/role-rules.js";
import { capabilitiesOf, defaultPolicy, optionRuleProblem, type PolicyCapabilities } from "./rules.js";
import type { PlayersOption } from "./player-options.js";

/** The options the engine and the queue room have in common (durations in ms). */
export interface SharedQueueOptions {
  /** Players per team, 1 to 16; each game seats `2 * teamSize`. */
  readonly teamSize: number;
  /** How many recent matches the statistics cover (default 200). */
  readonly statsWindow?: number;
  /**
   * Maximum wait (ms, a whole number), Schlup's tau_max: policies relax for tickets that reach
   * it; with `fillWithBots`, such a ticket then plays at once with bots in the empty seats.
   */
  readonly maxWaitMs?: number;
  /** Fill a game with bots for a ticket that reached `maxWaitMs` (needs `maxWaitMs`; the game room sees which seats). */
  readonly fillWithBots?: boolean;
  /**
   * Makes this a role queue (Alman and McKay's role-restricted queue): exactly `teamSize`
   * distinct, non-empty role names (teamSize at most 8), e.g. `["top", "jungle", "mid", "bot",
   * "support"]`. Players then list the roles they accept, each team gets one player per role,
   * and each matched player carries their `role`. The policy defaults to `"roles"`, the only
   * built-in policy that forms role-valid games.
   */
  readonly roles?: readonly string[];
  /**
   * The queue's zones (Xu, Yu and Wu's zones), e.g. `["junior", { name: "advanced", minRating:
   * 1800 }]`: one policy instance per zone; a zone with `minRating`/`maxRating` admits only
   * ratings in that band. A ticket waits in the zones it lists, or in every zone that admits its
   * rating when it lists none (choice-free); each match says its `zone`.
   */
  readonly zones?: readonly ZoneOption[];
  /**
   * Avoid rematches, 1 to 1000: each player's last `avoidRecent` games (opponents and
   * teammates) are remembered, by `Player.identity` (the join option `playerId`), else the
   * player's id, and policies that honour it prefer games without a repeat; others are refused.
   */
  readonly avoidRecent?: number;
  /** With `avoidRecent`: wait (ms) after which a repeat is accepted (default 30,000). */
  readonly avoidRecentFallbackMs?: number;
  /** With `avoidRecent`: only games of the last that many ms count (default: however old). */
  readonly avoidRecentMs?: number;
  /**
   * Regions by latency, in a queue with `zones` (1 to 60,000 ms): players then give their
   * `latencies` (ms to each zone) at join, and a ticket waits in every zone all its players reach
   * within this maximum; the match plays in the zone its players reach best among those all its
   * tickets wait in (the smallest worst latency). Players who reach no zone are refused.
   */
  readonly maxLatencyMs?: number;
  /** With `maxLatencyMs`: the maximum widens by this many ms per second a ticket waits (default 0). */
  readonly maxLatencyGrowthPerSecond?: number;
  /** With `maxLatencyGrowthPerSecond`: the widest the maximum gets (ms; default: without limit). */
  readonly maxLatencyCapMs?: number;
  /**
   * The wait players accept: the queue turns its policy's patience online so that the mean wait
   * (or the `percentile`-th percentile) of matched players stays at `waitMs`, and the policy's
   * own rule makes the closest games it can within it (see `src/core/target-wait.ts`). The policy
   * must have a patience to turn (`expanding-window`, `difference-wait`, `density-window`).
   */
  readonly targetWait?: { readonly waitMs: number; readonly percentile?: number; readonly gain?: number };
  /**
   * Criteria beside the rating (Schlup's D > 1), e.g. `[{ name: "thinkTime", min: 0, max: 60,
   * weight: 0.5 }]` (range default 0 to 1, weight default 1; at most 8): players then give a value
   * for each at join (`criteria: { thinkTime: 12 }`), each match reports every criterion's
   * dispersion (`quality.dispersion`), and `multi-queue` divides every criterion into ranges; see
   * docs/criteria.md for which policies match on them.
   */
  readonly criteria?: readonly CriterionOption[];
  /**
   * Accounts that must never play in one match (a player blocked another, e.g. after a report):
   * `blocked(a, b)` is asked about every two players of different tickets in a game before the
   * queue forms it (accounts: `playerId`, else the session id; either order, so answer for both
   * directions). A game with a blocked pair is never formed, whatever the policy: the newer
   * ticket of the pair is held back for that run of the policy and the others form the best
   * game they can without it; it keeps its place and is matched with others. Synchronous and
   * cheap (it runs for each game); `BlockList` is a ready in-memory store:
   * `blocked: (a, b) => blocks.has(a, b)`.
   */
  readonly blocked?: BlockRule;
}

/** Configuration of one queue: the second argument of `defineRoom(MatchmakerRoom, …)` or `defineQueue`. */
export interface MatchmakerRoomOptions extends SharedQueueOptions {
  /** Name of the registered room type spawned for each match. */
  gameRoom: string;
  /** A registered policy name (default `"greedy"`; `"roles"` when the queue has `roles`). */
  policy?: string;
  /** Parameters of the policy. */
  params?: Record<string, unknown>;
  /** How often (ms, 10 to 60,000; default 1000) the queue runs its policy without any join. */
  tickMs?: number;
  /** The shared `figures` (every client's state) refresh at most this often, whatever the join rate (ms, 0 to 60,000; default 1000). */
  figuresIntervalMs?: number;
  /** A waiting player hears `status` at most this often, and only when something it cares about moved (ms, 0 to 600,000; default 2000). */
  statusIntervalMs?: number;
  /**
   * Joins and leaves run the policy at most once per this interval (ms, 0 to 1,000; default 20). A
   * join after a quiet interval is matched at once; under load, the joins of one interval are
   * matched together at its end (at most this much later), and their players' first `status` goes
   * out after that run, so a player matched by it hears `seat` without a `status` first. 0: the
   * policy runs on every join and leave.
   */
  joinBatchMs?: number;
  /**
   * Messages one client may send per second (1 to 10,000; default 20); a client that sends more is
   * disconnected (Colyseus's `maxMessagesPerSecond`, unlimited by default), so one client cannot
   * make the queue run its engine thousands of times a second for everyone else.
   */
  maxMessagesPerSecond?: number;
  /**
   * After the game room fails to start (its `onCreate` throws, its seats cannot be reserved), the
   * wait before the next attempt at that room type (ms, 10 to 600,000; default 1000); it doubles
   * with each failure in a row, up to `spawnRetryMaxMs`. Meanwhile the queue forms no match for
   * that room type: players keep waiting at their places, and those of a failed match hear once
   * that it is delayed (`requeued`, reason `spawn_failed`, with `retryInMs`).
   */
  spawnRetryMs?: number;
  /**
   * The longest wait between two attempts at a failing game room type (ms, 10 to 3,600,000, at
   * least `spawnRetryMs`; default 30,000, or `spawnRetryMs` if that is longer).
   */
  spawnRetryMaxMs?: number;
  /** Accepted rating range of join options (default 0 to 10,000). */
  rating?: { min?: number; max?: number };
  /** Extra options given to every spawned game room beside `match`. */
  gameRoomOptions?: Record<string, unknown>;
  /** How team splits are scored (default `{ kind: "rating-sum" }`). */
  imbalance?: ImbalanceSpec;
  /**
   * Ready check: when a match forms, every player receives `match_found` and must `accept`
   * within `timeoutMs` (100 to 120,000 ms). The game room is created only once all accepted;
   * decliners and players who time out are removed, everyone else waits again at their place.
   */
  readyCheck?: { timeoutMs: number };
  /**
   * How long (ms, 0 to 600,000; default 0 = off) a client whose connection drops unexpectedly
   * keeps its place (Colyseus reconnection). If it is matched meanwhile, its place in the match
   * is held within the grace; if it does not return, that counts as declining.
   */
  reconnectGraceMs?: number;
  /** Whether a party leader may `start` matching before the party is complete (default false). */
  allowPartialParties?: boolean;
  /**
   * Trusted players: who each joining client is, and its rating, come from the server.
   * `resolve(request)` turns a join (the client's auth token, what a static `onAuth` returned, its
   * checked join options) into `{ playerId, rating, uncertainty?, criteria? }`, from the game's own
   * accounts and storage (it may be async). A client that sends a field the server sets
   * (`rating`/`rank`, `playerId`, `uncertainty`) is refused by name; `clientOptions` lists what
   * clients may still send. Without this option every field is the client's word, untrusted.
   * See {@link PlayersOption} and docs/players.md#trusted-players.
   */
  players?: PlayersOption;
  /**
   * What a join does when its account (`playerId`) is already in the queue, in any place (a
   * forming party, waiting, a ready check, a game being created, a seat not yet taken): one
   * account, one place. `"refuse"` (default): the join is refused (525, naming `playerId`) and
   * the first session keeps its place. `"replace"`: the first session is told `removed` (reason
   * `replaced`) and closed, and the new one takes its place where that is safe: a waiting solo
   * ticket keeps its enqueue time, a party member's slot (joining with the party's code) keeps the
   * party; in a ready check, a game being created or with a seat sent, the join is refused as with
   * `"refuse"`. Use `"replace"` only with a `playerId` the server sets: with a client-declared one,
   * anyone who knows an account's id could take its place.
   */
  duplicateAccount?: "refuse" | "replace";
  /**
   * Record the queue's traffic (arrivals, departures, games and the engine's ticks; no player
   * identity) in a ring buffer of `events` events (default 50,000), served to operators by
   * `matchmakerTraces()` and replayed with `npm run sim -- --trace FILE`. Off when absent.
   */
  trafficTrace?: { events?: number };
  /**
   * The proxies in front of this server that the queue believes (addresses or CIDR blocks, e.g.
   * `["10.0.0.5", "10.1.0.0/16"]`, at most 256; default none). Per-address limits (joins, party
   * codes) key on the connection's own address; only when that address is one of these does the
   * queue read the client's address from `X-Forwarded-For` (its right-most hop that is not a
   * trusted proxy), else `X-Real-IP`. Without it, those headers are never read: anyone can write them.
   */
  trustedProxies?: readonly string[];
  /**
   * Joins one address may make (default `{ perSecond: 10, burst: 50 }`): `burst` at once (1 to
   * 100,000), then `perSecond` (0.001 to 10,000) as they refill. A join over it is refused with
   * code 429, `too many joins from your address; try again in N s`. An IPv6 address counts by
   * its /64. Kept per queue name and process, through the queue room's disposal.
   */
  joinRateLimit?: { perSecond?: number; burst?: number };
  /**
   * The cost of breaking matches others were ready for: declining a ready check, letting it time
   * out while connected, letting a seat expire unused while connected to the queue, or (past
   * `forgivenDrops` per window) dropping or leaving during a ready check. Counted per account (the
   * join's `playerId`, else the client's network address) for as long as the queue's name lives.
   * Within `windowMs` (1,000 to 86,400,000; default 600,000), the first `offencesBeforeCooldown`
   * offences (0 to 100; default 1) cost the player its place (a decliner is removed and may rejoin
   * at the back; a seat left to expire puts its ticket back at the back); each further one removes
   * it and refuses its joins (429) for a cooldown of `cooldownMs` (1,000 to 86,400,000; default
   * 60,000), doubled per further offence up to `maxCooldownMs` (default 900,000, or `cooldownMs` if
   * longer). `forgivenDrops` (0 to 100; default 1) drops per window cost nothing. `false`: off.
   */
  penalties?:
    | false
    | {
        windowMs?: number;
        offencesBeforeCooldown?: number;
        cooldownMs?: number;
        maxCooldownMs?: number;
        forgivenDrops?: number;
      };
  /**
   * How the `status` message's estimated wait is computed: recent waits are kept per class of
   * ticket (party size, side, zone, rating band of `bandWidth`, default a twentieth of the
   * rating range), `window` waits per class (default 50), and a class needs `minSamples` waits
   * (default 3) before it is used rather than a coarser one.
   */
  waitEstimate?: { bandWidth?: number; window?: number; minSamples?: number };
}

/** The label every error about a queue's configuration starts with, once. */
export const ROOM_OPTIONS_LABEL = "MatchmakerRoom options";
/** The label of errors about the engine's own options. */
export const ENGINE_OPTIONS_LABEL = "matchmaker options";

const EngineOptionsSchema = v.object({ ...ENGINE_FIELDS, ...ENGINE_ONLY_FIELDS });
const RoomOptionsSchema = v.strictObject({ ...ENGINE_FIELDS, ...ROOM_FIELDS }, unknownKeyMessage);

/** The engine's options as checked, with the defaults filled. */
export type ResolvedEngineOptions = v.InferOutput<typeof EngineOptionsSchema>;

/** A queue's configuration as checked, with the defaults filled and the policy chosen. */
export type ResolvedRoomOptions = Omit<v.InferOutput<typeof RoomOptionsSchema>, "policy"> & { policy: string };

/**
 * Check the engine's options (the fields in `fields.ts` and the rules in `rules.ts`); throws
 * `MatchmakerError("invalid_config")` naming the field. Options checked elsewhere (`policy`,
 * `params`, `imbalance`, `zones`) pass through untouched.
 */
export function parseEngineOptions(
  options: MatchmakerOptions,
  capabilities: PolicyCapabilities = capabilitiesOf(),
): ResolvedEngineOptions {
  const parsed = parseWith(ENGINE_OPTIONS_LABEL, EngineOptionsSchema, options);
  checkRules(ENGINE_OPTIONS_LABEL, { ...parsed, policy: options.policy, zones: options.zones }, capabilities);
  return parsed;
}

/** Check a queue's configuration; throws `MatchmakerError("invalid_config")` naming every bad field. */
export function parseRoomOptions(options: unknown): ResolvedRoomOptions {
  const parsed = parseWith(ROOM_OPTIONS_LABEL, RoomOptionsSchema, options);
  if (parsed.zones) resolveZones(parsed.zones, ROOM_OPTIONS_LABEL);
  checkRules(ROOM_OPTIONS_LABEL, parsed);
  // A role queue's natural policy; an explicit one is kept (and refused above if it cannot serve roles).
  return { ...parsed, policy: parsed.policy ?? defaultPolicy(parsed.roles) };
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
    ...(config.imbalance ? { imbalance: config.imbalance as ImbalanceSpec } : {}),
    ...(config.zones ? { zones: config.zones } : {}),
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

function checkRules(
  label: string,
  options: Parameters<typeof optionRuleProblem>[0],
  capabilities?: PolicyCapabilities,
) {
  // A role queue's roles first: the rules below read them.
  if (options.roles) checkQueueRoles(options.roles, options.teamSize, label);
  const problem = optionRuleProblem(options, capabilities);
  if (problem)
    throw new MatchmakerError("invalid_config", `${label}: ${problem.field}: ${problem.message}`, problem.field);
}
