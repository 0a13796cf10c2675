/**
 * `best-game` (Alman and McKay, "Theoretical Foundations of Team Matchmaking", Theorem 1):
 * keep the waiting tickets sorted by rating and, for every ticket, the best game in which it is
 * the lowest-rated ticket; a min-heap of those candidates gives the best game of the pool.
 *
 * Structure (per queue):
 * - the tickets in a B+tree (sorted-btree) keyed by `[mean rating, arrival seq]` (a party's
 *   position is its mean rating; ties keep the order of arrival), O(log n) insert and delete;
 * - for each ticket, its *anchor* search: the best game made of that ticket and tickets among
 *   the next `window` positions after it, each candidate set scored by the shared assembly's
 *   exact split ({@link assembleTeams} with the queue's imbalance);
 * - a min-heap of the anchors' candidates with lazy invalidation (the shared {@link LazyHeap}):
 *   every anchor carries a version, a heap entry is stale when its anchor's version moved on or
 *   one of its tickets left, and stale entries are dropped when they reach the top (the heap is
 *   rebuilt when stale entries exceed half the live ones).
 *
 * An insert or a delete at some position changes only the searches that looked at that
 * position: the at most `window` anchors just before it (each records how far its last search
 * looked, its *reach*) and the new ticket's own anchor. So each operation costs
 * O(window · log n) for the tree walks plus at most `window + 1` anchor searches, whose size
 * depends on the window, the team size and `budget`, never on n. A query is O(1) amortized
 * (plus the stale entries it skips).
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
import { MatchmakerError } from "../core/errors.js";
import { ratingSumDifference, type ImbalanceFn, type ResolvedImbalance } from "../core/imbalance.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { ratingSum, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "../core/sorted-tree.js";
import { LazyHeap } from "./shared/lazy-heap.js";
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

/** Rating order: a party's mean rating, then the order it was added in. */
type RatingKey = RankedKey;
const compareRating = compareRanked;

/** A waiting ticket and its anchor search's state. */
interface Entry {
  readonly ticket: Ticket;
  readonly key: RatingKey;
  readonly seats: number;
  readonly mean: number;
  /** Sum of the ticket's player ratings. */
  readonly sum: number;
  /** The neighbours in rating order (the tree's order), so that windows are walked without the tree. */
  prev: Entry | undefined;
  next: Entry | undefined;
  alive: boolean;
  /** Bumped whenever this anchor's candidate is recomputed or the ticket leaves. */
  version: number;
  /** Offsets 1..reach after this anchor were looked at by its last search. */
  reach: number;
  /** The heap entry that is current for this anchor, if its window holds a game. */
  candidate: Candidate | undefined;
}

/** A heap entry: the best game found for one anchor, as of one version of that anchor. */
interface Candidate {
  readonly anchor: Entry;
  readonly version: number;
  /** The game's tickets in rating order (the anchor first). */
  readonly members: readonly Entry[];
  readonly imbalance: number;
  /** Earliest `enqueuedAt` among the game's tickets (ms). */
  readonly oldest: number;
  /** Heap key: f, or f + beta·(oldest − epoch)/1000 when beta > 0. */
  readonly priority: number;
}

