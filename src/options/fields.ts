/**
 * Every queue option once: its schema (valibot), default, unit, limits and documentation. The
 * option types (`MatchmakerRoomOptions`, `SharedQueueOptions`) are inferred from the entries
 * below, so each entry's TSDoc is what an editor shows for the option; the engine's and the
 * room's parsers (`queue-options.ts`) are built from the same entries, so a bound or a default
 * cannot drift between them. Adding a queue option is one entry here (in {@link ENGINE_FIELDS}
 * when the engine reads it, in {@link ROOM_FIELDS} when only the room does) and its use;
 * test/docs/option-tables.test.ts then asks for its row in docs/reference.md.
 *
 * A default is written once, in {@link DEFAULTS} (or beside the building block that applies it,
 * imported here); an entry's TSDoc states it with `@defaultValue` and its bounds as "A to B", and
 * the test above checks both against the schema.
 *
 * Units: durations are milliseconds and their names end in `Ms`.
 */
import * as v from "valibot";
import { DEFAULT_AVOID_RECENT_FALLBACK_MS } from "../core/recent-opponents.js";
import { unknownKeyMessage } from "../core/validation.js";
import { ZonesSchema } from "../core/zones.js";
import { CriteriaSchema } from "../core/criteria.js";
import { DEFAULT_IMBALANCE, type ImbalanceSpec } from "../core/imbalance.js";
import { WAIT_ESTIMATE_DEFAULTS } from "../core/wait-estimate.js";
import { DEFAULT_TARGET_WAIT_GAIN } from "../core/target-wait.js";
import { MAX_FREE_FOR_ALL, MAX_TEAMS, MAX_TEAM_SIZE } from "../core/shape.js";
import { parseAddressBlock } from "../server/ip-address.js";
import type { PlayerRequest, TrustedPlayer } from "./player-options.js";
import type { BlockRule } from "../core/blocks.js";
import type { Ratings } from "../ratings/ratings.js";

/**
 * Defaults of the queue options, at the options' own paths (`players.timeoutMs` is
 * `DEFAULTS.players.timeoutMs`), and of the settings derived from them.
 */
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
  imbalance: DEFAULT_IMBALANCE,
  avoidRecentFallbackMs: DEFAULT_AVOID_RECENT_FALLBACK_MS,
  targetWait: { gain: DEFAULT_TARGET_WAIT_GAIN },
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
  waitEstimate: {
    bandsPerRange: 20,
    window: WAIT_ESTIMATE_DEFAULTS.window,
    minSamples: WAIT_ESTIMATE_DEFAULTS.minSamples,
  },
  players: {
    /** The longest `players.resolve` may take before the join is refused. */
    timeoutMs: 5000,
    /** The join options clients may still send (their choices, not who they are). */
    clientOptions: ["side", "zones", "roles", "latencies", "criteria", "party", "partyCode"],
  },
  /** Events a traffic trace keeps: about 40 minutes of a queue with 10 arrivals a second, a few MB. */
  trafficTrace: { events: 50_000 },
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
  teamSize: { min: 1, max: MAX_TEAM_SIZE },
  teams: { min: 2, max: MAX_TEAMS },
  maxPlayers: { min: 2, max: MAX_FREE_FOR_ALL },
  countMultiple: { min: 1, max: MAX_FREE_FOR_ALL },
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
 * The options both the engine and the room read, with their checks and their documentation
 * (the type `SharedQueueOptions`). The engine's schema takes them as they are; the room's
 * (strict) schema adds {@link ROOM_FIELDS}.
 */
