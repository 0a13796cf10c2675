/**
 * `best-game` for 1v1 with the rating-sum imbalance ({@link BestGamePolicy} hands such a queue
 * to this class): the same anchor searches, windows, stops and priorities as its pair search,
 * over a layout made for the pool's size. Each waiting ticket is one row of a {@link RowTree}
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
import type { TicketSlot } from "../core/policy.js";
import { ratingSum, type Ticket } from "../core/types.js";
import {
  PRIORITY,
  RATING,
  ROW_TREE_WIDTH,
  rowCursor,
  RowTree,
  type RowCursor,
  type RowLeaf,
} from "./shared/row-tree.js";
import { ReachCounts } from "./shared/reach-counts.js";

/**
 * Where each column starts in a leaf's rows (column c of row r at c·width + r): the tree's
 * rating and priority, then the row's own.
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

/** A waiting ticket's handle (what the slot or the map by id holds): its key in the tree. */
interface PairHandle {
  readonly ticket: Ticket;
  readonly rating: number;
  readonly seq: number;
  alive: boolean;
}

/** What {@link BestPairs} takes from its {@link BestGamePolicy}. */
export interface BestPairsOptions {
  readonly window: number;
  readonly budget: number;
  readonly threshold: number;
  readonly thresholdGrowthPerSecond: number;
  readonly beta: number;
  /** The spread bound (beta = 0 only): no pair reaching a ticket rated `high` beats this. */
  readonly lowerBound: ((low: number, high: number) => number) | undefined;
}

/** The best game now, as {@link BestPairs.peek} reports it. */
export interface PairCandidate {
  readonly tickets: readonly Ticket[];
  readonly imbalance: number;
  readonly priority: number;
  readonly oldestEnqueuedAt: number;
}

export class BestPairs {
  private readonly tree = new RowTree<PairHandle>(COLUMNS);
  private readonly window: number;
  private readonly budget: number;
  private readonly threshold: number;
  private readonly growth: number;
  private readonly beta: number;
  private readonly lowerBound: ((low: number, high: number) => number) | undefined;
  /** Handles of the tickets added without the engine's slot (with one, the handle is kept in the slot). */
  private readonly byId = new Map<string, PairHandle>();
  private seq = 0;
  private epoch: number | undefined;
  /** Anchors with a game (the heap's size in {@link BestGamePolicy}'s terms). */
  private games = 0;
  /** Anchors per reach, and the largest (anchors before a change are looked at up to it). */
  private readonly reaches: ReachCounts;
  /** Scratch cursors (one operation runs at a time): the row worked on, and its partner's. */
  private readonly at = rowCursor<PairHandle>();
  private readonly partner = rowCursor<PairHandle>();
  /** The anchors a change affects (leaf and index of each). */
  private readonly affectedLeaves: RowLeaf<PairHandle>[] = [];
  private readonly affectedIndex: number[] = [];
  private affectedCount = 0;

  constructor(options: BestPairsOptions) {
    this.window = options.window;
    this.budget = options.budget;
    this.threshold = options.threshold;
    this.growth = options.thresholdGrowthPerSecond;
    this.beta = options.beta;
    this.lowerBound = options.lowerBound;
    this.reaches = new ReachCounts(options.window);
  }

  get size(): number {
    return this.tree.size;
  }

  get heapSize(): number {
    return this.games;
  }

  add(ticket: Ticket, slot?: TicketSlot): void {
    // A ticket already held moves to its new position (never held twice).
    const held = slot ? (slot.policyData as PairHandle | undefined) : this.byId.get(ticket.id);
    if (held?.alive) this.removeHandle(held);
    this.epoch ??= ticket.enqueuedAt;
    const sum = ratingSum(ticket);
    const handle: PairHandle = { ticket, rating: sum / ticket.players.length, seq: this.seq++, alive: true };
    if (slot) slot.policyData = handle;
    else this.byId.set(ticket.id, handle);
    const at = this.at;
    this.tree.insert(handle.rating, handle.seq, handle, at);
    const leaf = at.leaf;
    const index = at.index;
    leaf.rows[index + META] = ticket.side === "A" ? SIDE_A : ticket.side === "B" ? SIDE_B : 0;
    this.reaches.join();
    this.collectBefore(leaf, index, handle.rating, false);
    this.search(leaf, index);
    this.searchAffected(leaf);
  }