/** A candidate stands while its anchor has not been searched again and all its tickets still wait. */
function isLive(c: Candidate): boolean {
  if (!c.anchor.alive || c.anchor.version !== c.version) return false;
  for (const m of c.members) if (!m.alive) return false;
  return true;
}

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
  private readonly tree: SortedTree<RatingKey, Entry> = sortedTree<RatingKey, Entry>(compareRating);
  private readonly byId = new Map<string, Entry>();
  /** Scratch list of the anchors a removal affects. */
  private readonly affected: Entry[] = [];
  /** The lowest-rated entry (the head of the rating-order list). */
  private head: Entry | undefined;
  private readonly heap = new LazyHeap<Candidate>(
    (a, b) => a.priority - b.priority || compareRating(a.anchor.key, b.anchor.key),
    isLive,
  );
  /** Anchors whose current candidate is in the heap. */
  private live = 0;
  private seq = 0;
  private epoch: number | undefined;
  /** Imbalance evaluations made by the running search (counted through {@link countingImbalance}). */
  private evaluations = 0;
  private readonly countingImbalance: ImbalanceFn;
  /**
   * With the rating-sum imbalance and at most {@link SUM_SPLIT_LIMIT} seats, sets are scored
   * from rating sums without allocating (the same splits, counted the same way).
   */
  private readonly splitter: RatingSumSplitter | undefined;
  private readonly state: SearchState = {
    anchor: undefined,
    win: [],
    seatsBefore: [],
    chosen: [],
    best: undefined,
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
    this.lowerBound = options.beta > 0 ? undefined : spreadLowerBound(context.imbalanceSpec, context.teamSize);
    this.splitter =
      context.imbalanceSpec?.kind === "rating-sum" &&
      context.imbalance === ratingSumDifference &&
      2 * context.teamSize <= SUM_SPLIT_LIMIT
        ? new RatingSumSplitter()
        : undefined;
    this.countingImbalance = (a, b) => {
      this.evaluations++;
      return this.imbalance(a, b);
    };
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.byId.size;
  }

  add(ticket: Ticket, _now?: number): void {
    this.remove(ticket.id);
    const entry = this.insert(ticket);
    // The anchors whose last search looked at the new position: their searches change.
    let anchor = entry.prev;
    for (let offset = 1; anchor && offset <= this.window; offset++, anchor = anchor.prev) {
      if (offset <= anchor.reach) this.recompute(anchor);
    }
    this.recompute(entry);
    this.compactIfStale();
  }

  /**
   * Add many tickets at once (e.g. a server restoring its queue, or a benchmark): each affected
   * anchor is searched once instead of once per ticket.
   */
  addMany(tickets: readonly Ticket[]): void {
    for (const t of tickets) this.remove(t.id);
    const added = tickets.map((t) => this.insert(t));
    if (added.length * 2 >= this.tree.size) {
      // Mostly new: search every anchor once and heapify.
      const candidates: Candidate[] = [];
      for (const [, anchor] of this.tree.entries()) {
        const c = this.recompute(anchor, false);
        if (c) candidates.push(c);
      }
      this.heap.init(candidates);
      return;
    }
    const dirty = new Set<Entry>(added);
    for (const entry of added) for (const anchor of this.anchorsBefore(entry, () => true)) dirty.add(anchor);
    for (const anchor of dirty) this.recompute(anchor);
    this.compactIfStale();
  }

  remove(ticketId: string): void {
    const entry = this.byId.get(ticketId);
    if (!entry) return;
    // The anchors whose last search looked at this position (found before it is unlinked).
    const affected = this.affected;
    affected.length = 0;
    let anchor = entry.prev;
    for (let offset = 1; anchor && offset <= this.window; offset++, anchor = anchor.prev) {
      if (offset <= anchor.reach) affected.push(anchor);
    }
    this.tree.delete(entry.key);
    this.unlink(entry);
    this.byId.delete(ticketId);
    entry.alive = false;
    entry.version++;
    if (entry.candidate) {
      entry.candidate = undefined;
      this.live--;
    }
    for (let i = 0; i < affected.length; i++) this.recompute(affected[i]);
    affected.length = 0;
    this.compactIfStale();
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (let top = this.top(); top && this.qualifiesAt(top) <= now; top = this.top()) {
      const tickets = top.members.map((m) => m.ticket);
      for (const t of tickets) this.remove(t.id);
      games.push(tickets);
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    const top = this.top();
    if (!top) return undefined;
    const at = this.qualifiesAt(top);
    if (at === Infinity) return undefined;
    return at > now ? at : now;
  }

  /** The best candidate game now (what `poll` would form first if it qualifies), without forming it. */
  peek(): BestGameCandidate | undefined {
    const top = this.top();
    return (
      top && {
        tickets: top.members.map((m) => m.ticket),
        imbalance: top.imbalance,
        priority: top.priority,
        oldestEnqueuedAt: top.oldest,
      }
    );
  }

  /** Heap entries held, live and stale (for tests and benchmarks). */
  get heapSize(): number {
    return this.heap.length;
  }

  /**
   * Time at which a candidate qualifies: f ≤ threshold + growth·(t − oldest)/1000. Both `poll`
   * and `nextWakeup` compare through this one expression, so a driver woken at the returned time
   * finds the game due.
   */
  private qualifiesAt(c: Candidate): number {
    if (c.imbalance <= this.threshold) return -Infinity;
    if (this.thresholdGrowthPerSecond <= 0) return Infinity;
    return c.oldest + (1000 * (c.imbalance - this.threshold)) / this.thresholdGrowthPerSecond;
  }

  /** The best live candidate. */
  private top(): Candidate | undefined {
    return this.heap.peek();
  }

  private insert(ticket: Ticket): Entry {
    this.epoch ??= ticket.enqueuedAt;
    const sum = ratingSum(ticket);
    const mean = sum / ticket.players.length;
    const entry: Entry = {
      ticket,
      key: [mean, this.seq++],
      seats: ticket.players.length,
      mean,
      sum,
      prev: undefined,
      next: undefined,
      alive: true,
      version: 0,
      reach: 0,
      candidate: undefined,
    };
    this.tree.set(entry.key, entry);
    this.byId.set(ticket.id, entry);
    // Link it between its neighbours in rating order.
    const lower = this.tree.nextLowerPair(entry.key)?.[1];
    const higher = lower ? lower.next : this.head;
    entry.prev = lower;
    entry.next = higher;
    if (lower) lower.next = entry;
    else this.head = entry;
    if (higher) higher.prev = entry;
    return entry;
  }

  private unlink(entry: Entry): void {
    const { prev, next } = entry;
    if (prev) prev.next = next;
    else this.head = next;
    if (next) next.prev = prev;
    entry.prev = entry.next = undefined;
  }

  /** The anchors among the `window` tickets before `entry` (nearest first) that `pick` selects, given their offset to it. */
  private anchorsBefore(entry: Entry, pick: (offset: number, anchor: Entry) => boolean): Entry[] {
    const found: Entry[] = [];
    let anchor = entry.prev;
    for (let offset = 1; anchor && offset <= this.window; offset++, anchor = anchor.prev) {
      if (pick(offset, anchor)) found.push(anchor);
    }
    return found;
  }

  /** Search the anchor's window again; its previous heap entry becomes stale. */
  private recompute(anchor: Entry, push = true): Candidate | undefined {
    const old = anchor.candidate;
    // The search builds its candidate for the next version of the anchor.
    const best = this.search(anchor);
    // The same game as before: its heap entry stays current (no new entry, nothing goes stale).
    if (old && best && sameGame(old, best)) return old;
    anchor.version++;
    if (old) {
      anchor.candidate = undefined;
      this.live--;
    }
    if (best) {
      anchor.candidate = best;
      this.live++;
      if (push) this.heap.push(best);
    }
    return best;
  }

  /** Rebuild the heap from the live candidates once stale entries exceed half of them (amortized O(window) per operation). */
  private compactIfStale(): void {
    this.heap.compact(this.live, 1024, 0.5);
  }

  /**
   * The best game whose lowest-rated ticket is `anchor`, among the tickets at offsets 1..window
   * after it, scored in order of the furthest offset used (see the module comment); sets
   * `anchor.reach` to how far the search looked.
   */
  private search(anchor: Entry): Candidate | undefined {
    const k = this.teamSize;
    const seats = 2 * k;
    const s = this.state;
    s.anchor = anchor;
    s.win.length = 0;
    s.win.push(anchor);
    s.seatsBefore.length = 0;
    s.seatsBefore.push(0, anchor.seats);
    s.chosen.length = 0;
    s.best = undefined;
    s.steps = 0;
    s.lastCost = 0;
    s.stop = false;
    this.evaluations = 0;
    anchor.reach = this.window;
    let last: Entry | undefined = anchor;
    for (let j = 1; j <= this.window; j++) {
      last = last.next;
      if (!last) break;
      const bestSoFar = s.best as Candidate | undefined; // set by score(), which TypeScript cannot see
      if (bestSoFar && this.lowerBound && this.lowerBound(anchor.mean, last.mean) >= bestSoFar.priority) {
        anchor.reach = j;
        break;
      }
      s.win.push(last);
      s.seatsBefore.push(s.seatsBefore[j] + last.seats);
      const total = anchor.seats + last.seats;
      const sizeA = sideSeats(anchor, "A") + sideSeats(last, "A");
      const sizeB = sideSeats(anchor, "B") + sideSeats(last, "B");
      if (total <= seats && sizeA <= k && sizeB <= k) this.visit(j, 1, total, sizeA, sizeB);
      if (s.stop) {
        anchor.reach = j;
        break;
      }
    }
    const best = s.best;
    s.anchor = undefined;
    s.best = undefined;
    return best;
  }

  /** Choose among win[i..j-1] the tickets that fill the game beside the anchor and win[j]. */
  private visit(j: number, i: number, total: number, sizeA: number, sizeB: number): void {
    const s = this.state;
    if (s.stop) return;
    // Search steps: generous beside the evaluations once a game is found, bounded before.
    const stepCap = this.budget === Infinity ? Infinity : (s.best ? 16 : 256) * this.budget + 64 * this.window;
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
    let oldest = Infinity;
    for (const t of tickets) if (t.enqueuedAt < oldest) oldest = t.enqueuedAt;
    const f = split.imbalance;
    const priority = this.beta > 0 ? f + (this.beta * (oldest - this.epoch!)) / 1000 : f;
    if (!s.best || priority < s.best.priority) {
      s.best = { anchor, version: anchor.version + 1, members, imbalance: f, oldest, priority };
    }
  }

  /** {@link score} for the rating-sum imbalance: the same splits, scored from sums, no arrays unless the set wins. */
  private scoreSums(last: Entry, splitter: RatingSumSplitter): void {
    const s = this.state;
    const anchor = s.anchor!;
    const chosen = s.chosen;
    splitter.reset();
    splitter.add(anchor.sum, anchor.seats, anchor.ticket.side);
    let oldest = anchor.ticket.enqueuedAt;
    for (let i = 0; i < chosen.length; i++) {
      const e = chosen[i];
      splitter.add(e.sum, e.seats, e.ticket.side);
      if (e.ticket.enqueuedAt < oldest) oldest = e.ticket.enqueuedAt;
    }
    splitter.add(last.sum, last.seats, last.ticket.side);
    if (last.ticket.enqueuedAt < oldest) oldest = last.ticket.enqueuedAt;
    const splits = splitter.solve(this.teamSize);
    if (splits === 0) return; // cannot be assembled: not scored, as canAssemble would say
    // The assembly's evaluations: one per split, and one for the split it returns.
    s.lastCost = splits + 1;
    this.evaluations += s.lastCost;
    if (this.evaluations + s.lastCost > this.budget) s.stop = true;
    const f = splitter.best;
    const priority = this.beta > 0 ? f + (this.beta * (oldest - this.epoch!)) / 1000 : f;
    if (!s.best || priority < s.best.priority) {
      s.best = {
        anchor,
        version: anchor.version + 1,
        members: membersOf(anchor, chosen, last),
        imbalance: f,
        oldest,
        priority,
      };
    }
  }
}

