/**
 * `npm run load`: the queue room under load, against Colyseus's `QueueRoom` and a bare room.
 * Every scenario gets a FRESH server process (bench/load/server.ts) on 127.0.0.1 and is driven
 * from SEPARATE client processes (bench/load/client.ts) with `@colyseus/sdk`. Server CPU comes
 * from `process.cpuUsage()` in the server process; every loop is bounded in count and time.
 *
 *   npm run load                                   # everything, three repeats (about 25 min)
 *   npm run load -- --quick                        # one repeat, small sizes (about 2 min)
 *   npm run load -- --scenarios fill --sizes 1000,5000 --repeat 1 --no-write
 *
 * Flags: --scenarios arrival,fill  --rooms queue_greedy,queue_best,queue_window,queueroom,queueroom_20ms,bare
 *        (also queue_greedy_1s: greedy with joinBatchMs 1000, QueueRoom's one-second cycle; queue_ffa8,
 *        a free-for-all of 8, with its peers queueroom_8, queueroom_8_20ms and bare_8)
 *        (also queue_ranked, queue_ranked_memory: the greedy 2v2 ranked, its ratings in SQLite or in memory,
 *        against queue_greedy in the notes under the table)
 *        --fill-rooms fill_queue,bare (also fill_2v2, fill_ffa8: 2v2 and free-for-all of 8 queues held
 *        by a failing game room; fill_ranked: the ranked 2v2 held; fill_queueroom_8: a QueueRoom of 8 that groups nobody)
 *        --rates 50,200,500  --duration 8 (s per arrival scenario)  --drain 10 (s, the bound for lost)
 *        --sizes 1000,4000,20000  --idle 10 (s of idle measurement)  --settle 3 (s between the fill and the
 *        idle measurement)  --fill-timeout 120 (s)
 *        --repeat 3  --out lab/load.md  --no-write  --port 7000  --profile DIR (V8 CPU profiles of
 *        the server processes)  --label TEXT (heading of the tables)  --priority (Linux, root: run ahead
 *        of other sessions' processes on a shared machine)
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SECRET_ENV } from "./accounts.js";
import {
  loadRoom,
  serverStats,
  type ArrivalJob,
  type ArrivalResult,
  type FillJob,
  type FillResult,
} from "./protocol.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
/** The machine's hard limit on open files is 20,000: one server process holds one socket per client. */
const MAX_CLIENTS_PER_SERVER = 19_800;
/** One client process opens at most this many WebSockets (file descriptors; and the SDK's own memory). */
const MAX_CLIENTS_PER_PROCESS = 10_000;

// ---- flags ----
const argv = process.argv.slice(2);
function flag(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}
const has = (name: string) => argv.includes(`--${name}`);
const list = (name: string, fallback: string) => (flag(name) ?? fallback).split(",").filter(Boolean);
const quick = has("quick");
const scenarios = list("scenarios", "arrival,fill");
const rooms = list("rooms", "queue_greedy,queue_best,queue_window,queueroom,queueroom_20ms,bare");
const fillRooms = list("fill-rooms", "fill_queue,bare");
// A misspelt room fails here, not in a client process minutes later.
for (const room of [...rooms, ...fillRooms]) loadRoom(room);
const rates = list("rates", quick ? "200" : "50,200,500").map(Number);
const sizes = list("sizes", quick ? "1000,4000" : "1000,4000,20000").map(Number);
const durationS = Number(flag("duration") ?? (quick ? 5 : 8));
const drainS = Number(flag("drain") ?? 10);
const idleS = Number(flag("idle") ?? (quick ? 5 : 10));
const settleS = Number(flag("settle") ?? 3);
const fillTimeoutS = Number(flag("fill-timeout") ?? 120);
const repeat = Number(flag("repeat") ?? (quick ? 1 : 3));
const portBase = Number(flag("port") ?? 7000);
const out = flag("out") ?? "lab/load.md";
const write = !has("no-write");
const profileDir = flag("profile");
const label = flag("label") ?? "";
if (!(portBase >= 7000 && portBase <= 7099)) throw new Error("--port must be in 7000-7099");

// On a machine shared with other work, CPU contention changes what a scenario costs (a starved
// server does more per wake-up). Linux schedules by session ("autogroup") before niceness, so a
// plain `nice` does not help against other sessions' processes: --priority raises this session's
// group (the server and client processes are in it), which needs root.
if (has("priority")) {
  try {
    writeFileSync("/proc/self/autogroup", "-19");
  } catch (error) {
    throw new Error(`--priority: cannot raise the autogroup's priority (${String(error)})`, { cause: error });
  }
}

