/**
 * The room's two kinds of input: the queue's configuration (trusted, from `defineRoom`,
 * checked once at creation) and each client's join options (untrusted, checked at the edge).
 */
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import type { ImbalanceSpec } from "../core/imbalance.js";
import { queueRolesProblem } from "../core/roles.js";
import { describeIssues, parseConfig, unknownKeyMessage } from "../core/validation.js";
import type { Side } from "../core/types.js";
import { resolveZones, ZonesSchema, type ZoneOption, type ZoneSpec } from "../core/zones.js";
import { PARTY_CODE_PATTERN } from "./parties.js";

/** Configuration of one queue: the second argument of `defineRoom(MatchmakerRoom, …)`. */
export interface MatchmakerRoomOptions {
  /** Players per team; each game seats `2 * teamSize`. 1 to 16. */
  teamSize: number;
  /** Name of the registered room type spawned for each match. */
  gameRoom: string;
  /** A registered policy name (default `"greedy"`; `"roles"` when the queue has `roles`). */
  policy?: string;
  /** Parameters of the policy. */
  params?: Record<string, unknown>;
  /** How often the policy runs without any join (ms, default 1000). */
  tickMs?: number;
  /** The shared `figures` (every client's state) refresh at most this often, whatever the join rate (ms, default 1000). */
  figuresIntervalMs?: number;
  /** A waiting player hears `status` at most this often, and only when something it cares about moved (ms, default 2000). */
  statusIntervalMs?: number;
  /** Accepted rating range of join options (default 0 to 10,000). */
  rating?: { min?: number; max?: number };
  /** Extra options given to every spawned game room beside `match`. */
  gameRoomOptions?: Record<string, unknown>;
  /** How many recent matches the figures cover (default 200). */
  statsWindow?: number;
  /** Maximum wait (ms): policies relax for tickets that reach it; see `fillWithBots`. */
  maxWaitMs?: number;
  /** Fill a game with bots for a ticket that reached `maxWaitMs` (the game room sees which seats). */
  fillWithBots?: boolean;
  /** How team splits are scored (default `{ kind: "rating-sum" }`). */
  imbalance?: ImbalanceSpec;
  /**
   * Makes this a role queue: exactly `teamSize` distinct role names (teamSize at most 8), e.g.
   * `["top", "jungle", "mid", "bot", "support"]`. Players then join with the `roles` they accept,
   * each team gets one player per role, and the game room learns every player's `role`.
   * The policy defaults to `"roles"`, the only built-in policy that forms role-valid games.
   */
  roles?: string[];
  /**
   * The queue's zones (Xu, Yu and Wu's zones), e.g. `["junior", { name: "advanced", minRating:
   * 1800 }]`: one policy instance per zone; a zone with `minRating`/`maxRating` admits only
   * ratings in that band. Players join with the `zones` they accept (several, or none for every
   * zone that admits their rating: choice-free); the game room learns the `zone` of its match.
   */
  zones?: ZoneOption[];
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
   * How the `status` message's estimated wait is computed: recent waits are kept per class of
   * ticket (party size, side, zone, rating band of `bandWidth`, default a twentieth of the
   * rating range), `window` waits per class (default 50), and a class needs `minSamples` waits
   * (default 3) before it is used rather than a coarser one.
   */
  waitEstimate?: { bandWidth?: number; window?: number; minSamples?: number };
  /**
   * Avoid rematches: each player's last `avoidRecent` games (opponents and teammates) are
   * remembered, by the join option `playerId` (else the session id), and policies that search
   * (`greedy`, `fifo`, `lifo`, `expanding-window`, `brackets`) prefer games without a repeat.
   */
  avoidRecent?: number;
  /** With `avoidRecent`: wait (ms) after which a repeat is accepted (default 30,000). */
  avoidRecentFallbackMs?: number;
  /** With `avoidRecent`: only games of the last that many ms count (default: however old). */
  avoidRecentMs?: number;
}

