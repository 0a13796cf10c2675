/**
 * `best-game` (Alman and McKay, "Theoretical Foundations of Team Matchmaking", Theorem 1):
 * keep the waiting tickets sorted by rating and, for every ticket, the best game in which it is
 * the lowest-rated ticket (its *anchor* search); the least of those candidates is the best game
 * of the pool. What the window and budget guarantee is in docs/policies.md ("best-game: the
 * window and what it guarantees").
 *
 * The tickets are the rows of a {@link RowTree} (rating order, a party at its mean rating, ties
 * in the order of adding): each row holds what a search reads (the ticket's rating sum, seats,
 * side and enqueue time) and its anchor's priority, and the tree keeps the least priority per
 * subtree, so the best game is one descent away. Rows in arrays, not an object per ticket: a
 * search reads its window, and a change the anchors before it, from a few cache lines.
 *
 * The anchor search scores the sets made of the anchor, the ticket at offset j and tickets
 * between them that fill exactly a game's seats and can be assembled, for j = 1, ..., window,
 * each by its exact best split (the shared assembly's, or the same splits from rating sums for
 * the rating-sum imbalance). It stops at the end of the window; where a lower bound proves no
 * set reaching further wins (Lemma 6, or the spread in 1v1 rating-sum), which keeps the result
 * exact; or once one more set like the last would overrun `budget` imbalance evaluations. Each
 * anchor records how far it looked (its *reach*), so a join or a leave searches again only the
 * anchors before it that looked at its position, and its own: a step's work depends on the
 * window, the team size and the budget, not on the pool's size (O(log n) per join and leave).
 *
 * Other shapes (src/policies/shared/game-quality.ts). A free-for-all of k has no split: a set is
 * scored by its players' rating spread (v_q with the Alman–McKay imbalance), and the spread bounds
 * every set reaching further. For the spread the best k players are consecutive in rating order,
 * so an anchor whose k tickets from it are solos scores that run and is cut at the next ticket (k
 * row reads); a join then searches about k anchors again. More than two teams are scored by the
 * shared assembly's split, which is exact and costly: only games whose split takes at most
 * {@link MAX_TEAM_SPLIT_EVALUATIONS} imbalance evaluations are served.
 *
 * Priority. With `beta` > 0 a game ranks by g = f − beta·(its longest wait, s). The longest wait
 * at time t is t − oldest, so g(t) = (f + beta·oldest) − beta·t: the order of games never changes
 * as time passes, and the rows hold f + beta·oldest (seconds since the first ticket). Ties go to
 * the lower anchor in rating order.
 *
 * When to form. The best game forms when f ≤ threshold + thresholdGrowthPerSecond·(its longest
 * wait, s). `threshold` defaults to Infinity: the best game forms as soon as one exists (see
 * docs/policies.md for what that means next to greedy).
 */
