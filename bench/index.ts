/**
 * `npm run bench`: the `best-game` policy's cost per join against Colyseus's QueueRoom cycle.
 *
 * For 1v1 (teamSize 1) and 5v5 (teamSize 5), pools of 1e3, 1e4 and 1e5 (add 1e6 with --sizes) waiting solos with
 * uniform random ratings (seeded), held by `best-game` with the queue defaults (rating-sum
 * imbalance, default window 4k and budget, threshold Infinity):
 *
 * - ours: one iteration = insert one newcomer + query the best game (the game `poll` would
 *   form first) + delete the newcomer, so the pool stays at n. Timed with tinybench (mean
 *   latency per iteration, relative margin of error).
 * - QueueRoom: one `reassignMatchGroups()` cycle of Colyseus's `QueueRoom` (maxPlayers 2 or 10)
 *   on the same ratings as its clients' ranks: filter + sort by rank + regroup; room creation
 *   and messages (`processGroupsReady`) stubbed out (see queue-room.ts). QueueRoom runs this
 *   once per cycle (1 s by default) over the whole queue; ours runs per join.
 * - growth: our time at 1e6 over our time at 1e3 (a logarithmic structure stays small);
 * - memory: heap used per waiting ticket when the 1v1 and 5v5 pools grow from 1e4 to 1e5
 *   (ticket objects and the policy's structures separately), after global.gc (the script runs
 *   node with --expose-gc; without it the figures include garbage and say so).
 *
 * Running time: building the pools dominates (every ticket's anchor search is one exact
 * assembly of the 2k tickets from it: ~0.1 ms for 5v5), and the 5v5 pool of 1e6 alone takes about
 * 2.5 minutes. So by default that pool is built and timed in a child process (this script with
 * --child) while this process runs everything else on the other core; the child's timings run
 * after this process is done, the others overlap with the child's build (on a 2-core machine
 * they share memory bandwidth with it). --serial runs everything in one process instead (about
 * 4 minutes, no overlap).
 *
 * Options: --json (one JSON object on stdout), --serial, --sizes=1000,10000 (other pool sizes),
 * --team-sizes=1,5.
 *
 * Before that comparison, the steady-pool table (see steady.ts): for each policy x team size x
 * waiting, engine steps per second (enqueue + cancel + tick through the public API), the
 * sorted-btree floor measured in the same process at the same N, the ratio, and heap bytes per
 * waiting ticket. Options: --policies=greedy,best-game, --steady-sizes=1000,100000,
 * --steady-team-sizes=1,5, --steady-ms=600 (length of each of the three rounds), --quick (1v1
 * and 5v5 at 1e3 and 1e4, shorter rounds), --no-steady, --steady-only (skip the QueueRoom
 * comparison).
 */
import { spawn } from "node:child_process";
import Table from "cli-table3";
import { Bench, type Task } from "tinybench";
import { GrowingPool, JoinQueryLeave } from "./pool.js";
import { FLOOR_ACCOUNTING, runSteady, STEADY_POLICIES, steadyGrowth, type SteadyCell } from "./steady.js";

const args = process.argv.slice(2);
const json = args.includes("--json");
const child = args.includes("--child");
const serial = args.includes("--serial") || child;
const listArg = (name: string, fallback: number[]): number[] => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  if (!arg) return fallback;
  const values = arg
    .slice(name.length + 3)
    .split(",")
    .map(Number);
  if (values.some((x) => !Number.isInteger(x) || x < 1))
    throw new Error(`--${name}: expected positive integers, got ${arg}`);
  return values;
};
const quick = args.includes("--quick");
// 1e6 only on request (--sizes=1000,10000,100000,1000000): its builds alone take minutes.
const SIZES = listArg("sizes", quick ? [1e3, 1e4] : [1e3, 1e4, 1e5]).sort((a, b) => a - b);
const TEAM_SIZES = listArg("team-sizes", [1, 5]);
const steadyOnly = args.includes("--steady-only");
const STEADY = !args.includes("--no-steady") && !child;
const STEADY_SIZES = listArg("steady-sizes", quick ? [1e3, 1e4] : [1e3, 1e4, 1e5]).sort((a, b) => a - b);
const STEADY_TEAM_SIZES = listArg("steady-team-sizes", quick ? [1, 5] : [1, 2, 5]);
const STEADY_MS = listArg("steady-ms", [quick ? 300 : 600])[0];
const policiesArg = args.find((a) => a.startsWith("--policies="));
const STEADY_POLICY_LIST = policiesArg ? policiesArg.slice("--policies=".length).split(",") : [...STEADY_POLICIES];
const MEMORY_AT = 1e5;
const SEED = 20_170_508;