export const ENGINE_FIELDS = {
  /**
   * Players per team, 1 to 16: a game is `teams` teams of `teamSize`. Give `teamSize` for a team
   * game or `maxPlayers` alone for a free-for-all (one of the two is required).
   */
  teamSize: v.optional(wholeNumber(LIMITS.teamSize)),
  /**
   * Teams per game, 2 to 16, with `teamSize`; a team game seats no more than `MAX_TEAM_GAME`
   * players (`teams` × `teamSize`). Sides A and B exist only with two teams. Absent: two teams.
   */
  teams: v.optional(wholeNumber(LIMITS.teams)),
  /**
   * Players per game, 2 to 200. Alone, a free-for-all of `maxPlayers` (Colyseus `QueueRoom`'s
   * option of the same name); beside `teamSize`, games of `maxPlayers / teamSize` teams (as
   * QueueRoom's `maxPlayers` with `maxTeamSize`), and beside `teams` too it must equal `teams` ×
   * `teamSize`.
   */
  maxPlayers: v.optional(wholeNumber(LIMITS.maxPlayers)),
  /**
   * In a free-for-all: the fewest players a game may start with once its oldest player waited
   * `shortHandedAfterMs`, 2 to 200 and at most `maxPlayers`. Absent: games start full.
   */
  minPlayers: v.optional(wholeNumber(LIMITS.maxPlayers)),
  /**
   * In a free-for-all that starts short-handed: its player count is a multiple of this, 1 to 200
   * (Nakama's `count_multiple`), e.g. 2 for a game played in pairs. Absent: any count.
   */
  countMultiple: v.optional(wholeNumber(LIMITS.countMultiple)),
  /**
   * In a team game: the fewest players per team a game may start with once its oldest player
   * waited `shortHandedAfterMs`, 1 to 16 and at most `teamSize` (every team then has the same
   * number). Absent: games start full.
   */
  minTeamSize: v.optional(wholeNumber(LIMITS.teamSize)),
  /**
   * With `minPlayers` or `minTeamSize` below a full game: the wait (ms) after which a game
   * starts short-handed, with the most humans the queue can seat and at least the minimum; with
   * `fillWithBots`, bots take the empty seats.
   */
  shortHandedAfterMs: v.optional(milliseconds(1)),
  /**
   * How many recent matches the statistics cover, 1 to 100,000.
   * @defaultValue `200`
   */
  statsWindow: v.optional(wholeNumber(LIMITS.statsWindow), DEFAULTS.statsWindow),
  /**
   * Maximum wait (ms, a whole number, at least 1), Schlup's tau_max: policies relax for tickets
   * that reach it; with `fillWithBots`, such a ticket then plays at once with bots in the empty
   * seats. Absent: no maximum.
   */
  maxWaitMs: v.optional(milliseconds(1)),
  /**
   * Fill a game with bots for a ticket that reached `maxWaitMs` (needs `maxWaitMs`; the game room
   * sees which seats).
   * @defaultValue `false`
   */
  fillWithBots: v.optional(v.boolean("must be true or false"), DEFAULTS.fillWithBots),
  /**
   * Makes this a role queue (Alman and McKay's role-restricted queue): exactly `teamSize`
   * distinct, non-empty role names (a role queue's teams have 8 players or fewer), e.g. `["top",
   * "jungle", "mid", "bot", "support"]`. Players then list the roles they accept, each team gets
   * one player per role, and each matched player carries their `role`. The policy defaults to `"roles"`, the only
   * built-in policy that forms role-valid games.
   */
  roles: v.optional(v.array(v.string("must be a string"), "must be a list of role names")),
  /**
   * The queue's zones (Xu, Yu and Wu's zones, 1 to 32 of them), e.g. `["junior", { name:
   * "advanced", minRating: 1800 }]`: one policy instance per zone; a zone with
   * `minRating`/`maxRating` admits only ratings in that band. A ticket waits in the zones it
   * lists, or in every zone that admits its rating when it lists none (choice-free); each match
   * says its `zone`.
   */
  zones: v.optional(ZonesSchema),
  /**
   * Avoid rematches, 1 to 1000: each player's last `avoidRecent` games (opponents and
   * teammates) are remembered, by `Player.identity` (the join option `playerId`), else the
   * player's id, and policies that honour it prefer games without a repeat; others are refused.
   */
  avoidRecent: v.optional(wholeNumber(LIMITS.avoidRecent, { integer: "must be a whole number of games" })),
  /**
   * With `avoidRecent`: the wait (ms) after which a repeat is accepted.
   * @defaultValue `30000`
   */
  avoidRecentFallbackMs: v.optional(milliseconds(0), DEFAULTS.avoidRecentFallbackMs),
  /** With `avoidRecent`: only games of the last that many ms count (at least 1; absent: however old). */
  avoidRecentMs: v.optional(milliseconds(1)),
  /**
   * Regions by latency, in a queue with `zones` (1 to 60,000 ms): players then give their
   * `latencies` (ms to each zone) at join, and a ticket waits in every zone all its players reach
   * within this maximum; the match plays in the zone its players reach best among those all its
   * tickets wait in (the smallest worst latency). Players who reach no zone are refused.
   */
  maxLatencyMs: v.optional(wholeNumber(LIMITS.maxLatencyMs, { type: "must be a number of milliseconds" })),
  /** With `maxLatencyMs`: the maximum widens by this many ms per second a ticket waits (absent: it stays). */
  maxLatencyGrowthPerSecond: v.optional(
    v.pipe(
      v.number("must be a number of ms per second"),
      v.finite("must be finite"),
      v.minValue(0, "must not be negative"),
    ),
  ),
  /**
   * With `maxLatencyGrowthPerSecond`: the widest the maximum gets (1 to 60,000 ms, not below
   * `maxLatencyMs`; absent: without limit).
   */
  maxLatencyCapMs: v.optional(wholeNumber(LIMITS.maxLatencyMs, { type: "must be a number of milliseconds" })),
  /**
   * Criteria beside the rating (Schlup's D > 1), e.g. `[{ name: "thinkTime", min: 0, max: 60,
   * weight: 0.5 }]` (1 to 8 of them): players then give a value for each at join (`criteria: {
   * thinkTime: 12 }`), each match reports every criterion's dispersion (`quality.dispersion`), and
   * `multi-queue` divides every criterion into ranges; see docs/criteria.md for which policies
   * match on them.
   */
  criteria: v.optional(CriteriaSchema),
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
  blocked: v.optional(
    v.custom<BlockRule>((x) => typeof x === "function", "must be a function (a, b) => boolean of two accounts"),
  ),
  /**
   * The wait players accept: the queue turns its policy's patience online so that the mean wait
   * (or the `percentile`-th percentile) of matched players stays at `waitMs`, and the policy's
   * own rule makes the closest games it can within it (see `src/core/target-wait.ts`). The policy
   * must have a patience to turn (`expanding-window`, `difference-wait`, `density-window`).
   */
  targetWait: v.optional(
    v.strictObject(
      {
        /** The wait to hold (ms, at least 1). */
        waitMs: milliseconds(1),
        /** Hold this percentile of the waits (above 0, below 100) instead of the mean. */
        percentile: v.optional(
          v.pipe(v.number("must be a number"), v.gtValue(0, "must be above 0"), v.ltValue(100, "must be below 100")),
        ),
        /**
         * How fast the patience follows the traffic (above 0, at most 1): larger is faster and noisier.
         * @defaultValue `0.01`
         */
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
      /**
       * How long an offence counts (ms, 1,000 to 86,400,000).
       * @defaultValue `600000`
       */
      windowMs: v.optional(ms(LIMITS.penaltyWindowMs)),
      /**
       * Offences within a window that cost only the player's place (0 to 100); each further one
       * starts a cooldown.
       * @defaultValue `1`
       */
      offencesBeforeCooldown: v.optional(wholeNumber(LIMITS.penaltyCount)),
      /**
       * The first cooldown (ms, 1,000 to 86,400,000): the player is removed and its joins are
       * refused (429) meanwhile; it doubles per further offence.
       * @defaultValue `60000`
       */
      cooldownMs: v.optional(ms(LIMITS.penaltyCooldownMs)),
      /**
       * The longest cooldown (ms, 1,000 to 86,400,000, at least `cooldownMs`).
       * @defaultValue `900000`, or `cooldownMs` if that is longer
       */
      maxCooldownMs: v.optional(ms(LIMITS.penaltyCooldownMs)),
      /**
       * Drops (a lost connection, a leave) during a ready check per window that cost nothing (0 to 100).
       * @defaultValue `1`
       */
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

/** `players.resolve`: the player's fields for one join, from the server. */
type ResolvePlayer = (request: PlayerRequest) => TrustedPlayer | Promise<TrustedPlayer>;

/**
 * A `ratings` option: a `Ratings` ledger, told by the methods the queue calls (not `instanceof`, which
 * a second copy of the package, ESM beside CommonJS, would fail).
 */
const isRatings = (x: unknown): x is Ratings =>
  typeof x === "object" &&
  x !== null &&
  ["ratingsOf", "openMatch", "reportResult"].every(
    (name) => typeof (x as Record<string, unknown>)[name] === "function",
  );

/** An `imbalance` option: an object naming its kind; the engine checks the rest (resolveImbalance). */
const isImbalanceSpec = (x: unknown): x is ImbalanceSpec =>
  typeof x === "object" && x !== null && typeof (x as { kind?: unknown }).kind === "string";

/**
 * Options only the queue room has (beside {@link ENGINE_FIELDS}), with their checks and their
 * documentation; `policy`, `params` and `imbalance` are given to the engine, which checks them in
 * full.
 */
export const ROOM_FIELDS = {
  /** Name of the registered room type spawned for each match. */
  gameRoom: v.pipe(v.string("must be the name of a registered room"), v.minLength(1, "must not be empty")),
  /**
   * A registered policy name.
   * @defaultValue `"greedy"`; `"roles"` when the queue has `roles`
   */
  policy: v.optional(v.pipe(v.string("must be a policy name"), v.minLength(1, "must not be empty"))),
  /**
   * Parameters of the policy (see docs/policies.md).
   * @defaultValue `{}`
   */
  params: v.optional(v.record(v.string(), v.unknown()), {}),
  /**
   * How often (ms, 10 to 60,000) the queue runs its policy without any join.
   * @defaultValue `1000`
   */
  tickMs: v.optional(wholeNumber(LIMITS.tickMs), DEFAULTS.tickMs),
  /**
   * The shared `figures` (every client's state) refresh at most this often, whatever the join
   * rate (ms, 0 to 60,000).
   * @defaultValue `1000`
   */
  figuresIntervalMs: v.optional(wholeNumber(LIMITS.figuresIntervalMs), DEFAULTS.figuresIntervalMs),
  /**
   * A waiting player hears `status` at most this often, and only when something it cares about
   * moved (ms, 0 to 600,000).
   * @defaultValue `2000`
   */
  statusIntervalMs: v.optional(wholeNumber(LIMITS.statusIntervalMs), DEFAULTS.statusIntervalMs),
  /**
   * Joins and leaves run the policy at most once per this interval (ms, 0 to 1,000). A join after
   * a quiet interval is matched at once; under load, the joins of one interval are matched
   * together at its end (at most this much later), and their players' first `status` goes out
   * after that run, so a player matched by it hears `seat` without a `status` first. 0: the
   * policy runs on every join and leave.
   * @defaultValue `20`
   */
  joinBatchMs: v.optional(wholeNumber(LIMITS.joinBatchMs), DEFAULTS.joinBatchMs),
  /**
   * Messages one client may send per second (1 to 10,000); a client that sends more is
   * disconnected (Colyseus's `maxMessagesPerSecond`, unlimited by default), so one client cannot
   * make the queue run its engine thousands of times a second for everyone else.
   * @defaultValue `20`
   */
  maxMessagesPerSecond: v.optional(wholeNumber(LIMITS.maxMessagesPerSecond), DEFAULTS.maxMessagesPerSecond),
  /**
   * After the game room fails to start (its `onCreate` throws, its seats cannot be reserved), the
   * wait before the next attempt at that room type (ms, 10 to 600,000); it doubles with each
   * failure in a row, up to `spawnRetryMaxMs`. Meanwhile the queue forms no match for that room
   * type: players keep waiting at their places, and those of a failed match hear once that it is
   * delayed (`requeued`, reason `spawn_failed`, with `retryInMs`).
   * @defaultValue `1000`
   */
  spawnRetryMs: v.optional(
    wholeNumber(LIMITS.spawnRetryMs, { type: "must be a number of milliseconds" }),
    DEFAULTS.spawnRetryMs,
  ),
  // Its default depends on spawnRetryMs (see spawnBackoffTimingOf), so the schema has none.
  /**
   * The longest wait between two attempts at a failing game room type (ms, 10 to 3,600,000, at
   * least `spawnRetryMs`).
   * @defaultValue `30000`, or `spawnRetryMs` if that is longer
   */
  spawnRetryMaxMs: v.optional(wholeNumber(LIMITS.spawnRetryMaxMs, { type: "must be a number of milliseconds" })),
  /** Accepted rating range of join options. */
  rating: v.optional(
    ratingRange(
      v.strictObject(
        {
          /**
           * The lowest rating a join may give (below `max`).
           * @defaultValue `0`
           */
          min: v.optional(finite, DEFAULTS.rating.min),
          /**
           * The highest rating a join may give.
           * @defaultValue `10000`
           */
          max: v.optional(finite, DEFAULTS.rating.max),
        },
        unknownKeyMessage,
      ),
    ),
    { ...DEFAULTS.rating },
  ),
  /**
   * Extra options given to every spawned game room beside `match`.
   * @defaultValue `{}`
   */
  gameRoomOptions: v.optional(v.record(v.string(), v.unknown()), {}),
  // Checked in full by the engine (resolveImbalance), which names the bad field.
  /**
   * How team splits are scored (see docs/policies.md#imbalance-how-a-split-is-scored).
   * @defaultValue `{ kind: "rating-sum" }`
   */
  imbalance: v.optional(v.custom<ImbalanceSpec>(isImbalanceSpec, 'must name a kind, e.g. { kind: "alman-mckay" }')),
  /**
   * Ready check: when a match forms, every player receives `match_found` and must `accept`
   * within `timeoutMs`. The game room is created only once all accepted; decliners and players
   * who time out are removed, everyone else waits again at their place.
   */
  readyCheck: v.optional(
    v.strictObject(
      {
        /** How long players have to accept (ms, 100 to 120,000). */
        timeoutMs: wholeNumber(LIMITS.readyCheckTimeoutMs, { type: "must be a number of milliseconds" }),
      },
      unknownKeyMessage,
    ),
  ),
  /**
   * How long (ms, 0 to 600,000; 0: off) a client whose connection drops unexpectedly keeps its
   * place (Colyseus reconnection). If it is matched meanwhile, its place in the match is held
   * within the grace; if it does not return, that counts as declining.
   * @defaultValue `0`
   */
  reconnectGraceMs: v.optional(
    wholeNumber(LIMITS.reconnectGraceMs, { type: "must be a number of milliseconds" }),
    DEFAULTS.reconnectGraceMs,
  ),
  /**
   * Whether a party leader may `start` matching before the party is complete.
   * @defaultValue `false`
   */
  allowPartialParties: v.optional(v.boolean("must be true or false"), DEFAULTS.allowPartialParties),
  /**
   * What a join does when its account (`playerId`) is already in the queue, in any place (a
   * forming party, waiting, a ready check, a game being created, a seat not yet taken): one
   * account, one place. `"refuse"`: the join is refused (525, naming `playerId`) and the first
   * session keeps its place. `"replace"`: the first session is told `removed` (reason
   * `replaced`) and closed, and the new one takes its place where that is safe: a waiting solo
   * ticket keeps its enqueue time, a party member's slot (joining with the party's code) keeps the
   * party; in a ready check, a game being created or with a seat sent, the join is refused as with
   * `"refuse"`. Use `"replace"` only with a `playerId` the server sets: with a client-declared one,
   * anyone who knows an account's id could take its place.
   * @defaultValue `"refuse"`
   */
  duplicateAccount: v.optional(
    v.picklist(["refuse", "replace"], 'must be "refuse" or "replace"'),
    DEFAULTS.duplicateAccount,
  ),
  /**
   * Record the queue's traffic (arrivals, departures, games and the engine's ticks; no player
   * identity) in a ring buffer, served to operators by `matchmakerTraces()` and replayed with
   * `npm run sim -- --trace FILE`. Off when absent.
   */
  trafficTrace: v.optional(
    v.strictObject(
      {
        /**
         * Events the ring buffer keeps (100 to 5,000,000).
         * @defaultValue `50000`
         */
        events: v.optional(wholeNumber(LIMITS.trafficTraceEvents), DEFAULTS.trafficTrace.events),
      },
      unknownKeyMessage,
    ),
  ),
  /**
   * The proxies in front of this server that the queue believes (addresses or CIDR blocks, e.g.
   * `["10.0.0.5", "10.1.0.0/16"]`, at most 256). Per-address limits (joins, party codes) key on the
   * connection's own address; only when that address is one of these does the queue read the
   * client's address from `X-Forwarded-For` (its right-most hop that is not a trusted proxy), else
   * `X-Real-IP`. Absent: those headers are never read (anyone can write them).
   */
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
  /**
   * Joins one address may make: `burst` at once, then `perSecond` as they refill. A join over it
   * is refused with code 429, `too many joins from your address; try again in N s`. An IPv6
   * address counts by its /64. Kept per queue name and process, through the queue room's disposal.
   */
  joinRateLimit: v.optional(
    v.strictObject(
      {
        /**
         * Joins per second as the allowance refills (0.001 to 10,000).
         * @defaultValue `10`
         */
        perSecond: v.optional(
          v.pipe(
            finite,
            v.minValue(LIMITS.joinRatePerSecond.min, `must be at least ${LIMITS.joinRatePerSecond.min}`),
            v.maxValue(LIMITS.joinRatePerSecond.max, `must be at most ${LIMITS.joinRatePerSecond.max}`),
          ),
          DEFAULTS.joinRateLimit.perSecond,
        ),
        /**
         * Joins at once (1 to 100,000).
         * @defaultValue `50`
         */
        burst: v.optional(wholeNumber(LIMITS.joinRateBurst), DEFAULTS.joinRateLimit.burst),
      },
      unknownKeyMessage,
    ),
    { ...DEFAULTS.joinRateLimit },
  ),
  /**
   * Trusted players: who each joining client is, and its rating, come from the server.
   * `resolve(request)` turns a join (the client's auth token, what a static `onAuth` returned, its
   * checked join options) into `{ playerId, rating, uncertainty?, criteria? }`, from the game's own
   * accounts and storage (it may be async). A client that sends a field the server sets
   * (`rating`/`rank`, `playerId`, `uncertainty`) is refused by name; `clientOptions` lists what
   * clients may still send. Absent: every field is the client's word, untrusted.
   * See docs/players.md#trusted-players.
   */
  players: v.optional(
    v.strictObject(
      {
        /**
         * The player's fields for one join, from the server (verify `request.token`, look the
         * account up). Throw `PlayerRefused` to refuse with a message for the client; any other
         * error, an answer that is not a valid `TrustedPlayer`, or no answer within `timeoutMs`
         * refuses the join too (525), and the queue keeps serving everyone else.
         */
        resolve: v.custom<ResolvePlayer>(
          (f) => typeof f === "function",
          "must be a function from the join request to the player's fields",
        ),
        /**
         * The join options clients may still send. Any other is refused by name, e.g. `rating: this
         * queue takes ratings from the server; do not send it`. Name `rating` (or `uncertainty`,
         * `criteria`) here for a queue whose accounts are the server's but whose ratings are the
         * client's word. `playerId` is always the server's.
         * @defaultValue `["side", "zones", "roles", "latencies", "criteria", "party", "partyCode"]`
         */
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
          () => [...DEFAULTS.players.clientOptions],
        ),
        /**
         * The longest `resolve` may take (ms, 10 to 60,000): a join not resolved by then is refused.
         * @defaultValue `5000`
         */
        timeoutMs: v.optional(
          wholeNumber(LIMITS.playersTimeoutMs, { type: "must be a number of milliseconds" }),
          DEFAULTS.players.timeoutMs,
        ),
      },
      unknownKeyMessage,
    ),
  ),
  /**
   * Ratings learned from results (a ranked queue): `new Ratings({ store })`. Every join's rating and
   * uncertainty then come from it (by the account `players.resolve` gave), clamped into the queue's
   * `rating` range; each match is opened in it before any seat is sent (`MatchInfo.rated`), and the
   * game room reports the result with `ratings.reportResult(match, result)`. Needs `players`, whose
   * `resolve` then answers no rating and whose `clientOptions` names neither `rating` nor
   * `uncertainty`. See docs/ratings.md.
   */
  ratings: v.optional(v.custom<Ratings>(isRatings, "must be a Ratings (new Ratings({ store }))")),
  /**
   * The cost of breaking matches others were ready for: declining a ready check, letting it time
   * out while connected, letting a seat expire unused while connected to the queue, or (past
   * `forgivenDrops` per window) dropping or leaving during a ready check. Counted per account (the
   * join's `playerId`, else the client's network address) for as long as the queue's name lives.
   * Within `windowMs`, the first `offencesBeforeCooldown` offences cost the player its place (a
   * decliner is removed and may rejoin at the back; a seat left to expire puts its ticket back at
   * the back); each further one removes it and refuses its joins (429) for a cooldown of
   * `cooldownMs`, doubled per further offence up to `maxCooldownMs`. `false`: off; an object sets
   * some of the fields, the rest keep their defaults.
   * @defaultValue `{}` (on, every field at its default)
   */
  penalties: v.optional(
    v.lazy((input) => (input === false ? v.literal(false) : PenaltiesSchema)),
    {},
  ),
  /**
   * How the `status` message's estimated wait is computed: recent waits are kept per class of
   * ticket (party size, side, zone, rating band).
   * @defaultValue `{}` (every field at its default)
   */
  waitEstimate: v.optional(
    v.strictObject(
      {
        /**
         * The width of a class's rating band (above 0).
         * @defaultValue the rating range / 20
         */
        bandWidth: v.optional(v.pipe(finite, v.gtValue(0, "must be positive"))),
        /**
         * Recent waits kept per class (1 to 10,000).
         * @defaultValue `50`
         */
        window: v.optional(wholeNumber(LIMITS.waitEstimateWindow)),
        /**
         * Waits a class needs before it is used rather than a coarser one (1 to 10,000).
         * @defaultValue `3`
         */
        minSamples: v.optional(wholeNumber(LIMITS.waitEstimateWindow)),
      },
      unknownKeyMessage,
    ),
    {},
  ),
};
