/**
 * The queue options' defaults and bounds are written once, in src/options/fields.ts; what the
 * docs and the TSDoc say about them is checked here against that table (the schemas and
 * `DEFAULTS`, read by test/helpers/option-facts.ts):
 * - docs/reference.md's table has a row for every option (and for every field of one that has a
 *   default or bounds), its default and limits columns are the table's, and no meaning cell
 *   states a default or a bound of its own;
 * - the README's "options to set first" states the table's defaults and bounds;
 * - every option's TSDoc (what an editor shows) gives the table's default in `@defaultValue` and
 *   only the table's bounds;
 * - a guide that gives a default beside an option's name (`joinBatchMs` (default 20 ms)) gives
 *   the table's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DERIVED_DEFAULTS, optionFacts, type Bound, type OptionFact } from "../helpers/option-facts.js";
import { optionDocs } from "../helpers/option-docs.js";
import { tableAfter } from "../helpers/doc-tables.js";

const ROOT = resolve(import.meta.dirname, "../..");
const facts = optionFacts();

/** The backticked option paths of a first cell (`penalties.windowMs`, or several, comma-separated). */
const namesOf = (cell: string) => [...cell.matchAll(/`([\w.[\]]+)`/g)].map((m) => m[1]);

/** A cell's items, split at commas outside code spans and braces (`"greedy"`, `{}` → two), not in numbers (5,000). */
function items(cell: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let code = false;
  let current = "";
  for (const [i, ch] of [...cell].entries()) {
    if (ch === "`") code = !code;
    if (!code && ch === "{") depth++;
    if (!code && ch === "}") depth--;
    if (ch === "," && !code && depth === 0 && !/\d/.test(cell[i + 1] ?? "")) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  return [...out, current.trim()];
}

type Stated =
  { kind: "required" } | { kind: "none" } | { kind: "value"; value: unknown } | { kind: "words"; text: string };

/** What a default cell or `@defaultValue` states: its leading code span or number; the rest is a remark. */
function stated(text: string): Stated {
  const t = text.trim();
  if (t === "required") return { kind: "required" };
  if (t === "" || /^none\b/.test(t)) return { kind: "none" };
  const code = /^`([^`]*)`/.exec(t);
  const literal = code ? code[1] : /^-?\d[\d,_]*(\.\d+)?(?![\w/])/.exec(t)?.[0].replace(/[,_]/g, "");
  if (literal === undefined) return { kind: "words", text: t };
  try {
    return { kind: "value", value: JSON.parse(literal.replace(/([{,]\s*)([A-Za-z_]\w*)\s*:/g, '$1"$2":')) };
  } catch {
    return { kind: "words", text: t };
  }
}

/** Check a stated default against the table; a message when they differ. */
function defaultProblem(fact: OptionFact, text: string): string | undefined {
  const s = stated(text);
  const derived = DERIVED_DEFAULTS[fact.path];
  if (derived) return derived(text) ? undefined : `${fact.path}: the default "${text}" is not the table's rule`;
  if (s.kind === "required")
    return fact.required ? undefined : `${fact.path}: stated required, but the table makes it optional`;
  if (fact.required) return `${fact.path}: required in the table, stated "${text}"`;
  if (s.kind === "none")
    return fact.hasDefault
      ? `${fact.path}: stated none, the table's default is ${JSON.stringify(fact.default)}`
      : undefined;
  if (s.kind === "words") return `${fact.path}: the default "${text}" is neither a value nor none`;
  if (!fact.hasDefault) return `${fact.path}: stated ${JSON.stringify(s.value)}, the table has no default`;
  return JSON.stringify(s.value) === JSON.stringify(fact.default)
    ? undefined
    : `${fact.path}: stated ${JSON.stringify(s.value)}, the table's default is ${JSON.stringify(fact.default)}`;
}

const NUMBER = String.raw`(\d[\d,]*(?:\.\d+)?)`;
const num = (text: string) => Number(text.replace(/,/g, ""));

