/**
 * The least a steady-pool step can cost, against the bench's floor (issue 18's targets for
 * best-game and expanding-window 1v1 at 100,000 waiting: 0.25 x floor).
 *
 * Every rating-ordered policy, through the engine's public API, pays at least: the bench's own
 * step (a fresh ticket, the swap-remove array of waiting tickets, a random departure), the
 * engine's table of waiting tickets by id (a cancel names a ticket by id), and one ordered set by
 * rating (best-game searches its rating neighbours; expanding-window sweeps a window of
 * ratings). This probe times those parts one on top of the other, in the bench's own accounting
 * (`interleaved`: the floor and the variant alternate in slices of CPU time in one process; x
 * floor is variant steps per floor step), next to the built-in policies:
 *
 * - `harness`: the bench's step without an engine (the ticket made, the array kept).
 * - `id table`: plus the engine's `NodeTable` (one arrival node per ticket, added and taken by id).
 * - `id table + rating order`: plus a sorted-btree of the ratings (a private copy of the module,
 *   number keys, as the floor's), the node holding its key: the least any engine that cancels
 *   by id and keeps a rating order can do, with no arrival order, no counters and no search.
 * - `engine + rating order`: the engine itself with a policy that keeps only that sorted-btree
 *   and never proposes a game: what a rating-ordered policy costs before it searches anything.
 * - `engine + row tree`: the engine with a policy that keeps only best-game 1v1's row tree
 *   (insert, and a leaver found in its leaf and removed), without any anchor search.
 * - `engine + rating grid`: the engine with a policy that keeps only unsorted buckets of one
 *   rating point: a bound for a rating index without a tree.
 * - `engine + sorted rating grid` (1 or 4 columns): buckets of 0.2 rating points kept sorted, an
 *   ordered index without a descent (a way out of the tree, if it were cheaper).
 * - `greedy` (side A: nothing forms, the policy costs next to nothing), `best-game`,
 *   `expanding-window`: the bench's cells.
 *
 * Run: `npx tsx --expose-gc bench/probes/least-step.ts [--size=100000] [--rounds=3] [--ms=600]
 * [--repeat=2]` (each variant once per repeat, in turn; the medians are over every round).
 */
import { NodeTable } from "../../src/core/node-table.js";
import { ArrivalNode } from "../../src/core/arrival-order.js";
import type { Policy, TicketSlot } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import { Random } from "../../src/sim/random.js";
import { RowTree, rowCursor } from "../../src/policies/shared/row-tree.js";
import { FloorTree, interleaved, median, privateBTree, SteadyPool, type Round } from "../steady.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
};
const N = arg("size", 100_000);
const ROUNDS = arg("rounds", 3);
const MS = arg("ms", 600);
const REPEAT = arg("repeat", 2);
const SEED = 20_260_524;

interface Stepper {
  step(): void;
}

/** The bench's step without an engine, optionally with the engine's id table and a rating order. */
class BareStep implements Stepper {
  /** Tickets are made by a SteadyPool (the bench's own generator); its engine stays empty. */
  private readonly maker = new SteadyPool("fifo", 1, SEED);
  private readonly departures = new Random(SEED + 1);
  private readonly waiting: Ticket[] = [];
  private readonly table: NodeTable | undefined;
  private readonly byRating: ReturnType<typeof ratingOrder> | undefined;
  private read = 0;

  constructor(parts: { table: boolean; ratingOrder: boolean }) {
    this.table = parts.table ? new NodeTable() : undefined;
    this.byRating = parts.ratingOrder ? ratingOrder() : undefined;
    for (let i = 0; i < N; i++) this.add(this.maker.ticket());
  }

  private add(ticket: Ticket): void {
    if (this.table) {
      const node = new ArrivalNode(ticket);
      this.table.add(node);
      if (this.byRating) this.byRating.add(ticket, node);
    }
    this.waiting.push(ticket);
  }

  step(): void {
    this.add(this.maker.ticket());
    const waiting = this.waiting;
    const i = Math.floor(this.departures.uniform() * waiting.length);
    const gone = waiting[i];
    waiting[i] = waiting[waiting.length - 1];
    waiting.pop();
    if (!this.table) {
      // Read what a cancel reads first (the ticket's id), so the harness pays the same misses.
      this.read += gone.id.length;
      return;
    }
    const node = this.table.take(gone.id)!;
    this.byRating?.remove(node);
  }
}