const gc = (globalThis as { gc?: () => void }).gc;
const log = (message: string) => {
  if (!json || child) process.stderr.write(`${child ? "[child] " : ""}${message}\n`);
};

/** Importing colyseus prints its environment loading on stdout; keep stdout for the results. */
async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const saved = { log: console.log, info: console.info, warn: console.warn };
  console.log = console.info = console.warn = () => {};
  try {
    return await load();
  } finally {
    Object.assign(console, saved);
  }
}
const { QueueRoomHarness } = await quietly(() => import("./queue-room.js"));

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

interface Timing {
  meanUs: number;
  rmePercent: number;
  samples: number;
}

function timing(task: Task): Timing {
  const result = task.result;
  if (result.state !== "completed")
    throw new Error(`bench task ${task.name}: ${result.state}${"error" in result ? `: ${String(result.error)}` : ""}`);
  return { meanUs: result.latency.mean * 1000, rmePercent: result.latency.rme, samples: result.latency.samplesCount };
}

/** Iteration budgets: fewer at the largest pools, where one QueueRoom cycle takes seconds. */
function oursBench(): Bench {
  return new Bench({ time: 1000, iterations: 100, warmupTime: 200, warmupIterations: 20 });
}
function queueRoomBench(n: number): Bench {
  if (n >= 1e6) return new Bench({ time: 0, iterations: 3, warmup: false });
  if (n >= 1e5) return new Bench({ time: 500, iterations: 5, warmupTime: 0, warmupIterations: 1 });
  return new Bench({ time: 500, iterations: 20, warmupTime: 50, warmupIterations: 5 });
}

interface Row {
  teamSize: number;
  waitingTickets: number;
  buildSeconds: number;
  ours: Timing;
  queueRoom: Timing;
  /** QueueRoom cycle time / our insert + query + delete time. */
  ratio: number;
  candidates: number;
}

interface Memory {
  teamSize: number;
  ticketsAdded: number;
  ticketBytesPerTicket: number;
  policyBytesPerTicket: number;
  totalBytesPerTicket: number;
}

const started = performance.now();

let steadyCells: SteadyCell[] = [];
if (STEADY) {
  log(
    `steady pool: ${STEADY_POLICY_LIST.join(", ")} x ${STEADY_TEAM_SIZES.map((k) => `${k}v${k}`).join(", ")} x ${STEADY_SIZES.join(", ")} waiting`,
  );
  steadyCells = runSteady({
    policies: STEADY_POLICY_LIST,
    teamSizes: STEADY_TEAM_SIZES,
    sizes: STEADY_SIZES,
    rounds: 3,
    stepMs: Math.round(STEADY_MS * 0.6),
    floorMs: Math.round(STEADY_MS * 0.4),
    seed: SEED,
    log,
  });
}
const runComparison = !steadyOnly;

/** The largest pool of the last team size goes to a child process unless --serial. */
const jobs = runComparison ? TEAM_SIZES.map((k) => ({ k, sizes: [...SIZES] })) : [];
let childJob: { k: number; n: number } | undefined;
if (runComparison && !serial && SIZES.length > 1) {
  const last = jobs[jobs.length - 1];
  childJob = { k: last.k, n: last.sizes.pop()! };
}
const childResult = childJob ? runChild(childJob.k, childJob.n) : undefined;

const rows: Row[] = [];
const memory: Memory[] = [];
let checksum = 0;

// Warm the JIT on small pools first, so that the first row is not measuring compilation.
for (const { k } of jobs) {
  const pool = new GrowingPool(k, SEED - k);
  pool.add(pool.nextTickets(1000));
  const op = new JoinQueryLeave(pool.policy, SEED);
  for (const end = performance.now() + 300; performance.now() < end;) op.run();
  checksum += op.checksum;
}