/** The bounds a text states in words ("10 to 60,000", "at least 1", "above 0", "below 100"); code spans are names, not bounds. */
function statedBounds(text: string): { lower?: Bound; upper?: Bound } {
  const t = text.replace(/`[^`]*`/g, "");
  const bounds: { lower?: Bound; upper?: Bound } = {};
  const range = new RegExp(`${NUMBER} to ${NUMBER}`).exec(t);
  if (range) {
    bounds.lower = { value: num(range[1]), inclusive: true };
    bounds.upper = { value: num(range[2]), inclusive: true };
  }
  const side = (words: string) => new RegExp(`\\b${words} ${NUMBER}`).exec(t)?.[1];
  const atLeast = side("at least");
  const atMost = side("at most");
  const above = side("above");
  const below = side("below");
  if (atLeast) bounds.lower = { value: num(atLeast), inclusive: true };
  if (above) bounds.lower = { value: num(above), inclusive: false };
  if (atMost) bounds.upper = { value: num(atMost), inclusive: true };
  if (below) bounds.upper = { value: num(below), inclusive: false };
  return bounds;
}

const tableBounds = (fact: OptionFact) => ({
  ...(fact.lower ? { lower: fact.lower } : {}),
  ...(fact.upper ? { upper: fact.upper } : {}),
});

/** A nested option needs its own row when it has a default or bounds of its own. */
const needsRow = (fact: OptionFact) => !fact.path.includes(".") || fact.hasDefault || fact.bounded !== undefined;

describe("docs/reference.md's queue options", () => {
  const rows = tableAfter("docs/reference.md", "## Queue options");
  const byPath = new Map(rows.map((row) => [namesOf(row.option)[0], row]));

  it("has one row per option, each naming one option the table has", () => {
    expect(rows.map((row) => namesOf(row.option).length)).toEqual(rows.map(() => 1));
    expect([...byPath.keys()].filter((path) => !facts.has(path))).toEqual([]);
    expect(byPath.size).toBe(rows.length);
    const missing = [...facts.values()].filter((fact) => needsRow(fact) && !byPath.has(fact.path));
    expect(missing.map((fact) => fact.path)).toEqual([]);
  });

  it("states each option's default and bounds as the table has them", () => {
    const problems: string[] = [];
    for (const [path, row] of byPath) {
      const fact = facts.get(path)!;
      const problem = defaultProblem(fact, row.default);
      if (problem) problems.push(problem);
      const bounds = statedBounds(row.limits);
      if (JSON.stringify(bounds) !== JSON.stringify(tableBounds(fact)))
        problems.push(`${path}: limits "${row.limits}", the table's are ${JSON.stringify(tableBounds(fact))}`);
    }
    expect(problems).toEqual([]);
  });

  it("leaves defaults and bounds to their columns (a meaning cell states neither)", () => {
    const stating = rows.filter(
      (row) => /\bdefault\s+-?\d/.test(row.meaning) || Object.keys(statedBounds(row.meaning)).length > 0,
    );
    expect(stating.map((row) => `${row.option}: ${row.meaning}`)).toEqual([]);
  });
});

