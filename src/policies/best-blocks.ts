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
 * Layout ({@link RowTreeGames}, shared with 1v1's {@link BestPairs}, keeps the rows, their
 * holders and when the best game forms): each waiting ticket is one row of a {@link RowTree}
 * (rating, seq, its anchor's priority, and its `enqueuedAt` when beta > 0) in the tree's leaves,
 * so a block is read by index within a leaf (a solo's rating is its sum), and the tree keeps the
 * least priority per subtree: the best game is one descent away, ties to the lowest anchor in
 * (rating, seq) order, as the heap orders them; a change of the anchors' games is a refresh
 * along their leaves' paths. This class keeps the block: which anchors a change touches, their
 * searches, and a game's 2k tickets.
 */
import type { Ticket } from "../core/types.js";
import type { RowHolder } from "./shared/row-holders.js";
import { NO_LEAF, PRIORITY, RATING, ROW_TREE_WIDTH, rowCursor, SEQ, type RowCursor } from "./shared/row-tree.js";
import { RowTreeGames, type RowGameOptions } from "./shared/row-tree-games.js";
import type { RatingSumSplitter } from "./sum-split.js";

const W = ROW_TREE_WIDTH;
const RATING_AT = RATING * W;
const SEQ_AT = SEQ * W;
const PRIORITY_AT = PRIORITY * W;
/** The ticket's `enqueuedAt` (ms), a column only with beta > 0 (the game's oldest wait). */
const ENQUEUED_AT = 3 * W;

/** Whether a ticket can be held by {@link BestBlocks}: one player, no side. */
export const plainSolo = (ticket: Ticket): boolean => ticket.players.length === 1 && ticket.side === undefined;

/** What {@link BestBlocks} takes from its {@link BestGamePolicy}. */
export interface BestBlocksOptions extends RowGameOptions {
  readonly teamSize: number;
  /** Scores a block (the rating-sum imbalance's exact split). */
  readonly splitter: RatingSumSplitter;
}

export class BestBlocks extends RowTreeGames {
  /** Tickets per game (2k). */
  private readonly n: number;
  private readonly teamSize: number;
  private readonly splitter: RatingSumSplitter;
  /** The first anchor a leave changes (noted before the row is taken out), and how many there are. */
  private readonly start = rowCursor();
  private startAnchors = 0;
  /** The rows a change affects, read once: ratings, enqueue times, and the leaf and index of each. */
  private readonly runRatings: Float64Array;
  private readonly runEnqueued: Float64Array;
  private readonly runLeaves: Int32Array;
  private readonly runIndex: Int32Array;

  constructor(options: BestBlocksOptions) {
    super(options.beta > 0 ? 4 : 3, options);
    this.teamSize = options.teamSize;
    this.n = 2 * options.teamSize;
    this.splitter = options.splitter;
    // A change touches the 2k − 1 anchors before it and the newcomer, each reading 2k rows.
    const run = 2 * this.n;
    this.runRatings = new Float64Array(run);
    this.runEnqueued = new Float64Array(run);
    this.runLeaves = new Int32Array(run);
    this.runIndex = new Int32Array(run);
  }

  /**
   * Hand every held ticket over, in rating order (ties in the order of adding), to the policy
   * taking the queue over: `take(ticket, seq)` returns its record of the ticket, which the
   * ticket's holder holds from then on (an arrival node as its `policyData`, as the policy keeps
   * it; a stand-in too, in its slot or in {@link standIns}). The layout is not used again.
   */
  drain(take: (ticket: Ticket, seq: number) => unknown): void {
    const at = this.at;
    const tree = this.tree;
    if (!tree.first(at)) return;
    do {
      const holder = tree.valueAt(at);
      holder.policyData = take(holder.ticket, tree.rows[tree.rowAt(at) + SEQ_AT]);
    } while (tree.next(at));
  }

  protected joined(at: RowCursor, ticket: Ticket): void {
    if (this.beta > 0) this.tree.rows[this.tree.rowAt(at) + ENQUEUED_AT] = ticket.enqueuedAt;
    // The newcomer's own anchor, and the anchors before it.
    const back = this.stepBack(at, this.n - 1);
    this.research(at, back + 1);
  }

  protected leaving(at: RowCursor): void {
    // The anchors before it, whose blocks held it (the rows before a row stay where they are
    // when it leaves).
    const start = this.start;
    start.leaf = at.leaf;
    start.index = at.index;
    this.startAnchors = this.stepBack(start, this.n - 1);
  }

  protected left(): void {
    if (this.startAnchors > 0) this.research(this.start, this.startAnchors);
  }

  /** The 2k tickets' holders of the game of the anchor at `at` (it has one). */
  protected membersAt(at: RowCursor): RowHolder[] {
    this.locateBlock(at);
    const holders = new Array<RowHolder>(this.n);
    for (let j = 0; j < this.n; j++) holders[j] = this.tree.values[this.runLeaves[j] * W + this.runIndex[j]]!;
    return holders;
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

  /** The imbalance of the game of the anchor at `at` (its priority without beta; else its block scored again). */
  protected imbalanceAt(at: RowCursor): number {
    const tree = this.tree;
    if (this.beta <= 0) return tree.rows[tree.rowAt(at) + PRIORITY_AT];
    const ratings = this.runRatings;
    this.locateBlock(at);
    for (let j = 0; j < this.n; j++)
      ratings[j] = tree.rows[this.runLeaves[j] * tree.stride + this.runIndex[j] + RATING_AT];
    this.splitter.solveSortedSolos(ratings, 0, this.n, this.teamSize);
    return this.splitter.best;
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
          priority = this.aged(priority, oldest);
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
