/**
 * `npm run sim -- --policy NAME [options]`: simulate a policy on seeded traffic and print a
 * table (or `--json`). Resolves to the exit code: 2 for bad options, 1 for a failed run.
 */
import cliProgress from "cli-progress";
import { parseOrExplain, parseSimulationArgs, USAGE } from "./options.js";
import { writeSweepPlot } from "./plot.js";
import { reportTable } from "./report.js";
import { runRequest, type Progress } from "./run.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { runTable3, TABLE3_USAGE } from "./schlup-table3-cli.js";
import { GRID_USAGE, runGrid } from "./schlup-table3-grid-cli.js";
import { runTrace, TRACE_USAGE } from "./trace-cli.js";
import { ONLINE_DP_USAGE, runOnlineDp } from "./online-dp-cli.js";
import { CLOSED_LOOP_USAGE, runClosedLoopCli } from "./closed-loop-cli.js";
import { COMPARE_USAGE, runCompare } from "./compare-cli.js";

/** A progress bar on stderr, shown only once a run has taken a second. */
function progressBar(unit = "arrivals"): { progress: Progress; stop: () => void } {
  const started = Date.now();
  let bar: cliProgress.SingleBar | undefined;
  let label = "";
  return {
    progress: (done, total, runLabel) => {
      if (!bar && Date.now() - started < 1000) return;
      if (!bar || runLabel !== label) {
        bar?.stop();
        label = runLabel;
        bar = new cliProgress.SingleBar(
          {
            format: `${runLabel} [{bar}] {value}/{total} ${unit}`,
            stream: process.stderr,
            noTTYOutput: true,
            notTTYSchedule: 2000,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total ?? done, done);
      }
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}

export async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(
      `${USAGE.replace("{policies}", defaultPolicies.names().join(", "))}\n\n${TABLE3_USAGE}\n\n${GRID_USAGE}\n\n${ONLINE_DP_USAGE}\n\n${TRACE_USAGE}\n\n${CLOSED_LOOP_USAGE}\n\n${COMPARE_USAGE}`,
    );
    return 0;
  }
  if (argv.includes("--schlup-table3")) {
    const { progress, stop } = progressBar("simulations");
    try {
      return runTable3(argv, (done, total) => progress(done, total, "Schlup's Table 3"));
    } finally {
      stop();
    }
  }
  if (argv.includes("--schlup-grid")) {
    const { progress, stop } = progressBar("simulations");
    try {
      return runGrid(argv, (done, total) => progress(done, total, "a x tau_max grid"));
    } finally {
      stop();
    }
  }
  if (argv.includes("--online-dp")) return runOnlineDp(argv);
  if (argv.includes("--closed-loop")) return runClosedLoopCli(argv);
  if (argv.includes("--target-wait-scenarios")) {
    const { runScenario, TARGET_WAIT_SCENARIOS, againstQueueRoom, scenariosText } =
      await import("./target-wait-scenarios.js");
    const results = TARGET_WAIT_SCENARIOS.map((s) => runScenario(s, { gain: 0.15 }));
    const rows = [...againstQueueRoom(10), ...againstQueueRoom(2)];
    console.log(argv.includes("--json") ? JSON.stringify({ results, rows }) : scenariosText(results, rows));
    return 0;
  }
  if (argv.includes("--compare") && !argv.includes("--trace")) {
    const { progress, stop } = progressBar("runs");
    try {
      return await runCompare(argv, (done, total) => progress(done, total, "policies and settings"));
    } finally {
      stop();
    }
  }
  if (argv.includes("--trace")) {
    const { progress, stop } = progressBar("runs");
    try {
      return await runTrace(argv, (done, total) => progress(done, total, "replays"));
    } finally {
      stop();
    }
  }
  const request = parseOrExplain(
    parseSimulationArgs,
    argv,
    USAGE.replace("{policies}", defaultPolicies.names().join(", ")),
  );
  if (!request) return 2;
  const { progress, stop } = progressBar();
  try {
    const reports = runRequest(request, progress);
    stop();
    if (request.plot && request.sweep) {
      await writeSweepPlot(request.plot, request.sweep.key, reports, request.imbalanceCost);
      console.error(`sim: wrote ${request.plot}`);
    }
    if (!request.json) console.log(reportTable(reports));
    else if (request.sweep) console.log(JSON.stringify({ sweep: request.sweep.key, runs: reports }));
    else console.log(JSON.stringify(reports[0]));
    return 0;
  } catch (error) {
    stop();
    console.error(`sim: ${(error as Error).message}`);
    return 1;
  }
}
