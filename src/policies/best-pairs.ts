/**
 * `best-game` for 1v1 with the rating-sum imbalance ({@link BestGamePolicy} hands such a queue
 * to this class): the same anchor searches, windows, stops and priorities as its pair search,
 * over a layout made for the pool's size ({@link RowTreeGames}, shared with the block layout
 * {@link BestBlocks}, keeps the rows, their holders and when the best game forms; this class
 * keeps the pair search). Each waiting ticket is one row of a {@link RowTree}
 * (rating, seq, its anchor's best game's priority, and its side, cut, reach and partner's offset
 * packed in one number) in the tree's leaves, so a search walks its window by index within a
 * leaf; a 1v1 ticket is one player, so its rating is also its sum;
 * and the tree keeps the least priority per subtree, so the best game is one descent away and a
 * change of an anchor's game is a refresh along one leaf's path (no heap, no list of entries).
 *
 * Anchor search (the sets {@link BestGamePolicy}'s general search scores in 1v1, in its order and
 * with its budget): the pairs (anchor, offset j),
 * j = 1, ..., window, each scored |2·(A's sum) − total| unless both tickets are bound to one
 * side; it stops at the end of the pool, where the lower bound (the spread, only with beta = 0)
 * proves no further pair wins, or once one more pair would overrun the budget. A join or a leave
 * at some position searches again, at once, the anchors before it whose last search looked
 * there (the same rule, and the same `cut` exception, as `markAnchorsBefore`), and the newcomer.
 * The best game is the least priority, ties to the lowest anchor in (rating, seq) order: the
 * heap's order.
 */
import type { Ticket } from "../core/types.js";
import { ReachCounts } from "./shared/reach-counts.js";
import type { RowHolder } from "./shared/row-holders.js";
import { PRIORITY, RATING, ROW_TREE_WIDTH, rowCursor, NO_LEAF, type RowCursor } from "./shared/row-tree.js";
import { RowTreeGames, type RowGameOptions } from "./shared/row-tree-games.js";

/**
 * Where each column starts in a row (column c of the row at `r` = tree.rowAt(cursor) at
 * r + c·width): the tree's rating and priority, then the row's own.
 */
const W = ROW_TREE_WIDTH;
const RATING_AT = RATING * W;
const PRIORITY_AT = PRIORITY * W;
/**
 * The rest of the row in one number (fewer columns, fewer cache lines per leaf): the side
 * (0: none, 1: A, 2: B), bit 2 the cut (its last search stopped by the lower bound at offset
 * `reach`), then the reach (offsets 1..reach after the anchor were looked at by its last
 * search), then the partner's offset in its best game (0: no game). The anchor's imbalance is
 * its priority without beta, and is recomputed from the pair with it.
 */
const META = 3 * W;
const COLUMNS = 4;
const CUT_BIT = 4;
const REACH_SHIFT = 3;
/** Reach and partner are at most the window, at most 1024: 11 bits each. */
const REACH_MASK = 2047;
const PARTNER_SHIFT = 14;

const SIDE_A = 1;
const SIDE_B = 2;

const sideOf = (meta: number): number => meta & 3;
const reachOf = (meta: number): number => (meta >> REACH_SHIFT) & REACH_MASK;
const partnerOf = (meta: number): number => meta >> PARTNER_SHIFT;

/** A pair's imbalance as the splitter computes it: |2·(team A's sum) − total|. */
function pairImbalance(sum: number, side: number, otherSum: number, otherSide: number): number {
  const onA = side === SIDE_B || otherSide === SIDE_A ? otherSum : sum;
  return Math.abs(2 * onA - (sum + otherSum));
}

/** What {@link BestPairs} takes from its {@link BestGamePolicy}. */
export interface BestPairsOptions extends RowGameOptions {
  readonly window: number;
  readonly budget: number;
  /** The spread bound (beta = 0 only): no pair reaching a ticket rated `high` beats this. */
  readonly lowerBound: ((low: number, high: number) => number) | undefined;
}

export class BestPairs extends RowTreeGames {
  private readonly window: number;
  private readonly budget: number;
  private readonly lowerBound: ((low: number, high: number) => number) | undefined;
  /** Anchors per reach, and the largest (anchors before a change are looked at up to it). */
  private readonly reaches: ReachCounts;
  /** Scratch cursor: the partner's row of the anchor worked on. */
  private readonly partner = rowCursor();
  /** The anchors a change affects (leaf and index of each). */
  private readonly affectedLeaves: number[] = [];
  private readonly affectedIndex: number[] = [];
  private affectedCount = 0;

  constructor(options: BestPairsOptions) {
    super(COLUMNS, options);
    this.window = options.window;
    this.budget = options.budget;
    this.lowerBound = options.lowerBound;
    this.reaches = new ReachCounts(options.window);
  }

  protected joined(at: RowCursor, ticket: Ticket): void {
    const tree = this.tree;
    const r = tree.rowAt(at);
    tree.rows[r + META] = ticket.side === "A" ? SIDE_A : ticket.side === "B" ? SIDE_B : 0;
    this.reaches.join();
    const leaf = at.leaf;
    this.collectBefore(leaf, at.index, tree.rows[r + RATING_AT], false);
    this.search(leaf, at.index);
    this.searchAffected(leaf);
  }

  protected leaving(at: RowCursor): void {
    const rows = this.tree.rows;
    const r = this.tree.rowAt(at);
    this.collectBefore(at.leaf, at.index, rows[r + RATING_AT], true);
    this.reaches.leave(reachOf(rows[r + META]));
  }

  protected left(): void {
    this.searchAffected(NO_LEAF);
  }

