/**
 * Every queue option once: its schema (valibot), default, unit and limits. The engine's, the
 * room's and the simulator's views (see `views.ts`) are built from these entries, so a bound
 * or a default cannot drift between them. Adding a queue option is one entry here (in
 * {@link ENGINE_FIELDS} when the engine reads it, in {@link ROOM_FIELDS} when only the room
 * does), its line in the option interface, and its use.
 *
 * Units: durations are milliseconds and their names end in `Ms`.
 */
import * as v from "valibot";
import { DEFAULT_AVOID_RECENT_FALLBACK_MS } from "../core/recent-opponents.js";
import { unknownKeyMessage } from "../core/validation.js";
import { ZonesSchema } from "../core/zones.js";
import { CriteriaSchema } from "../core/criteria.js";
import { parseAddressBlock } from "../server/ip-address.js";
import type { PlayersOption } from "./player-options.js";
import type { BlockRule } from "../core/blocks.js";

/** Defaults of the queue options (and of the settings derived from them). */
export const DEFAULTS = {
  /** The policy of a queue without roles. */
  policy: "greedy",
  /** The policy of a role queue: the only built-in one that forms role-valid games. */
  rolePolicy: "roles",
  tickMs: 1000,
  /** The shared figures refresh at most this often, whatever the join rate. */
  figuresIntervalMs: 1000,
  /** A waiting player hears `status` at most this often (and only when something it cares about moved). */
  statusIntervalMs: 2000,
  /** Joins and leaves run the policy at most this often: under load, the joins of one interval are matched in one run. */
  joinBatchMs: 20,
  /** Messages one client may send per second before it is disconnected: far above any honest client. */
  maxMessagesPerSecond: 20,
  /** After a game room fails to start, the wait before the next attempt at that room type; it doubles per failure in a row. */
  spawnRetryMs: 1000,
  /** The longest wait between two attempts at a failing game room type (or spawnRetryMs, if longer). */
  spawnRetryMaxMs: 30_000,
  rating: { min: 0, max: 10_000 },
  /** Recent matches the statistics cover. */
  statsWindow: 200,
  fillWithBots: false,
  avoidRecentFallbackMs: DEFAULT_AVOID_RECENT_FALLBACK_MS,
  reconnectGraceMs: 0,
  allowPartialParties: false,
  /**
   * Joins one address may make: 50 at once (a LAN party, a whole team behind one NAT), then 10 a
   * second; a single client looping joins made about 300 a second.
   */
  joinRateLimit: { perSecond: 10, burst: 50 },
  /** A second join of an account already in the queue is refused (the first keeps its place). */
  duplicateAccount: "refuse",
  /** `status`'s wait estimate: band width is the rating range over `bandsPerRange`. */
  waitEstimate: { bandsPerRange: 20, window: 50, minSamples: 3 },
  /** With `players`: the longest `players.resolve` may take before the join is refused. */
  playersTimeoutMs: 5000,
  /** With `players`: the join options clients may still send (their choices, not who they are). */
  playersClientOptions: ["side", "zones", "roles", "latencies", "criteria", "party", "partyCode"],
  /**
   * The cost of breaking matches (see `src/colyseus/offences.ts`): offences count for 10 min; the
   * first costs the place only, the second holds the account out for 60 s, doubling per further
   * offence up to 15 min; one drop per window is forgiven. A player who answers its prompts and
   * takes its seats never reaches them.
   */
  penalties: {
    windowMs: 600_000,
    offencesBeforeCooldown: 1,
    cooldownMs: 60_000,
    maxCooldownMs: 900_000,
    forgivenDrops: 1,
  },
} as const;

/**
 * The join options a queue with `players` may let clients send (`players.clientOptions`).
 * `playerId` is not among them: in such a queue it is always the server's.
 */
export const CLIENT_OPTION_NAMES = [
  "rating",
  "uncertainty",
  "criteria",
  "side",
  "zones",
  "roles",
  "latencies",
  "party",
  "partyCode",
] as const;