/** One sorted-btree of ratings (number keys, a private module as the floor's); each slot keeps its key. */
function ratingOrder() {
  const Tree = privateBTree();
  const tree = new Tree(undefined, (a, b) => a - b);
  return {
    add(ticket: Ticket, slot: TicketSlot): void {
      const key = ticket.players[0].rating;
      tree.set(key, 0);
      slot.policyData = key;
    },
    remove(slot: TicketSlot): void {
      tree.delete(slot.policyData as number);
    },
  };
}

/** A policy that keeps only {@link ratingOrder} and never proposes a game. */
function ratingOrderPolicy(): Policy {
  const order = ratingOrder();
  return {
    name: "rating-order",
    add: (ticket, _now, slot) => order.add(ticket, slot!),
    remove: (_id, slot) => order.remove(slot!),
    poll: () => [],
    nextWakeup: () => undefined,
  };
}

/**
 * A policy that keeps only a grid of ratings (one unsorted bucket per rating point, a ticket's
 * slot holding its bucket and place): the least a rating-indexed policy that avoids a tree could
 * keep (no order within a bucket, no neighbours, no search), for a bound on that way out.
 */
function ratingGridPolicy(): Policy {
  const buckets: TicketSlot[][] = [];
  for (let i = 0; i <= 3000; i++) buckets.push([]);
  const PLACE = 1 << 20;
  return {
    name: "rating-grid",
    add(ticket, _now, slot) {
      const b = Math.min(3000, Math.max(0, Math.floor(ticket.players[0].rating)));
      const bucket = buckets[b];
      slot!.policyData = b * PLACE + bucket.length;
      bucket.push(slot!);
    },
    remove(_id, slot) {
      const at = slot!.policyData as number;
      const bucket = buckets[Math.floor(at / PLACE)];
      const last = bucket.pop()!;
      if (last !== slot) {
        bucket[at % PLACE] = last;
        last.policyData = at;
      }
    },
    poll: () => [],
    nextWakeup: () => undefined,
  };
}

/**
 * As {@link ratingGridPolicy}, with each bucket sorted by rating (a rating column searched by
 * bisection, `columns` numbers per row shifted on insert and removal, column by column as the
 * row tree's leaves) and buckets of 0.2 rating points (about 27 tickets at the peak of 100,000
 * N(1500, 300) ratings, a row-tree leaf's size): an ordered rating index without a descent,
 * before any neighbour search or least priority.
 */
function sortedGridPolicy(columns: number): Policy {
  const WIDTH = 0.2;
  const count = Math.ceil(3000 / WIDTH) + 1;
  const rows: Float64Array[] = [];
  const values: (TicketSlot | undefined)[][] = [];
  const sizes = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    rows.push(new Float64Array(4 * columns));
    values.push([]);
  }
  return {
    name: "sorted-grid",
    add(ticket, _now, slot) {
      const r = ticket.players[0].rating;
      const b = Math.min(count - 1, Math.max(0, Math.floor(r / WIDTH)));
      let row = rows[b];
      const n = sizes[b];
      let cap = row.length / columns;
      if (n === cap) {
        const grown = new Float64Array(2 * row.length);
        for (let c = 0; c < columns; c++) grown.set(row.subarray(c * cap, (c + 1) * cap), c * 2 * cap);
        rows[b] = row = grown;
        cap *= 2;
      }
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (row[mid] <= r) lo = mid + 1;
        else hi = mid;
      }
      for (let c = 0, base = 0; c < columns; c++, base += cap) {
        for (let i = base + n; i > base + lo; i--) row[i] = row[i - 1];
        row[base + lo] = c === 0 ? r : 0;
      }
      const vs = values[b];
      for (let i = n; i > lo; i--) vs[i] = vs[i - 1];
      vs[lo] = slot!;
      sizes[b] = n + 1;
      slot!.policyData = b;
    },
    remove(_id, slot) {
      const b = slot!.policyData as number;
      const row = rows[b];
      const cap = row.length / columns;
      const vs = values[b];
      const n = sizes[b] - 1;
      let at = 0;
      while (vs[at] !== slot) at++;
      for (let c = 0, base = 0; c < columns; c++, base += cap) {
        for (let i = base + at; i < base + n; i++) row[i] = row[i + 1];
      }
      for (let i = at; i < n; i++) vs[i] = vs[i + 1];
      vs[n] = undefined;
      sizes[b] = n;
    },
    poll: () => [],
    nextWakeup: () => undefined,
  };
}