// ---- processes ----
// The ranked rooms' players sign in with tokens signed with this run's secret (accounts.ts); the
// server and client processes inherit it.
process.env[SECRET_ENV] ??= randomBytes(32).toString("hex");
let nextPort = portBase;
const port = () => {
  const p = nextPort;
  nextPort = nextPort >= 7099 ? 7000 : nextPort + 1;
  return p;
};

interface Server {
  proc: ChildProcess;
  endpoint: string;
  stop(): Promise<void>;
}

async function startServer(tag: string): Promise<Server> {
  const p = port();
  const execArgv = ["--import", "tsx", "--expose-gc"];
  if (profileDir) {
    // One directory per scenario: the main thread and tsx's loader thread each write a profile.
    const dir = path.join(profileDir, `${tag}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    execArgv.push("--cpu-prof", `--cpu-prof-dir=${dir}`);
  }
  const proc = fork(path.join(here, "server.ts"), [], {
    cwd: root,
    execArgv,
    env: { ...process.env, LOAD_PORT: String(p), NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${stderr}`)), 30_000);
    proc.on("message", (m: { ready?: number }) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on("exit", (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  return {
    proc,
    endpoint: `ws://127.0.0.1:${p}`,
    stop: () => stopProcess(proc, "SIGINT"),
  };
}

/** Stop a child: the signal, then SIGKILL after 10 s. */
function stopProcess(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill(signal);
  });
}

interface LoadClient {
  proc: ChildProcess;
  call<T>(message: object, timeoutMs: number): Promise<T>;
}

async function startClient(): Promise<LoadClient> {
  const proc = fork(path.join(here, "client.ts"), [], {
    cwd: root,
    execArgv: ["--import", "tsx", "--max-old-space-size=6144"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  proc.stderr!.resume();
  await new Promise<void>((resolve, reject) => {
    proc.once("message", () => resolve());
    proc.once("exit", (code) => reject(new Error(`load client exited (${code})`)));
  });
  return {
    proc,
    call<T>(message: object, timeoutMs: number) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`load client: no answer in ${timeoutMs} ms`)), timeoutMs);
        proc.once("message", (m: { value?: T; error?: string }) => {
          clearTimeout(timer);
          if (m.error) reject(new Error(m.error));
          else resolve(m.value as T);
        });
        proc.send(message);
      });
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- scenarios ----

interface ArrivalRow extends ArrivalResult {
  room: string;
  rate: number;
  cpuPerSeatedMs: number;
  clientCpuPerSeatedMs: number;
  /** Both processes' CPU over the run's span (cores): near the core count, the host is saturated. */
  coresBusy: number;
}

async function runArrival(room: string, rate: number, seed: number): Promise<ArrivalRow> {
  const server = await startServer(`arrival-${room}-${rate}`);
  const client = await startClient();
  try {
    const job: ArrivalJob = { endpoint: server.endpoint, room, rate, durationS, drainS, seed };
    const r = await client.call<ArrivalResult>({ cmd: "arrival", job }, (durationS + drainS + 60) * 1000);
    const seated = Math.max(1, r.seated);
    return {
      ...r,
      room,
      rate,
      cpuPerSeatedMs: r.cpuMs / seated,
      clientCpuPerSeatedMs: r.clientCpuMs / seated,
      coresBusy: (r.cpuMs + r.clientCpuMs) / r.wallMs,
    };
  } finally {
    await stopProcess(client.proc, "SIGTERM");
    await server.stop();
  }
}

interface FillRow {
  room: string;
  size: number;
  joined: number;
  timedOut: boolean;
  cpuPerJoinMs: number;
  fillS: number;
  heapPerWaitingB: number;
  idleMsgsPerClientS: number;
  idleCpuShare: number;
  rss: number;
}