import * as v from "valibot";
import { assembleTeams, canAssemble } from "../core/assembly.js";
import { withCriteriaCost } from "../core/criteria.js";
import { MatchmakerError } from "../core/errors.js";
import { assembleGame, soloSplits } from "../core/game-assembly.js";
import { ratingSumDifference, type ImbalanceFn, type ResolvedImbalance } from "../core/imbalance.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { describeShape, EVERY_SHAPE_KIND, kindOf, seatsOf, teamSizeOf, type GameShape } from "../core/shape.js";
import { ratingSum, type Player, type Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { freeForAllQuality, freeForAllSpread, qualityLowerBound } from "./shared/game-quality.js";
import { NO_LEAF, PRIORITY, RATING, ROW_TREE_WIDTH, rowCursor, RowTree, type RowCursor } from "./shared/row-tree.js";
import { RatingSumSplitter, SUM_SPLIT_LIMIT } from "./sum-split.js";

/**
 * Most imbalance evaluations one exact split of a game of more than two teams may take (its
 * splits × its pairs of teams): each anchor search splits at least one game exactly, and a join
 * searches about a game's worth of anchors again. 3 teams of 3 take 840 (a join then reads about
 * 7,700 rows and splits), 5 teams of 2 take 9,450 (about 94,000).
 */
const MAX_TEAM_SPLIT_EVALUATIONS = 1000;

/** Largest accepted (and default) window: the tickets after an anchor that its search may look at. */
const MAX_WINDOW = 1024;
/** Default imbalance evaluations per anchor search. */
const DEFAULT_BUDGET = 128;

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

/** The default window for `shape`: {@link defaultWindow} for two teams, else twice the seats of a game. */
function defaultShapeWindow(shape: GameShape, spec: ResolvedImbalance | undefined): number {
  if (kindOf(shape) === "two-teams") return defaultWindow(teamSizeOf(shape), spec);
  return Math.min(MAX_WINDOW, 2 * seatsOf(shape));
}

/** Where a row's columns start (column c of the row at r = tree.rowAt(cursor) is at r + c·width). */
const W = ROW_TREE_WIDTH;
const RATING_AT = RATING * W;
const PRIORITY_AT = PRIORITY * W;
/** The ticket's rating sum. */
const SUM_AT = 3 * W;
/** The ticket's seats·4 + its side (0: none, 1: A, 2: B). */
const SHAPE_AT = 4 * W;
/** How far the anchor's last search looked (its reach), negated when the lower bound stopped it there. */
const REACH_AT = 5 * W;
/** The ticket's `enqueuedAt` (ms). */
const ENQUEUED_AT = 6 * W;
/** Its anchor's best game, if any: its imbalance f (the priority without beta)... */
const IMBALANCE_AT = 7 * W;
/**
 * ...and its tickets' offsets after the anchor (0 the anchor) as the bits of an integer (offset o
 * is 2^o) while all are below {@link MASK_BITS}; else, for a run of L tickets from the anchor, −L;
 * else -1 and they are on the anchor's record: a search then writes its game into the rows it
 * read, without touching a record.
 */
const GAME_AT = 8 * W;
const COLUMNS = 9;
const MASK_BITS = 53;
const BIT = Float64Array.from({ length: MASK_BITS }, (_, o) => 2 ** o);

/** The shape of a solo without a side. */
const PLAIN_SOLO = 4;
const SIDE_A = 1;
const SIDE_B = 2;
const SIDES = [undefined, "A", "B"] as const;

/** A waiting ticket: the value of its row. */
interface Waiting {
  ticket: Ticket;
  /** The leaf holding its row (kept through splits); {@link NO_LEAF} once it left. */
  leaf: number;
  /** The offsets of its anchor's game when they do not fit its row's {@link GAME_AT} column. */
  game: number[] | undefined;
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
  /** Players per game: what every scored set seats. */
  private readonly seats: number;
  private readonly shape: GameShape;
  private readonly lowerBound: ((low: number, high: number) => number) | undefined;
  private readonly tree = new RowTree<Waiting>(COLUMNS, (w, leaf) => (w.leaf = leaf));
  private readonly byId = new Map<string, Waiting>();
  /** Records of tickets that left, for the next arrivals (a record per arrival would outlive the young generation). */
  private readonly spare: Waiting[] = [];
  /** Anchors with a game. */
  private games = 0;
  /** Rows read and search steps taken by every anchor search so far (the work of joins and leaves). */
  private work = 0;
  private seq = 0;
  /** The first ticket's `enqueuedAt`: beta's priorities count from it (ms). */
  private epoch: number | undefined;
  /** Scratch cursors: the row worked on, and a walk from it. */
  private readonly at = rowCursor();
  private readonly walk = rowCursor();
  /** The anchors a change affects (leaf and index of each, walking back). */
  private readonly affectedLeaf: number[] = [];
  private readonly affectedIndex: number[] = [];
  /** With the rating-sum imbalance, sets are scored from rating sums (the same splits, counted the same way). */
  private readonly splitter: RatingSumSplitter | undefined;
  /**
   * The splitter, when every search whose 2k tickets from the anchor are plain solos scores just
   * that block: no lower bound, and a budget that a second such set would overrun (5v5 by default).
   */
  private readonly blockOnly: RatingSumSplitter | undefined;
  /** 2v2 with the splitter and no lower bound, where the search's step cap cannot bind (it visits at most 2^(window+1) nodes). */
  private readonly quads: boolean;
  /** A free-for-all ranked by spread alone, with the spread bound: runs of solos are scored without enumeration. */
  private readonly spreadRuns: boolean;
  /** Imbalance evaluations made by the running search (counted through {@link countingImbalance}). */
  private evaluations = 0;
  private readonly countingImbalance: ImbalanceFn;
  private readonly search: Search;

  constructor(context: PolicyContext, options: BestGameOptions) {
    this.teamSize = context.teamSize;
    this.seats = context.seats;
    this.shape = context.shape;
    this.window = options.window;
    this.budget = options.budget;
    this.threshold = options.threshold;
    this.thresholdGrowthPerSecond = options.thresholdGrowthPerSecond;
    this.beta = options.beta;
    this.lowerBound = options.beta > 0 ? undefined : qualityLowerBound(context.shape, context.imbalanceSpec);
    const imbalance = context.imbalance;
    this.splitter =
      kindOf(context.shape) === "two-teams" && imbalance === ratingSumDifference && context.seats <= SUM_SPLIT_LIMIT
        ? new RatingSumSplitter()
        : undefined;
    const blockCost = binomial(2 * this.teamSize - 1, this.teamSize - 1) + 1;
    this.blockOnly = this.splitter && !this.lowerBound && 2 * blockCost > this.budget ? this.splitter : undefined;
    this.spreadRuns = imbalance === freeForAllSpread && this.lowerBound !== undefined;
    this.quads =
      this.splitter !== undefined &&
      this.teamSize === 2 &&
      !this.lowerBound &&
      2 ** (this.window + 1) <= 16 * this.budget + 64 * this.window;
    this.countingImbalance = (a, b) => {
      this.evaluations++;
      return imbalance(a, b);
    };
    this.search = newSearch(options.window, context.seats);
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.tree.size;
  }

  /** Anchors with a game: the candidates the best game is the least of (for tests and benchmarks). */
  get candidates(): number {
    return this.games;
  }

  /** Rows read and search steps taken by the anchor searches so far: what a join or leave costs (for tests and benchmarks). */
  get searchWork(): number {
    return this.work;
  }

  add(ticket: Ticket, _now?: number): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.epoch ??= ticket.enqueuedAt;
    const waiting = this.spare.pop() ?? { ticket, leaf: NO_LEAF, game: undefined };
    waiting.ticket = ticket;
    this.byId.set(ticket.id, waiting);
    const sum = ratingSum(ticket);
    // In a free-for-all the position is kept within the party's ratings (a mean may round past
    // them), so that the spread bound, exact there, never exceeds a set's spread.
    const rating = this.shape.kind === "free-for-all" ? meanWithin(ticket, sum) : sum / ticket.players.length;
    const at = this.at;
    const tree = this.tree;
    tree.insert(rating, this.seq++, waiting, at);
    waiting.leaf = at.leaf;
    const r = tree.rowAt(at);
    const rows = tree.rows;
    rows[r + SUM_AT] = sum;
    rows[r + SHAPE_AT] = 4 * ticket.players.length + (ticket.side === "A" ? SIDE_A : ticket.side === "B" ? SIDE_B : 0);
    rows[r + ENQUEUED_AT] = ticket.enqueuedAt;
    // The anchors whose last search looked at the new position, and the newcomer's own.
    const count = this.collectBefore(at.leaf, at.index, rating, false);
    this.searchAnchor(at.leaf, at.index);
    this.searchAffected(count, at.leaf);
  }

  remove(ticketId: string): void {
    const waiting = this.byId.get(ticketId);
    const at = this.at;
    const tree = this.tree;
    if (!waiting || !tree.findValueIn(waiting.leaf, waiting, at)) return;
    this.byId.delete(ticketId);
    const r = tree.rowAt(at);
    const rows = tree.rows;
    if (rows[r + PRIORITY_AT] !== Infinity) this.games--;
    // The anchors whose last search looked at this position (found before it is taken out).
    const count = this.collectBefore(at.leaf, at.index, rows[r + RATING_AT], true);
    tree.remove(at);
    waiting.leaf = NO_LEAF;
    waiting.game = undefined;
    this.spare.push(waiting);
    this.searchAffected(count, NO_LEAF);
  }

  poll(now: number): Ticket[][] {
    // Without beta or growth a game above the threshold never qualifies: nothing to look up.
    if (this.beta <= 0 && this.thresholdGrowthPerSecond <= 0 && !(this.tree.leastPriority() <= this.threshold)) {
      return [];
    }
    const games: Ticket[][] = [];
    while (this.tree.least(this.at) && this.qualifiesAt(this.at) <= now) {
      const tickets = this.gameAt(this.at);
      for (const t of tickets) this.remove(t.id);
      games.push(tickets);
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    const at = this.tree.least(this.at) ? this.qualifiesAt(this.at) : Infinity;
    return at === Infinity ? undefined : Math.max(at, now);
  }

  /** The best candidate game now (what `poll` would form first if it qualifies), without forming it. */
  peek(): BestGameCandidate | undefined {
    if (!this.tree.least(this.at)) return undefined;
    const tickets = this.gameAt(this.at);
    return {
      tickets,
      imbalance: this.tree.rows[this.tree.rowAt(this.at) + IMBALANCE_AT],
      priority: this.tree.rows[this.tree.rowAt(this.at) + PRIORITY_AT],
      oldestEnqueuedAt: oldestOf(tickets),
    };
  }

  /** The tickets of the game of the anchor at `at` (it has one), in rating order. */
  private gameAt(at: RowCursor): Ticket[] {
    const walk = this.walk;
    walk.leaf = at.leaf;
    walk.index = at.index;
    const tickets: Ticket[] = [];
    let mask = this.tree.rows[this.tree.rowAt(at) + GAME_AT];
    if (mask < -1) {
      // A run of -mask tickets from the anchor.
      for (let o = 0; o < -mask; o++, this.tree.next(walk)) tickets.push(this.tree.valueAt(walk).ticket);
      return tickets;
    }
    const offsets = mask < 0 ? this.tree.valueAt(at).game! : [];
    for (let o = 0; mask > 0; o++, mask = Math.floor(mask / 2)) if (mask % 2 === 1) offsets.push(o);
    let offset = 0;
    for (const o of offsets) {
      for (; offset < o; offset++) this.tree.next(walk);
      tickets.push(this.tree.valueAt(walk).ticket);
    }
    return tickets;
  }

  /**
   * Time at which an anchor's game qualifies: f ≤ threshold + growth·(t − oldest)/1000. Both
   * `poll` and `nextWakeup` compare through this one expression, so a driver woken at the
   * returned time finds the game due.
   */
  private qualifiesAt(at: RowCursor): number {
    const f = this.tree.rows[this.tree.rowAt(at) + IMBALANCE_AT];
    if (f <= this.threshold) return -Infinity;
    if (this.thresholdGrowthPerSecond <= 0) return Infinity;
    return oldestOf(this.gameAt(at)) + (1000 * (f - this.threshold)) / this.thresholdGrowthPerSecond;
  }

  /**
   * Record the anchors before the row at (leaf, index) (just inserted, or about to leave) whose
   * last search looked at its position (offset ≤ reach, at most the window); returns how many.
   *
   * One exception, where searching again is known to give the same game and reach: the anchor's
   * last search stopped by the lower bound at offset `reach` (a cut), and the change is at that
   * very offset. Offsets 1..reach−1 hold the same tickets, so a new search scores the same sets
   * and arrives at offset `reach` with the same best game. A leaver is replaced there by the next
   * ticket, rated at least as high, where the bound (non-decreasing in the higher rating) cuts
   * again, or by the end of the pool, which ends the search at the same offset. A newcomer cuts
   * there when the bound at its rating reaches the best game's priority (the imbalance: the bound
   * exists only with beta = 0), which is checked.
   */
  private collectBefore(leaf: number, index: number, rating: number, leaving: boolean): number {
    const tree = this.tree;
    const rows = tree.rows;
    let count = 0;
    let l = leaf;
    let i = index;
    for (let offset = 1; offset <= this.window; offset++) {
      if (--i < 0) {
        l = tree.previousLeaf(l);
        if (l === NO_LEAF) break;
        i = tree.sizeOf(l) - 1;
      }
      const r = l * tree.stride + i;
      const reach = rows[r + REACH_AT];
      if (offset > Math.abs(reach)) continue;
      if (offset === -reach) {
        if (leaving || this.lowerBound!(rows[r + RATING_AT], rating) >= rows[r + PRIORITY_AT]) continue;
      }
      this.affectedLeaf[count] = l;
      this.affectedIndex[count++] = i;
    }
    return count;
  }

  /** Search the `count` recorded anchors again and refresh their leaves (and `also`, unless {@link NO_LEAF}). */
  private searchAffected(count: number, also: number): void {
    for (let a = 0; a < count; a++) this.searchAnchor(this.affectedLeaf[a], this.affectedIndex[a]);
    // The anchors were recorded walking back, so each leaf's come together.
    let last = also;
    if (also !== NO_LEAF) this.tree.refresh(also);
    for (let a = 0; a < count; a++) {
      const leaf = this.affectedLeaf[a];
      if (leaf !== last) this.tree.refresh(leaf);
      last = leaf;
    }
  }

  /**
   * Search the anchor at (leaf, index): its best game among the tickets at offsets 1..window after
   * it; its priority, reach and game are written to its row and its value (the caller refreshes
   * the leaf).
   */
  private searchAnchor(leaf: number, index: number): void {
    const s = this.search;
    const signedReach =
      this.searchBlock(leaf, index) ??
      this.searchQuads(leaf, index) ??
      this.searchSpreadRun(leaf, index) ??
      this.searchWindow(leaf, index);
    const rows = this.tree.rows;
    const r = leaf * this.tree.stride + index;
    rows[r + REACH_AT] = signedReach;
    if ((rows[r + PRIORITY_AT] !== Infinity) !== s.found) this.games += s.found ? 1 : -1;
    rows[r + PRIORITY_AT] = s.found ? s.priority : Infinity;
    if (!s.found) return;
    rows[r + IMBALANCE_AT] = s.imbalance;
    let mask = 0;
    for (let m = 0; m < s.bestCount && mask >= 0; m++) mask = s.best[m] < MASK_BITS ? mask + BIT[s.best[m]] : -1;
    // A run from the anchor too long for the bits (a large free-for-all): its length, negated.
    if (mask < 0 && s.best[s.bestCount - 1] === s.bestCount - 1) mask = -s.bestCount;
    rows[r + GAME_AT] = mask;
    if (mask === -1) this.tree.values[leaf * W + index]!.game = Array.from(s.best.subarray(0, s.bestCount));
  }

  /**
   * The anchor search: the sets scored in order of the furthest offset used (see the module
   * comment), the best left in {@link search}. Returns the reach, negated when the bound cut it.
   */
  private searchWindow(leaf: number, index: number): number {
    const k = this.teamSize;
    const s = this.search;
    this.startAt(leaf, index);
    // A party that fills a free-for-all by itself: its only game, whatever comes after it.
    if (s.seats[0] === this.seats) return this.scoreAlone();
    const anchorA = sideSeats(s, 0, SIDE_A);
    const anchorB = sideSeats(s, 0, SIDE_B);
    for (let j = 1; j <= this.window; j++) {
      // The pool ends here: a ticket added at this offset (or before) changes the search.
      if (!this.readNext(j)) return j;
      if (s.found && this.lowerBound && this.lowerBound(s.rating[0], s.rating[j]) >= s.priority) return -j;
      const seats = s.seats[0] + s.seats[j];
      const sizeA = anchorA + sideSeats(s, j, SIDE_A);
      const sizeB = anchorB + sideSeats(s, j, SIDE_B);
      if (seats <= this.seats && sizeA <= k && sizeB <= k) this.visit(j, 1, seats, sizeA, sizeB);
      if (s.stop) return j;
    }
    return this.window;
  }

  /**
   * {@link searchWindow} where it scores one set, the 2k tickets from the anchor, and stops there
   * (see {@link blockOnly}), when those are plain solos: the same splits from the same sums, without
   * the enumeration (5v5 then runs at 1.7 times the general search's steps per second). Undefined
   * (nothing decided) otherwise.
   */
  private searchBlock(leaf: number, index: number): number | undefined {
    const splitter = this.blockOnly;
    if (!splitter) return undefined;
    const s = this.search;
    const n = 2 * this.teamSize;
    const tree = this.tree;
    const rows = tree.rows;
    let oldest = Infinity;
    for (let j = 0, l = leaf, i = index; j < n; j++, i++) {
      if (i >= tree.sizeOf(l)) {
        l = tree.nextLeaf(l);
        if (l === NO_LEAF) return undefined;
        i = 0;
      }
      const r = l * tree.stride + i;
      if (rows[r + SHAPE_AT] !== PLAIN_SOLO) return undefined;
      s.sum[j] = rows[r + SUM_AT];
      this.work++;
      oldest = Math.min(oldest, rows[r + ENQUEUED_AT]);
    }
    splitter.solveSortedSolos(s.sum, 0, n, this.teamSize);
    s.found = true;
    s.imbalance = splitter.best;
    s.priority = this.priorityOf(splitter.best, oldest);
    for (let m = 0; m < n; m++) s.best[m] = m;
    s.bestCount = n;
    return n - 1;
  }

  /**
   * {@link searchWindow} for 2v2 over plain solos (see {@link quads}): the anchor, a < b between it
   * and offset j, and j, in the same order, each split three ways as the splitter splits them,
   * with the same budget stop (2v2 then runs at 7 to 10 times the general search's steps per
   * second). Undefined (nothing decided) at the first ticket that is not a plain solo.
   */
  private searchQuads(leaf: number, index: number): number | undefined {
    if (!this.quads) return undefined;
    const s = this.search;
    this.startAt(leaf, index);
    if (!isPlainSolo(s, 0)) return undefined;
    const sum = s.sum;
    const x0 = sum[0];
    let evaluations = 0;
    for (let j = 1; j <= this.window; j++) {
      if (!this.readNext(j)) return j;
      if (!isPlainSolo(s, j)) return undefined;
      const xj = sum[j];
      for (let a = 1; a < j - 1; a++) {
        const x0a = x0 + sum[a];
        for (let b = a + 1; b < j; b++) {
          // As the splitter adds them: the total in the order of adding, each split as 2·(A's sum) − total.
          const total = x0a + sum[b] + xj;
          const f = Math.min(
            Math.abs(2 * x0a - total),
            Math.abs(2 * (x0 + sum[b]) - total),
            Math.abs(2 * (x0 + xj) - total),
          );
          evaluations += 4;
          this.work++;
          if (this.beta > 0 || !s.found || f < s.priority) {
            s.chosen[0] = a;
            s.chosen[1] = b;
            s.chosenCount = 2;
            this.keep(j, f);
          }
          if (evaluations + 4 > this.budget) return j;
        }
      }
    }
    return this.window;
  }

  /**
   * {@link searchWindow} for a free-for-all of k ranked by spread alone (see {@link spreadRuns}),
   * when the k tickets from the anchor are solos: every set ending at offset k − 1 is those k, and
   * every set reaching further has a spread at least as large, so the search scores that one and
   * is cut at the next ticket, as the general search is, in k row reads instead of an enumeration.
   * Undefined (nothing decided) at the first party.
   */
  private searchSpreadRun(leaf: number, index: number): number | undefined {
    if (!this.spreadRuns) return undefined;
    const s = this.search;
    const n = this.seats;
    this.startAt(leaf, index);
    if (s.seats[0] !== 1) return undefined;
    for (let j = 1; j < n; j++) {
      if (!this.readNext(j)) return j;
      if (s.seats[j] !== 1) return undefined;
    }
    s.chosenCount = 0;
    for (let j = 1; j < n - 1; j++) s.chosen[s.chosenCount++] = j;
    this.keep(n - 1, s.rating[n - 1] - s.rating[0]);
    if (n > this.window) return this.window;
    return this.readNext(n) ? -n : n;
  }

  /** Start a search at the anchor at (leaf, index): offset 0 read, nothing found. */
  private startAt(leaf: number, index: number): void {
    const s = this.search;
    s.leaf[0] = leaf;
    s.index[0] = index;
    this.read(0);
    s.seatsBefore[0] = 0;
    s.seatsBefore[1] = s.seats[0];
    s.found = false;
    s.steps = 0;
    s.stop = false;
    s.chosenCount = 0;
    this.evaluations = 0;
  }

  /** Read the ticket after offset j − 1 into offset j; false at the end of the pool. */
  private readNext(j: number): boolean {
    const s = this.search;
    const tree = this.tree;
    let leaf = s.leaf[j - 1];
    let index = s.index[j - 1] + 1;
    if (index >= tree.sizeOf(leaf)) {
      leaf = tree.nextLeaf(leaf);
      if (leaf === NO_LEAF) return false;
      index = 0;
    }
    s.leaf[j] = leaf;
    s.index[j] = index;
    this.read(j);
    s.seatsBefore[j + 1] = s.seatsBefore[j] + s.seats[j];
    return true;
  }

  /** Copy the row at offset j's leaf and index into the search's window. */
  private read(j: number): void {
    const s = this.search;
    const rows = this.tree.rows;
    const r = s.leaf[j] * this.tree.stride + s.index[j];
    this.work++;
    const shape = rows[r + SHAPE_AT];
    s.rating[j] = rows[r + RATING_AT];
    s.sum[j] = rows[r + SUM_AT];
    s.seats[j] = shape >> 2;
    s.side[j] = shape & 3;
    s.enqueued[j] = rows[r + ENQUEUED_AT];
  }

  /** The waiting ticket at offset j of the running search. */
  private valueAt(j: number): Waiting {
    return this.tree.values[this.search.leaf[j] * W + this.search.index[j]]!;
  }

  /**
   * Choose among offsets i..j-1 the tickets that fill the game beside the anchor and offset j
   * (`seats` so far, `sizeA` and `sizeB` of them bound to a side), skipping what cannot fill it.
   */
  private visit(j: number, i: number, seats: number, sizeA: number, sizeB: number): void {
    const s = this.search;
    if (s.stop) return;
    const k = this.teamSize;
    // Search steps: generous beside the evaluations once a game is found, bounded before.
    const stepCap = this.budget === Infinity ? Infinity : (s.found ? 16 : 256) * this.budget + 64 * this.window;
    this.work++;
    if (++s.steps > stepCap) {
      s.stop = true;
      return;
    }
    if (seats === this.seats) return this.score(j);
    if (i >= j || seats + (s.seatsBefore[j] - s.seatsBefore[i]) < this.seats) return;
    const a = sizeA + sideSeats(s, i, SIDE_A);
    const b = sizeB + sideSeats(s, i, SIDE_B);
    if (seats + s.seats[i] <= this.seats && a <= k && b <= k) {
      s.chosen[s.chosenCount++] = i;
      this.visit(j, i + 1, seats + s.seats[i], a, b);
      s.chosenCount--;
    }
    this.visit(j, i + 1, seats, sizeA, sizeB);
  }

  /** {@link searchWindow} for an anchor that fills the game alone: that game, and a reach of 0 (nothing after it counts). */
  private scoreAlone(): number {
    const s = this.search;
    const f = this.scoreTickets([this.valueAt(0).ticket]);
    if (f === undefined) return 0;
    s.found = true;
    s.imbalance = f;
    s.priority = this.priorityOf(f, s.enqueued[0]);
    s.best[0] = 0;
    s.bestCount = 1;
    return 0;
  }

  /** Score one set that fills the game (the anchor, the chosen offsets, offset j): its exact best split, or a free-for-all's spread. */
  private score(j: number): void {
    const s = this.search;
    const before = this.evaluations;
    let f: number | undefined;
    if (this.splitter) {
      const splitter = this.splitter;
      splitter.reset();
      splitter.add(s.sum[0], s.seats[0], SIDES[s.side[0]]);
      for (let c = 0; c < s.chosenCount; c++) {
        const o = s.chosen[c];
        splitter.add(s.sum[o], s.seats[o], SIDES[s.side[o]]);
      }
      splitter.add(s.sum[j], s.seats[j], SIDES[s.side[j]]);
      const splits = splitter.solve(this.teamSize);
      if (splits === 0) return; // cannot be assembled: not scored, as canAssemble would say
      // The assembly's evaluations: one per split, and one for the split it returns.
      this.evaluations += splits + 1;
      f = splitter.best;
    } else {
      const tickets = [this.valueAt(0).ticket];
      for (let c = 0; c < s.chosenCount; c++) tickets.push(this.valueAt(s.chosen[c]).ticket);
      tickets.push(this.valueAt(j).ticket);
      f = this.scoreTickets(tickets);
      if (f === undefined) return;
    }
    // The first game is always scored; another only while the budget allows one more like this
    // one. Stopping here (not at the next set) makes the result depend on offsets up to this
    // set's only, so the anchor's reach is this offset.
    this.work += this.evaluations - before;
    if (2 * this.evaluations - before > this.budget) s.stop = true;
    if (f !== undefined) this.keep(j, f);
  }

  /**
   * The quality of a set that fills the game, or undefined when it cannot be assembled: two teams
   * by their exact best split; a free-for-all (any parties that add up) by its players alone;
   * more teams by the shared assembly's split.
   */
  private scoreTickets(tickets: readonly Ticket[]): number | undefined {
    if (this.shape.kind === "free-for-all") {
      const players: Player[] = [];
      for (const t of tickets) for (const p of t.players) players.push(p);
      return this.countingImbalance(players, NO_PLAYERS);
    }
    if (this.shape.teams !== 2) return assembleGame(tickets, this.shape, this.countingImbalance)?.imbalance;
    if (!canAssemble(tickets, this.teamSize)) return undefined;
    return assembleTeams(tickets, this.teamSize, this.countingImbalance)?.imbalance;
  }

  /** The priority of a game of imbalance f whose oldest ticket was enqueued at `oldest` (ms). */
  private priorityOf(f: number, oldest: number): number {
    return this.beta > 0 ? f + (this.beta * (oldest - this.epoch!)) / 1000 : f;
  }

  /** Keep the scored set (the anchor, the chosen offsets, offset j) if it beats the anchor's best so far. */
  private keep(j: number, f: number): void {
    const s = this.search;
    let priority = f;
    if (this.beta > 0) {
      let oldest = Math.min(s.enqueued[0], s.enqueued[j]);
      for (let c = 0; c < s.chosenCount; c++) oldest = Math.min(oldest, s.enqueued[s.chosen[c]]);
      priority = this.priorityOf(f, oldest);
    }
    if (s.found && !(priority < s.priority)) return;
    s.found = true;
    s.priority = priority;
    s.imbalance = f;
    s.best[0] = 0;
    for (let c = 0; c < s.chosenCount; c++) s.best[c + 1] = s.chosen[c];
    s.best[s.chosenCount + 1] = j;
    s.bestCount = s.chosenCount + 2;
  }
}

/** Scratch state of the running anchor search: its window by offset (0: the anchor), its chosen and best sets. */
interface Search {
  readonly leaf: Int32Array;
  readonly index: Int32Array;
  readonly rating: Float64Array;
  readonly sum: Float64Array;
  readonly seats: Int32Array;
  readonly side: Int32Array;
  readonly enqueued: Float64Array;
  /** seatsBefore[i] = seats at offsets 0..i-1. */
  readonly seatsBefore: Int32Array;
  /** The offsets chosen so far between the anchor and the last ticket. */
  readonly chosen: Int32Array;
  chosenCount: number;
  /** A game was found: the best one's offsets are best[0..bestCount-1]. */
  found: boolean;
  readonly best: Int32Array;
  bestCount: number;
  imbalance: number;
  priority: number;
  steps: number;
  stop: boolean;
}

function newSearch(window: number, seats: number): Search {
  return {
    leaf: new Int32Array(window + 1),
    index: new Int32Array(window + 1),
    rating: new Float64Array(window + 1),
    sum: new Float64Array(window + 1),
    seats: new Int32Array(window + 1),
    side: new Int32Array(window + 1),
    enqueued: new Float64Array(window + 1),
    seatsBefore: new Int32Array(window + 2),
    chosen: new Int32Array(seats),
    chosenCount: 0,
    found: false,
    best: new Int32Array(seats),
    bestCount: 0,
    imbalance: 0,
    priority: 0,
    steps: 0,
    stop: false,
  };
}

const NO_PLAYERS: readonly Player[] = [];

const isPlainSolo = (s: Search, j: number): boolean => s.seats[j] === 1 && s.side[j] === 0;

const sideSeats = (s: Search, j: number, side: number): number => (s.side[j] === side ? s.seats[j] : 0);

/** n choose r. */
function binomial(n: number, r: number): number {
  let c = 1;
  for (let i = 1; i <= r; i++) c = (c * (n - r + i)) / i;
  return Math.round(c);
}

/** A party's mean rating (its rating sum `sum`), clamped to its lowest and highest rating. */
function meanWithin(ticket: Ticket, sum: number): number {
  let low = Infinity;
  let high = -Infinity;
  for (const p of ticket.players) {
    if (p.rating < low) low = p.rating;
    if (p.rating > high) high = p.rating;
  }
  return Math.min(high, Math.max(low, sum / ticket.players.length));
}

/** Earliest `enqueuedAt` among a game's tickets (ms). */
function oldestOf(tickets: readonly Ticket[]): number {
  let oldest = Infinity;
  for (const t of tickets) if (t.enqueuedAt < oldest) oldest = t.enqueuedAt;
  return oldest;
}

/**
 * Refuses a game of more than two teams whose exact split costs more than
 * {@link MAX_TEAM_SPLIT_EVALUATIONS}, naming the shape and the cost.
 */
function checkTeamsCost(shape: GameShape): void {
  if (shape.kind !== "teams" || shape.teams === 2) return;
  const pairs = (shape.teams * (shape.teams - 1)) / 2;
  const splits = soloSplits(shape.teams, shape.teamSize);
  const cost = splits * pairs;
  if (cost <= MAX_TEAM_SPLIT_EVALUATIONS) return;
  throw new MatchmakerError(
    "invalid_config",
    `best-game policy: does not form games of ${describeShape(shape)}: it scores every game it considers by its exact split, ` +
      `here ${splits.toLocaleString("en")} splits × ${pairs} pairs of teams = ${cost.toLocaleString("en")} imbalance evaluations, ` +
      `more than the ${MAX_TEAM_SPLIT_EVALUATIONS.toLocaleString("en")} it allows (every team of one, 3 teams of 2 or 3, 4 teams of 2 are served); use greedy`,
    "policy",
  );
}

export const bestGame: PolicyDefinition = {
  name: "best-game",
  shapes: EVERY_SHAPE_KIND,
  summary:
    "Alman–McKay: tickets sorted by rating, each one's best game within a window after it, a heap of those; forms the best game (optionally time-sensitive, with a threshold that grows with waiting). Any shape: a free-for-all ranks by rating spread (v_q with alman-mckay).",
  create(context: PolicyContext, params: PolicyParams): Policy {
    const what = "best-game policy parameters";
    const parsed = parseConfig(what, BestGameParams, params);
    checkTeamsCost(context.shape);
    const window = parsed.window ?? defaultShapeWindow(context.shape, context.imbalanceSpec);
    if (window < context.seats - 1) {
      throw new MatchmakerError(
        "invalid_config",
        `${what}: window: must be at least ${context.seats - 1} (a game of ${describeShape(context.shape)} in solos needs that many tickets after its lowest)`,
        "window",
      );
    }
    const inf = (x: number | "inf") => (x === "inf" ? Infinity : x);
    // A free-for-all has no split to score: its players' spread (or v_q) is the measure.
    const measure =
      context.shape.kind === "free-for-all" ? freeForAllQuality(context.imbalanceSpec) : context.imbalance;
    // Criteria as an added cost term: the games are scored by the imbalance plus their dispersions.
    const imbalance = parsed.criteriaCost
      ? withCriteriaCost(measure, context.criteria ?? [], parsed.criteriaCost, what)
      : measure;
    return new BestGamePolicy(imbalance === context.imbalance ? context : { ...context, imbalance }, {
      window,
      budget: inf(parsed.budget),
      threshold: inf(parsed.threshold),
      thresholdGrowthPerSecond: parsed.thresholdGrowthPerSecond,
      beta: parsed.beta,
    });
  },
};
