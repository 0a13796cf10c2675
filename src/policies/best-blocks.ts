/**
 * `best-game` where every anchor search scores exactly one set, the 2k consecutive tickets from
 * the anchor (its "block"), while every waiting ticket is a plain solo (one player, no side):
 * the rating-sum imbalance without a lower bound and a budget that a second block would overrun
 * (5v5 at the default budget; {@link BestGamePolicy}'s `searchBlock` case). {@link BestGamePolicy}
 * hands such a queue to this class until the first party or side-bound ticket arrives, when it
 * takes the tickets back ({@link BestBlocks.drain}) into its general structures.
 *
 * The anchor searches are the general search's: with 2k − 1 or more tickets after it, an anchor's
 * game is its block, scored by the same splitter over the same sums (so the same imbalance to
 * the bit), and its last search looked at offsets 1..2k − 1; with fewer, it has no game and
 * looked up to the end of the pool. So a join or a leave at some position changes the searches of
 * exactly the 2k − 1 anchors before it (and the newcomer's own), which are searched again at once.
 *
 * Layout: each waiting ticket is one row of a {@link RowTree} (rating, seq, its anchor's priority,
 * and its `enqueuedAt` when beta > 0) in the tree's leaves, so a block is read by index within a
 * leaf (a solo's rating is its sum), and the tree keeps the least priority per subtree: the best
 * game is one descent away, ties to the lowest anchor in (rating, seq) order, as the heap orders
 * them; a change of the anchors' games is a refresh along their leaves' paths.
 */
import type { TicketSlot } from "../core/policy.js";
import { ratingSum, type Ticket } from "../core/types.js";
import { NO_LEAF, PRIORITY, RATING, ROW_TREE_WIDTH, rowCursor, RowTree, type RowCursor } from "./shared/row-tree.js";
import type { RatingSumSplitter } from "./sum-split.js";
import { wakeupAt } from "./shared/wakeup.js";

const W = ROW_TREE_WIDTH;
const RATING_AT = RATING * W;
const PRIORITY_AT = PRIORITY * W;
/** The ticket's `enqueuedAt` (ms), a column only with beta > 0 (the game's oldest wait). */
const ENQUEUED_AT = 3 * W;

/** A waiting ticket's handle (what the slot or the map by id holds): its key in the tree. */
export class BlockHandle {
  alive = true;
  /** Once the queue left the block layout: what holds the ticket now (the policy's own record). */
  moved: unknown = undefined;
  constructor(
    readonly ticket: Ticket,
    readonly rating: number,
    readonly seq: number,
  ) {}
}

/** Whether a ticket can be held by {@link BestBlocks}: one player, no side. */
export const plainSolo = (ticket: Ticket): boolean => ticket.players.length === 1 && ticket.side === undefined;

/** What {@link BestBlocks} takes from its {@link BestGamePolicy}. */
export interface BestBlocksOptions {
  readonly teamSize: number;
  readonly threshold: number;
  readonly thresholdGrowthPerSecond: number;
  readonly beta: number;
  /** Scores a block (the rating-sum imbalance's exact split). */
  readonly splitter: RatingSumSplitter;
}

/** The best game now, as {@link BestBlocks.peek} reports it. */
export interface BlockCandidate {
  readonly tickets: readonly Ticket[];
  readonly imbalance: number;
  readonly priority: number;
  readonly oldestEnqueuedAt: number;
}

export class BestBlocks {
  private readonly tree: RowTree<BlockHandle>;
  /** Tickets per game (2k). */
  private readonly n: number;
  private readonly teamSize: number;
  private readonly threshold: number;
  private readonly growth: number;
  private readonly beta: number;
  private readonly splitter: RatingSumSplitter;
  /** Handles of the tickets added without the engine's slot (with one, the handle is kept in the slot). */
  readonly byId = new Map<string, BlockHandle>();
  /** The next ticket's sequence number (ties in rating keep the order of adding). */
  nextSeq = 0;
  /** The first ticket's `enqueuedAt`: beta's priorities count from it (ms). */
  epoch: number | undefined;
  /** Anchors with a game (the heap's size in {@link BestGamePolicy}'s terms). */
  private games = 0;
  /** Scratch cursor (one operation runs at a time). */
  private readonly at = rowCursor();
  /** The rows a change affects, read once: ratings, enqueue times, and the leaf and index of each. */
  private readonly runRatings: Float64Array;
  private readonly runEnqueued: Float64Array;
  private readonly runLeaves: Int32Array;
  private readonly runIndex: Int32Array;

