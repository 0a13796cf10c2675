/**
 * Each client's join options: untrusted, checked at the edge against the queue's configuration
 * (its rating range, roles, the shape of its games and its zones). Their shape, `JoinOptions`, is declared beside the
 * queue's own options (`src/options/player-options.ts`).
 */
import * as v from "valibot";
import { MatchmakerError } from "../core/errors.js";
import { describeIssues, unknownKeyMessage } from "../core/validation.js";
import type { ZoneSpec } from "../core/zones.js";
import { MAX_REPORTED_LATENCY_MS } from "../core/zone-latency.js";
import { PARTY_CODE_PATTERN } from "./parties.js";
import type { Criterion } from "../core/criteria.js";
import type { JoinOptions } from "../options/player-options.js";
import { describeShape, hasSides, maxPartyOf, type GameShape } from "../core/shape.js";

/**
 * Join options a queue refuses by name, with the message (`"rating"` refuses `rank` too), e.g.
 * `{ rating: "this queue takes ratings from the server; do not send it" }`.
 */
export type RefusedJoinOptions = Readonly<Partial<Record<keyof JoinOptions, string>>>;

/**
 * The join option `party`: `{ size }`, 2 to the largest party of the queue's shape (a team; in a
 * free-for-all, a whole game); refused where that is one player (1v1, teams of 1) or the queue
 * states no shape.
 */
function joinPartySchema(shape: GameShape | undefined): v.GenericSchema<unknown, { size: number } | undefined> {
  const most = shape === undefined ? 1 : maxPartyOf(shape);
  if (shape === undefined || most < 2) {
    const which = shape === undefined || (shape.kind === "teams" && shape.teams === 2) ? "1v1" : describeShape(shape);
    return v.optional(v.custom<{ size: number }>(() => false, `this queue has no parties (${which})`));
  }
  const limit =
    shape.kind === "teams"
      ? `must be at most ${most} (the team size)`
      : `must be at most ${most} (a free-for-all's party plays in one game of ${most}, each member for themselves)`;
  return v.optional(
    v.strictObject(
      {
        size: v.pipe(
          v.number(notANumber),
          v.integer("must be an integer"),
          v.minValue(2, "must be at least 2"),
          v.maxValue(most, limit),
        ),
      },
      unknownKeyMessage,
    ),
  );
}