const RoomOptionsSchema = v.strictObject(
  {
    teamSize: v.pipe(
      v.number("must be a number"),
      v.integer("must be an integer"),
      v.minValue(1, "must be at least 1"),
      v.maxValue(16, "must be at most 16"),
    ),
    gameRoom: v.pipe(v.string("must be the name of a registered room"), v.minLength(1, "must not be empty")),
    policy: v.optional(v.pipe(v.string("must be a policy name"), v.minLength(1, "must not be empty")), "greedy"),
    params: v.optional(v.record(v.string(), v.unknown()), {}),
    tickMs: v.optional(
      v.pipe(
        v.number(),
        v.integer("must be an integer"),
        v.minValue(10, "must be at least 10"),
        v.maxValue(60_000, "must be at most 60000"),
      ),
      1000,
    ),
    figuresIntervalMs: v.optional(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0), v.maxValue(60_000)),
      1000,
    ),
    statusIntervalMs: v.optional(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0), v.maxValue(600_000)),
      2000,
    ),
    rating: v.optional(
      v.pipe(
        v.strictObject(
          {
            min: v.optional(v.pipe(v.number(), v.finite("must be finite")), 0),
            max: v.optional(v.pipe(v.number(), v.finite("must be finite")), 10_000),
          },
          unknownKeyMessage,
        ),
        v.check((r) => r.min < r.max, "min must be below max"),
      ),
      { min: 0, max: 10_000 },
    ),
    gameRoomOptions: v.optional(v.record(v.string(), v.unknown()), {}),
    statsWindow: v.optional(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1), v.maxValue(100_000)),
      200,
    ),
    maxWaitMs: v.optional(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be positive"))),
    fillWithBots: v.optional(v.boolean("must be true or false"), false),
    // Checked in full by the engine (resolveImbalance), which names the bad field.
    imbalance: v.optional(v.looseObject({ kind: v.string('must name a kind, e.g. "alman-mckay"') })),
    roles: v.optional(v.array(v.string("must be a role name"), "must be a list of role names")),
    zones: v.optional(ZonesSchema),
    readyCheck: v.optional(
      v.strictObject(
        {
          timeoutMs: v.pipe(
            v.number("must be a number of milliseconds"),
            v.integer("must be an integer"),
            v.minValue(100, "must be at least 100"),
            v.maxValue(120_000, "must be at most 120000"),
          ),
        },
        unknownKeyMessage,
      ),
    ),
    reconnectGraceMs: v.optional(
      v.pipe(
        v.number("must be a number of milliseconds"),
        v.integer("must be an integer"),
        v.minValue(0, "must not be negative"),
        v.maxValue(600_000, "must be at most 600000"),
      ),
      0,
    ),
    allowPartialParties: v.optional(v.boolean("must be true or false"), false),
    waitEstimate: v.optional(
      v.strictObject(
        {
          bandWidth: v.optional(
            v.pipe(v.number("must be a number"), v.finite("must be finite"), v.gtValue(0, "must be positive")),
          ),
          window: v.optional(
            v.pipe(
              v.number(),
              v.integer("must be an integer"),
              v.minValue(1, "must be at least 1"),
              v.maxValue(10_000, "must be at most 10000"),
            ),
          ),
          minSamples: v.optional(
            v.pipe(
              v.number(),
              v.integer("must be an integer"),
              v.minValue(1, "must be at least 1"),
              v.maxValue(10_000, "must be at most 10000"),
            ),
          ),
        },
        unknownKeyMessage,
      ),
      {},
    ),
    avoidRecent: v.optional(
      v.pipe(
        v.number(),
        v.integer("must be a whole number of games"),
        v.minValue(1, "must be at least 1"),
        v.maxValue(1000, "must be at most 1000"),
      ),
    ),
    avoidRecentFallbackMs: v.optional(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must not be negative")),
    ),
    avoidRecentMs: v.optional(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be positive"))),
  },
  unknownKeyMessage,
);

export type ResolvedRoomOptions = v.InferOutput<typeof RoomOptionsSchema>;