/**
 * A policy that keeps only best-game 1v1's row tree (four columns, each slot holding its leaf, a
 * leaver found in its leaf by identity, as `BestPairs` does), without any anchor search: the
 * share of best-game's step that is its ordered index.
 */
function rowTreePolicy(): Policy {
  const tree = new RowTree<TicketSlot>(4, (slot, leaf) => (slot.policyData = leaf));
  const at = rowCursor();
  let seq = 0;
  return {
    name: "row-tree",
    add(ticket, _now, slot) {
      tree.insert(ticket.players[0].rating, seq++, slot!, at);
      slot!.policyData = at.leaf;
    },
    remove(_id, slot) {
      if (tree.findValueIn(slot!.policyData as number, slot!, at)) tree.remove(at);
    },
    poll: () => [],
    nextWakeup: () => undefined,
  };
}

function pool(policy: string | Policy): Stepper {
  const p = new SteadyPool(policy, 1, SEED);
  const tickets: Ticket[] = [];
  for (let i = 0; i < N; i++) tickets.push(p.ticket());
  p.fill(tickets);
  return p;
}

const VARIANTS: readonly [string, () => Stepper][] = [
  ["harness", () => new BareStep({ table: false, ratingOrder: false })],
  ["id table", () => new BareStep({ table: true, ratingOrder: false })],
  ["id table + rating order", () => new BareStep({ table: true, ratingOrder: true })],
  ["engine + rating order", () => pool(ratingOrderPolicy())],
  ["engine + row tree", () => pool(rowTreePolicy())],
  ["engine + rating grid", () => pool(ratingGridPolicy())],
  ["engine + sorted rating grid", () => pool(sortedGridPolicy(1))],
  ["engine + sorted rating grid, 4 columns", () => pool(sortedGridPolicy(4))],
  ["greedy", () => pool("greedy")],
  ["best-game", () => pool("best-game")],
  ["expanding-window", () => pool("expanding-window")],
];

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc)
  console.warn("note: run with --expose-gc (npx tsx --expose-gc ...) so that each variant starts after a collection");

const rounds = new Map<string, Round[]>(VARIANTS.map(([name]) => [name, []]));
for (let r = 0; r < REPEAT; r++) {
  for (const [name, make] of VARIANTS) {
    const floor = new FloorTree(N, SEED + r);
    const variant = make();
    // Warm both for a second (V8 optimises for about that long), then collect the build's garbage.
    interleaved(
      () => floor.step(),
      () => variant.step(),
      1000,
    );
    gc?.();
    for (let i = 0; i < ROUNDS; i++)
      rounds.get(name)!.push(
        interleaved(
          () => floor.step(),
          () => variant.step(),
          MS,
        ),
      );
  }
}

const fastest = Math.max(...[...rounds.values()].flat().map((r) => r.floor));
console.log(`${N.toLocaleString("en")} waiting, ${REPEAT} x ${ROUNDS} rounds of ${MS} ms per variant (medians)`);
console.log("| variant | x floor | floor steps per step | x floor (thread) | steps/s | floor/s | x fastest floor |");
console.log("|---|---|---|---|---|---|---|");
for (const [name] of VARIANTS) {
  const rs = rounds.get(name)!;
  const ratio = median(rs.map((r) => r.ratio));
  const steps = median(rs.map((r) => r.steps));
  console.log(
    `| ${name} | ${ratio.toFixed(3)} | ${(1 / ratio).toFixed(2)} | ${median(rs.map((r) => r.threadRatio)).toFixed(3)} | ` +
      `${Math.round(steps).toLocaleString("en")} | ${Math.round(median(rs.map((r) => r.floor))).toLocaleString("en")} | ${(steps / fastest).toFixed(3)} |`,
  );
}
