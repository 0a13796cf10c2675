/**
 * `best-game` (Alman and McKay, "Theoretical Foundations of Team Matchmaking", Theorem 1):
 * keep the waiting tickets sorted by rating and, for every ticket, the best game in which it is
 * the lowest-rated ticket; the least of those candidates is the best game of the pool.
 *
 * Structure (per queue):
 * - the tickets in rating order ({@link RatingOrder}: a linked list indexed by a B+tree; a
 *   party's position is its mean rating; ties keep the order of arrival), O(log n) insert and
 *   delete;
 * - for each ticket, its *anchor* search: the best game made of that ticket and tickets among
 *   the next `window` positions after it, each candidate set scored by the shared assembly's
 *   exact split ({@link assembleTeams} with the queue's imbalance);
 * - a min-heap of the anchors' candidates ({@link IndexedHeap}: each anchor knows its place, so
 *   a new search or a leave updates or drops its candidate at once; ties to the lower anchor in
 *   (rating, seq) order).
 *
 * An insert or a delete at some position changes only the searches that looked at that
 * position: the at most `window` anchors just before it (each records how far its last search
 * looked, its *reach*) and the new ticket's own anchor. So each operation costs
 * O(window · log n) for the tree walks plus at most `window + 1` anchor searches, whose size
 * depends on the window, the team size and `budget`, never on n. A query is O(1), after the
 * searches of the anchors the changes since the last one marked.
 *
 * Layouts for the rating-sum imbalance (the same searches and results, in structures made for
 * them): 1v1 is held by {@link BestPairs}; where every search scores only the 2k consecutive
 * tickets from its anchor (5v5 at the default budget), a queue of plain solos is held by
 * {@link BestBlocks} until its first party or side-bound ticket, when the queue moves to the
 * structures above for good. Both keep the tickets as rows of one B+tree whose inner nodes hold
 * the least priority per subtree (the shared {@link RowTreeGames}): no heap.
 *
 * Window and guarantee. Let W be `window` (tickets after the anchor). The anchor search scores
 * the candidate sets (the anchor, the ticket at offset j, and any tickets between them, filling
 * exactly 2·teamSize seats, that {@link canAssemble}) in order of j = 1, 2, ..., W, so it is
 * exhaustive over ever wider sub-windows. It stops at the end of the window; earlier when a
 * lower bound proves that no set reaching further can win (Alman–McKay: f ≥ v_q ≥
 * k^(−1/q)·spread/2, their Lemma 6; rating-sum with teamSize 1: f = spread), which keeps the
 * exact result; or when its `budget` of imbalance evaluations is spent (the first assemblable set
 * is always scored; the search stops after a set when one more set like it would overrun the
 * budget). Each anchor's candidate is therefore the exact best game among those whose tickets
 * all lie within the sub-window W' it completed (W' = W unless the budget cut it), and the game
 * formed is the best of those over all anchors. The statements below are about f with beta = 0;
 * with beta > 0 the same exactness holds for the time-sensitive priority g instead.
 * - Default W for the Alman–McKay imbalance is Lemma 2's bound ceil(4(1+alpha)·k^(1+1/q))
 *   (q = Infinity: 4(1+alpha)·k). With solos, no side preferences and a search that is not cut
 *   by the budget (e.g. `budget: Infinity`), the game formed is a best game of the whole pool.
 * - Whatever W and budget: with solos and no sides, the 2k consecutive tickets from each anchor
 *   are always scored, so with the Alman–McKay imbalance the game formed has imbalance at most
 *   rho·OPT, rho = 2·k^(1/q)·(1+alpha) (Lemmas 4 and 6: those 2k tickets span no more than the
 *   best game, whose imbalance is at least k^(−1/q)·span/2); with the default rating-sum
 *   imbalance it is at most the smallest rating span of 2k consecutive solos (Lemma 4).
 * - Default W otherwise is 2·(2k) = 4k, and the guarantee is exactness among windows only: for
 *   rating-sum with teamSize 1 this is the best game of the pool (the closest pair is adjacent);
 *   for teamSize ≥ 2 a perfectly fair game can be spread over the whole rating range, so no
 *   window gives the pool's best.
 * - With the default budget (128 evaluations) and 2k solos needing C(2k−1, k−1)+1 evaluations per
 *   set, the completed sub-window W' is at least: k=1: W; k=2: 6; k=3: 6; k=4: 7; k=5: 9 (2k−1,
 *   the consecutive block only). Raise `budget` for wider exact searches, at proportional cost.
 * - Parties and side preferences are honoured by the assembly; the paper's lemmas are for solos
 *   without sides, so with those the guarantee is exactness among windows. A game whose tickets
 *   span more than W positions is never formed (e.g. side-A tickets all far below side-B ones):
 *   use the queue's `maxWaitMs` with `fillWithBots` when every ticket must eventually play.
 *
 * Priority and time. With `beta` > 0 the priority is Alman and McKay's time-sensitive
 * g = f − beta·(longest wait in the game, seconds). At time t the longest wait of a game is
 * t − oldest, where oldest is its earliest `enqueuedAt`, so g(t) = (f + beta·oldest) − beta·t:
 * the term beta·t is the same for every game, hence the order of games by g never changes as
 * time passes and the heap is keyed by f + beta·oldest (seconds, measured from the first
 * ticket's enqueue time to keep the numbers small). Each anchor then keeps its best game by g.
 * The Lemma 6 shortcut is off when beta > 0 (the bound does not cover the time term).
 *
 * When to form. The best candidate forms when f ≤ threshold + thresholdGrowthPerSecond·(its longest wait,
 * seconds); `threshold` defaults to Infinity (form the best game at once whenever one exists).
 * Only the best candidate is considered: as the order never changes with time, `nextWakeup` is
 * exactly the time the best candidate qualifies (thresholdGrowthPerSecond > 0), and a later arrival or
 * departure makes the engine poll again anyway. The queue's `maxWaitMs` is left to the engine's
 * bot fill.
 */