  /** The anchor at `at` and its partner (the anchor has a game). */
  protected membersAt(at: RowCursor): RowHolder[] {
    return [this.tree.valueAt(at), this.tree.valueAt(this.partnerAt(at))];
  }

  /** The row of the partner of the anchor at `at` (the anchor has a game), in the scratch {@link partner} cursor. */
  private partnerAt(at: RowCursor): RowCursor {
    const tree = this.tree;
    const p = this.partner;
    p.leaf = at.leaf;
    p.index = at.index + partnerOf(tree.rows[tree.rowAt(at) + META]);
    for (let size = tree.sizeOf(p.leaf); p.index >= size; size = tree.sizeOf(p.leaf)) {
      p.index -= size;
      p.leaf = tree.nextLeaf(p.leaf);
    }
    return p;
  }

  protected imbalanceAt(at: RowCursor): number {
    const tree = this.tree;
    const rows = tree.rows;
    const r = tree.rowAt(at);
    if (this.beta <= 0) return rows[r + PRIORITY_AT];
    const o = tree.rowAt(this.partnerAt(at));
    return pairImbalance(rows[r + RATING_AT], sideOf(rows[r + META]), rows[o + RATING_AT], sideOf(rows[o + META]));
  }

  /**
   * Record the anchors before the row at (leaf, index) (just inserted, or about to leave) whose
   * last search looked at its position; as `markAnchorsBefore` (the same `cut` exception: the
   * change at the very offset where the bound cut, by a leaver or by a newcomer rated where the
   * bound cuts again, gives the same search).
   */
  private collectBefore(leaf: number, index: number, rating: number, leaving: boolean): void {
    const tree = this.tree;
    const rows = tree.rows;
    const stride = tree.stride;
    const limit = this.reaches.max;
    let l = leaf;
    let i = index;
    this.affectedCount = 0;
    for (let offset = 1; offset <= limit; offset++) {
      if (--i < 0) {
        l = tree.previousLeaf(l);
        if (l === NO_LEAF) break;
        i = tree.sizeOf(l) - 1;
      }
      const r = l * stride + i;
      const meta = rows[r + META];
      const reach = reachOf(meta);
      if (offset > reach) continue;
      // (A cut needs the lower bound, so beta is 0 and the imbalance is the priority.)
      if (offset === reach && (meta & CUT_BIT) !== 0) {
        if (leaving || this.lowerBound!(rows[r + RATING_AT], rating) >= rows[r + PRIORITY_AT]) continue;
      }
      this.affectedLeaves[this.affectedCount] = l;
      this.affectedIndex[this.affectedCount++] = i;
    }
  }

  /** Search the recorded anchors again and refresh their leaves (and `also`, unless {@link NO_LEAF}). */
  private searchAffected(also: number): void {
    const leaves = this.affectedLeaves;
    const n = this.affectedCount;
    for (let a = 0; a < n; a++) this.search(leaves[a], this.affectedIndex[a]);
    // The anchors were collected walking back, so a leaf's anchors are adjacent in the list.
    let last = also;
    if (also !== NO_LEAF) this.tree.refresh(also);
    for (let a = 0; a < n; a++) {
      const leaf = leaves[a];
      if (leaf !== last) this.tree.refresh(leaf);
      last = leaf;
    }
    this.affectedCount = 0;
  }

  /**
   * The anchor search of the row at (leaf, index): its best pair among offsets 1..window, its
   * reach and cut, written into its row (the caller refreshes the leaf).
   */
  private search(leaf: number, index: number): void {
    const tree = this.tree;
    const rows = tree.rows;
    const stride = tree.stride;
    const r = leaf * stride + index;
    const rating = rows[r + RATING_AT];
    const meta = rows[r + META];
    const side = sideOf(meta);
    const bound = this.lowerBound;
    const budget = this.budget;
    const beta = this.beta > 0;
    let found = false;
    let priority = Infinity;
    let partner = 0;
    let evaluations = 0;
    let reach = this.window;
    let cut = false;
    let l = leaf;
    let size = tree.sizeOf(l);
    let i = index;
    for (let j = 1; j <= this.window; j++) {
      if (++i >= size) {
        l = tree.nextLeaf(l);
        if (l === NO_LEAF) {
          // The pool ends here: a ticket added at this offset (or before) changes the search.
          reach = j;
          break;
        }
        size = tree.sizeOf(l);
        i = 0;
      }
      const o = l * stride + i;
      const otherRating = rows[o + RATING_AT];
      if (found && bound && bound(rating, otherRating) >= priority) {
        reach = j;
        cut = true;
        break;
      }
      const otherSide = sideOf(rows[o + META]);
      if (side !== 0 && side === otherSide) continue; // no split: not scored
      const f = pairImbalance(rating, side, otherRating, otherSide);
      evaluations += 2;
      let p = f;
      if (beta) {
        const values = tree.values;
        p = this.aged(f, Math.min(values[leaf * W + index]!.ticket.enqueuedAt, values[l * W + i]!.ticket.enqueuedAt));
      }
      if (!found || p < priority) {
        found = true;
        priority = p;
        partner = j;
      }
      if (evaluations + 2 > budget) {
        reach = j;
        break;
      }
    }
    if ((rows[r + PRIORITY_AT] !== Infinity) !== found) this.games += found ? 1 : -1;
    this.reaches.move(reachOf(meta), reach);
    rows[r + META] = side | (cut ? CUT_BIT : 0) | (reach << REACH_SHIFT) | (partner << PARTNER_SHIFT);
    rows[r + PRIORITY_AT] = found ? priority : Infinity;
  }
}
