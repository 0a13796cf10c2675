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
 * - `greedy` (side A: nothing forms, the policy costs next to nothing), `best-game`,
 *   `expanding-window`: the bench's cells.
 *
 * Run: `npx tsx --expose-gc bench/probes/least-step.ts [--size=100000] [--rounds=3] [--ms=600]
 * [--repeat=2]` (each variant once per repeat, in turn; the medians are over every round).
 */
import { NodeTable } from "../../src/core/node-table.js";
import { ArrivalNode } from "../../src/core/arrival-order.js";
import type { Policy, Ticket, TicketSlot } from "../../src/core/index.js";
import { Random } from "../../src/sim/random.js";
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
