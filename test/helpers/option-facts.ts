/**
 * What the one table of queue options (src/options/fields.ts) says about each option: whether
 * it is required, its default, and its bounds, read from the valibot schemas themselves and from
 * `DEFAULTS`, for test/docs/option-tables.test.ts to hold the docs and the TSDoc against.
 *
 * Paths are dotted (`penalties.windowMs`); the fields of a list's entries take `[]`
 * (`criteria[].weight`).
 */
import { DEFAULTS, ENGINE_FIELDS, ROOM_FIELDS } from "../../src/options/fields.js";

/** One end of a range: `inclusive` for "at least"/"at most", not for "above"/"below". */
export interface Bound {
  readonly value: number;
  readonly inclusive: boolean;
}

export interface OptionFact {
  readonly path: string;
  readonly required: boolean;
  /** Whether the option has a default (`default` may itself be `undefined` only when not). */
  readonly hasDefault: boolean;
  readonly default?: unknown;
  /** What the bounds apply to: a number's value, or a list's length. */
  readonly bounded?: "value" | "length";
  readonly lower?: Bound;
  readonly upper?: Bound;
}

/** The shape of a valibot schema as far as this walk reads it (schemas are plain objects). */
interface Schema {
  readonly type: string;
  readonly kind?: string;
  readonly wrapped?: Schema;
  readonly default?: unknown;
  readonly pipe?: readonly Schema[];
  readonly requirement?: unknown;
  readonly entries?: Record<string, Schema>;
  readonly item?: Schema;
  readonly getter?: (input: unknown) => Schema;
}

/** The schema under its pipes, and every action of those pipes. */
function unpiped(schema: Schema): { base: Schema; actions: Schema[] } {
  if (!schema.pipe) return { base: schema, actions: [] };
  const inner = unpiped(schema.pipe[0]);
  return { base: inner.base, actions: [...inner.actions, ...schema.pipe.slice(1)] };
}

function boundsOf(base: Schema, actions: readonly Schema[]): Pick<OptionFact, "bounded" | "lower" | "upper"> {
  const bounded = base.type === "number" ? "value" : base.type === "array" ? "length" : undefined;
  if (!bounded) return {};
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  for (const action of actions) {
    const value = action.requirement as number;
    if (action.type === (bounded === "value" ? "min_value" : "min_length")) lower = { value, inclusive: true };
    if (action.type === (bounded === "value" ? "max_value" : "max_length")) upper = { value, inclusive: true };
    if (bounded === "value" && action.type === "gt_value") lower = { value, inclusive: false };
    if (bounded === "value" && action.type === "lt_value") upper = { value, inclusive: false };
  }
  return lower || upper ? { bounded, ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) } : {};
}

/** The value at `path` in `DEFAULTS`, if the table keeps one there. */
function tableDefault(path: string): { found: boolean; value?: unknown } {
  let at: unknown = DEFAULTS;
  for (const key of path.split(".")) {
    if (typeof at !== "object" || at === null || !(key in at)) return { found: false };
    at = (at as Record<string, unknown>)[key];
  }
  return { found: true, value: at };
}

function walk(entries: Record<string, Schema>, prefix: string, facts: Map<string, OptionFact>): void {
  for (const [key, schema] of Object.entries(entries)) {
    const path = prefix + key;
    const optional = schema.type === "optional";
    const schemaDefault =
      optional && schema.default !== undefined
        ? typeof schema.default === "function"
          ? (schema.default as () => unknown)()
          : schema.default
        : undefined;
    let { base, actions } = unpiped(optional ? schema.wrapped! : schema);
    if (base.type === "lazy") ({ base, actions } = unpiped(base.getter!({})));
    // An object option's own default is its schema's (`{}`: every field at its default); DEFAULTS
    // keeps its fields' defaults under its path.
    const table = base.entries ? { found: false } : tableDefault(path);
    if (schemaDefault !== undefined && table.found && JSON.stringify(table.value) !== JSON.stringify(schemaDefault))
      throw new Error(`${path}: the schema's default ${JSON.stringify(schemaDefault)} is not DEFAULTS'`);
    const hasDefault = schemaDefault !== undefined || table.found;
    facts.set(path, {
      path,
      required: !optional,
      hasDefault,
      ...(hasDefault ? { default: schemaDefault ?? table.value } : {}),
      ...boundsOf(base, actions),
    });
    if (base.entries) walk(base.entries, `${path}.`, facts);
    if (base.type === "array" && base.item) {
      const item = unpiped(base.item).base;
      if (item.entries) walk(item.entries, `${path}[].`, facts);
    }
  }
}

/** Every queue option of the room (which takes the engine's too), by path, in the table's order. */
export function optionFacts(): Map<string, OptionFact> {
  const facts = new Map<string, OptionFact>();
  walk({ ...ENGINE_FIELDS, ...ROOM_FIELDS } as unknown as Record<string, Schema>, "", facts);
  return facts;
}

/** A default that depends on other options: stated in words, each checked against the table by its own rule. */
export const DERIVED_DEFAULTS: Record<string, (text: string) => boolean> = {
  // "the rating range / 20"
  "waitEstimate.bandWidth": (text) =>
    new RegExp(`rating range / ${DEFAULTS.waitEstimate.bandsPerRange}\\b`).test(text.replaceAll("`", "")),
};