for (const { k, sizes } of jobs) {
  const pool = new GrowingPool(k, SEED + k);
  for (const n of sizes) {
    const before = n === MEMORY_AT ? heapUsed() : 0;
    const tickets = pool.nextTickets(n);
    const mid = n === MEMORY_AT ? heapUsed() : 0;
    const t0 = performance.now();
    pool.add(tickets);
    const buildSeconds = (performance.now() - t0) / 1000;
    if (n === MEMORY_AT) {
      const after = heapUsed();
      memory.push({
        teamSize: k,
        ticketsAdded: tickets.length,
        ticketBytesPerTicket: (mid - before) / tickets.length,
        policyBytesPerTicket: (after - mid) / tickets.length,
        totalBytesPerTicket: (after - before) / tickets.length,
      });
    }
    tickets.length = 0;
    log(`${k}v${k}: ${n} waiting tickets built in ${buildSeconds.toFixed(1)} s; timing...`);

    // Collect first, so that no full collection of the large heap lands in the timed window.
    heapUsed();
    const op = new JoinQueryLeave(pool.policy, SEED * 7 + n + k);
    const ours = oursBench().add("insert+query+delete", () => op.run());
    ours.runSync();
    checksum += op.checksum;

    const harness = new QueueRoomHarness(2 * k, pool.ratings);
    heapUsed();
    const queueRoom = queueRoomBench(n).add("QueueRoom.reassignMatchGroups", () => void harness.cycle(), {
      beforeEach: () => harness.reset(),
    });
    queueRoom.runSync();

    const oursTiming = timing(ours.tasks[0]);
    const queueTiming = timing(queueRoom.tasks[0]);
    rows.push({
      teamSize: k,
      waitingTickets: n,
      buildSeconds,
      ours: oursTiming,
      queueRoom: queueTiming,
      ratio: queueTiming.meanUs / oursTiming.meanUs,
      candidates: pool.policy.candidates,
    });
  }
}
if (childResult) {
  log(`waiting for the child process (${childJob!.k}v${childJob!.k}, ${childJob!.n} waiting)...`);
  const result = await childResult;
  rows.push(...result.rows);
  memory.push(...result.memory);
  checksum += result.checksum;
  rows.sort((a, b) => a.teamSize - b.teamSize || a.waitingTickets - b.waitingTickets);
}

