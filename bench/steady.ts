/**
 * The steady-pool table of `npm run bench`: the engine's cost per step through its public API,
 * against one ordered-set update measured in the same process at the same size.
 *
 * A pool of N waiting solos, ratings N(1500, 300) (seeded). One step = one arrival (`enqueue` of a
 * fresh solo), one departure (`cancel` of a random waiting ticket, possibly the newcomer) and a
 * `tick`, so the pool stays at N. Nothing forms, so the pool stays put: `best-game` runs with
 * `threshold: 0` (its candidates are searched and kept as usual, none qualifies),
 * `expanding-window` with a window of 0 that never grows (`initial: 0, growthPerSecond: 0`), every other
 * policy sees only side-A tickets (no game can be assembled, the policy still indexes and
 * searches).
 *
 * The floor: one sorted-btree insert (a fresh random number key) plus one delete (a random held
 * key) on a tree of N numbers, with the same bookkeeping (a swap-remove array) as the engine loop,
 * on a copy of sorted-btree loaded for the floor alone (see `privateBTree`), so that its speed
 * does not depend on which other trees ran before it. Floors still vary from cell to cell at
 * 100,000 (the collector's marking of the engine's heap, on another core, slows the floor's
 * thread too), so each cell also reports `ratioToFastest`.
 *
 * Each cell: the pool is built (enqueue N tickets, one tick), then three rounds, each of about
 * `floorMs + stepMs`, in which floor and engine alternate in slices of about 20 ms of CPU time
 * (so that on a shared machine both see the same load; CPU time, so that time spent descheduled
 * does not count: the floor's main thread, the engine's process with the collector's helper
 * threads, see `interleaved`); the figures are the medians of the three rounds. Heap per waiting
 * ticket: heap used after global.gc before and after the N tickets are created (the ticket
 * objects) and after they are enqueued (the engine and its policy).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Matchmaker } from "../src/options/matchmaker.js";
import type { Policy, PolicyParams } from "../src/core/policy.js";
import type { Ticket } from "../src/core/types.js";
import type { SortedTree } from "../src/core/sorted-tree.js";
import { Random } from "../src/sim/random.js";

export const STEADY_POLICIES = ["greedy", "fifo", "expanding-window", "multi-queue", "best-game"] as const;

export interface SteadyCell {
  readonly policy: string;
  readonly teamSize: number;
  readonly waiting: number;
  /** Engine steps (enqueue + cancel + tick) per second, median of the rounds. */
  readonly stepsPerSecond: number;
  /** sorted-btree insert + delete per second at the same N, median of the rounds. */
  readonly floorPerSecond: number;
  /** Engine steps per floor step in the same CPU time: the median over adjacent slice pairs, median of the rounds. */
  readonly ratio: number;
  /**
   * The same with each side timed by the main thread alone (the collector's helper threads free,
   * as on a machine with a core to spare for them): the throughput of the thread that runs the room.
   */
  readonly threadRatio: number;
  readonly rounds: readonly Round[];
  /** The fastest floor (steps/s) of any round of any cell of the run at the same N (see {@link againstFastestFloor}). */
  readonly fastestFloorPerSecond?: number;
  /** Engine steps/s over {@link fastestFloorPerSecond}: the ratio a slow floor cannot flatter. */
  readonly ratioToFastest?: number;
  /** Heap per waiting ticket held by the engine and its policy, beside the ticket objects (B). */
  readonly engineBytesPerTicket: number;
  /** Heap per ticket object (B). */
  readonly ticketBytesPerTicket: number;
  readonly buildSeconds: number;
}

export interface SteadyOptions {
  readonly policies: readonly string[];
  readonly teamSizes: readonly number[];
  readonly sizes: readonly number[];
  readonly rounds: number;
  readonly stepMs: number;
  readonly floorMs: number;
  readonly seed: number;
  readonly log: (message: string) => void;
}