  constructor(options: BestBlocksOptions) {
    this.teamSize = options.teamSize;
    this.n = 2 * options.teamSize;
    this.threshold = options.threshold;
    this.growth = options.thresholdGrowthPerSecond;
    this.beta = options.beta;
    this.splitter = options.splitter;
    this.tree = new RowTree<BlockHandle>(this.beta > 0 ? 4 : 3);
    // A change touches the 2k − 1 anchors before it and the newcomer, each reading 2k rows.
    const run = 2 * this.n;
    this.runRatings = new Float64Array(run);
    this.runEnqueued = new Float64Array(run);
    this.runLeaves = new Int32Array(run);
    this.runIndex = new Int32Array(run);
  }

  get size(): number {
    return this.tree.size;
  }

  get heapSize(): number {
    return this.games;
  }

  /** Add a plain solo ({@link plainSolo}); one already held moves to its new position. */
  add(ticket: Ticket, slot?: TicketSlot): void {
    const held = slot ? (slot.policyData as BlockHandle | undefined) : this.byId.get(ticket.id);
    if (held?.alive) this.removeHandle(held);
    this.epoch ??= ticket.enqueuedAt;
    const handle = new BlockHandle(ticket, ratingSum(ticket) / ticket.players.length, this.nextSeq++);
    if (slot) slot.policyData = handle;
    else this.byId.set(ticket.id, handle);
    const at = this.at;
    this.tree.insert(handle.rating, handle.seq, handle, at);
    if (this.beta > 0) this.tree.rows[this.tree.rowAt(at) + ENQUEUED_AT] = ticket.enqueuedAt;
    // The newcomer's own anchor, and the anchors before it.
    const back = this.stepBack(at, this.n - 1);
    this.research(at, back + 1);
  }

  remove(ticketId: string, slot?: TicketSlot): void {
    const handle = slot ? (slot.policyData as BlockHandle | undefined) : this.byId.get(ticketId);
    if (handle?.alive) this.removeHandle(handle);
  }