/** This script on one (teamSize, size) in a child process, reporting its rows as JSON. */
function runChild(k: number, n: number): Promise<{ rows: Row[]; memory: Memory[]; checksum: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...process.execArgv, process.argv[1], "--child", "--json", `--team-sizes=${k}`, `--sizes=${n}`],
      {
        stdio: ["ignore", "pipe", json ? "ignore" : "inherit"],
      },
    );
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0) return reject(new Error(`bench child (${k}v${k}, ${n}) exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()!));
      } catch (error) {
        reject(error);
      }
    });
  });
}

const growth = TEAM_SIZES.filter((k) => rows.filter((r) => r.teamSize === k).length > 1).map((k) => {
  const mine = rows.filter((r) => r.teamSize === k);
  const first = mine[0];
  const last = mine[mine.length - 1];
  return {
    teamSize: k,
    from: first.waitingTickets,
    to: last.waitingTickets,
    ratio: last.ours.meanUs / first.ours.meanUs,
  };
});
const totalSeconds = (performance.now() - started) / 1000;
const steadyNotes = [
  "steady pool: one step = enqueue a fresh solo (rating N(1500, 300)) + cancel a random waiting ticket + tick; nothing forms (best-game threshold 0, expanding-window window 0, others all side A)",
  `floor: one sorted-btree insert + delete at the same N (on a copy of sorted-btree of its own), alternating with the engine in slices of equal length; medians of 3 rounds; CPU time: ${FLOOR_ACCOUNTING === "main-thread" ? "the floor's main thread, the engine's whole process (the collector's helper threads included, also those that ran during the floor's slices)" : "the process's, for both (no per-thread CPU time on this system)"}`,
  "x floor (thread): the same, each side timed by its main thread alone (the collector's helper threads free, as with a core to spare): the throughput of the thread that runs the room",
  "x fastest: steps/s over the fastest floor of any cell of this run at the same N (a slow floor cannot flatter it; on a busy machine it reads low)",
  "B/ticket: heap held by the engine and its policy per waiting ticket (after global.gc), beside the ticket objects (ticket B)",
];
const notes = [
  "ours = insert one solo + query the best game (heap top, stale entries dropped) + delete that solo; pool stays at n",
  "QueueRoom = one reassignMatchGroups() cycle over all n clients (filter, sort by rank, regroup); processGroupsReady stubbed",
  "iterations: ours >= 100 and >= 1 s; QueueRoom >= 20 at 1e3-1e4, >= 5 at 1e5, exactly 3 (no warmup) at 1e6",
  childJob
    ? `${childJob.k}v${childJob.k} at ${childJob.n.toLocaleString("en-US")} built and timed in a child process; the other rows were timed while it was building`
    : "all rows in one process (--serial)",
  gc ? "memory after global.gc()" : "memory WITHOUT global.gc (run with --expose-gc): includes garbage",
];

if (json) {
  process.stdout.write(
    `${JSON.stringify({
      node: process.version,
      seed: SEED,
      ...(STEADY ? { steady: { cells: steadyCells, growth: steadyGrowth(steadyCells), notes: steadyNotes } } : {}),
      rows,
      growth,
      memory,
      notes,
      totalSeconds,
      checksum,
    })}\n`,
  );
} else {
  if (STEADY) {
    const steady = new Table({
      head: [
        "policy",
        "game",
        "waiting",
        "steps/s",
        "floor/s",
        "x floor",
        "x floor (thread)",
        "x fastest",
        "B/ticket",
        "ticket B",
        "build",
      ],
      style: { head: [], border: [] },
    });
    for (const c of steadyCells) {
      steady.push([
        c.policy,
        `${c.teamSize}v${c.teamSize}`,
        c.waiting.toLocaleString("en-US"),
        Math.round(c.stepsPerSecond).toLocaleString("en-US"),
        Math.round(c.floorPerSecond).toLocaleString("en-US"),
        c.ratio >= 0.01 ? c.ratio.toFixed(3) : c.ratio.toFixed(4),
        c.threadRatio >= 0.01 ? c.threadRatio.toFixed(3) : c.threadRatio.toFixed(4),
        c.ratioToFastest! >= 0.01 ? c.ratioToFastest!.toFixed(3) : c.ratioToFastest!.toFixed(4),
        c.engineBytesPerTicket.toFixed(0),
        c.ticketBytesPerTicket.toFixed(0),
        `${c.buildSeconds.toFixed(1)} s`,
      ]);
    }
    console.log(steady.toString());
    for (const g of steadyGrowth(steadyCells)) {
      console.log(
        `steady growth ${g.policy} ${g.teamSize}v${g.teamSize}: ${g.from.toLocaleString("en-US")} -> ${g.to.toLocaleString("en-US")} waiting: ` +
          `${g.slowdown.toFixed(2)}x slower in steps/s, ${g.relativeSlowdown.toFixed(2)}x against the floor (which slowed ${g.floorSlowdown.toFixed(2)}x) (target: at most 2x)`,
      );
    }
    for (const note of steadyNotes) console.log(`note: ${note}`);
  }
  if (!runComparison) {
    console.log(`total ${totalSeconds.toFixed(0)} s`);
    process.exit(0);
  }
  const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
  const table = new Table({
    head: [
      "game",
      "waiting",
      "build",
      "ours: insert+query+delete",
      "±",
      "n",
      "QueueRoom cycle",
      "±",
      "n",
      "QueueRoom / ours",
    ],
    style: { head: [], border: [] },
  });
  for (const r of rows) {
    table.push([
      `${r.teamSize}v${r.teamSize}`,
      r.waitingTickets.toLocaleString("en-US"),
      `${r.buildSeconds.toFixed(1)} s`,
      fmt(r.ours.meanUs),
      `${r.ours.rmePercent.toFixed(1)}%`,
      r.ours.samples,
      fmt(r.queueRoom.meanUs),
      `${r.queueRoom.rmePercent.toFixed(1)}%`,
      r.queueRoom.samples,
      `${r.ratio >= 10 ? r.ratio.toFixed(0) : r.ratio.toFixed(2)}x`,
    ]);
  }
  console.log(table.toString());
  for (const g of growth) {
    console.log(
      `growth ${g.teamSize}v${g.teamSize}: ${g.from.toLocaleString("en-US")} -> ${g.to.toLocaleString("en-US")} waiting: ${g.ratio.toFixed(2)}x (target: at most about 3x)`,
    );
  }
  for (const m of memory) {
    console.log(
      `memory ${m.teamSize}v${m.teamSize} at ${MEMORY_AT.toLocaleString("en-US")} waiting: ${m.totalBytesPerTicket.toFixed(0)} B per waiting ticket ` +
        `(ticket objects ${m.ticketBytesPerTicket.toFixed(0)} B + best-game structures ${m.policyBytesPerTicket.toFixed(0)} B; measured over the ${m.ticketsAdded.toLocaleString("en-US")} tickets added)`,
    );
  }
  for (const note of notes) console.log(`note: ${note}`);
  console.log(`total ${totalSeconds.toFixed(0)} s`);
}
process.exit(0);