  remove(ticketId: string, slot?: TicketSlot): void {
    const handle = slot ? (slot.policyData as PairHandle | undefined) : this.byId.get(ticketId);
    if (handle?.alive) this.removeHandle(handle);
  }

  poll(now: number): Ticket[][] {
    // Without beta the best game's imbalance is the least priority; without growth a game above
    // the threshold never qualifies: then no game forms, and the best need not be looked up.
    if (this.beta <= 0 && this.growth <= 0 && !(this.tree.leastPriority() <= this.threshold)) return [];
    const games: Ticket[][] = [];
    while (this.tree.least(this.at) && this.qualifiesAt(this.at) <= now) {
      const [anchor, partner] = this.pairAt(this.at);
      this.removeHandle(anchor);
      this.removeHandle(partner);
      games.push([anchor.ticket, partner.ticket]);
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (!this.tree.least(this.at)) return undefined;
    const at = this.qualifiesAt(this.at);
    if (at === Infinity) return undefined;
    return at > now ? at : now;
  }

  peek(): PairCandidate | undefined {
    const at = this.at;
    if (!this.tree.least(at)) return undefined;
    const [anchor, partner] = this.pairAt(at);
    return {
      tickets: [anchor.ticket, partner.ticket],
      imbalance: this.imbalanceAt(at),
      priority: at.leaf.rows[at.index + PRIORITY_AT],
      oldestEnqueuedAt: Math.min(anchor.ticket.enqueuedAt, partner.ticket.enqueuedAt),
    };
  }

  /** The anchor at `at` and its partner (the anchor has a game). */
  private pairAt(at: RowCursor<PairHandle>): [PairHandle, PairHandle] {
    const partner = this.partnerAt(at);
    return [at.leaf.values[at.index]!, partner.leaf.values[partner.index]!];
  }

  /** The row of the partner of the anchor at `at` (the anchor has a game), in the scratch {@link partner} cursor. */
  private partnerAt(at: RowCursor<PairHandle>): RowCursor<PairHandle> {
    const p = this.partner;
    p.leaf = at.leaf;
    p.index = at.index + partnerOf(at.leaf.rows[at.index + META]);
    while (p.index >= p.leaf.size) {
      p.index -= p.leaf.size;
      p.leaf = p.leaf.next!;
    }
    return p;
  }

  /** Time the game of the anchor at `at` qualifies: f ≤ threshold + growth·(t − oldest)/1000. */
  private qualifiesAt(at: RowCursor<PairHandle>): number {
    const f = this.imbalanceAt(at);
    if (f <= this.threshold) return -Infinity;
    if (this.growth <= 0) return Infinity;
    const [anchor, partner] = this.pairAt(at);
    const oldest = Math.min(anchor.ticket.enqueuedAt, partner.ticket.enqueuedAt);
    return oldest + (1000 * (f - this.threshold)) / this.growth;
  }

  /** The imbalance of the game of the anchor at `at` (its priority without beta). */
  private imbalanceAt(at: RowCursor<PairHandle>): number {
    const rows = at.leaf.rows;
    if (this.beta <= 0) return rows[at.index + PRIORITY_AT];
    const partner = this.partnerAt(at);
    const other = partner.leaf.rows;
    return pairImbalance(
      rows[at.index + RATING_AT],
      sideOf(rows[at.index + META]),
      other[partner.index + RATING_AT],
      sideOf(other[partner.index + META]),
    );
  }

  private removeHandle(handle: PairHandle): void {
    const at = this.at;
    if (!this.tree.find(handle.rating, handle.seq, at)) return;
    const rows = at.leaf.rows;
    // The anchors whose last search looked at this position (found before it is taken out).
    this.collectBefore(at.leaf, at.index, handle.rating, true);
    this.reaches.leave(reachOf(rows[at.index + META]));
    if (rows[at.index + PRIORITY_AT] !== Infinity) this.games--;
    this.tree.remove(at);
    // (The map is empty when the engine passes slots: the ticket is then not reached.)
    if (this.byId.size > 0 && this.byId.get(handle.ticket.id) === handle) this.byId.delete(handle.ticket.id);
    handle.alive = false;
    this.searchAffected(undefined);
  }

  /**
   * Record the anchors before the row at (leaf, index) (just inserted, or about to leave) whose
   * last search looked at its position; as `markAnchorsBefore` (the same `cut` exception: the
   * change at the very offset where the bound cut, by a leaver or by a newcomer rated where the
   * bound cuts again, gives the same search).
   */
  private collectBefore(leaf: RowLeaf<PairHandle>, index: number, rating: number, leaving: boolean): void {
    const limit = this.reaches.max;
    let l: RowLeaf<PairHandle> | undefined = leaf;
    let i = index;
    this.affectedCount = 0;
    for (let offset = 1; offset <= limit; offset++) {
      if (--i < 0) {
        l = l.prev;
        if (!l) break;
        i = l.size - 1;
      }
      const rows = l.rows;
      const meta = rows[i + META];
      const reach = reachOf(meta);
      if (offset > reach) continue;
      // (A cut needs the lower bound, so beta is 0 and the imbalance is the priority.)
      if (offset === reach && (meta & CUT_BIT) !== 0) {
        if (leaving || this.lowerBound!(rows[i + RATING_AT], rating) >= rows[i + PRIORITY_AT]) continue;
      }
      this.affectedLeaves[this.affectedCount] = l;
      this.affectedIndex[this.affectedCount++] = i;
    }
  }

  /** Search the recorded anchors again and refresh their leaves (and `also`, when given). */
  private searchAffected(also: RowLeaf<PairHandle> | undefined): void {
    const leaves = this.affectedLeaves;
    const n = this.affectedCount;
    for (let a = 0; a < n; a++) this.search(leaves[a], this.affectedIndex[a]);
    // The anchors were collected walking back, so a leaf's anchors are adjacent in the list.
    let last = also;
    if (also) this.tree.refresh(also);
    for (let a = 0; a < n; a++) {
      const leaf = leaves[a];
      if (leaf !== last) this.tree.refresh(leaf);
      last = leaf;
    }
    for (let a = 0; a < n; a++) leaves[a] = undefined!;
    this.affectedCount = 0;
  }

  /**
   * The anchor search of the row at (leaf, index): its best pair among offsets 1..window, its
   * reach and cut, written into its row (the caller refreshes the leaf).
   */
  private search(leaf: RowLeaf<PairHandle>, index: number): void {
    const rows = leaf.rows;
    const rating = rows[index + RATING_AT];
    const meta = rows[index + META];
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
    let l: RowLeaf<PairHandle> | undefined = leaf;
    let i = index;
    for (let j = 1; j <= this.window; j++) {
      if (++i >= l.size) {
        l = l.next;
        if (!l) {
          // The pool ends here: a ticket added at this offset (or before) changes the search.
          reach = j;
          break;
        }
        i = 0;
      }
      const other = l.rows;
      if (found && bound && bound(rating, other[i + RATING_AT]) >= priority) {
        reach = j;
        cut = true;
        break;
      }
      const otherSide = sideOf(other[i + META]);
      if (side !== 0 && side === otherSide) continue; // no split: not scored
      const f = pairImbalance(rating, side, other[i + RATING_AT], otherSide);
      evaluations += 2;
      let p = f;
      if (beta) {
        const oldest = Math.min(leaf.values[index]!.ticket.enqueuedAt, l.values[i]!.ticket.enqueuedAt);
        p = f + (this.beta * (oldest - this.epoch!)) / 1000;
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
    if ((rows[index + PRIORITY_AT] !== Infinity) !== found) this.games += found ? 1 : -1;
    this.reaches.move(reachOf(meta), reach);
    rows[index + META] = side | (cut ? CUT_BIT : 0) | (reach << REACH_SHIFT) | (partner << PARTNER_SHIFT);
    rows[index + PRIORITY_AT] = found ? priority : Infinity;
  }
}
