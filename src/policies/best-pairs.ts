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
import { isArrivalNodeOf, type ArrivalNode } from "../core/arrival-order.js";
import type { TicketSlot } from "../core/policy.js";
import { ratingSum, type Ticket } from "../core/types.js";
import { PRIORITY, RATING, ROW_TREE_WIDTH, rowCursor, RowTree, NO_LEAF, type RowCursor } from "./shared/row-tree.js";
import { ReachCounts } from "./shared/reach-counts.js";
import { wakeupAt } from "./shared/wakeup.js";

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

/**
 * A waiting ticket's value in the tree: the engine's arrival node of it (the slot it was added
 * with: no object of this class's own per ticket), or a stand-in. Its `policyData` is the leaf
 * holding its row while it waits (kept through splits; the row is found there by identity, so a
 * leave needs neither a descent nor the ticket's rating), undefined once it left.
 */
interface Holder {
  readonly ticket: Ticket;
  policyData: unknown;
}

/** The holder of a ticket added without its arrival node (by id, or in a foreign slot's `policyData`). */
class StandIn implements Holder {
  policyData: unknown = undefined;
  constructor(readonly ticket: Ticket) {}
}

/** Still waiting: its holder names a leaf. */
const isHeld = (h: Holder | undefined): h is Holder => typeof h?.policyData === "number";

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
  private readonly tree = new RowTree<Holder>(COLUMNS, (holder, leaf) => (holder.policyData = leaf));
  private readonly window: number;
  private readonly budget: number;
  private readonly threshold: number;
  private readonly growth: number;
  private readonly beta: number;
  private readonly lowerBound: ((low: number, high: number) => number) | undefined;
  /** Holders of the tickets added without the engine's slot (with one, the slot is the holder or keeps it). */
  private readonly byId = new Map<string, Holder>();
  private seq = 0;
  private epoch: number | undefined;
  /** Anchors with a game (the heap's size in {@link BestGamePolicy}'s terms). */
  private games = 0;
  /** Anchors per reach, and the largest (anchors before a change are looked at up to it). */
  private readonly reaches: ReachCounts;
  /** Scratch cursors (one operation runs at a time): the row worked on, and its partner's. */
  private readonly at = rowCursor();
  private readonly partner = rowCursor();
  /** The anchors a change affects (leaf and index of each). */
  private readonly affectedLeaves: number[] = [];
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
    const held = this.holderOf(ticket.id, slot);
    if (isHeld(held)) this.removeHolder(held);
    this.epoch ??= ticket.enqueuedAt;
    let holder: Holder;
    if (isArrivalNodeOf(slot, ticket)) holder = slot;
    else {
      holder = new StandIn(ticket);
      if (slot) slot.policyData = holder;
      else this.byId.set(ticket.id, holder);
    }
    const rating = ratingSum(ticket) / ticket.players.length;
    const at = this.at;
    this.tree.insert(rating, this.seq++, holder, at);
    holder.policyData = at.leaf;
    const leaf = at.leaf;
    const index = at.index;
    this.tree.rows[this.tree.rowAt(at) + META] = ticket.side === "A" ? SIDE_A : ticket.side === "B" ? SIDE_B : 0;
    this.reaches.join();
    this.collectBefore(leaf, index, rating, false);
    this.search(leaf, index);
    this.searchAffected(leaf);
  }

  remove(ticketId: string, slot?: TicketSlot): void {
    const holder = this.holderOf(ticketId, slot);
    if (isHeld(holder)) this.removeHolder(holder);
  }

  /** The holder a slot names (the slot itself, an arrival node holding a leaf, or the stand-in it keeps), or the one by id. */
  private holderOf(ticketId: string, slot: TicketSlot | undefined): Holder | undefined {
    if (!slot) return this.byId.get(ticketId);
    const data = slot.policyData;
    if (typeof data === "number") return slot as ArrivalNode;
    return data instanceof StandIn ? data : undefined;
  }

  poll(now: number): Ticket[][] {
    // Without beta the best game's imbalance is the least priority; without growth a game above
    // the threshold never qualifies: then no game forms, and the best need not be looked up.
    if (this.beta <= 0 && this.growth <= 0 && !(this.tree.leastPriority() <= this.threshold)) return [];
    const games: Ticket[][] = [];
    while (this.tree.least(this.at) && this.qualifiesAt(this.at) <= now) {
      const [anchor, partner] = this.pairAt(this.at);
      this.removeHolder(anchor);
      this.removeHolder(partner);
      games.push([anchor.ticket, partner.ticket]);
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (!this.tree.least(this.at)) return undefined;
    return wakeupAt(this.qualifiesAt(this.at), now);
  }

  peek(): PairCandidate | undefined {
    const at = this.at;
    if (!this.tree.least(at)) return undefined;
    const [anchor, partner] = this.pairAt(at);
    return {
      tickets: [anchor.ticket, partner.ticket],
      imbalance: this.imbalanceAt(at),
      priority: this.tree.rows[this.tree.rowAt(at) + PRIORITY_AT],
      oldestEnqueuedAt: Math.min(anchor.ticket.enqueuedAt, partner.ticket.enqueuedAt),
    };
  }

  /** The anchor at `at` and its partner (the anchor has a game). */
  private pairAt(at: RowCursor): [Holder, Holder] {
    const anchor = this.tree.valueAt(at);
    return [anchor, this.tree.valueAt(this.partnerAt(at))];
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

  /** Time the game of the anchor at `at` qualifies: f ≤ threshold + growth·(t − oldest)/1000. */
  private qualifiesAt(at: RowCursor): number {
    const f = this.imbalanceAt(at);
    if (f <= this.threshold) return -Infinity;
    if (this.growth <= 0) return Infinity;
    const [anchor, partner] = this.pairAt(at);
    const oldest = Math.min(anchor.ticket.enqueuedAt, partner.ticket.enqueuedAt);
    return oldest + (1000 * (f - this.threshold)) / this.growth;
  }

  /** The imbalance of the game of the anchor at `at` (its priority without beta). */
  private imbalanceAt(at: RowCursor): number {
    const tree = this.tree;
    const rows = tree.rows;
    const r = tree.rowAt(at);
    if (this.beta <= 0) return rows[r + PRIORITY_AT];
    const o = tree.rowAt(this.partnerAt(at));
    return pairImbalance(rows[r + RATING_AT], sideOf(rows[r + META]), rows[o + RATING_AT], sideOf(rows[o + META]));
  }

  private removeHolder(holder: Holder): void {
    const at = this.at;
    const tree = this.tree;
    if (!tree.findValueIn(holder.policyData as number, holder, at)) return;
    const rows = tree.rows;
    const r = tree.rowAt(at);
    // The anchors whose last search looked at this position (found before it is taken out).
    this.collectBefore(at.leaf, at.index, rows[r + RATING_AT], true);
    this.reaches.leave(reachOf(rows[r + META]));
    if (rows[r + PRIORITY_AT] !== Infinity) this.games--;
    tree.remove(at);
    // (The map is empty when the engine passes slots: the ticket is then not reached.)
    if (this.byId.size > 0 && this.byId.get(holder.ticket.id) === holder) this.byId.delete(holder.ticket.id);
    holder.policyData = undefined;
    this.searchAffected(NO_LEAF);
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
        const oldest = Math.min(values[leaf * W + index]!.ticket.enqueuedAt, values[l * W + i]!.ticket.enqueuedAt);
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
    if ((rows[r + PRIORITY_AT] !== Infinity) !== found) this.games += found ? 1 : -1;
    this.reaches.move(reachOf(meta), reach);
    rows[r + META] = side | (cut ? CUT_BIT : 0) | (reach << REACH_SHIFT) | (partner << PARTNER_SHIFT);
    rows[r + PRIORITY_AT] = found ? priority : Infinity;
  }
}