  poll(now: number): Ticket[][] {
    // Without beta the best game's imbalance is the least priority; without growth a game above
    // the threshold never qualifies: then no game forms, and the best need not be looked up.
    if (this.beta <= 0 && this.growth <= 0 && !(this.tree.leastPriority() <= this.threshold)) return [];
    const games: Ticket[][] = [];
    while (this.tree.least(this.at) && this.qualifiesAt(this.at) <= now) {
      const handles = this.blockAt(this.at);
      for (const h of handles) this.removeHandle(h);
      games.push(handles.map(ticketOf));
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (!this.tree.least(this.at)) return undefined;
    return wakeupAt(this.qualifiesAt(this.at), now);
  }

  peek(): BlockCandidate | undefined {
    const at = this.at;
    if (!this.tree.least(at)) return undefined;
    const priority = this.tree.rows[this.tree.rowAt(at) + PRIORITY_AT];
    const imbalance = this.imbalanceAt(at);
    const tickets = this.blockAt(at).map(ticketOf);
    return { tickets, imbalance, priority, oldestEnqueuedAt: oldestOf(tickets) };
  }

  /**
   * Every held ticket's handle in rating order (ties in the order of adding), for the policy to
   * take the queue over: the handles are no longer alive here, and the layout is not used again.
   */
  drain(): BlockHandle[] {
    const handles: BlockHandle[] = [];
    const at = this.at;
    if (this.tree.first(at)) {
      do {
        const h = this.tree.valueAt(at);
        h.alive = false;
        handles.push(h);
      } while (this.tree.next(at));
    }
    return handles;
  }

  /** The 2k tickets' handles of the game of the anchor at `at` (it has one). */
  private blockAt(at: RowCursor): BlockHandle[] {
    this.locateBlock(at);
    const handles = new Array<BlockHandle>(this.n);
    for (let j = 0; j < this.n; j++)
      handles[j] = this.tree.values[this.runLeaves[j] * ROW_TREE_WIDTH + this.runIndex[j]]!;
    return handles;
  }

  /** Where the 2k rows of the block of the anchor at `at` (it has one) are: into `runLeaves` and `runIndex`. */
  private locateBlock(at: RowCursor): void {
    const tree = this.tree;
    let leaf = at.leaf;
    let i = at.index;
    for (let j = 0; j < this.n; j++, i++) {
      if (i >= tree.sizeOf(leaf)) {
        leaf = tree.nextLeaf(leaf);
        i = 0;
      }
      this.runLeaves[j] = leaf;
      this.runIndex[j] = i;
    }
  }

  /** Time the game of the anchor at `at` qualifies: f ≤ threshold + growth·(t − oldest)/1000. */
  private qualifiesAt(at: RowCursor): number {
    const f = this.imbalanceAt(at);
    if (f <= this.threshold) return -Infinity;
    if (this.growth <= 0) return Infinity;
    return oldestOf(this.blockAt(at).map(ticketOf)) + (1000 * (f - this.threshold)) / this.growth;
  }

  /** The imbalance of the game of the anchor at `at` (its priority without beta; else its block scored again). */
  private imbalanceAt(at: RowCursor): number {
    const tree = this.tree;
    if (this.beta <= 0) return tree.rows[tree.rowAt(at) + PRIORITY_AT];
    const ratings = this.runRatings;
    this.locateBlock(at);
    for (let j = 0; j < this.n; j++)
      ratings[j] = tree.rows[this.runLeaves[j] * tree.stride + this.runIndex[j] + RATING_AT];
    this.splitter.solveSortedSolos(ratings, 0, this.n, this.teamSize);
    return this.splitter.best;
  }

  private removeHandle(handle: BlockHandle): void {
    const at = this.at;
    if (!this.tree.find(handle.rating, handle.seq, at)) return;
    if (this.tree.rows[this.tree.rowAt(at) + PRIORITY_AT] !== Infinity) this.games--;
    // The anchors before it, whose blocks held it (found before it is taken out: the rows before
    // a row stay where they are when it leaves).
    const leaving = at.index;
    const leavingLeaf = at.leaf;
    const back = this.stepBack(at, this.n - 1);
    const startLeaf = at.leaf;
    const startIndex = at.index;
    at.leaf = leavingLeaf;
    at.index = leaving;
    this.tree.remove(at);
    if (this.byId.size > 0 && this.byId.get(handle.ticket.id) === handle) this.byId.delete(handle.ticket.id);
    handle.alive = false;
    if (back > 0) {
      at.leaf = startLeaf;
      at.index = startIndex;
      this.research(at, back);
    }
  }

  /** Move `at` back by up to `steps` rows; returns how many it moved. */
  private stepBack(at: RowCursor, steps: number): number {
    let moved = 0;
    while (moved < steps && this.tree.previous(at)) moved++;
    return moved;
  }

  /**
   * Search again the `anchors` consecutive anchors from `at` (their games and priorities written
   * into their rows) and refresh their leaves. The rows from the first anchor to the last one's
   * block are read once.
   */
  private research(at: RowCursor, anchors: number): void {
    const tree = this.tree;
    const n = this.n;
    const beta = this.beta > 0;
    const ratings = this.runRatings;
    const enqueued = this.runEnqueued;
    const leaves = this.runLeaves;
    const index = this.runIndex;
    let leaf = at.leaf;
    let i = at.index;
    let count = 0;
    // (No insert runs during a search: the rows arena stays the same array.)
    const rows = tree.rows;
    const stride = tree.stride;
    let size = tree.sizeOf(leaf);
    for (const want = anchors + n - 1; count < want; count++, i++) {
      if (i >= size) {
        const next = tree.nextLeaf(leaf);
        if (next === NO_LEAF) break;
        leaf = next;
        size = tree.sizeOf(leaf);
        i = 0;
      }
      const r = leaf * stride + i;
      ratings[count] = rows[r + RATING_AT];
      if (beta) enqueued[count] = rows[r + ENQUEUED_AT];
      leaves[count] = leaf;
      index[count] = i;
    }
    let refreshed = NO_LEAF;
    for (let a = 0; a < anchors; a++) {
      let priority = Infinity;
      if (a + n <= count) {
        this.splitter.solveSortedSolos(ratings, a, n, this.teamSize);
        priority = this.splitter.best;
        if (beta) {
          let oldest = Infinity;
          for (let j = a; j < a + n; j++) if (enqueued[j] < oldest) oldest = enqueued[j];
          priority += (this.beta * (oldest - this.epoch!)) / 1000;
        }
      }
      const p = leaves[a] * stride + index[a] + PRIORITY_AT;
      const had = rows[p] !== Infinity;
      if (had !== (priority !== Infinity)) this.games += had ? -1 : 1;
      rows[p] = priority;
      // Anchors are consecutive: each leaf's come together.
      if (leaves[a] !== refreshed) {
        if (refreshed !== NO_LEAF) tree.refresh(refreshed);
        refreshed = leaves[a];
      }
    }
    if (refreshed !== NO_LEAF) tree.refresh(refreshed);
  }
}

const ticketOf = (h: BlockHandle): Ticket => h.ticket;

/** Earliest `enqueuedAt` among tickets (ms). */
function oldestOf(tickets: readonly Ticket[]): number {
  let oldest = Infinity;
  for (const t of tickets) if (t.enqueuedAt < oldest) oldest = t.enqueuedAt;
  return oldest;
}