import * as v from "valibot";
import { assembleTeams, canAssemble } from "../core/assembly.js";
import { withCriteriaCost } from "../core/criteria.js";
import { MatchmakerError } from "../core/errors.js";
import { ratingSumDifference, type ImbalanceFn, type ResolvedImbalance } from "../core/imbalance.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { ratingSum, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { BestBlocks, plainSolo } from "./best-blocks.js";
import { BestPairs } from "./best-pairs.js";
import { IndexedHeap, type HeapItem } from "./shared/indexed-heap.js";
import { RatingOrder, type RatingLink } from "./shared/rating-order.js";
import { ReachCounts } from "./shared/reach-counts.js";
import { StandIn } from "./shared/row-holders.js";
import { wakeupAt } from "./shared/wakeup.js";
import { RatingSumSplitter, SUM_SPLIT_LIMIT } from "./sum-split.js";

/** Largest accepted (and default) window: the tickets after an anchor that its search may look at. */
const MAX_WINDOW = 1024;
/** Default imbalance evaluations per anchor search. */
const DEFAULT_BUDGET = 128;
/** Slack on lower bounds so that rounding never prunes a set that ties or wins. */
const BOUND_SLACK = 1 - 1e-12;

const INF = 'or "inf"';
const BestGameParams = v.strictObject(
  {
    window: v.optional(
      v.pipe(
        v.number(),
        v.integer("must be a whole number of tickets"),
        v.minValue(1, "must be at least 1"),
        v.maxValue(MAX_WINDOW, `must be at most ${MAX_WINDOW}`),
      ),
    ),
    budget: v.optional(
      v.union(
        [
          v.pipe(
            v.number(),
            v.check((n) => n === Infinity || (Number.isInteger(n) && n >= 1)),
          ),
          v.literal("inf"),
        ],
        `must be a whole number of at least 1, Infinity ${INF}`,
      ),
      DEFAULT_BUDGET,
    ),
    threshold: v.optional(
      v.union([v.pipe(v.number(), v.minValue(0)), v.literal("inf")], `must be a number of at least 0, Infinity ${INF}`),
      Infinity,
    ),
    thresholdGrowthPerSecond: v.optional(
      v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must not be negative")),
      0,
    ),
    /** With criteria: imbalance units added per unit of each named criterion's dispersion (see `withCriteriaCost`). */
    criteriaCost: v.optional(
      v.record(
        v.string(),
        v.pipe(
          v.number("must be a number"),
          v.finite("must be a finite number"),
          v.minValue(0, "must not be negative"),
        ),
      ),
    ),
    beta: v.optional(v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must not be negative")), 0),
  },
  unknownKeyMessage,
);

/** Validated parameters of the `best-game` policy. */
export interface BestGameOptions {
  /** Tickets after each anchor that its search considers. */
  readonly window: number;
  /** Imbalance evaluations per anchor search (Infinity: exhaustive over the window). */
  readonly budget: number;
  /** A game forms when its imbalance is at most threshold + thresholdGrowthPerSecond·(longest wait, s). */
  readonly threshold: number;
  readonly thresholdGrowthPerSecond: number;
  /** Weight of the longest wait (per second) in the time-sensitive priority g = f − beta·wait. */
  readonly beta: number;
}

/** Lemma 2's window ceil(4(1+alpha)·k^(1+1/q)) (q = Infinity: 4(1+alpha)·k), capped at {@link MAX_WINDOW}. */
export function lemma2Window(teamSize: number, alpha: number, q: number): number {
  const exponent = q === Infinity ? 1 : 1 + 1 / q;
  const bound = 4 * (1 + alpha) * teamSize ** exponent;
  return Math.min(MAX_WINDOW, Math.ceil(bound - 1e-9));
}

/** The default window: Lemma 2's for the Alman–McKay imbalance, else 2·(2k). */
export function defaultWindow(teamSize: number, spec: ResolvedImbalance | undefined): number {
  if (spec?.kind === "alman-mckay") return lemma2Window(teamSize, spec.alpha, spec.q);
  return Math.min(MAX_WINDOW, 4 * teamSize);
}

/**
 * A lower bound on the imbalance of any game whose lowest and highest tickets have mean ratings
 * `low` and `high`, when the imbalance allows one: Alman–McKay's Lemma 6 (v_q of 2k skills is at
 * least k^(−1/q)·spread/2, and f ≥ v_q), or the spread itself for rating-sum with teamSize 1.
 * Player spread is at least the spread of ticket means, and the floor shift is monotone.
 */
function spreadLowerBound(
  spec: ResolvedImbalance | undefined,
  teamSize: number,
): ((low: number, high: number) => number) | undefined {
  if (spec?.kind === "alman-mckay") {
    const factor = ((spec.q === Infinity ? 1 : teamSize ** (-1 / spec.q)) / 2) * BOUND_SLACK;
    const floor = spec.floor;
    return (low, high) => factor * (Math.max(0, high - floor) - Math.max(0, low - floor));
  }
  if (spec?.kind === "rating-sum" && teamSize === 1) return (low, high) => (high - low) * BOUND_SLACK;
  return undefined;
}

/** A waiting ticket, its anchor search's state, and its anchor's best game (its heap entry). */
interface Entry extends RatingLink<Entry>, HeapItem {
  readonly ticket: Ticket;
  /** Position in rating order: the party's mean rating (ties: `seq`, the order of adding). */
  readonly rating: number;
  readonly seq: number;
  readonly seats: number;
  /** Sum of the ticket's player ratings. */
  readonly sum: number;
  /** The ticket's side preference (copied, so that a search reads entries only). */
  readonly side: "A" | "B" | undefined;
  alive: boolean;
  /** Offsets 1..reach after this anchor were looked at by its last search. */
  reach: number;
  /**
   * Its last search found a game and stopped at offset `reach` because the lower bound there
   * proved that no set reaching further wins (see {@link markAnchorsBefore}).
   */
  cut: boolean;
  /** Its window changed since its last search: searched again before the next query. */
  dirty: boolean;
  /**
   * The anchor's best game while it has one (then it is in the heap, keyed by the game's
   * priority): its tickets in rating order, the anchor first. The array is the entry's own,
   * reused by later searches. Not kept when `block` (see {@link BestGamePolicy.gameOf}).
   */
  members: Entry[] | undefined;
  /**
   * Its best game is the 2k consecutive tickets from it ({@link BestGamePolicy.searchBlock}):
   * they are not copied into `members`, as any change among them marks the anchor dirty and the
   * game is read only after the dirty anchors are searched again.
   */
  block: boolean;
  imbalance: number;
}

/** Heap order among equal priorities: the anchor's rating order. */
const compareAnchors = (a: Entry, b: Entry): number => a.rating - b.rating || a.seq - b.seq;

/** The current best candidate, as {@link BestGamePolicy.peek} reports it. */
export interface BestGameCandidate {
  readonly tickets: readonly Ticket[];
  readonly imbalance: number;
  readonly priority: number;
  readonly oldestEnqueuedAt: number;
}

export class BestGamePolicy implements Policy {
  readonly name = "best-game";
  readonly window: number;
  readonly budget: number;
  readonly threshold: number;
  readonly thresholdGrowthPerSecond: number;
  readonly beta: number;
  private readonly teamSize: number;
  private readonly imbalance: ImbalanceFn;
  private readonly lowerBound: ((low: number, high: number) => number) | undefined;
  private readonly order = new RatingOrder<Entry>();
  /** The waiting tickets' entries, by ticket id. */
  private readonly byId = new Map<string, Entry>();
  private count = 0;
  /** Anchors whose window changed since their last search (dirty[0..dirtyCount-1], searched before the next query). */
  private readonly dirty: (Entry | undefined)[] = [];
  private dirtyCount = 0;
  /** Each anchor's best game, keyed by its priority (f, or f + beta·(oldest − epoch)/1000). */
  private readonly heap = new IndexedHeap<Entry>(compareAnchors);
  private seq = 0;
  /** Anchors per reach, and the largest (anchors before a change are looked at up to it). */
  private readonly reaches: ReachCounts;
  private epoch: number | undefined;
  /** Imbalance evaluations made by the running search (counted through {@link countingImbalance}). */
  private evaluations = 0;
  private readonly countingImbalance: ImbalanceFn;
  /**
   * With the rating-sum imbalance and at most {@link SUM_SPLIT_LIMIT} seats, sets are scored
   * from rating sums without allocating (the same splits, counted the same way).
   */
  private readonly splitter: RatingSumSplitter | undefined;
  /** The splitter, when every search of a window of plain solos scores just its first 2k (see {@link searchBlock}). */
  private readonly blockOnly: RatingSumSplitter | undefined;
  /** The rating sums of the block {@link searchBlock} scores (in rating order). */
  private readonly blockSums = new Float64Array(SUM_SPLIT_LIMIT);
  /**
   * 2v2 with the splitter, where the general search's step cap cannot bind (it visits at most
   * 2^(window+1) nodes, within the cap 16·budget + 64·window): {@link searchQuads} applies.
   */
  private readonly quads: boolean;
  /** 1v1 with the rating-sum imbalance: the whole queue is held by {@link BestPairs} (same searches, a leaf layout). */
  private readonly pairs: BestPairs | undefined;
  /**
   * With {@link blockOnly}, the queue is held by {@link BestBlocks} (same searches, a leaf layout)
   * while every ticket is a plain solo; the first other ticket moves it here for good ({@link leaveBlocks}).
   */
  private blocks: BestBlocks | undefined;
  /** The queue was held by {@link blocks} once: the map by id may still hold one of its stand-ins. */
  private leftBlocks = false;
  private readonly state: SearchState = {
    anchor: undefined,
    win: [],
    seatsBefore: [],
    chosen: [],
    found: false,
    members: [],
    memberCount: 0,
    inPlace: false,
    imbalance: 0,
    priority: 0,
    steps: 0,
    lastCost: 0,
    stop: false,
  };

  constructor(context: PolicyContext, options: BestGameOptions) {
    this.teamSize = context.teamSize;
    this.imbalance = context.imbalance;
    this.window = options.window;
    this.budget = options.budget;
    this.threshold = options.threshold;
    this.thresholdGrowthPerSecond = options.thresholdGrowthPerSecond;
    this.beta = options.beta;
    this.reaches = new ReachCounts(options.window);
    this.lowerBound = options.beta > 0 ? undefined : spreadLowerBound(context.imbalanceSpec, context.teamSize);
    this.splitter =
      context.imbalanceSpec?.kind === "rating-sum" &&
      context.imbalance === ratingSumDifference &&
      2 * context.teamSize <= SUM_SPLIT_LIMIT
        ? new RatingSumSplitter()
        : undefined;
    // One set of 2k solos costs C(2k−1, k−1) splits + 1 evaluations; the search stops after the
    // first set when a second would overrun the budget.
    const blockCost = binomial(2 * this.teamSize - 1, this.teamSize - 1) + 1;
    this.blockOnly = this.splitter && !this.lowerBound && 2 * blockCost > this.budget ? this.splitter : undefined;
    this.quads =
      this.splitter !== undefined &&
      this.teamSize === 2 &&
      !this.lowerBound &&
      2 ** (this.window + 1) <= 16 * this.budget + 64 * this.window;
    this.pairs =
      this.teamSize === 1 && this.splitter
        ? new BestPairs({
            window: this.window,
            budget: this.budget,
            threshold: this.threshold,
            thresholdGrowthPerSecond: this.thresholdGrowthPerSecond,
            beta: this.beta,
            lowerBound: this.lowerBound,
          })
        : undefined;
    this.blocks = this.blockOnly
      ? new BestBlocks({
          teamSize: this.teamSize,
          threshold: this.threshold,
          thresholdGrowthPerSecond: this.thresholdGrowthPerSecond,
          beta: this.beta,
          splitter: this.blockOnly,
        })
      : undefined;
    this.countingImbalance = (a, b) => {
      this.evaluations++;
      return this.imbalance(a, b);
    };
  }

  /** Number of waiting tickets. */
  get size(): number {
    if (this.pairs) return this.pairs.size;
    return this.blocks ? this.blocks.size : this.count;
  }

  add(ticket: Ticket, _now?: number): void {
    if (this.pairs) return this.pairs.add(ticket);
    if (this.blocks) {
      if (plainSolo(ticket)) return this.blocks.add(ticket);
      this.leaveBlocks();
    }
    // A ticket already held moves to its new position (never held twice).
    const held = this.entryOf(this.byId.get(ticket.id));
    if (held?.alive) this.removeEntry(held);
    const entry = this.insert(ticket);
    this.byId.set(ticket.id, entry);
    // The anchors whose last search looked at the new position: their searches change.
    this.markAnchorsBefore(entry, false);
    this.markDirty(entry);
  }

  /**
   * Add many tickets at once (e.g. a server restoring its queue, or a benchmark): each affected
   * anchor is searched once, at the next query.
   */
  addMany(tickets: readonly Ticket[]): void {
    for (const t of tickets) this.add(t);
  }

  remove(ticketId: string): void {
    if (this.pairs) return this.pairs.remove(ticketId);
    if (this.blocks) return this.blocks.remove(ticketId);
    const entry = this.entryOf(this.byId.get(ticketId));
    if (entry?.alive) this.removeEntry(entry);
  }

  private removeEntry(entry: Entry): void {
    // The anchors whose last search looked at this position (found before it is unlinked).
    this.markAnchorsBefore(entry, true);
    this.reaches.leave(entry.reach);
    entry.reach = 0;
    this.order.remove(entry);
    const id = entry.ticket.id;
    if (this.byId.get(id) === entry) this.byId.delete(id);
    this.count--;
    entry.alive = false;
    this.heap.delete(entry);
    entry.members = undefined;
    entry.block = false;
  }

  poll(now: number): Ticket[][] {
    if (this.pairs) return this.pairs.poll(now);
    if (this.blocks) return this.blocks.poll(now);
    const games: Ticket[][] = [];
    for (let top = this.top(); top && this.qualifiesAt(top) <= now; top = this.top()) {
      const members = this.gameOf(top).slice();
      for (const e of members) this.removeEntry(e);
      games.push(members.map(ticketOf));
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (this.pairs) return this.pairs.nextWakeup(now);
    if (this.blocks) return this.blocks.nextWakeup(now);
    const top = this.top();
    if (!top) return undefined;
    return wakeupAt(this.qualifiesAt(top), now);
  }

  /** The best candidate game now (what `poll` would form first if it qualifies), without forming it. */
  peek(): BestGameCandidate | undefined {
    if (this.pairs) return this.pairs.peek();
    if (this.blocks) return this.blocks.peek();
    const top = this.top();
    return (
      top && {
        tickets: this.gameOf(top).map(ticketOf),
        imbalance: top.imbalance,
        priority: this.heap.keyOf(top),
        oldestEnqueuedAt: oldestOf(this.gameOf(top)),
      }
    );
  }

  /** Candidates held in the heap: one per anchor whose window holds a game (for tests and benchmarks). */
  get heapSize(): number {
    if (this.pairs) return this.pairs.heapSize;
    if (this.blocks) return this.blocks.heapSize;
    this.flush();
    return this.heap.size;
  }

  /**
   * Time at which a candidate qualifies: f ≤ threshold + growth·(t − oldest)/1000. Both `poll`
   * and `nextWakeup` compare through this one expression, so a driver woken at the returned time
   * finds the game due.
   */
  private qualifiesAt(c: Entry): number {
    if (c.imbalance <= this.threshold) return -Infinity;
    if (this.thresholdGrowthPerSecond <= 0) return Infinity;
    return oldestOf(this.gameOf(c)) + (1000 * (c.imbalance - this.threshold)) / this.thresholdGrowthPerSecond;
  }

  /**
   * The tickets of an anchor's best game (it has one, and no anchor is dirty): its `members`, or
   * for a `block` game the 2k tickets from it in rating order.
   */
  private gameOf(anchor: Entry): Entry[] {
    if (!anchor.block) return anchor.members!;
    const game = new Array<Entry>(2 * this.teamSize);
    let e: Entry = anchor;
    for (let i = 0; i < game.length; i++, e = e.next!) game[i] = e;
    return game;
  }

  /** The anchor of the best game, after searching every anchor whose window changed. */
  private top(): Entry | undefined {
    this.flush();
    return this.heap.peek();
  }

  /**
   * Mark the anchors before `entry` (just inserted, or about to leave) whose last search looked
   * at its position (offset ≤ reach). No anchor reaches further than the largest reach held, so
   * the walk stops there.
   *
   * One exception, where searching again is known to give the same game and reach: the anchor's
   * last search stopped by the lower bound at offset `reach` (`cut`), and the change is at that
   * very offset. Offsets 1..reach−1 hold the same tickets, so a new search scores the same sets
   * and arrives at offset `reach` with the same best game. A leaver is replaced there by the next
   * ticket, rated at least as high, where the bound (non-decreasing in the higher rating) cuts
   * again, or by the end of the list, which ends the search at the same offset. A newcomer cuts
   * there when the bound at its rating reaches the best game's priority (the imbalance: the bound
   * exists only with beta = 0), which is checked.
   */
  private markAnchorsBefore(entry: Entry, leaving: boolean): void {
    const limit = this.reaches.max;
    let anchor = entry.prev;
    for (let offset = 1; anchor && offset <= limit; offset++, anchor = anchor.prev) {
      const reach = anchor.reach;
      if (offset > reach || anchor.dirty) continue;
      if (offset === reach && anchor.cut) {
        if (leaving || this.lowerBound!(anchor.rating, entry.rating) >= anchor.imbalance) continue;
      }
      this.markDirty(anchor);
    }
  }

  /** Record an anchor's new reach (and count it). */
  private setReach(anchor: Entry, reach: number): void {
    this.reaches.move(anchor.reach, reach);
    anchor.reach = reach;
  }

  private markDirty(anchor: Entry): void {
    if (anchor.dirty) return;
    anchor.dirty = true;
    this.dirty[this.dirtyCount++] = anchor;
  }

  /** Search again every anchor whose window changed (each once, however many changes it saw). */
  private flush(): void {
    const dirty = this.dirty;
    for (let i = 0; i < this.dirtyCount; i++) {
      const anchor = dirty[i]!;
      dirty[i] = undefined;
      anchor.dirty = false;
      if (anchor.alive) this.recompute(anchor);
    }
    this.dirtyCount = 0;
  }

  /**
   * Take the queue over from {@link blocks} (a ticket it cannot hold arrived): its tickets enter
   * the rating order in its order, with their sequence numbers, each anchor to be searched at
   * the next query; a stand-in (by id) leads to its entry.
   */
  private leaveBlocks(): void {
    const blocks = this.blocks!;
    this.blocks = undefined;
    this.leftBlocks = true;
    this.epoch = blocks.epoch;
    this.seq = blocks.nextSeq;
    blocks.drain((ticket, seq) => {
      const entry = this.insert(ticket, seq);
      this.markDirty(entry);
      return entry;
    });
    for (const [id, standIn] of blocks.standIns) this.byId.set(id, standIn.policyData as Entry);
  }

  /** The entry the map by id holds (a stand-in from {@link blocks} leads to the entry that took its place). */
  private entryOf(held: unknown): Entry | undefined {
    if (this.leftBlocks && held instanceof StandIn) return held.policyData as Entry | undefined;
    return held as Entry | undefined;
  }

  private insert(ticket: Ticket, seq = this.seq++): Entry {
    this.epoch ??= ticket.enqueuedAt;
    const sum = ratingSum(ticket);
    const entry: Entry = {
      ticket,
      rating: sum / ticket.players.length,
      seq,
      seats: ticket.players.length,
      sum,
      side: ticket.side,
      prev: undefined,
      next: undefined,
      heapIndex: -1,
      alive: true,
      reach: 0,
      cut: false,
      dirty: false,
      members: undefined,
      block: false,
      imbalance: 0,
    };
    this.order.insert(entry);
    this.count++;
    this.reaches.join();
    return entry;
  }

  /** Search the anchor's window again and put its best game in the heap (or take it out). */
  private recompute(anchor: Entry): void {
    const s = this.state;
    if (!this.search(anchor)) {
      this.heap.delete(anchor);
      anchor.members = undefined;
      anchor.block = false;
      return;
    }
    anchor.block = s.inPlace;
    if (s.inPlace) anchor.members = undefined;
    else {
      const found = s.members;
      const n = s.memberCount;
      let members = anchor.members;
      if (!members || members.length !== n) anchor.members = members = new Array<Entry>(n);
      for (let i = 0; i < n; i++) members[i] = found[i];
    }
    anchor.imbalance = s.imbalance;
    this.heap.set(anchor, s.priority);
  }

  /**
   * The best game whose lowest-rated ticket is `anchor`, among the tickets at offsets 1..window
   * after it, scored in order of the furthest offset used (see the module comment), left in the
   * search state; false when there is none. Records in `anchor.reach` how far the search looked.
   */
  private search(anchor: Entry): boolean {
    this.state.inPlace = false;
    if (this.blockOnly) {
      const found = this.searchBlock(anchor, this.blockOnly);
      if (found !== undefined) return found;
    }
    if (this.quads) {
      const found = this.searchQuads(anchor);
      if (found !== undefined) return found;
    }
    const k = this.teamSize;
    const seats = 2 * k;
    const s = this.state;
    s.anchor = anchor;
    const win = s.win;
    const seatsBefore = s.seatsBefore;
    win[0] = anchor;
    seatsBefore[0] = 0;
    seatsBefore[1] = anchor.seats;
    s.found = false;
    s.steps = 0;
    s.lastCost = 0;
    s.stop = false;
    this.evaluations = 0;
    let reach = this.window;
    let cut = false;
    const anchorA = sideSeats(anchor, "A");
    const anchorB = sideSeats(anchor, "B");
    let last: Entry | undefined = anchor;
    for (let j = 1; j <= this.window; j++) {
      last = last.next;
      if (!last) {
        // The list ends here: a ticket added at this offset (or before) changes the search.
        reach = j;
        break;
      }
      if (s.found && this.lowerBound && this.lowerBound(anchor.rating, last.rating) >= s.priority) {
        reach = j;
        cut = true;
        break;
      }
      win[j] = last;
      seatsBefore[j + 1] = seatsBefore[j] + last.seats;
      const total = anchor.seats + last.seats;
      const sizeA = anchorA + sideSeats(last, "A");
      const sizeB = anchorB + sideSeats(last, "B");
      if (total <= seats && sizeA <= k && sizeB <= k) this.visit(j, 1, total, sizeA, sizeB);
      if (s.stop) {
        reach = j;
        break;
      }
    }
    this.setReach(anchor, reach);
    anchor.cut = cut;
    s.anchor = undefined;
    // Hold no entry beyond the search (a removed ticket must not be kept alive by the scratch).
    for (let i = 0; i <= this.window && win[i] !== undefined; i++) win[i] = undefined!;
    return s.found;
  }

  /**
   * {@link search} when it is known to score exactly one set, the 2k consecutive tickets from
   * the anchor, and stop there (offset 2k − 1): the rating-sum imbalance without a lower bound,
   * a budget that one more such set would overrun, and 2k plain solos (no side) from the anchor.
   * Then the general search visits no other set (fewer than 2k seats before offset 2k − 1) and
   * scores this one as here. Returns undefined when the window is not such a block.
   */
  private searchBlock(anchor: Entry, splitter: RatingSumSplitter): boolean | undefined {
    const n = 2 * this.teamSize;
    const s = this.state;
    const beta = this.beta > 0;
    let oldest = Infinity;
    let e: Entry | undefined = anchor;
    const sums = this.blockSums;
    for (let i = 0; i < n; i++, e = e.next) {
      if (!e || e.seats !== 1 || e.side !== undefined) return undefined;
      sums[i] = e.sum;
      if (beta && e.ticket.enqueuedAt < oldest) oldest = e.ticket.enqueuedAt;
    }
    splitter.solveSortedSolos(sums, 0, n, this.teamSize);
    // The game is the block itself: recompute marks the anchor `block` and copies nothing.
    s.inPlace = true;
    const f = splitter.best;
    s.found = true;
    s.imbalance = f;
    s.priority = beta ? f + (this.beta * (oldest - this.epoch!)) / 1000 : f;
    s.memberCount = n;
    this.setReach(anchor, n - 1);
    anchor.cut = false;
    return true;
  }

  /**
   * {@link search} for 2v2 with the rating-sum imbalance over a window of plain solos (no side):
   * the candidate sets are the anchor, two tickets a < b between it and offset j, and the ticket
   * at j, in the general search's order (j, then (a, b) lexicographic), each scored as the
   * splitter scores it (the anchor on A with one of the other three: three splits, four
   * evaluations), with the same budget stop; so the same result and reach. Returns undefined
   * (and the general search runs) when it meets a party or a side preference before it stops.
   * Only used where the general search's step cap cannot bind (see {@link quads}).
   */
  private searchQuads(anchor: Entry): boolean | undefined {
    if (anchor.seats !== 1 || anchor.side !== undefined) return undefined;
    const s = this.state;
    const win = s.win;
    const x0 = anchor.sum;
    const budget = this.budget;
    const beta = this.beta > 0;
    s.found = false;
    s.stop = false;
    let evaluations = 0;
    let reach = this.window;
    let plain = true;
    let last: Entry | undefined = anchor;
    win[0] = anchor;
    outer: for (let j = 1; j <= this.window; j++) {
      last = last.next;
      if (!last) {
        reach = j;
        break;
      }
      if (last.seats !== 1 || last.side !== undefined) {
        plain = false;
        break;
      }
      win[j] = last;
      const xl = last.sum;
      for (let a = 1; a < j - 1; a++) {
        const xa = win[a].sum;
        const x0a = x0 + xa;
        for (let b = a + 1; b < j; b++) {
          const xb = win[b].sum;
          // As the splitter adds them: the total in the order of adding, each split as 2·(A's sum) − total.
          const total = x0a + xb + xl;
          let f = Math.abs(2 * x0a - total);
          let value = Math.abs(2 * (x0 + xb) - total);
          if (value < f) f = value;
          value = Math.abs(2 * (x0 + xl) - total);
          if (value < f) f = value;
          evaluations += 4;
          if (beta || !s.found || f < s.priority) this.keepQuad(anchor, win[a], win[b], last, f);
          if (evaluations + 4 > budget) {
            s.stop = true;
            reach = j;
            break outer;
          }
        }
      }
    }
    for (let i = 0; i <= this.window && win[i] !== undefined; i++) win[i] = undefined!;
    if (!plain) return undefined;
    this.setReach(anchor, reach);
    anchor.cut = false;
    return s.found;
  }

  /** Whether a game of this priority and imbalance beats the search's best so far; if so it is recorded as found (its members are the caller's to copy). */
  private improves(priority: number, f: number): boolean {
    const s = this.state;
    if (s.found && !(priority < s.priority)) return false;
    s.found = true;
    s.priority = priority;
    s.imbalance = f;
    return true;
  }

  /** {@link keep} for the set of {@link searchQuads} (no chosen list to copy). */
  private keepQuad(anchor: Entry, a: Entry, b: Entry, last: Entry, f: number): void {
    const s = this.state;
    let priority = f;
    if (this.beta > 0) {
      const oldest = Math.min(
        anchor.ticket.enqueuedAt,
        a.ticket.enqueuedAt,
        b.ticket.enqueuedAt,
        last.ticket.enqueuedAt,
      );
      priority = f + (this.beta * (oldest - this.epoch!)) / 1000;
    }
    if (!this.improves(priority, f)) return;
    const members = s.members;
    members[0] = anchor;
    members[1] = a;
    members[2] = b;
    members[3] = last;
    s.memberCount = 4;
  }

  /** Choose among win[i..j-1] the tickets that fill the game beside the anchor and win[j]. */
  private visit(j: number, i: number, total: number, sizeA: number, sizeB: number): void {
    const s = this.state;
    if (s.stop) return;
    // Search steps: generous beside the evaluations once a game is found, bounded before.
    const stepCap = this.budget === Infinity ? Infinity : (s.found ? 16 : 256) * this.budget + 64 * this.window;
    if (++s.steps > stepCap) {
      s.stop = true;
      return;
    }
    if (total === 2 * this.teamSize) {
      this.score(s.win[j]);
      return;
    }
    if (i >= j || total + (s.seatsBefore[j] - s.seatsBefore[i]) < 2 * this.teamSize) return;
    const e = s.win[i];
    if (total + e.seats <= 2 * this.teamSize) {
      const a = sizeA + sideSeats(e, "A");
      const b = sizeB + sideSeats(e, "B");
      if (a <= this.teamSize && b <= this.teamSize) {
        s.chosen.push(e);
        this.visit(j, i + 1, total + e.seats, a, b);
        s.chosen.pop();
      }
    }
    this.visit(j, i + 1, total, sizeA, sizeB);
  }

  /** Score one set that fills the game: its exact best split, kept if it beats the anchor's best so far. */
  private score(last: Entry): void {
    if (this.splitter) return this.scoreSums(last, this.splitter);
    const s = this.state;
    const anchor = s.anchor!;
    const members = [anchor, ...s.chosen, last];
    const tickets = members.map(ticketOf);
    if (!canAssemble(tickets, this.teamSize)) return;
    const before = this.evaluations;
    const split = assembleTeams(tickets, this.teamSize, this.countingImbalance);
    s.lastCost = this.evaluations - before;
    // The first game is always scored; another only while the budget allows one more like this
    // one. Stopping here (not at the next set) makes the result depend on offsets up to this
    // set's only, so the anchor's reach is this offset.
    if (this.evaluations + s.lastCost > this.budget) s.stop = true;
    if (!split) return;
    this.keep(anchor, last, split.imbalance);
  }

  /** {@link score} for the rating-sum imbalance: the same splits, scored from sums, no arrays. */
  private scoreSums(last: Entry, splitter: RatingSumSplitter): void {
    const s = this.state;
    const anchor = s.anchor!;
    const chosen = s.chosen;
    splitter.reset();
    splitter.add(anchor.sum, anchor.seats, anchor.side);
    for (let i = 0; i < chosen.length; i++) {
      const e = chosen[i];
      splitter.add(e.sum, e.seats, e.side);
    }
    splitter.add(last.sum, last.seats, last.side);
    const splits = splitter.solve(this.teamSize);
    if (splits === 0) return; // cannot be assembled: not scored, as canAssemble would say
    // The assembly's evaluations: one per split, and one for the split it returns.
    s.lastCost = splits + 1;
    this.evaluations += s.lastCost;
    if (this.evaluations + s.lastCost > this.budget) s.stop = true;
    this.keep(anchor, last, splitter.best);
  }

  /** Keep the scored set (the anchor, the chosen tickets, `last`) if it beats the anchor's best so far. */
  private keep(anchor: Entry, last: Entry, f: number): void {
    const s = this.state;
    let priority = f;
    if (this.beta > 0) {
      let oldest = Math.min(anchor.ticket.enqueuedAt, last.ticket.enqueuedAt);
      for (const e of s.chosen) if (e.ticket.enqueuedAt < oldest) oldest = e.ticket.enqueuedAt;
      priority = f + (this.beta * (oldest - this.epoch!)) / 1000;
    }
    if (!this.improves(priority, f)) return;
    const chosen = s.chosen;
    const members = s.members;
    members[0] = anchor;
    for (let i = 0; i < chosen.length; i++) members[i + 1] = chosen[i];
    members[chosen.length + 1] = last;
    s.memberCount = chosen.length + 2;
  }
}

const ticketOf = (e: Entry): Ticket => e.ticket;

/** n choose r. */
function binomial(n: number, r: number): number {
  let c = 1;
  for (let i = 1; i <= r; i++) c = (c * (n - r + i)) / i;
  return Math.round(c);
}

const sideSeats = (e: Entry, side: "A" | "B"): number => (e.side === side ? e.seats : 0);

/** Earliest `enqueuedAt` among a game's tickets (the first `count` of `members`; ms). */
function oldestOf(members: readonly Entry[], count = members.length): number {
  let oldest = Infinity;
  for (let i = 0; i < count; i++) if (members[i].ticket.enqueuedAt < oldest) oldest = members[i].ticket.enqueuedAt;
  return oldest;
}

/** Scratch state of the running anchor search (one search runs at a time). */
interface SearchState {
  anchor: Entry | undefined;
  /** win[0] is the anchor, win[j] the ticket at offset j (written by index: no length changes). */
  readonly win: Entry[];
  /** seatsBefore[i] = seats of win[0..i-1]. */
  readonly seatsBefore: number[];
  readonly chosen: Entry[];
  /** The search found a game so far: the best one's tickets (members[0..memberCount-1]) and figures follow. */
  found: boolean;
  readonly members: Entry[];
  memberCount: number;
  /** The game is the 2k-block from the anchor (recompute marks it `block`; nothing in `members` here). */
  inPlace: boolean;
  imbalance: number;
  priority: number;
  steps: number;
  /** Imbalance evaluations the last scored set took. */
  lastCost: number;
  stop: boolean;
}

export const bestGame: PolicyDefinition = {
  name: "best-game",
  summary:
    "Alman–McKay: tickets sorted by rating, each one's best game within a window after it, a heap of those; forms the best game (optionally time-sensitive, with a threshold that grows with waiting).",
  create(context: PolicyContext, params: PolicyParams): Policy {
    const what = "best-game policy parameters";
    const parsed = parseConfig(what, BestGameParams, params);
    const k = context.teamSize;
    const window = parsed.window ?? defaultWindow(k, context.imbalanceSpec);
    if (window < 2 * k - 1) {
      throw new MatchmakerError(
        "invalid_config",
        `${what}: window: must be at least 2 x teamSize − 1 = ${2 * k - 1} (a game of solos needs that many tickets after its lowest)`,
      );
    }
    const inf = (x: number | "inf") => (x === "inf" ? Infinity : x);
    // Criteria as an added cost term: the games are scored by the imbalance plus their dispersions.
    const scored = parsed.criteriaCost
      ? {
          ...context,
          imbalance: withCriteriaCost(context.imbalance, context.criteria ?? [], parsed.criteriaCost, what),
        }
      : context;
    return new BestGamePolicy(scored, {
      window,
      budget: inf(parsed.budget),
      threshold: inf(parsed.threshold),
      thresholdGrowthPerSecond: parsed.thresholdGrowthPerSecond,
      beta: parsed.beta,
    });
  },
};
