/**
 * The half that best-game's two row-tree layouts share ({@link BestPairs}: 1v1; {@link BestBlocks}:
 * queues whose searches score one block of 2k solos): each waiting ticket is one row of a
 * {@link RowTree} (rating, seq, the priority of its anchor's best game, then the layout's own
 * columns), held by a {@link RowHolder}; the tree keeps the least priority per subtree, so the
 * best game is one descent away, ties to the lowest anchor in (rating, seq) order (the general
 * layout's heap order). This class keeps the rows, their holders, the count of anchors with a
 * game and the rules of when the best game forms; a layout keeps its anchor search: which
 * anchors a join or a leave changes, how each is searched again, and which tickets its game has.
 */
import { ratingSum, type Ticket } from "../../core/types.js";
import { isHeld, RowHolders, type RowHolder } from "./row-holders.js";
import { PRIORITY, ROW_TREE_WIDTH, rowCursor, RowTree, type RowCursor } from "./row-tree.js";
import { wakeupAt } from "./wakeup.js";

const PRIORITY_AT = PRIORITY * ROW_TREE_WIDTH;

/** What a row-tree layout takes from its {@link BestGamePolicy}: when a game forms, and beta. */
export interface RowGameOptions {
  readonly threshold: number;
  readonly thresholdGrowthPerSecond: number;
  readonly beta: number;
}

/** The best game now, as {@link RowTreeGames.peek} reports it. */
export interface RowGameCandidate {
  readonly tickets: readonly Ticket[];
  readonly imbalance: number;
  readonly priority: number;
  readonly oldestEnqueuedAt: number;
}

/** A best-game queue held as rows of a {@link RowTree}: all but its anchor search (the layout's hooks). */
export abstract class RowTreeGames {
  protected readonly tree: RowTree<RowHolder>;
  protected readonly holders = new RowHolders();
  protected readonly threshold: number;
  protected readonly growth: number;
  protected readonly beta: number;
  /** The next ticket's sequence number (ties in rating keep the order of adding). */
  nextSeq = 0;
  /** The first ticket's `enqueuedAt`: beta's priorities count from it (ms). */
  epoch: number | undefined;
  /** Anchors with a game (the heap's size in {@link BestGamePolicy}'s terms). */
  protected games = 0;
  /** Scratch cursor (one operation runs at a time): the row worked on. */
  protected readonly at = rowCursor();

  /** @param columns numbers per row: rating, seq, priority, then the layout's own. */
  constructor(columns: number, options: RowGameOptions) {
    this.tree = new RowTree<RowHolder>(columns, (holder, leaf) => (holder.policyData = leaf));
    this.threshold = options.threshold;
    this.growth = options.thresholdGrowthPerSecond;
    this.beta = options.beta;
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.tree.size;
  }

  /** Anchors with a game (the general layout's candidates in its heap). */
  get heapSize(): number {
    return this.games;
  }

  /** The holders of the waiting tickets, by id. */
  get standIns(): ReadonlyMap<string, RowHolder> {
    return this.holders.byId;
  }

  /** Hold `ticket`; one already held moves to its new position. */
  add(ticket: Ticket): void {
    // A ticket already held moves to its new position (never held twice).
    const held = this.holders.find(ticket.id);
    if (isHeld(held)) this.removeHolder(held);
    this.epoch ??= ticket.enqueuedAt;
    const holder = this.holders.hold(ticket);
    const at = this.at;
    this.tree.insert(ratingSum(ticket) / ticket.players.length, this.nextSeq++, holder, at);
    holder.policyData = at.leaf;
    this.joined(at, ticket);
  }

  /** Forget a waiting ticket (nothing when it is not held). */
  remove(ticketId: string): void {
    const holder = this.holders.find(ticketId);
    if (isHeld(holder)) this.removeHolder(holder);
  }

  /** Form the best game while it qualifies at `now`, each game's tickets taken out. */
  poll(now: number): Ticket[][] {
    // Without beta the best game's imbalance is the least priority; without growth a game above
    // the threshold never qualifies: then no game forms, and the best need not be looked up.
    if (this.beta <= 0 && this.growth <= 0 && !(this.tree.leastPriority() <= this.threshold)) return [];
    const games: Ticket[][] = [];
    while (this.tree.least(this.at) && this.qualifiesAt(this.at) <= now) {
      const members = this.membersAt(this.at);
      for (const h of members) this.removeHolder(h);
      games.push(members.map(ticketOf));
    }
    return games;
  }

  /** When the best game qualifies (`now` when it already does; undefined when never or none). */
  nextWakeup(now: number): number | undefined {
    if (!this.tree.least(this.at)) return undefined;
    return wakeupAt(this.qualifiesAt(this.at), now);
  }

  /** The best game now, without forming it. */
  peek(): RowGameCandidate | undefined {
    const at = this.at;
    if (!this.tree.least(at)) return undefined;
    const priority = this.tree.rows[this.tree.rowAt(at) + PRIORITY_AT];
    const imbalance = this.imbalanceAt(at);
    const members = this.membersAt(at);
    return { tickets: members.map(ticketOf), imbalance, priority, oldestEnqueuedAt: oldestOf(members) };
  }

  /**
   * The row at `at` was just inserted (its holder names its leaf): write the layout's columns,
   * search its anchor and the anchors before it whose searches its position changes, and
   * refresh their leaves.
   */
  protected abstract joined(at: RowCursor, ticket: Ticket): void;

  /** The row at `at` is about to be taken out: note the anchors its position changes (`at` left where it is). */
  protected abstract leaving(at: RowCursor): void;

  /** The row noted by {@link leaving} was taken out: search the noted anchors again and refresh their leaves. */
  protected abstract left(): void;

  /** The holders of the tickets of the game of the anchor at `at` (it has one), the anchor first. */
  protected abstract membersAt(at: RowCursor): RowHolder[];

  /** The imbalance of the game of the anchor at `at` (its priority without beta). */
  protected abstract imbalanceAt(at: RowCursor): number;

  /** The priority of a game of imbalance `f` whose oldest ticket was enqueued at `oldest` (beta > 0). */
  protected aged(f: number, oldest: number): number {
    return f + (this.beta * (oldest - this.epoch!)) / 1000;
  }

  protected removeHolder(holder: RowHolder): void {
    const at = this.at;
    const tree = this.tree;
    if (!tree.findValueIn(holder.policyData as number, holder, at)) return;
    if (tree.rows[tree.rowAt(at) + PRIORITY_AT] !== Infinity) this.games--;
    // The anchors whose searches looked at this position are found before it is taken out.
    this.leaving(at);
    tree.remove(at);
    this.holders.release(holder);
    this.left();
  }

  /** Time the game of the anchor at `at` qualifies: f ≤ threshold + growth·(t − oldest)/1000. */
  private qualifiesAt(at: RowCursor): number {
    const f = this.imbalanceAt(at);
    if (f <= this.threshold) return -Infinity;
    if (this.growth <= 0) return Infinity;
    return oldestOf(this.membersAt(at)) + (1000 * (f - this.threshold)) / this.growth;
  }
}

const ticketOf = (h: RowHolder): Ticket => h.ticket;

/** Earliest `enqueuedAt` among the holders' tickets (ms). */
function oldestOf(holders: readonly RowHolder[]): number {
  let oldest = Infinity;
  for (const h of holders) if (h.ticket.enqueuedAt < oldest) oldest = h.ticket.enqueuedAt;
  return oldest;
}