/** Check a queue's configuration; throws `MatchmakerError("invalid_config")` naming every bad field. */
export function parseRoomOptions(options: unknown): ResolvedRoomOptions {
  const parsed = parseConfig("MatchmakerRoom options", RoomOptionsSchema, options);
  if (parsed.fillWithBots && parsed.maxWaitMs === undefined) {
    throw new MatchmakerError("invalid_config", "MatchmakerRoom options: fillWithBots: needs maxWaitMs");
  }
  if (parsed.zones) resolveZones(parsed.zones, "MatchmakerRoom options");
  if (parsed.roles) {
    const problem = queueRolesProblem(parsed.roles, parsed.teamSize);
    if (problem) throw new MatchmakerError("invalid_config", `MatchmakerRoom options: roles: ${problem}`);
    // A role queue's natural policy; an explicit one is kept (and refused by the engine if it cannot serve roles).
    if ((options as { policy?: unknown }).policy === undefined) return { ...parsed, policy: "roles" };
  }
  return parsed;
}

/**
 * What a client may send when joining a queue (as parsed: a client may send `rank` instead of
 * `rating`, Colyseus `QueueRoom`'s name for it).
 */
export interface JoinOptions {
  /** The player's rating, within the queue's configured range (sent as `rating` or `rank`). */
  rating: number;
  /** The side this player insists on; absent means either side. */
  side?: Side;
  /** How uncertain the rating is (standard deviation), for the `win-probability` imbalance. */
  uncertainty?: number;
  /**
   * In a role queue (required there, refused elsewhere): the roles this player accepts, one or
   * more of the queue's roles, each at most once.
   */
  roles?: string[];
  /**
   * In a queue with zones: the zones this player accepts (one or more; absent means every zone
   * that admits the rating). Refused in a queue without zones.
   */
  zones?: string[];
  /**
   * Open a party of `size` players (2 to the queue's teamSize) led by this player; the leader
   * receives the party's code in a `party` message. Cannot be combined with `partyCode`.
   */
  party?: { size: number };
  /** Join the party with this code (from its leader). Members do not choose a `side`: the leader does. */
  partyCode?: string;
  /**
   * A stable player id (e.g. an account id) for the queue's recent-opponent history
   * (`avoidRecent`); the session id otherwise, which changes at every visit. Clients can send
   * any string: a game that needs it verified should set it from its own authentication.
   */
  playerId?: string;
}

/** The join option `party`: `{ size }`, 2 to teamSize; refused in a 1v1 queue. */
function joinPartySchema(teamSize: number | undefined): v.GenericSchema<unknown, { size: number } | undefined> {
  if (teamSize === undefined || teamSize < 2)
    return v.optional(v.custom<{ size: number }>(() => false, "this queue has no parties (1v1)"));
  return v.optional(
    v.strictObject(
      {
        size: v.pipe(
          v.number("must be a number"),
          v.integer("must be an integer"),
          v.minValue(2, "must be at least 2"),
          v.maxValue(teamSize, `must be at most ${teamSize} (the team size)`),
        ),
      },
      unknownKeyMessage,
    ),
  );
}

/** The join option `roles`: required and checked against the queue's roles in a role queue, refused otherwise. */
function joinRolesSchema(queueRoles: readonly string[] | undefined): v.GenericSchema<unknown, string[] | undefined> {
  if (!queueRoles) return v.optional(v.custom<string[]>(() => false, "this queue has no roles"));
  const names = queueRoles.join(", ");
  return v.pipe(
    v.array(v.picklist(queueRoles, `must be one of ${names}`), `must be a list of roles (one or more of ${names})`),
    v.minLength(1, `must list at least one of ${names}`),
    v.maxLength(queueRoles.length, `must list at most ${queueRoles.length} roles`),
    v.check((list) => new Set(list).size === list.length, "must not list a role twice"),
  );
}