/** The join option `side`: `"A"` or `"B"` in a game of two teams; refused by name in any other shape. */
function joinSideSchema(shape: GameShape | undefined): v.GenericSchema<unknown, "A" | "B" | undefined> {
  if (shape !== undefined && !hasSides(shape))
    return v.optional(v.custom<"A" | "B">(() => false, `this queue's games (${describeShape(shape)}) have no sides`));
  return v.optional(v.picklist(["A", "B"], 'must be "A" or "B"'));
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

/**
 * The refusal of a value that is not a number. NaN and Infinity cannot cross JSON (or msgpack
 * from a browser's JSON): they arrive as null, so a null number says so instead of "not a number".
 */
const notANumber = (issue: { readonly input: unknown }): string =>
  issue.input === null ? "must be a finite number (got null: NaN and Infinity are sent as null)" : "must be a number";

/** A rating join option's checks against the queue's range (used for `rating` and its alias `rank`). */
export function ratingSchema(range: { min: number; max: number }) {
  return v.pipe(
    v.number(notANumber),
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
 * The join option `latencies`: ms (0 to 60,000) to each of `latencyZones`, every one required, in
 * a queue that chooses zones by latency; refused in any other queue.
 */
function joinLatenciesSchema(
  latencyZones: readonly string[] | undefined,
): v.GenericSchema<unknown, Record<string, number> | undefined> {
  if (!latencyZones)
    return v.optional(v.custom<Record<string, number>>(() => false, "this queue does not choose zones by latency"));
  const ms = v.pipe(
    v.number(notANumber),
    v.finite("must be a finite number"),
    v.minValue(0, "must not be negative"),
    v.maxValue(MAX_REPORTED_LATENCY_MS, `must be at most ${MAX_REPORTED_LATENCY_MS}`),
  );
  return v.strictObject(Object.fromEntries(latencyZones.map((zone) => [zone, ms])), (issue) =>
    issue.expected === "never"
      ? `is not one of ${latencyZones.join(", ")}`
      : issue.expected === "Object"
        ? `must give the latency in ms to each of ${latencyZones.join(", ")}`
        : "is required",
  );
}

/**
 * The join option `criteria`: a value within range on each of the queue's criteria, every one
 * required, in a queue with criteria; refused in any other queue.
 */
export function joinCriteriaSchema(
  criteria: readonly Criterion[] | undefined,
): v.GenericSchema<unknown, Record<string, number> | undefined> {
  if (!criteria) return v.optional(v.custom<Record<string, number>>(() => false, "this queue has no criteria"));
  const names = criteria.map((c) => c.name).join(", ");
  return v.strictObject(
    Object.fromEntries(
      criteria.map((c) => [
        c.name,
        v.pipe(
          v.number(notANumber),
          v.finite("must be a finite number"),
          v.minValue(c.min, `must be at least ${c.min}`),
          v.maxValue(c.max, `must be at most ${c.max}`),
        ),
      ]),
    ),
    (issue) =>
      issue.expected === "never"
        ? `is not one of ${names}`
        : issue.expected === "Object"
          ? `must give a value for each of ${names}`
          : "is required",
  );
}

/** The join option `playerId` (and a resolved player's id): 1 to 128 characters. */
export const playerIdSchema = v.pipe(
  v.string("must be a string"),
  v.minLength(1, "must not be empty"),
  v.maxLength(128, "must be at most 128 characters"),
);

/** The join option `uncertainty` (and a resolved player's): a finite number, not negative. */
export const uncertaintySchema = v.pipe(
  v.number(notANumber),
  v.finite("must be a finite number"),
  v.minValue(0, "must not be negative"),
);

/** A field refused by name: absent is fine, anything else gets `message`. */
export function refusedSchema(message: string) {
  return v.optional(v.custom<never>(() => false, message));
}

/**
 * The validator for one queue's join options (its rating range and, in a role queue, its roles
 * are part of the schema). `rank` is accepted as an alias of `rating`, so that clients written
 * for Colyseus's `QueueRoom` (which join with `{ rank }`) work unchanged; giving both with
 * different values is refused.
 */
export function joinOptionsSchema(...queue: Parameters<typeof joinSchema>): JoinValidator {
  const schema = joinSchema(...queue);
  const [range, queueRoles, shape, , latencyZones, criteria, refused] = queue;
  // Where `{ rating, side? }` is a complete join (no roles, latencies or criteria asked for, no
  // field refused by name), it is checked by hand.
  if (!queueRoles && !latencyZones && !criteria && !refused)
    plainJoinRanges.set(schema, { min: range.min, max: range.max, sides: shape === undefined || hasSides(shape) });
  return schema;
}

function joinSchema(
  range: { min: number; max: number },
  queueRoles?: readonly string[],
  shape?: GameShape,
  queueZones?: readonly ZoneSpec[],
  latencyZones?: readonly string[],
  criteria?: readonly Criterion[],
  refused?: RefusedJoinOptions,
) {
  const base = {
    rating: v.optional(ratingSchema(range)),
    rank: v.optional(ratingSchema(range)),
    side: joinSideSchema(shape),
    uncertainty: v.optional(uncertaintySchema),
    roles: joinRolesSchema(queueRoles),
    zones: joinZonesSchema(queueZones),
    latencies: joinLatenciesSchema(latencyZones),
    criteria: joinCriteriaSchema(criteria),
    party: joinPartySchema(shape),
    partyCode: v.optional(
      v.pipe(v.string("must be a party code"), v.regex(PARTY_CODE_PATTERN, "must be a party code")),
    ),
    playerId: v.optional(playerIdSchema),
  };
  // Fields the queue refuses by name (set by the server): absent in every join it accepts.
  const entries: Record<string, v.GenericSchema> = { ...base };
  for (const [key, message] of Object.entries(refused ?? {})) {
    entries[key] = refusedSchema(message);
    if (key === "rating") entries.rank = refusedSchema(message);
  }
  const fields = v.strictObject(entries as typeof base, unknownKeyMessage);
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
        if (refused?.rating) return; // the server sets it
        addIssue({ message: "is required (or its alias rank)", path: [pathItem(dataset.value, "rating")] });
      } else if (rating !== undefined && rank !== undefined && rating !== rank) {
        addIssue({
          message: "is an alias of rating (QueueRoom's name for it): give one of them, or the same value",
          path: [pathItem(dataset.value, "rank")],
        });
      }
    }),
    // Where the server sets the rating it is absent here (see ClientJoinOptions).
    v.transform(({ rating, rank, ...rest }): JoinOptions => {
      const given = rating ?? rank;
      return given === undefined ? (rest as JoinOptions) : { ...rest, rating: given };
    }),
  );
}