/** The bounds of numeric queue options, for every view (the simulator's CLI reads them too). */
export const LIMITS = {
  teamSize: { min: 1, max: 16 },
  tickMs: { min: 10, max: 60_000 },
  figuresIntervalMs: { min: 0, max: 60_000 },
  statusIntervalMs: { min: 0, max: 600_000 },
  joinBatchMs: { min: 0, max: 1000 },
  maxMessagesPerSecond: { min: 1, max: 10_000 },
  spawnRetryMs: { min: 10, max: 600_000 },
  spawnRetryMaxMs: { min: 10, max: 3_600_000 },
  statsWindow: { min: 1, max: 100_000 },
  avoidRecent: { min: 1, max: 1000 },
  maxLatencyMs: { min: 1, max: 60_000 },
  readyCheckTimeoutMs: { min: 100, max: 120_000 },
  reconnectGraceMs: { min: 0, max: 600_000 },
  waitEstimateWindow: { min: 1, max: 10_000 },
  trafficTraceEvents: { min: 100, max: 5_000_000 },
  trustedProxies: { max: 256 },
  joinRatePerSecond: { min: 0.001, max: 10_000 },
  joinRateBurst: { min: 1, max: 100_000 },
  playersTimeoutMs: { min: 10, max: 60_000 },
  penaltyWindowMs: { min: 1000, max: 86_400_000 },
  penaltyCooldownMs: { min: 1000, max: 86_400_000 },
  penaltyCount: { min: 0, max: 100 },
  matchIdPrefixLength: 64,
} as const;

/**
 * Seconds (the simulator's CLI unit) as the whole milliseconds every option takes: the engine
 * keeps time in ms, so a finer duration would mean nothing.
 */