async function runFill(room: string, size: number, seed: number): Promise<FillRow> {
  const server = await startServer(`fill-${room}-${size}`);
  const n = Math.ceil(size / MAX_CLIENTS_PER_PROCESS);
  const clients = await Promise.all(Array.from({ length: n }, () => startClient()));
  try {
    const base = await serverStats(server.endpoint, "?gc=1");
    const job = (count: number, i: number): FillJob => ({
      endpoint: server.endpoint,
      room,
      count,
      concurrency: 100,
      timeoutS: fillTimeoutS,
      seed: seed + i,
    });
    const t0 = performance.now();
    // One join creates the room; then every process fills its share of the rest at once.
    const first = await clients[0].call<FillResult>({ cmd: "fill", job: job(1, 0) }, 30_000);
    const rest = size - 1;
    const shares = clients.map((_, i) => Math.floor(rest / n) + (i < rest % n ? 1 : 0));
    const results = await Promise.all(
      clients.map((c, i) =>
        c.call<FillResult>({ cmd: "fill", job: job(shares[i], i + 1) }, (fillTimeoutS + 60) * 1000),
      ),
    );
    const fillMs = performance.now() - t0;
    const filled = await serverStats(server.endpoint);
    const joined = first.joined + results.reduce((s, r) => s + r.joined, 0);
    await sleep(settleS * 1000); // let the joins' after-effects (patches, status) settle
    const heap = await serverStats(server.endpoint, "?gc=1");
    const count = async () =>
      (await Promise.all(clients.map((c) => c.call<{ received: number }>({ cmd: "count" }, 10_000)))).reduce(
        (s, r) => s + r.received,
        0,
      );
    const m0 = await count();
    const c0 = await serverStats(server.endpoint);
    const i0 = performance.now();
    await sleep(idleS * 1000);
    const m1 = await count();
    const c1 = await serverStats(server.endpoint);
    const idleMs = performance.now() - i0;
    return {
      room,
      size,
      joined,
      timedOut: results.some((r) => r.timedOut),
      cpuPerJoinMs: (filled.cpuMs - base.cpuMs) / Math.max(1, joined),
      fillS: fillMs / 1000,
      heapPerWaitingB: (heap.heapUsed - base.heapUsed) / Math.max(1, joined),
      idleMsgsPerClientS: (m1 - m0) / Math.max(1, joined) / (idleMs / 1000),
      idleCpuShare: (c1.cpuMs - c0.cpuMs) / idleMs,
      rss: c1.rss,
    };
  } finally {
    await Promise.all(clients.map((c) => c.call({ cmd: "close" }, 5000).catch(() => undefined)));
    await Promise.all(clients.map((c) => stopProcess(c.proc, "SIGTERM")));
    await server.stop();
  }
}

// ---- tables ----

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const mb = (b: number) => f(b / 1024 / 1024, 0);
const range = (xs: number[], digits = 1) => {
  const s = xs.filter((x) => Number.isFinite(x));
  return s.length > 1 ? ` (${f(Math.min(...s), digits)}-${f(Math.max(...s), digits)})` : "";
};

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

function arrivalTable(runs: ArrivalRow[][]): string {
  const rows: string[][] = [];
  for (const rate of rates) {
    for (const room of rooms) {
      const cells = runs
        .map((run) => run.find((r) => r.room === room && r.rate === rate))
        .filter((r) => r !== undefined);
      if (cells.length === 0) continue;
      const m = (k: keyof ArrivalRow) => median(cells.map((c) => c[k] as number));
      // Ratio to a peer measured within each run, then the median of the ratios.
      const ratioTo = (peerRoom: string | undefined) =>
        median(
          runs.map((run) => {
            const ours = run.find((r) => r.room === room && r.rate === rate);
            const peer = run.find((r) => r.room === peerRoom && r.rate === rate);
            return ours && peer ? ours.cpuPerSeatedMs / peer.cpuPerSeatedMs : NaN;
          }),
        );
      rows.push([
        room,
        String(rate),
        f(m("joinsPerS"), 0),
        f(m("seatP50Ms"), 0),
        f(m("seatP99Ms"), 0),
        f(m("gameP50Ms"), 0),
        f(m("gameP99Ms"), 0),
        f(m("cpuPerSeatedMs"), 2) +
          range(
            cells.map((c) => c.cpuPerSeatedMs),
            2,
          ),
        f(ratioTo(loadRoom(room).peer), 2),
        f(ratioTo(loadRoom(room).peer20ms), 2),
        f(m("clientCpuPerSeatedMs"), 2),
        f(m("coresBusy"), 2),
        mb(m("rss")),
        f(m("eventLoopP99Ms"), 0),
        `${f(m("lost"), 0)} / ${f(m("players"), 0)}`,
      ]);
    }
  }
  return table(
    [
      "room",
      "rate/s",
      "joins/s",
      "seat p50 ms",
      "seat p99 ms",
      "in game p50 ms",
      "in game p99 ms",
      "CPU ms / seated (min-max)",
      "CPU vs QueueRoom (same game size)",
      "CPU vs QueueRoom at 20 ms",
      "clients' CPU ms / seated",
      "cores busy (server + clients)",
      "RSS MB",
      "loop delay p99 ms",
      "lost / players",
    ],
    rows,
  );
}