const ticketOf = (e: Entry): Ticket => e.ticket;

/** The anchor, the chosen tickets and the last one, as one new array (no spread). */
function membersOf(anchor: Entry, chosen: readonly Entry[], last: Entry): Entry[] {
  const members = new Array<Entry>(chosen.length + 2);
  members[0] = anchor;
  for (let i = 0; i < chosen.length; i++) members[i + 1] = chosen[i];
  members[chosen.length + 1] = last;
  return members;
}

/** True when two candidates of one anchor are the same game with the same priority. */
function sameGame(a: Candidate, b: Candidate): boolean {
  if (a.priority !== b.priority || a.imbalance !== b.imbalance || a.members.length !== b.members.length) return false;
  for (let i = 0; i < a.members.length; i++) if (a.members[i] !== b.members[i]) return false;
  return true;
}

const sideSeats = (e: Entry, side: "A" | "B"): number => (e.ticket.side === side ? e.seats : 0);

/** Scratch state of the running anchor search (one search runs at a time). */
interface SearchState {
  anchor: Entry | undefined;
  /** win[0] is the anchor, win[j] the ticket at offset j. */
  readonly win: Entry[];
  /** seatsBefore[i] = seats of win[0..i-1]. */
  readonly seatsBefore: number[];
  readonly chosen: Entry[];
  best: Candidate | undefined;
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
    return new BestGamePolicy(context, {
      window,
      budget: inf(parsed.budget),
      threshold: inf(parsed.threshold),
      thresholdGrowthPerSecond: parsed.thresholdGrowthPerSecond,
      beta: parsed.beta,
    });
  },
};