const gc = (globalThis as { gc?: () => void }).gc;
function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function paramsOf(policy: string): PolicyParams {
  if (policy === "best-game") return { threshold: 0 };
  if (policy === "expanding-window") return { initial: 0, growthPerSecond: 0 };
  return {};
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** A steady pool driven through the engine's public API. */
export class SteadyPool {
  readonly mm: Matchmaker;
  readonly waiting: Ticket[] = [];
  private readonly random: Random;
  private readonly side: "A" | undefined;
  private seq = 0;
  now = 0;
  formed = 0;

  /** @param policy a built-in policy's name, or an instance (its tickets then carry no side, as best-game's). */
  constructor(policy: string | Policy, teamSize: number, seed: number) {
    this.mm = new Matchmaker({
      teamSize,
      policy,
      ...(typeof policy === "string" ? { params: paramsOf(policy) } : {}),
      ratingRange: { min: 0, max: 3000 },
    });
    this.random = new Random(seed);
    this.side = typeof policy !== "string" || policy === "best-game" || policy === "expanding-window" ? undefined : "A";
  }

  ticket(): Ticket {
    const id = `t${this.seq++}`;
    const rating = 1500 + 300 * this.random.normal();
    return this.side
      ? { id, players: [{ sessionId: id, rating }], enqueuedAt: ++this.now, side: this.side }
      : { id, players: [{ sessionId: id, rating }], enqueuedAt: ++this.now };
  }

  fill(tickets: readonly Ticket[]): void {
    for (const t of tickets) {
      this.mm.enqueue(t, t.enqueuedAt);
      this.waiting.push(t);
    }
    this.settle(this.mm.tick(this.now));
  }

  /** One arrival, one random departure, one tick. */
  step(): void {
    const t = this.ticket();
    this.mm.enqueue(t, this.now);
    const waiting = this.waiting;
    waiting.push(t);
    const i = Math.floor(this.random.uniform() * waiting.length);
    const gone = waiting[i];
    waiting[i] = waiting[waiting.length - 1];
    waiting.pop();
    this.mm.cancel(gone.id, this.now);
    const matches = this.mm.tick(this.now);
    if (matches.length > 0) this.settle(matches);
  }

  private settle(matches: readonly { readonly tickets: readonly Ticket[] }[]): void {
    if (matches.length === 0) return;
    const gone = new Set<string>();
    for (const m of matches) for (const t of m.tickets) gone.add(t.id);
    this.formed += matches.length;
    let j = 0;
    for (const t of this.waiting) if (!gone.has(t.id)) this.waiting[j++] = t;
    this.waiting.length = j;
  }
}

/**
 * sorted-btree loaded a second time, for the floor alone. Trees with other comparators (the
 * arrival order's out-of-order tickets, role windows, density-window, weighted-pairing) run
 * through the same module, and once sorted-btree's comparator calls have seen several functions
 * V8 compiles them polymorphic: at 100,000 keys a floor on such a module runs at about half the
 * speed of one on a module of its own (`bench/probes/floor-feedback.ts`), which would flatter the
 * ratio. The steady cells of today's policies leave those trees empty, so this guards the floor
 * rather than explaining its remaining variation (lab/engine-speed.md, fourth pass). A fresh
 * module instance has its own closures and so its own type feedback.
 */
export function privateBTree(): new (
  entries: undefined,
  compare: (a: number, b: number) => number,
) => SortedTree<number, number> {
  const require = createRequire(import.meta.url);
  const path = require.resolve("sorted-btree");
  const saved = require.cache[path];
  delete require.cache[path];
  try {
    const mod = require(path) as { default?: unknown };
    return (mod.default ?? mod) as new (
      entries: undefined,
      compare: (a: number, b: number) => number,
    ) => SortedTree<number, number>;
  } finally {
    if (saved) require.cache[path] = saved;
    else delete require.cache[path];
  }
}
const FloorBTree = privateBTree();

/** The floor: a sorted-btree of N numbers, one insert and one delete per step. */
export class FloorTree {
  private readonly tree = new FloorBTree(undefined, (a, b) => a - b);
  private readonly keys: number[] = [];
  private readonly random: Random;

  constructor(n: number, seed: number) {
    this.random = new Random(seed);
    for (let i = 0; i < n; i++) this.insert();
  }

  private insert(): void {
    const key = 1500 + 300 * this.random.normal();
    this.tree.set(key, 0);
    this.keys.push(key);
  }

  step(): void {
    this.insert();
    const keys = this.keys;
    const i = Math.floor(this.random.uniform() * keys.length);
    this.tree.delete(keys[i]);
    keys[i] = keys[keys.length - 1];
    keys.pop();
  }
}

/** Steps per second of `step` over about `ms` milliseconds (checked every 64 steps). */
function rate(step: () => void, ms: number): number {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  const end = t0 + ms;
  while (t < end) {
    for (let i = 0; i < 64; i++) step();
    n += 64;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

/** CPU time (user + system) of this process in ms, all its threads: on a shared machine, time spent descheduled does not count. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU time of the main thread alone in ms (Linux: the first field of its `schedstat`, in ns);
 * undefined where that cannot be read, and the bench then charges each side its process time.
 */
const mainThreadCpuMs: (() => number) | undefined = (() => {
  const path = `/proc/self/task/${process.pid}/schedstat`;
  const read = (): number => Number(readFileSync(path, "latin1").split(" ")[0]) / 1e6;
  try {
    return Number.isFinite(read()) ? read : undefined;
  } catch {
    return undefined;
  }
})();

/** How a round's CPU time was divided between the floor and the engine (see {@link interleaved}). */
export const FLOOR_ACCOUNTING = mainThreadCpuMs ? "main-thread" : "process";

/**
 * One round: the floor and the engine in alternating slices of about `SLICE_MS` of CPU time
 * each, for about `ms` in all, so that both see the same load (caches, memory bandwidth, the
 * other engineers' processes). Slices are timed in CPU time, not wall time: on an oversubscribed
 * machine wall time mostly measures the scheduler. Returns each one's steps per CPU second.
 *
 * Who pays for the collector's helper threads: the engine's tickets live about N steps, so its
 * garbage is old and V8 marks it on helper threads, concurrently, whichever slice is running.
 * Timed by process CPU, a floor slice during such marking was charged the marking too and read
 * up to half its speed (the "two speeds" of the floor at 100,000, lab/engine-speed.md), which
 * flattered the ratio. So the floor (which allocates next to nothing) is timed by its main thread
 * alone, and the engine is charged its own slices' process time plus the helper threads' time
 * that fell in the floor's slices: every CPU second of the round is the engine's or the floor's.
 */
export function interleaved(floor: () => void, engine: () => void, ms: number): Round {
  let floorSteps = 0;
  let floorTime = 0;
  let engineSteps = 0;
  let engineTime = 0;
  let floorBatch = 256;
  let engineBatch = 16;
  const ratios: number[] = [];
  const threadRatios: number[] = [];
  const end = performance.now() + ms;
  const thread = mainThreadCpuMs ?? cpuMs;
  while (performance.now() < end || engineSteps === 0) {
    const c0 = cpuMs();
    const m0 = thread();
    for (let i = 0; i < floorBatch; i++) floor();
    const m1 = thread();
    const c1 = cpuMs();
    for (let i = 0; i < engineBatch; i++) engine();
    const c2 = cpuMs();
    const engineThreadSlice = thread() - m1;
    const floorSlice = m1 - m0;
    // The helper threads' time during the floor's slice is the engine's (see above).
    const engineSlice = c2 - c1 + Math.max(0, c1 - c0 - floorSlice);
    floorSteps += floorBatch;
    floorTime += floorSlice;
    engineSteps += engineBatch;
    engineTime += engineSlice;
    if (floorSlice > 0 && engineSlice > 0) ratios.push((engineBatch / engineSlice) * (floorSlice / floorBatch));
    if (floorSlice > 0 && engineThreadSlice > 0)
      threadRatios.push((engineBatch / engineThreadSlice) * (floorSlice / floorBatch));
    floorBatch = nextBatch(floorBatch, floorSlice);
    engineBatch = nextBatch(engineBatch, c2 - c1);
  }
  return {
    steps: (engineSteps * 1000) / engineTime,
    floor: (floorSteps * 1000) / floorTime,
    ratio: ratios.length > 0 ? median(ratios) : (engineSteps * floorTime) / (floorSteps * engineTime),
    threadRatio: threadRatios.length > 0 ? median(threadRatios) : NaN,
  };
}

/** One round's figures (see {@link interleaved}). */
export interface Round {
  readonly steps: number;
  readonly floor: number;
  readonly ratio: number;
  readonly threadRatio: number;
}
const SLICE_MS = 20;
/** The batch that would take about SLICE_MS, from one that took `took` ms. */
function nextBatch(batch: number, took: number): number {
  const scaled = took > 0 ? Math.round((batch * SLICE_MS) / took) : batch * 4;
  return Math.max(1, Math.min(batch * 4, scaled, 1 << 20));
}

export function runSteadyCell(policy: string, teamSize: number, n: number, o: SteadyOptions): SteadyCell {
  const pool = new SteadyPool(policy, teamSize, o.seed + teamSize * 7919 + n);
  const before = heapUsed();
  const tickets: Ticket[] = new Array(n);
  for (let i = 0; i < n; i++) tickets[i] = pool.ticket();
  const mid = heapUsed();
  const t0 = performance.now();
  pool.fill(tickets);
  const buildSeconds = (performance.now() - t0) / 1000;
  tickets.length = 0;
  const after = heapUsed();
  if (pool.mm.size !== n) throw new Error(`${policy} ${teamSize}v${teamSize}: pool of ${pool.mm.size}, expected ${n}`);
  const floor = new FloorTree(n, o.seed + n);
  // Warm both loops, then collect so that no full collection of the build lands in a round.
  rate(() => floor.step(), Math.min(50, o.floorMs));
  rate(() => pool.step(), Math.min(100, o.stepMs));
  heapUsed();
  const rounds: Round[] = [];
  for (let r = 0; r < o.rounds; r++) {
    rounds.push(
      interleaved(
        () => floor.step(),
        () => pool.step(),
        o.stepMs + o.floorMs,
      ),
    );
  }
  if (pool.formed > 0) o.log(`note: ${policy} ${teamSize}v${teamSize} at ${n}: ${pool.formed} games formed`);
  return {
    policy,
    teamSize,
    waiting: n,
    stepsPerSecond: median(rounds.map((r) => r.steps)),
    floorPerSecond: median(rounds.map((r) => r.floor)),
    ratio: median(rounds.map((r) => r.ratio)),
    threadRatio: median(rounds.map((r) => r.threadRatio)),
    rounds,
    engineBytesPerTicket: (after - mid) / n,
    ticketBytesPerTicket: (mid - before) / n,
    buildSeconds,
  };
}

export function runSteady(o: SteadyOptions): SteadyCell[] {
  const cells: SteadyCell[] = [];
  // Warm the JIT on a small pool of each policy.
  for (const policy of o.policies) {
    runSteadyCell(policy, 1, 1000, { ...o, rounds: 1, stepMs: 100, floorMs: 30 });
  }
  for (const policy of o.policies) {
    for (const k of o.teamSizes) {
      for (const n of o.sizes) {
        const cell = runSteadyCell(policy, k, n, o);
        o.log(
          `${policy} ${k}v${k} at ${n}: ${Math.round(cell.stepsPerSecond)} steps/s, floor ${Math.round(cell.floorPerSecond)}/s, ` +
            `x${cell.ratio.toFixed(4)}, ${cell.engineBytesPerTicket.toFixed(0)} B/ticket (built in ${cell.buildSeconds.toFixed(1)} s)`,
        );
        cells.push(cell);
      }
    }
  }
  return againstFastestFloor(cells);
}

/**
 * Each cell's steps/s against the fastest floor of the run at its N (the highest floor/s of any
 * round of any cell at that N): a figure the floor's slow runs cannot flatter. The floor of one
 * cell is sometimes much slower than another's at the same N (by up to 2x before the floor had a
 * module of its own, still up to 1.5x on a loaded machine), and the per-cell ratio then reads
 * high. This one errs the other way: load that slowed the cell slows its engine steps too, but
 * not the fastest floor, so it reads low on a busy machine. Read the targets from both.
 */
export function againstFastestFloor(cells: readonly SteadyCell[]): SteadyCell[] {
  const fastest = new Map<number, number>();
  for (const c of cells)
    for (const r of c.rounds) fastest.set(c.waiting, Math.max(fastest.get(c.waiting) ?? 0, r.floor));
  return cells.map((c) => {
    const floor = fastest.get(c.waiting)!;
    return { ...c, fastestFloorPerSecond: floor, ratioToFastest: c.stepsPerSecond / floor };
  });
}

/**
 * Growth from the smallest pool to the largest, per policy and team size, measured two ways:
 * `slowdown`, steps/s at the smallest over steps/s at the largest (absolute: it includes the
 * machine's own slowdown on a larger working set), and `relativeSlowdown`, the ratio to the floor
 * at the smallest over the ratio at the largest (against one ordered-set update at the same
 * size, which itself slows by `floorSlowdown` over the same sizes). 1 means no growth.
 */
export function steadyGrowth(cells: readonly SteadyCell[]) {
  const groups = new Map<string, SteadyCell[]>();
  for (const c of cells) {
    const key = `${c.policy}|${c.teamSize}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(c);
  }
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => {
      const sorted = [...g].sort((a, b) => a.waiting - b.waiting);
      const first = sorted[0];
      const last = sorted[sorted.length - 1];
      return {
        policy: first.policy,
        teamSize: first.teamSize,
        from: first.waiting,
        to: last.waiting,
        slowdown: first.stepsPerSecond / last.stepsPerSecond,
        relativeSlowdown: first.ratio / last.ratio,
        floorSlowdown: first.floorPerSecond / last.floorPerSecond,
      };
    });
}