/** A valibot issue path item naming `key` of `input` (so the message reads "key: …"). */
function pathItem(input: Record<string, unknown>, key: string): v.ObjectPathItem {
  return { type: "object", origin: "value", input, key, value: input[key] };
}

export type JoinValidator = ReturnType<typeof joinSchema>;

/**
 * The rating range of each validator for which a plain join (see {@link plainJoin}) is complete,
 * and whether its queue has sides.
 */
const plainJoinRanges = new WeakMap<JoinValidator, PlainJoinQueue>();

interface PlainJoinQueue {
  readonly min: number;
  readonly max: number;
  /** False in a shape without sides: a join with `side` goes through the schema, which refuses it. */
  readonly sides: boolean;
}

/**
 * The common join, `{ rating }` or `{ rank }`, with or without `side`, checked by hand: the
 * schema's own result for it at a fraction of the cost (the schema is built for every option a
 * queue may take). Anything else, valid or not, is undefined and goes through the schema, which
 * names what is wrong.
 */
function plainJoin(input: unknown, range: PlainJoinQueue): JoinOptions | undefined {
  if (typeof input !== "object" || input === null || Object.getPrototypeOf(input) !== Object.prototype)
    return undefined;
  const o = input as Record<string, unknown>;
  for (const key in o)
    if ((key !== "rating" && key !== "rank" && key !== "side") || o[key] === undefined) return undefined;
  if (o.rating !== undefined && o.rank !== undefined && o.rating !== o.rank) return undefined;
  const rating = o.rating ?? o.rank;
  if (typeof rating !== "number" || !Number.isFinite(rating) || rating < range.min || rating > range.max)
    return undefined;
  if (o.side === undefined) return { rating };
  return range.sides && (o.side === "A" || o.side === "B") ? { side: o.side, rating } : undefined;
}

/**
 * The bounds on the shape of join options, checked before anything else reads them. Real join
 * options are a handful of fields two levels deep; these bounds are far above that, and keep a
 * hostile body (thousands of levels of nesting, a huge object) from costing more than a
 * bounded walk: Colyseus copies join options with `JSON.stringify` when it reserves a seat,
 * which fails on deep nesting and is then retried for seconds as "already full".
 */
export const JOIN_OPTIONS_LIMITS = {
  /** Levels of objects and arrays, the options object itself being the first. */
  maxDepth: 8,
  /** Keys and array elements, counted over the whole value. */
  maxValues: 1000,
  /** Characters in all strings and keys together. */
  maxChars: 16_384,
} as const;

/** Join options too deep or too large: the top-level field at fault (when one is) and what is wrong. */
export interface JoinShapeProblem {
  readonly field?: string;
  readonly message: string;
  /**
   * Set when the problem is a key named after a member of `Object.prototype` (the key): a request
   * no honest client sends, refused as malformed (400) rather than as a join the queue declines.
   */
  readonly reservedKey?: string;
}

/**
 * Keys refused at any depth of join options: the names of `Object.prototype`'s members
 * (`hasOwnProperty`, `toString`, `constructor`, `__proto__`, `valueOf`, ...). Colyseus merges join
 * options with `b.hasOwnProperty(key)` when it creates a room, which such a key breaks (a 523 and
 * a logged TypeError, before any check of the queue's); `__proto__` would swap an object's
 * prototype wherever options are copied key by key. No join option is named like one.
 */
export const RESERVED_JOIN_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

