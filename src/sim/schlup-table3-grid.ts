/**
 * Schlup's setup (k = 2, one criterion uniform on [0, 1], Poisson arrivals, eq. (1) cost scaled
 * by the offline optimum on the same arrivals) over a grid of constant arrival rates a and
 * maximum waits tau_max: one policy at its own defaults (no sweep: it is meant to tune itself)
 * beside Schlup's four at their best swept parameter in each cell. Issue 21 asks for a policy
 * within 1.30x of the optimum at every a in {1, 3, 4, 10} and tau_max in {2, 5, 10}.
 */
import type { PolicyParams } from "../core/policy.js";
import {
  formatSeedMean,
  SCHLUP_POLICIES,
  schlupTable3,
  seedMean,
  type SchlupCell,
  type SchlupGrid,
  type SeedMean,
} from "./schlup-table3.js";

export const GRID_RATES: readonly number[] = [1, 3, 4, 10];
export const GRID_TAU_MAX: readonly number[] = [2, 5, 10];
/** Issue 21's goal: at most this times the optimum in every cell. */
export const GRID_GOAL = 1.3;

export interface SchlupGridOptions {
  /** The policy run beside Schlup's four (default `density-window`), at its defaults unless `params`. */
  readonly policy?: string;
  /** Parameters of `policy` (e.g. to see how far its defaults are from a setting's best). */
  readonly params?: PolicyParams;
  readonly tickets: number;
  /** Arrival sequences per cell (seeds 1..seeds), shared by every policy. */
  readonly seeds: number;
  readonly rates?: readonly number[];
  readonly tauMaxes?: readonly number[];
  /** Narrower grids for Schlup's policies (e.g. for a quick test). */
  readonly grids?: Partial<Record<(typeof SCHLUP_POLICIES)[number], SchlupGrid>>;
  readonly onProgress?: (done: number, total: number) => void;
}

/** One policy in one cell: its mean ratio to the optimum over seeds (± SE), and its best swept value. */
export interface SchlupGridEntry {
  readonly ratio: SeedMean;
  readonly bestValue: unknown;
}

export interface SchlupGridCell {
  readonly rate: number;
  readonly tauMax: number;
  readonly optCostPerGame: number;
  /** By policy name: Schlup's four and the policy under test. */
  readonly policies: Readonly<Record<string, SchlupGridEntry>>;
}

export interface SchlupGridResult {
  readonly policy: string;
  /** The policy's parameters when not its defaults. */
  readonly params?: PolicyParams;
  readonly tickets: number;
  readonly seeds: number;
  readonly cells: readonly SchlupGridCell[];
}

const label = (rate: number) => `a = ${rate}`;

export function schlupGrid(options: SchlupGridOptions): SchlupGridResult {
  const policy = options.policy ?? "density-window";
  const rates = options.rates ?? GRID_RATES;
  const tauMaxes = options.tauMaxes ?? GRID_TAU_MAX;
  const cells: SchlupGridCell[] = [];
  let offset = 0;
  let perTau = 0;
  for (const [t, tauMax] of tauMaxes.entries()) {
    const table = schlupTable3({
      tickets: options.tickets,
      seeds: options.seeds,
      tauMax,
      settings: rates.map((rate) => ({ label: label(rate), rate, rising: false })),
      ...(options.grids ? { grids: options.grids } : {}),
      others: { [policy]: { values: [undefined], ...(options.params ? { params: options.params } : {}) } },
      onProgress: (done, total) => {
        perTau = total;
        options.onProgress?.(offset + done, total * tauMaxes.length);
      },
    });
    offset = perTau * (t + 1);
    for (const rate of rates) {
      const here = table.cells.filter((c) => c.setting === label(rate));
      const entry = (c: SchlupCell): SchlupGridEntry => ({ ratio: seedMean(c.bestRatios), bestValue: c.bestValue });
      cells.push({
        rate,
        tauMax,
        optCostPerGame: table.optCostPerGame[label(rate)],
        policies: Object.fromEntries(here.map((c) => [c.policy, entry(c)])),
      });
    }
  }
  return {
    policy,
    ...(options.params ? { params: options.params } : {}),
    tickets: options.tickets,
    seeds: options.seeds,
    cells,
  };
}

/** The best of Schlup's four in a cell (lowest mean ratio). */
export function bestSchlup(cell: SchlupGridCell): { policy: string; entry: SchlupGridEntry } | undefined {
  let best: { policy: string; entry: SchlupGridEntry } | undefined;
  for (const policy of SCHLUP_POLICIES) {
    const entry = cell.policies[policy];
    if (entry && (!best || entry.ratio.mean < best.entry.ratio.mean)) best = { policy, entry };
  }
  return best;
}

const fixed = (x: number) => x.toFixed(2);

/** Markdown: the policy's ratio by a and tau_max, then every cell with Schlup's four. */
export function schlupGridMarkdown(result: SchlupGridResult): string {
  const rates = [...new Set(result.cells.map((c) => c.rate))];
  const taus = [...new Set(result.cells.map((c) => c.tauMax))];
  const cell = (rate: number, tau: number) => result.cells.find((c) => c.rate === rate && c.tauMax === tau)!;
  const mine = (c: SchlupGridCell) => c.policies[result.policy].ratio;
  const met = result.cells.filter((c) => mine(c).mean <= GRID_GOAL).length;
  const lines = [
    `\`${result.policy}\` ${describeParams(result.params)}, cost / OPT on the same arrivals (mean over ${result.seeds} seeds ± one standard error; ${result.tickets} arrivals per run):`,
    "",
    `| a \\ tau_max | ${taus.map((t) => `${t}`).join(" | ")} |`,
    `|---|${taus.map(() => "---").join("|")}|`,
    ...rates.map(
      (rate) =>
        `| ${rate} | ${taus
          .map((tau) => {
            return formatSeedMean(mine(cell(rate, tau)));
          })
          .join(" | ")} |`,
    ),
    "",
    `At or under ${GRID_GOAL.toFixed(2)}x the optimum in ${met} of ${result.cells.length} cells.`,
    "",
    "Every cell beside Schlup's four, each at its best swept value (in brackets; chosen on the same seeds, so slightly optimistic):",
    "",
    `| a | tau_max | OPT cost / game | A_G | A_PM (x) | A_MQ (r) | A_DW (f_wait) | best of Schlup | \`${result.policy}\` |`,
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const tau of taus)
    for (const rate of rates) {
      const c = cell(rate, tau);
      const schlup = SCHLUP_POLICIES.map((p) => {
        const e = c.policies[p];
        if (!e) return "–";
        return e.bestValue === undefined ? fixed(e.ratio.mean) : `${fixed(e.ratio.mean)} (${String(e.bestValue)})`;
      });
      const best = bestSchlup(c);
      lines.push(
        `| ${rate} | ${tau} | ${c.optCostPerGame.toFixed(3)} | ${schlup.join(" | ")} | ${best ? fixed(best.entry.ratio.mean) : "–"} | ${mine(c).mean.toFixed(3)} |`,
      );
    }
  return lines.join("\n");
}

/** "at its defaults", or the parameters given (`with c = 1.1, combine = min`). */
function describeParams(params: PolicyParams | undefined): string {
  const entries = Object.entries(params ?? {});
  if (entries.length === 0) return "at its defaults";
  return `with ${entries.map(([k, v]) => `${k} = ${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join(", ")}`;
}