export function msFromSeconds(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** A whole number within `limits` (messages name the bound). */
function wholeNumber(
  limits: { readonly min: number; readonly max: number },
  { type = "must be a number", integer = "must be an integer" } = {},
) {
  return v.pipe(
    v.number(type),
    v.integer(integer),
    v.minValue(limits.min, limits.min === 0 ? "must not be negative" : `must be at least ${limits.min}`),
    v.maxValue(limits.max, `must be at most ${limits.max}`),
  );
}

/** A whole number of milliseconds at least `min`, unbounded above. */
function milliseconds(min: 0 | 1) {
  return v.pipe(
    v.number("must be a number of milliseconds"),
    v.integer("must be an integer"),
    v.minValue(min, min === 0 ? "must not be negative" : "must be positive"),
  );
}

const finite = v.pipe(v.number("must be a number"), v.finite("must be finite"));

/** A rating range whose bounds are finite and ordered. */
function ratingRange<S extends v.GenericSchema<unknown, { min: number; max: number }>>(fields: S) {
  return v.pipe(
    fields,
    v.check((r) => r.min < r.max, "min must be below max"),
  );
}

/**
 * The options both the engine and the room read, with their checks. The engine's schema takes
 * them as they are; the room's (strict) schema adds {@link ROOM_FIELDS}.
 */
export const ENGINE_FIELDS = {
  teamSize: wholeNumber(LIMITS.teamSize),
  statsWindow: v.optional(wholeNumber(LIMITS.statsWindow), DEFAULTS.statsWindow),
  maxWaitMs: v.optional(milliseconds(1)),
  fillWithBots: v.optional(v.boolean("must be true or false"), DEFAULTS.fillWithBots),
  roles: v.optional(v.array(v.string("must be a string"), "must be a list of role names")),
  avoidRecent: v.optional(wholeNumber(LIMITS.avoidRecent, { integer: "must be a whole number of games" })),
  avoidRecentFallbackMs: v.optional(milliseconds(0), DEFAULTS.avoidRecentFallbackMs),
  avoidRecentMs: v.optional(milliseconds(1)),
  maxLatencyMs: v.optional(wholeNumber(LIMITS.maxLatencyMs, { type: "must be a number of milliseconds" })),
  maxLatencyGrowthPerSecond: v.optional(
    v.pipe(
      v.number("must be a number of ms per second"),
      v.finite("must be finite"),
      v.minValue(0, "must not be negative"),
    ),
  ),
  maxLatencyCapMs: v.optional(wholeNumber(LIMITS.maxLatencyMs, { type: "must be a number of milliseconds" })),
  criteria: v.optional(CriteriaSchema),
  blocked: v.optional(
    v.custom<BlockRule>((x) => typeof x === "function", "must be a function (a, b) => boolean of two accounts"),
  ),
  targetWait: v.optional(
    v.strictObject(
      {
        waitMs: milliseconds(1),
        percentile: v.optional(
          v.pipe(v.number("must be a number"), v.gtValue(0, "must be above 0"), v.ltValue(100, "must be below 100")),
        ),
        gain: v.optional(v.pipe(v.number("must be a number"), v.gtValue(0, "must be positive"), v.maxValue(1))),
      },
      unknownKeyMessage,
    ),
  ),
};

/** Options only the engine has: the room derives them (from `rating` and its roomId). */
export const ENGINE_ONLY_FIELDS = {
  matchIdPrefix: v.optional(
    v.pipe(
      v.string("must be a string"),
      v.maxLength(LIMITS.matchIdPrefixLength, `must be at most ${LIMITS.matchIdPrefixLength} characters`),
    ),
  ),
  ratingRange: v.optional(ratingRange(v.object({ min: finite, max: finite }))),
};

const ms = (limits: { readonly min: number; readonly max: number }) =>
  wholeNumber(limits, { type: "must be a number of milliseconds" });

/** The queue option `penalties` as an object (see {@link DEFAULTS}.penalties). */
const PenaltiesSchema = v.pipe(
  v.strictObject(
    {
      windowMs: v.optional(ms(LIMITS.penaltyWindowMs)),
      offencesBeforeCooldown: v.optional(wholeNumber(LIMITS.penaltyCount)),
      cooldownMs: v.optional(ms(LIMITS.penaltyCooldownMs)),
      maxCooldownMs: v.optional(ms(LIMITS.penaltyCooldownMs)),
      forgivenDrops: v.optional(wholeNumber(LIMITS.penaltyCount)),
    },
    unknownKeyMessage,
  ),
  v.forward(
    v.check(
      (p) => p.maxCooldownMs === undefined || p.maxCooldownMs >= (p.cooldownMs ?? DEFAULTS.penalties.cooldownMs),
      `must be at least cooldownMs (default ${DEFAULTS.penalties.cooldownMs})`,
    ),
    ["maxCooldownMs"],
  ),
);

/** Options only the queue room has (beside {@link ENGINE_FIELDS}); `policy`, `params`, `imbalance` and `zones` are given to the engine, which checks them in full. */
export const ROOM_FIELDS = {
  gameRoom: v.pipe(v.string("must be the name of a registered room"), v.minLength(1, "must not be empty")),
  policy: v.optional(v.pipe(v.string("must be a policy name"), v.minLength(1, "must not be empty"))),
  params: v.optional(v.record(v.string(), v.unknown()), {}),
  tickMs: v.optional(wholeNumber(LIMITS.tickMs), DEFAULTS.tickMs),
  figuresIntervalMs: v.optional(wholeNumber(LIMITS.figuresIntervalMs), DEFAULTS.figuresIntervalMs),
  statusIntervalMs: v.optional(wholeNumber(LIMITS.statusIntervalMs), DEFAULTS.statusIntervalMs),
  joinBatchMs: v.optional(wholeNumber(LIMITS.joinBatchMs), DEFAULTS.joinBatchMs),
  maxMessagesPerSecond: v.optional(wholeNumber(LIMITS.maxMessagesPerSecond), DEFAULTS.maxMessagesPerSecond),
  spawnRetryMs: v.optional(
    wholeNumber(LIMITS.spawnRetryMs, { type: "must be a number of milliseconds" }),
    DEFAULTS.spawnRetryMs,
  ),
  // Its default depends on spawnRetryMs (see spawnBackoffTimingOf).
  spawnRetryMaxMs: v.optional(wholeNumber(LIMITS.spawnRetryMaxMs, { type: "must be a number of milliseconds" })),
  rating: v.optional(
    ratingRange(
      v.strictObject(
        { min: v.optional(finite, DEFAULTS.rating.min), max: v.optional(finite, DEFAULTS.rating.max) },
        unknownKeyMessage,
      ),
    ),
    { ...DEFAULTS.rating },
  ),
  gameRoomOptions: v.optional(v.record(v.string(), v.unknown()), {}),
  // Checked in full by the engine (resolveImbalance), which names the bad field.
  imbalance: v.optional(v.looseObject({ kind: v.string('must name a kind, e.g. "alman-mckay"') })),
  zones: v.optional(ZonesSchema),
  readyCheck: v.optional(
    v.strictObject(
      { timeoutMs: wholeNumber(LIMITS.readyCheckTimeoutMs, { type: "must be a number of milliseconds" }) },
      unknownKeyMessage,
    ),
  ),
  reconnectGraceMs: v.optional(
    wholeNumber(LIMITS.reconnectGraceMs, { type: "must be a number of milliseconds" }),
    DEFAULTS.reconnectGraceMs,
  ),
  allowPartialParties: v.optional(v.boolean("must be true or false"), DEFAULTS.allowPartialParties),
  duplicateAccount: v.optional(
    v.picklist(["refuse", "replace"], 'must be "refuse" or "replace"'),
    DEFAULTS.duplicateAccount,
  ),
  trafficTrace: v.optional(
    v.strictObject({ events: v.optional(wholeNumber(LIMITS.trafficTraceEvents)) }, unknownKeyMessage),
  ),
  trustedProxies: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string("must be an IP address or a CIDR block"),
          v.check(
            (entry) => parseAddressBlock(entry) !== undefined,
            'must be an IP address or a CIDR block, e.g. "10.0.0.5" or "10.0.0.0/8"',
          ),
        ),
        "must be a list of the proxies' addresses",
      ),
      v.maxLength(LIMITS.trustedProxies.max, `must list at most ${LIMITS.trustedProxies.max} entries`),
    ),
  ),
  joinRateLimit: v.optional(
    v.strictObject(
      {
        perSecond: v.optional(
          v.pipe(
            finite,
            v.minValue(LIMITS.joinRatePerSecond.min, `must be at least ${LIMITS.joinRatePerSecond.min}`),
            v.maxValue(LIMITS.joinRatePerSecond.max, `must be at most ${LIMITS.joinRatePerSecond.max}`),
          ),
          DEFAULTS.joinRateLimit.perSecond,
        ),
        burst: v.optional(wholeNumber(LIMITS.joinRateBurst), DEFAULTS.joinRateLimit.burst),
      },
      unknownKeyMessage,
    ),
    { ...DEFAULTS.joinRateLimit },
  ),
  players: v.optional(
    v.strictObject(
      {
        resolve: v.custom<PlayersOption["resolve"]>(
          (f) => typeof f === "function",
          "must be a function from the join request to the player's fields",
        ),
        clientOptions: v.optional(
          v.pipe(
            v.array(
              v.picklist(
                CLIENT_OPTION_NAMES,
                `must be one of ${CLIENT_OPTION_NAMES.join(", ")} (playerId always comes from players.resolve)`,
              ),
              "must be a list of join option names",
            ),
            v.check((list) => new Set(list).size === list.length, "must not name an option twice"),
          ),
          () => [...DEFAULTS.playersClientOptions],
        ),
        timeoutMs: v.optional(
          wholeNumber(LIMITS.playersTimeoutMs, { type: "must be a number of milliseconds" }),
          DEFAULTS.playersTimeoutMs,
        ),
      },
      unknownKeyMessage,
    ),
  ),
  // `false` turns penalties off; an object sets some of them (the rest keep their defaults).
  penalties: v.optional(
    v.lazy((input) => (input === false ? v.literal(false) : PenaltiesSchema)),
    {},
  ),
  waitEstimate: v.optional(
    v.strictObject(
      {
        bandWidth: v.optional(v.pipe(finite, v.gtValue(0, "must be positive"))),
        window: v.optional(wholeNumber(LIMITS.waitEstimateWindow)),
        minSamples: v.optional(wholeNumber(LIMITS.waitEstimateWindow)),
      },
      unknownKeyMessage,
    ),
    {},
  ),
};