function reservedKeyProblem(field: string | undefined, key: string): JoinShapeProblem {
  const why = "it names a member of every JavaScript object (Object.prototype)";
  return field === undefined
    ? { field: key, message: `${key}: refused as a key: ${why}`, reservedKey: key }
    : { field, message: `${field}: the key ${JSON.stringify(key)} is refused: ${why}`, reservedKey: key };
}

/**
 * Why `input` is too deep or too large to be join options (naming the field and the limit), or
 * holds a key of {@link RESERVED_JOIN_KEYS} at any depth (naming it), or undefined. Iterative, and
 * stops at the first problem: its cost is bounded by the limits, not by the input.
 */
export function joinOptionsShapeProblem(input: unknown, limits = JOIN_OPTIONS_LIMITS): JoinShapeProblem | undefined {
  let values = 0;
  let chars = 0;
  const tooMany = (field: string | undefined, what: string, limit: number): JoinShapeProblem => ({
    ...(field !== undefined ? { field } : {}),
    message: `${field !== undefined ? `${field}: ` : ""}join options may hold at most ${limit} ${what}`,
  });
  // Each entry: a value, its depth (the options object is 1), and the top-level field it is in.
  const stack: Array<[unknown, number, string | undefined]> = [[input, 1, undefined]];
  while (stack.length > 0) {
    const [value, depth, field] = stack.pop()!;
    if (typeof value === "string") {
      chars += value.length;
      if (chars > limits.maxChars) return tooMany(field, "characters", limits.maxChars);
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth > limits.maxDepth) {
      return {
        ...(field !== undefined ? { field } : {}),
        message: `${field ?? "join options"}: nested deeper than ${limits.maxDepth} levels (the join options' limit)`,
      };
    }
    if (Array.isArray(value)) {
      values += value.length;
      if (values > limits.maxValues) return tooMany(field, "values", limits.maxValues);
      for (const item of value) stack.push([item, depth + 1, field]);
      continue;
    }
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (RESERVED_JOIN_KEYS.has(key)) return reservedKeyProblem(field, key);
      values++;
      chars += key.length;
      if (values > limits.maxValues) return tooMany(field ?? key, "values", limits.maxValues);
      if (chars > limits.maxChars) return tooMany(field ?? key, "characters", limits.maxChars);
      stack.push([(value as Record<string, unknown>)[key], depth + 1, field ?? key]);
    }
  }
  return undefined;
}

/**
 * Refuse join options too deep or too large to read, naming the field and the limit: throws
 * `MatchmakerError("join_refused")`; a key named after an `Object.prototype` member, naming it:
 * `MatchmakerError("malformed_request")`. {@link checkJoinOptions} runs it first; `MatchmakerRoom`'s
 * static `onAuth` runs it on the matchmaking request, before Colyseus reserves a seat or merges
 * the options into a new room's.
 */
export function checkJoinOptionsShape(input: unknown): void {
  const problem = joinOptionsShapeProblem(input);
  if (problem)
    throw new MatchmakerError(
      problem.reservedKey !== undefined ? "malformed_request" : "join_refused",
      problem.message,
      problem.field,
    );
}

/** Parsed join options, or a message naming each bad field (see {@link checkJoinOptions} for the throwing form). */
export function parseJoinOptions(
  validator: JoinValidator,
  input: unknown,
): { ok: true; value: JoinOptions } | { ok: false; message: string } {
  const problem = joinOptionsShapeProblem(input);
  if (problem) return { ok: false, message: problem.message };
  const result = v.safeParse(validator, input ?? {});
  return result.success ? { ok: true, value: result.output } : { ok: false, message: describeIssues(result.issues) };
}

/** Parsed join options; throws `MatchmakerError("join_refused")` whose message names each bad field (or a passed shape limit). */
export function checkJoinOptions(validator: JoinValidator, input: unknown): JoinOptions {
  const range = plainJoinRanges.get(validator);
  const plain = range && plainJoin(input, range);
  if (plain) return plain;
  checkJoinOptionsShape(input);
  const result = v.safeParse(validator, input ?? {});
  if (result.success) return result.output;
  throw new MatchmakerError("join_refused", describeIssues(result.issues), v.getDotPath(result.issues[0]) ?? undefined);
}