describe("the README's options to set first", () => {
  const rows = tableAfter("README.md", "## The options to set first");

  it("names options the table has, with its defaults and bounds", () => {
    const problems: string[] = [];
    for (const row of rows) {
      const names = namesOf(row.option);
      // One default for several options states it for each ("none").
      const stated = items(row.default);
      const defaults = stated.length === 1 ? names.map(() => stated[0]) : stated;
      if (defaults.length !== names.length) problems.push(`${row.option}: ${defaults.length} defaults`);
      names.forEach((path, i) => {
        const fact = facts.get(path);
        if (!fact) return problems.push(`${path}: not a queue option`);
        const problem = defaultProblem(fact, defaults[i] ?? "");
        if (problem) problems.push(problem);
      });
      const bounds = statedBounds(row.meaning);
      if (Object.keys(bounds).length > 0 && names.length === 1) {
        if (JSON.stringify(bounds) !== JSON.stringify(tableBounds(facts.get(names[0])!)))
          problems.push(`${names[0]}: "${row.meaning}" states other bounds than the table's`);
      }
    }
    expect(rows.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

describe.each(["MatchmakerRoomOptions", "MatchmakerOptions"] as const)("%s's TSDoc", (typeName) => {
  const docs = optionDocs(typeName, (path) => [...facts.keys()].some((p) => p.startsWith(`${path}.`)));
  // The room's type has every option; the engine's those it shares with the room, and its own.
  const relevant = [...facts.values()].filter((fact) => typeName === "MatchmakerRoomOptions" || docs.has(fact.path));

  it("documents every option", () => {
    const undocumented = relevant.filter((fact) => !docs.get(fact.path)?.text && !docs.get(fact.path)?.defaultValue);
    expect(relevant.length).toBeGreaterThan(10);
    expect(undocumented.map((fact) => fact.path)).toEqual([]);
  });

  it("gives every default in @defaultValue, as the table has it, and no default number in the text", () => {
    const problems: string[] = [];
    for (const fact of relevant) {
      const doc = docs.get(fact.path);
      if (!doc) continue;
      if (/\bdefault\s+-?\d/.test(doc.text)) problems.push(`${fact.path}: a default in the text: ${doc.text}`);
      // An object's own default is its fields' (each with its tag) unless it is `{}`.
      const leaf = fact.hasDefault && !(isObject(fact.default) && Object.keys(fact.default).length > 0);
      if (doc.defaultValue === undefined) {
        if (leaf || DERIVED_DEFAULTS[fact.path]) problems.push(`${fact.path}: no @defaultValue`);
        continue;
      }
      const problem = defaultProblem(fact, doc.defaultValue);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  it("states only the table's bounds, and states a range where the table has one", () => {
    const problems: string[] = [];
    for (const fact of relevant) {
      const text = docs.get(fact.path)?.text ?? "";
      const bounds = statedBounds(text);
      const table = tableBounds(fact);
      for (const side of ["lower", "upper"] as const) {
        if (bounds[side] && JSON.stringify(bounds[side]) !== JSON.stringify(table[side]))
          problems.push(
            `${fact.path}: states ${side} ${JSON.stringify(bounds[side])}, the table ${JSON.stringify(table[side])}`,
          );
      }
      if (fact.lower?.inclusive && fact.upper?.inclusive && !new RegExp(`${NUMBER} to ${NUMBER}`).test(text))
        problems.push(`${fact.path}: no "${fact.lower.value} to ${fact.upper.value}" in its TSDoc`);
    }
    expect(problems).toEqual([]);
  });
});

describe("the guides' mentions of an option's default", () => {
  const docs = [
    "README.md",
    ...readdirSync(resolve(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  // An option named by its path, or by its last segment where no other option shares it.
  const lastSegments = new Map<string, string[]>();
  for (const path of facts.keys()) {
    const last = path.split(".").at(-1)!;
    lastSegments.set(last, [...(lastSegments.get(last) ?? []), path]);
  }
  const optionNamed = (name: string) =>
    facts.get(name) ?? (lastSegments.get(name)?.length === 1 ? facts.get(lastSegments.get(name)![0]) : undefined);

  it("states the table's default and bounds where a guide gives them beside the option's name", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      const lines = readFileSync(resolve(ROOT, doc), "utf8").split("\n");
      lines.forEach((line, i) => {
        // "`joinBatchMs` (default 20 ms)", "`joinBatchMs` (20 ms by default)"
        for (const m of line.matchAll(/`([\w.[\]]+)` \(((?:[^()`]|`[^`]*`)*)\)/g)) {
          const fact = optionNamed(m[1]);
          const remark = m[2];
          const first = items(remark.split(";")[0])[0];
          const given = /^default (.*)/.exec(first)?.[1] ?? /^(.*?) by default$/.exec(first)?.[1];
          if (!fact || given === undefined) continue;
          checked++;
          const problem = defaultProblem(fact, inMilliseconds(given));
          if (problem) problems.push(`${doc}:${i + 1}: ${problem}`);
          const bounds = statedBounds(remark);
          for (const side of ["lower", "upper"] as const) {
            if (bounds[side] && JSON.stringify(bounds[side]) !== JSON.stringify(tableBounds(fact)[side]))
              problems.push(`${doc}:${i + 1}: ${fact.path}: states ${side} ${JSON.stringify(bounds[side])}`);
          }
        }
      });
    }
    expect(checked).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

/** A duration as a guide writes it ("20 ms", "1 s", "10 min") in ms, the options' unit; anything else as it is. */
function inMilliseconds(text: string): string {
  const m = /^(\d[\d,]*(?:\.\d+)?) (ms|s|min)$/.exec(text);
  if (!m) return text;
  return String(num(m[1]) * { ms: 1, s: 1000, min: 60_000 }[m[2] as "ms" | "s" | "min"]);
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