function fillTable(runs: FillRow[][]): string {
  const rows: string[][] = [];
  for (const size of sizes) {
    for (const room of fillRooms) {
      const cells = runs
        .map((run) => run.find((r) => r.room === room && r.size === size))
        .filter((r) => r !== undefined);
      if (cells.length === 0) continue;
      const m = (k: keyof FillRow) => median(cells.map((c) => c[k] as number));
      const ratio = (k: keyof FillRow) =>
        median(
          runs.map((run) => {
            const ours = run.find((r) => r.room === room && r.size === size);
            const bare = run.find((r) => r.room === "bare" && r.size === size);
            return ours && bare ? (ours[k] as number) / (bare[k] as number) : NaN;
          }),
        );
      rows.push([
        loadRoom(room).label ?? room,
        String(Math.min(size, MAX_CLIENTS_PER_SERVER)),
        `${f(m("joined"), 0)}${cells.some((c) => c.timedOut) ? " (timed out)" : ""}`,
        f(m("cpuPerJoinMs"), 2) +
          range(
            cells.map((c) => c.cpuPerJoinMs),
            2,
          ),
        room === "bare" ? "1" : f(ratio("cpuPerJoinMs"), 2),
        f(m("fillS"), 1),
        f(m("heapPerWaitingB") / 1024, 1),
        f(m("idleMsgsPerClientS"), 3),
        f(m("idleCpuShare") * 100, 1) + "%",
        room === "bare" ? "1" : f(ratio("idleCpuShare"), 2),
        mb(m("rss")),
      ]);
    }
  }
  return table(
    [
      "room",
      "waiting",
      "joined",
      "CPU ms / join (min-max)",
      "CPU vs bare",
      "time to fill s",
      "heap KiB / waiting",
      "idle msgs / client / s",
      "idle CPU",
      "idle CPU vs bare",
      "RSS MB",
    ],
    rows,
  );
}

/** Each room measured beside its `base`: the ratio of `cost` to the base's, run by run, then the median. */
function againstBase<R extends { room: string }>(
  runs: R[][],
  names: readonly string[],
  same: (a: R, b: R) => boolean,
  cost: (r: R) => number,
  describe: (medianOf: (pick: (r: R) => number, side: 0 | 1) => number) => string,
): string[] {
  const lines: string[] = [];
  for (const room of names) {
    const base = loadRoom(room).base;
    if (!base || !names.includes(base)) continue;
    for (const ours of runs[0] ?? []) {
      if (ours.room !== room) continue;
      const pairs = runs.flatMap((run) => {
        const a = run.find((r) => r.room === room && same(r, ours));
        const b = run.find((r) => r.room === base && same(r, ours));
        return a && b ? [[a, b] as const] : [];
      });
      if (pairs.length === 0) continue;
      const ratios = pairs.map(([a, b]) => cost(a) / cost(b));
      const runsText = ratios.length > 1 ? ` (runs: ${ratios.map((x) => f(x, 2)).join(", ")})` : "";
      const medianOf = (pick: (r: R) => number, side: 0 | 1) => median(pairs.map((pair) => pick(pair[side])));
      lines.push(`- ${room} / ${base}: ${f(median(ratios), 2)}${runsText}; ${describe(medianOf)}`);
    }
  }
  return lines.length > 0
    ? ["Against the room each adds to (CPU ratio within each run, median):", "", ...lines, ""]
    : [];
}

/** Growth of each room's CPU per join from the smallest to the largest size, per run, median (none for one size). */
function growth(runs: FillRow[][]): string[] {
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  if (lo === hi) return [];
  const lines = fillRooms.map((room) => {
    const g = median(
      runs.map((run) => {
        const a = run.find((r) => r.room === room && r.size === lo);
        const b = run.find((r) => r.room === room && r.size === hi);
        return a && b ? b.cpuPerJoinMs / a.cpuPerJoinMs : NaN;
      }),
    );
    return `- ${loadRoom(room).label ?? room}: ${f(g, 2)}x`;
  });
  return [
    `CPU per join at ${Math.min(hi, MAX_CLIENTS_PER_SERVER)} vs ${lo} waiting (median over runs):`,
    "",
    ...lines,
    "",
  ];
}

// ---- main ----