/** A rating join option's checks against the queue's range (used for `rating` and its alias `rank`). */
function ratingSchema(range: { min: number; max: number }) {
  return v.pipe(
    v.number("must be a number"),
    v.finite("must be a finite number"),
    v.minValue(range.min, `must be at least ${range.min}`),
    v.maxValue(range.max, `must be at most ${range.max}`),
  );
}

/** The join option `zones`: names of the queue's zones, refused in a queue without zones. */
function joinZonesSchema(queueZones: readonly ZoneSpec[] | undefined): v.GenericSchema<unknown, string[] | undefined> {
  if (!queueZones) return v.optional(v.custom<string[]>(() => false, "this queue has no zones"));
  const names = queueZones.map((z) => z.name);
  return v.optional(
    v.pipe(
      v.array(
        v.picklist(names, `must be one of ${names.join(", ")}`),
        `must be a list of zones (one or more of ${names.join(", ")})`,
      ),
      v.minLength(1, `must list at least one of ${names.join(", ")}`),
      v.check((list) => new Set(list).size === list.length, "must not list a zone twice"),
    ),
  );
}

/**
 * The validator for one queue's join options (its rating range and, in a role queue, its roles
 * are part of the schema). `rank` is accepted as an alias of `rating`, so that clients written
 * for Colyseus's `QueueRoom` (which join with `{ rank }`) work unchanged; giving both with
 * different values is refused.
 */
export function joinOptionsSchema(
  range: { min: number; max: number },
  queueRoles?: readonly string[],
  teamSize?: number,
  queueZones?: readonly ZoneSpec[],
) {
  const fields = v.strictObject(
    {
      rating: v.optional(ratingSchema(range)),
      rank: v.optional(ratingSchema(range)),
      side: v.optional(v.picklist(["A", "B"], 'must be "A" or "B"')),
      uncertainty: v.optional(
        v.pipe(
          v.number("must be a number"),
          v.finite("must be a finite number"),
          v.minValue(0, "must not be negative"),
        ),
      ),
      roles: joinRolesSchema(queueRoles),
      zones: joinZonesSchema(queueZones),
      party: joinPartySchema(teamSize),
      partyCode: v.optional(
        v.pipe(v.string("must be a party code"), v.regex(PARTY_CODE_PATTERN, "must be a party code")),
      ),
      playerId: v.optional(
        v.pipe(
          v.string("must be a string"),
          v.minLength(1, "must not be empty"),
          v.maxLength(128, "must be at most 128 characters"),
        ),
      ),
    },
    unknownKeyMessage,
  );
  return v.pipe(
    fields,
    v.forward(
      v.partialCheck(
        [["party"], ["partyCode"]],
        (o) => o.party === undefined || o.partyCode === undefined,
        "cannot be combined with party",
      ),
      ["partyCode"],
    ),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const { rating, rank } = dataset.value;
      if (rating === undefined && rank === undefined) {
        addIssue({ message: "is required (or its alias rank)", path: [pathItem(dataset.value, "rating")] });
      } else if (rating !== undefined && rank !== undefined && rating !== rank) {
        addIssue({
          message: "is an alias of rating (QueueRoom's name for it): give one of them, or the same value",
          path: [pathItem(dataset.value, "rank")],
        });
      }
    }),
    v.transform(({ rating, rank, ...rest }): JoinOptions => ({ ...rest, rating: (rating ?? rank)! })),
  );
}

/** A valibot issue path item naming `key` of `input` (so the message reads "key: …"). */
function pathItem(input: Record<string, unknown>, key: string): v.ObjectPathItem {
  return { type: "object", origin: "value", input, key, value: input[key] };
}

export type JoinValidator = ReturnType<typeof joinOptionsSchema>;

/** Parsed join options, or a message naming each bad field. */
export function parseJoinOptions(
  validator: JoinValidator,
  input: unknown,
): { ok: true; value: JoinOptions } | { ok: false; message: string } {
  const result = v.safeParse(validator, input ?? {});
  return result.success ? { ok: true, value: result.output } : { ok: false, message: describeIssues(result.issues) };
}
