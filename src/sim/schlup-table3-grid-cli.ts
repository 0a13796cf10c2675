/**
 * `npm run sim -- --schlup-grid [--policy NAME] [--set KEY=VALUE]... [--tickets N] [--seeds S] [--out FILE] [--json]`:
 * a policy against the offline optimum on Schlup's cost at every a and tau_max of issue 21,
 * beside Schlup's four (see schlup-table3-grid.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { MatchmakerError } from "../core/errors.js";
import { ratingSumDifference } from "../core/imbalance.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { keyValue, parseFlags, parseOrExplain, parseValue, UsageError, wholeInRange, withParam } from "./options.js";
import { schlupGrid, schlupGridMarkdown, type SchlupGridOptions } from "./schlup-table3-grid.js";
import { twoTeamFields } from "../core/policy.js";

export const GRID_USAGE = `usage: npm run sim -- --schlup-grid [--policy NAME] [--set KEY=VALUE]... [--tickets N] [--seeds S] [--out FILE] [--json]

  --policy NAME  the policy run at its defaults beside Schlup's four (default density-window)
  --set KEY=VALUE  one of its parameters instead of the default, repeatable (e.g. --set c=1.1)
  --tickets N    arrivals per run (default 2000)
  --seeds S      arrival sequences per cell (default 8)
  --out FILE     also write the markdown table into FILE, between the lines
                 ${"<!-- schlup-grid:start -->"} and ${"<!-- schlup-grid:end -->"} (the whole file if it has none)
  --json         print the whole result as one JSON object`;

export const GRID_START = "<!-- schlup-grid:start -->";
export const GRID_END = "<!-- schlup-grid:end -->";

export interface GridRequest {
  readonly options: Pick<SchlupGridOptions, "policy" | "params" | "tickets" | "seeds">;
  readonly out?: string;
  readonly json: boolean;
}

export function parseGridArgs(argv: readonly string[]): GridRequest {
  const values = parseFlags("--schlup-grid", argv, {
    "schlup-grid": { type: "boolean" },
    policy: { type: "string" },
    set: { type: "string", multiple: true },
    tickets: { type: "string" },
    seeds: { type: "string" },
    out: { type: "string" },
    json: { type: "boolean" },
  });
  const policy = values.policy ?? "density-window";
  if (!defaultPolicies.names().includes(policy))
    throw new UsageError(`--policy: unknown policy ${policy} (one of ${defaultPolicies.names().join(", ")})`);
  let params: Record<string, unknown> | undefined;
  for (const pair of values.set ?? []) {
    const [key, value] = keyValue("--set", pair);
    params = withParam(params ?? {}, key, parseValue(value));
  }
  // Refuse a parameter the policy does not accept before two minutes of runs, not after.
  if (params) {
    try {
      defaultPolicies.create(
        policy,
        { ...twoTeamFields(1), imbalance: ratingSumDifference, maxWaitMs: 5000, ratingRange: { min: 0, max: 1 } },
        params,
      );
    } catch (error) {
      if (!(error instanceof MatchmakerError)) throw error;
      throw new UsageError(`--set: ${error.message}`);
    }
  }
  return {
    options: {
      policy,
      ...(params ? { params } : {}),
      tickets: wholeInRange("--tickets", values.tickets ?? "2000", 100, 1_000_000),
      seeds: wholeInRange("--seeds", values.seeds ?? "8", 2, 1000),
    },
    ...(values.out !== undefined ? { out: values.out } : {}),
    json: values.json ?? false,
  };
}

/** `text` with the part between the grid markers replaced by `table` (or the table alone, marked, if none). */
export function spliceGrid(text: string | undefined, table: string): string {
  const block = `${GRID_START}\n${table}\n${GRID_END}`;
  const start = text?.indexOf(GRID_START) ?? -1;
  const end = text?.indexOf(GRID_END) ?? -1;
  if (text === undefined || start < 0 || end < start) return `${block}\n`;
  return text.slice(0, start) + block + text.slice(end + GRID_END.length);
}

/** Run and print (and write `--out`); resolves to the exit code. */
export function runGrid(argv: readonly string[], onProgress?: (done: number, total: number) => void): number {
  const request = parseOrExplain(parseGridArgs, argv, GRID_USAGE);
  if (!request) return 2;
  const result = schlupGrid({ ...request.options, ...(onProgress ? { onProgress } : {}) });
  const table = schlupGridMarkdown(result);
  if (request.out !== undefined) {
    const previous = existsSync(request.out) ? readFileSync(request.out, "utf8") : undefined;
    writeFileSync(request.out, spliceGrid(previous, table));
  }
  console.log(request.json ? JSON.stringify(result) : table);
  return 0;
}