const arrivalRuns: ArrivalRow[][] = [];
const fillRuns: FillRow[][] = [];
const started = new Date();
for (let rep = 0; rep < repeat; rep++) {
  const arrivalRun: ArrivalRow[] = [];
  const fillRun: FillRow[] = [];
  if (scenarios.includes("arrival")) {
    for (const rate of rates) {
      for (const room of rooms) {
        const row = await runArrival(room, rate, 1000 * rep + rate).catch((error: unknown) => {
          console.log(`[${rep + 1}/${repeat}] arrival ${room} @${rate}/s failed: ${String(error)}`);
          return undefined;
        });
        if (!row) continue;
        console.log(
          `[${rep + 1}/${repeat}] arrival ${room} @${rate}/s: ${row.seated}/${row.players} seated, seat p50 ${f(row.seatP50Ms, 0)} p99 ${f(row.seatP99Ms, 0)} ms, CPU ${f(row.cpuPerSeatedMs, 2)} ms/seated (event loop ${f(row.mainThreadMs / row.seated, 2)}, kernel ${f(row.systemMs / row.seated, 2)}; clients ${f(row.clientCpuPerSeatedMs, 2)}), ${f(row.coresBusy, 2)} cores busy, lost ${row.lost}`,
        );
        arrivalRun.push(row);
      }
    }
  }
  if (scenarios.includes("fill")) {
    for (const size of sizes) {
      for (const room of fillRooms) {
        const row = await runFill(room, Math.min(size, MAX_CLIENTS_PER_SERVER), 7 + rep).catch((error: unknown) => {
          console.log(`[${rep + 1}/${repeat}] fill ${room} ${size} failed: ${String(error)}`);
          return undefined;
        });
        if (!row) continue;
        row.size = size;
        console.log(
          `[${rep + 1}/${repeat}] fill ${room} ${size}: ${row.joined} joined in ${f(row.fillS)} s${row.timedOut ? " (timed out)" : ""}, CPU ${f(row.cpuPerJoinMs, 2)} ms/join, idle ${f(row.idleMsgsPerClientS, 3)} msgs/client/s, idle CPU ${f(row.idleCpuShare * 100)}%`,
        );
        fillRun.push(row);
      }
    }
  }
  arrivalRuns.push(arrivalRun);
  fillRuns.push(fillRun);
}

const command = `npm run load -- ${argv.join(" ")}`.trim();
const cpu = os.cpus();
const machine = `${cpu.length} x ${cpu[0]?.model ?? "?"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}, Node ${process.version}; load average at start ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(" ")} (the cores are shared with other work: figures are noisy)`;
const sections: string[] = [
  `### ${label || "Run"} (${started.toISOString().slice(0, 16)}Z)`,
  "",
  `Command: \`${command}\`  `,
  `Machine: ${machine}  `,
  `Medians of ${repeat} run(s); ratios are taken within each run, then the median.`,
  "",
];
if (arrivalRuns.some((r) => r.length > 0)) {
  sections.push(
    `Arrival stream (games of 4 (2v2) or of 8 (queue_ffa8 and the *_8 peers); ${durationS} s of arrivals per scenario, lost = not seated within ${drainS} s after the last arrival):`,
    "",
    arrivalTable(arrivalRuns),
    "",
    ...againstBase(
      arrivalRuns,
      rooms,
      (a, b) => a.rate === b.rate,
      (r) => r.cpuPerSeatedMs,
      (m) => {
        const both = (pick: (r: ArrivalRow) => number, digits: number) =>
          `${f(m(pick, 0), digits)} vs ${f(m(pick, 1), digits)}`;
        return `@${m((r) => r.rate, 0)}/s (medians): CPU ${both((r) => r.cpuPerSeatedMs, 2)} ms / seated, seat p95 ${both((r) => r.seatP95Ms, 0)} ms, lost ${both((r) => r.lost, 0)}`;
      },
    ),
  );
}
if (fillRuns.some((r) => r.length > 0)) {
  sections.push(
    `Fill (N idle clients; ${idleS} s of idle measurement, ${settleS} s after the fill):`,
    "",
    fillTable(fillRuns),
    "",
    ...growth(fillRuns),
    ...againstBase(
      fillRuns,
      fillRooms,
      (a, b) => a.size === b.size,
      (r) => r.cpuPerJoinMs,
      (m) =>
        `${m((r) => r.size, 0)} waiting (medians): CPU ${f(
          m((r) => r.cpuPerJoinMs, 0),
          2,
        )} vs ${f(
          m((r) => r.cpuPerJoinMs, 1),
          2,
        )} ms / join`,
    ),
  );
}
const text = sections.join("\n");
console.log(`\n${text}`);
writeFileSync(path.join(root, "bench/load/last-run.json"), JSON.stringify({ arrivalRuns, fillRuns }, null, 1));
if (write) {
  const file = path.join(root, out);
  const previous = existsSync(file)
    ? readFileSync(file, "utf8")
    : "# Load measurements\n\nWritten by `npm run load` (bench/load/run.ts).\n";
  writeFileSync(file, `${previous.trimEnd()}\n\n${text}`);
  console.log(`appended to ${out}`);
}
