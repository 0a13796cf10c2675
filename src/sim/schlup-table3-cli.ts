/**
 * `npm run sim -- --schlup-table3 [--tickets N] [--seeds S] [--json]`: Schlup's Table 3 as the
 * paper ran it (see schlup-table3.ts), printed beside the paper's figures.
 */
import Table from "cli-table3";
import { parseFlags, parseOrExplain, wholeInRange } from "./options.js";
import {
  formatSeedMean,
  SCHLUP_POLICIES,
  SCHLUP_TABLE2,
  SCHLUP_TABLE3_PAPER,
  schlupTable3,
  type SchlupTable3,
  type SchlupTable3Options,
} from "./schlup-table3.js";

export const TABLE3_USAGE = `usage: npm run sim -- --schlup-table3 [--tickets N] [--seeds S] [--json]

  --tickets N   arrivals per run (default 2000)
  --seeds S     arrival sequences per setting (default 6)
  --json        print the whole result as one JSON object`;

export interface Table3Request {
  readonly options: Pick<SchlupTable3Options, "tickets" | "seeds">;
  readonly json: boolean;
}

export function parseTable3Args(argv: readonly string[]): Table3Request {
  const values = parseFlags("--schlup-table3", argv, {
    "schlup-table3": { type: "boolean" },
    tickets: { type: "string" },
    seeds: { type: "string" },
    json: { type: "boolean" },
  });
  return {
    options: {
      tickets: wholeInRange("--tickets", values.tickets ?? "2000", 100, 1_000_000),
      seeds: wholeInRange("--seeds", values.seeds ?? "6", 2, 1000),
    },
    json: values.json ?? false,
  };
}

const pct = (measured: number, paper: number) =>
  `${measured >= paper ? "+" : ""}${((measured / paper - 1) * 100).toFixed(1)}%`;

/** Two tables: the averages beside the paper's, then every setting's best parameter and ratio. */
export function table3Text(result: SchlupTable3): string {
  const style = { head: [], border: [] };
  const summary = new Table({
    head: ["policy", "paper", "ratio of mean costs", "vs paper", "mean of ratios", "vs paper"],
    style,
  });
  for (const policy of SCHLUP_POLICIES) {
    const paper = SCHLUP_TABLE3_PAPER[policy];
    const rom = result.ratioOfMeans[policy];
    const mor = result.meanOfRatios[policy];
    if (!rom || !mor) continue;
    summary.push([
      policy,
      paper.toFixed(2),
      formatSeedMean(rom),
      pct(rom.mean, paper),
      formatSeedMean(mor),
      pct(mor.mean, paper),
    ]);
  }
  const settings = new Table({
    head: ["setting", "OPT cost / game", ...SCHLUP_POLICIES.map((p) => `${p} (best value)`)],
    style,
  });
  for (const setting of SCHLUP_TABLE2) {
    const cells = result.cells.filter((c) => c.setting === setting.label);
    if (cells.length === 0) continue;
    settings.push([
      setting.label,
      result.optCostPerGame[setting.label].toFixed(3),
      ...SCHLUP_POLICIES.map((p) => {
        const c = cells.find((x) => x.policy === p);
        return c ? `${c.bestRatio.toFixed(3)}${c.bestValue === undefined ? "" : ` (${String(c.bestValue)})`}` : "–";
      }),
    ]);
  }
  return [
    `Schlup's Table 3: k = 2, tau_max = ${result.tauMax} s, ${result.tickets} arrivals per run, ${result.seeds} seeds per setting (± one standard error across seeds)`,
    summary.toString(),
    "Per setting: cost / OPT on the same arrivals at the best swept value",
    settings.toString(),
  ].join("\n");
}

/** Run and print; resolves to the exit code. */
export function runTable3(argv: readonly string[], onProgress?: (done: number, total: number) => void): number {
  const request = parseOrExplain(parseTable3Args, argv, TABLE3_USAGE);
  if (!request) return 2;
  const result = schlupTable3({ ...request.options, ...(onProgress ? { onProgress } : {}) });
  console.log(request.json ? JSON.stringify(result) : table3Text(result));
  return 0;
}
