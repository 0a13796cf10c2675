/**
 * The sweep-and-prune engine behind the window policies (`expanding-window`, `brackets`), after
 * hplus0603 in the forum thread: each ticket accepts the tickets within its window (a distance
 * and a width the subclass defines); a game forms only when every ticket in it accepts every
 * other (mutual acceptance), and among acceptable games the closest one (smallest rating
 * spread, then the longest waiting) forms first, not the first one found.
 *
 * Event driven, over the rating axis:
 * - the tickets sit in rating order (in the leaves of a B+tree, {@link RowTree}, whose rows hold
 *   the ratings: a scan reads its neighbours' ratings without touching them); a ticket's *scan*
 *   walks outward from it in order of rating distance, through its own window only, and keeps
 *   the closest game containing it whose tickets all accept each other (a candidate in a
 *   min-heap by spread, lazily invalidated);
 * - a ticket inside the scanner's window that does not yet accept the scanner is woken at the
 *   moment it will (its own window reaching the scanner); the scanner itself is woken when its
 *   window reaches the nearest ticket outside it that could still make a closer game;
 * - a ticket rescans when it joins, when it is woken, and when a member of its candidate
 *   leaves; a subclass whose distances change (a new percentile distribution, brackets that
 *   split or merge) rescans everyone. Nothing else is looked at: the work per event is the
 *   tickets between the scanner and its closest acceptable game, and `nextWakeup` is exactly
 *   the next time a pair becomes mutually acceptable, so games form at that moment.
 *
 * Why the heap's minimum is the closest acceptable game: every mutually acceptable pair was,
 * at the last scan of its later-scanned member, either found (then that member's candidate is
 * at most as wide) or not yet acceptable, in which case a wake-up was scheduled for the moment
 * it becomes so (windows only widen between rescans of everyone).
 *
 * Criteria beside the rating (a subclass's {@link SweepMatcher.criteria}, the forum thread's
 * "volume in a multi-dimensional parameter space"): a ticket accepts another only when it also
 * lies within its window on every criterion, so a pair becomes mutually acceptable at the latest
 * of the times its rating and its criteria allow; the sweep still walks the rating axis (a ticket
 * outside the rating window is outside the box) and the closest game is still the one with the
 * smallest rating spread.
 *
 * Recent-opponent avoidance (`PolicyContext.avoid`): a game with a recent rematch is acceptable
 * only once its tickets waited the fallback, and then ranks after every game without one.
 *
 * A game of more than two players (teams, or a free-for-all of k) is a game's seats in tickets
 * that pairwise accept each other and can be assembled for the queue's shape; the scan searches
 * subsets of the acceptable tickets nearest the scanner, up to `budget` search steps per scan
 * (so the closest game is exact while within budget), never following a branch whose remaining
 * tickets cannot fill the game.
 */
import { canAssembleGame } from "../../core/game-assembly.js";
import type { GameShape } from "../../core/shape.js";
import type { AcceptanceWindow, Policy, PolicyContext } from "../../core/policy.js";
import { repeatAllowedAt, type RepeatAvoidance } from "../../core/recent-opponents.js";
import { meanRating, type Ticket } from "../../core/types.js";
import type { CriteriaBox } from "./criteria-box.js";
import { LazyHeap } from "./lazy-heap.js";
import { NO_LEAF, rowCursor, RowTree, type RowCursor } from "./row-tree.js";

/** Default search steps per scan for games of more than two players. */
export const DEFAULT_WINDOW_BUDGET = 512;

/**
 * A waiting ticket's record. Records are reused (a dropped one serves the next arrival: at
 * 100,000 waiting a fresh record per ticket, kept alive as long as the ticket, is a promotion
 * and a mark for the collector), so whatever may outlive a drop identifies its record by
 * `version`, which only grows, and keeps its own copy of what it is ordered by.
 */
interface Entry {
  ticket: Ticket;
  /** Position in rating order: the party's mean rating, then `seq` (the order it was added in). */
  rating: number;
  seq: number;
  /** The leaf holding its row (kept through splits), so a leave or a rescan needs no descent; {@link NO_LEAF} once dropped. */
  leaf: number;
  /** Bumped at each scan and at the drop: older candidates of this anchor and older wake-ups are stale. */
  version: number;
  candidate: Candidate | undefined;
  /** Earliest pending wake-up (a heap entry of an older version is stale). */
  wakeAt: number;
  /** Anchors whose candidate may include this entry (pruned lazily). */
  dependents: Set<Entry> | undefined;
}

/** Still waiting (its row is in the tree). */
const isHeld = (e: Entry): boolean => e.leaf !== NO_LEAF;

interface Candidate {
  readonly anchor: Entry;
  /** The anchor's key when found (the heap's tie-break; the record may serve another ticket since). */
  readonly anchorRating: number;
  readonly anchorSeq: number;
  readonly version: number;
  readonly members: readonly Entry[];
  readonly spread: number;
  readonly oldest: number;
  /** Some two of its tickets met recently (allowed only after the fallback wait; formed last). */
  readonly repeat: boolean;
}

interface Wake {
  readonly entry: Entry;
  readonly version: number;
  readonly at: number;
}

/** Rating order: a party's mean rating, then the order it was added in. */
const compareEntries = (a: Entry, b: Entry): number => a.rating - b.rating || a.seq - b.seq;

const compareCandidates = (a: Candidate, b: Candidate): number =>
  Number(a.repeat) - Number(b.repeat) ||
  a.spread - b.spread ||
  a.oldest - b.oldest ||
  a.anchorRating - b.anchorRating ||
  a.anchorSeq - b.anchorSeq;

/** A candidate stands while its anchor has not rescanned and all its tickets still wait. */
const isLiveCandidate = (c: Candidate): boolean =>
  c.version === c.anchor.version && isHeld(c.anchor) && c.members.every(isHeld);

const NO_ENTRIES: readonly Entry[] = [];

/** The ticket of a record not in use. */
const GONE: Ticket = { id: "", players: [], enqueuedAt: 0 };

/** A wake-up stands while it is its ticket's latest. */
const isLiveWake = (w: Wake): boolean => w.version === w.entry.version && isHeld(w.entry);

export abstract class SweepMatcher implements Policy {
  abstract readonly name: string;
  private readonly shape: GameShape;
  /** Players per game. */
  private readonly seats: number;
  private readonly budget: number;
  private readonly avoid: RepeatAvoidance | undefined;
  /** The entries in rating order (rows of (rating, seq) alone: no priorities). */
  private readonly order = new RowTree<Entry>(2, (entry, leaf) => (entry.leaf = leaf));
  /** Cursors of the running scan (its own position, then outward) and of other walks. */
  private readonly up = rowCursor();
  private readonly down = rowCursor();
  private readonly at = rowCursor();
  /** The waiting tickets' entries, by ticket id. */
  private readonly byId = new Map<string, Entry>();
  /** Dropped records, for the next arrivals. */
  private readonly freeEntries: Entry[] = [];
  private count = 0;
  private readonly acceptableScratch: Entry[] = [];
  /** Ratings of the nearest tickets beyond the scanner's window. */
  private readonly outsideScratch: number[] = [];
  private readonly candidates = new LazyHeap<Candidate>(compareCandidates, isLiveCandidate);
  private readonly wakes = new LazyHeap<Wake>((a, b) => a.at - b.at, isLiveWake);
  private seq = 0;
  /** The latest time the policy was told (removals carry no time). */
  protected lastNow = -Infinity;
  /** Search steps left in the running team search. */
  private steps = 0;
  /** With criteria beside the rating: each ticket's window on them (the box); set by a subclass. */
  protected criteria: CriteriaBox | undefined;

  constructor(context: PolicyContext, budget = DEFAULT_WINDOW_BUDGET) {
    this.shape = context.shape;
    this.seats = context.seats;
    this.budget = budget;
    this.avoid = context.avoid;
  }

  /** How far `to` lies from `from`, in the units of the window of a ticket rated `from`. */
  protected abstract distance(from: number, to: number): number;
  /** The width of the window of `ticket` (rated `rating`) at `now`. */
  protected abstract width(ticket: Ticket, rating: number, now: number): number;
  /** How long after joining `ticket`'s window reaches `distance` (0: already; Infinity: never). */
  protected abstract waitToReach(ticket: Ticket, rating: number, distance: number): number;
  /**
   * The ratings a ticket rated `rating` accepts with a window of `width`, for the `status`
   * message; undefined where the subclass cannot say.
   */
  protected ratingWindow(_rating: number, _width: number): AcceptanceWindow | undefined {
    return undefined;
  }
  /** Called before a ticket is inserted (e.g. to update a rating distribution). */
  protected arrived(_ticket: Ticket): void {}
  /** Called before each poll's games (e.g. to restructure brackets). */
  protected beforePoll(_now: number): void {}
  /** Called for each game formed. */
  protected formed(_tickets: readonly Ticket[], _now: number): void {}
  /** A time the subclass must be polled at (e.g. a period's end), if any. */
  protected ownWakeup(): number | undefined {
    return undefined;
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.count;
  }

  add(ticket: Ticket, now: number): void {
    // A ticket already held moves to its new position (never held twice).
    const held = this.byId.get(ticket.id);
    if (held && isHeld(held)) this.removeEntry(held);
    this.lastNow = Math.max(this.lastNow, now);
    const rating = meanRating(ticket);
    this.arrived(ticket);
    const seq = this.seq++;
    let entry = this.freeEntries.pop();
    if (entry) {
      // (version goes on from where it was: whatever the record's former ticket left is stale.)
      entry.ticket = ticket;
      entry.rating = rating;
      entry.seq = seq;
      entry.wakeAt = Infinity;
    } else {
      entry = {
        ticket,
        rating,
        seq,
        leaf: NO_LEAF,
        version: 0,
        candidate: undefined,
        wakeAt: Infinity,
        dependents: undefined,
      };
    }
    this.order.insert(rating, seq, entry, this.up);
    entry.leaf = this.up.leaf;
    this.count++;
    this.byId.set(ticket.id, entry);
    this.scanFrom(this.up, this.lastNow);
  }

  /**
   * A waiting ticket's acceptance window at `now` (its party's mean rating ± its window), as
   * ratings.
   */
  acceptanceWindow(ticketId: string, now: number): AcceptanceWindow | undefined {
    const entry = this.byId.get(ticketId);
    return entry && this.ratingWindow(entry.rating, this.width(entry.ticket, entry.rating, now));
  }

  remove(ticketId: string): void {
    const entry = this.byId.get(ticketId);
    if (entry && isHeld(entry)) this.removeEntry(entry);
  }

  private removeEntry(entry: Entry): void {
    const affected = this.drop(entry);
    for (let i = 0; i < affected.length; i++) this.scan(affected[i], this.lastNow);
  }

  poll(now: number): Ticket[][] {
    this.lastNow = Math.max(this.lastNow, now);
    this.beforePoll(now);
    this.runWakes(now);
    const games: Ticket[][] = [];
    for (let top = this.top(); top; top = this.top()) {
      this.candidates.pop();
      if (!this.stillAcceptable(top.members, now)) {
        this.scan(top.anchor, now); // the percentile distribution moved under it
        continue;
      }
      // (The tickets first: a drop frees the member's record.)
      const tickets = top.members.map((m) => m.ticket);
      const affected = new Set<Entry>();
      for (const m of top.members) for (const anchor of this.drop(m)) affected.add(anchor);
      games.push(tickets);
      this.formed(tickets, now);
      for (const anchor of affected) if (isHeld(anchor)) this.scan(anchor, now);
      this.runWakes(now);
    }
    this.compact();
    return games;
  }

  nextWakeup(): number | undefined {
    const next = this.wakes.peek()?.at;
    const own = this.count > 0 ? this.ownWakeup() : undefined;
    return own === undefined ? next : next === undefined ? own : Math.min(next, own);
  }

  /** Does `a` accept `b` at `now` (b within a's window)? */
  accepts(a: Ticket, b: Ticket, now: number): boolean {
    const ra = meanRating(a);
    if (this.distance(ra, meanRating(b)) > this.width(a, ra, now)) return false;
    return !this.criteria || a.enqueuedAt + this.criteria.waitToAccept(a, b) <= now;
  }

  /** Rescan every waiting ticket (after distances changed). */
  protected rescanAll(now: number): void {
    const entries: Entry[] = [];
    const at = this.at;
    if (this.order.first(at))
      do entries.push(this.order.valueAt(at));
      while (this.order.next(at));
    for (const entry of entries) this.scan(entry, now);
  }

  // ---- acceptance -------------------------------------------------------------------------

  /** Does `a` accept a ticket rated `rating` by its rating window (the criteria aside)? */
  private acceptsRating(a: Entry, rating: number, now: number): boolean {
    return this.distance(a.rating, rating) <= this.width(a.ticket, a.rating, now);
  }

  /** When `a`'s window will reach `b` (Infinity: never). */
  private acceptTime(a: Entry, b: Entry): number {
    const rating = this.ratingAcceptTime(a, b.rating);
    return this.criteria
      ? Math.max(rating, a.ticket.enqueuedAt + this.criteria.waitToAccept(a.ticket, b.ticket))
      : rating;
  }

  /** When `a`'s rating window will reach a ticket rated `rating` (Infinity: never), whatever the criteria. */
  private ratingAcceptTime(a: Entry, rating: number): number {
    return a.ticket.enqueuedAt + this.waitToReach(a.ticket, a.rating, this.distance(a.rating, rating));
  }

  /** The earliest time `a` and `b` may play together: both accept, and no recent rematch unless both waited the fallback. */
  private mutualAt(a: Entry, b: Entry): number {
    const both = Math.max(this.acceptTime(a, b), this.acceptTime(b, a));
    return this.avoid ? Math.max(both, repeatAllowedAt(a.ticket, b.ticket, this.avoid)) : both;
  }

  private stillAcceptable(members: readonly Entry[], now: number): boolean {
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) if (this.mutualAt(members[i], members[j]) > now) return false;
    }
    return true;
  }

  // ---- scans and wake-ups -----------------------------------------------------------------

  /** Recompute `a`'s closest game and the wake-ups that keep the heap's minimum exact. */
  private scan(a: Entry, now: number): void {
    if (a.leaf !== NO_LEAF && this.order.findIn(a.leaf, a.rating, a.seq, this.up)) this.scanFrom(this.up, now);
  }

  /** {@link scan} of the entry at `from` (the cursor is the scan's own: it walks upward from there). */
  private scanFrom(from: RowCursor, now: number): void {
    const order = this.order;
    const a = order.valueAt(from);
    a.version++;
    a.candidate = undefined;
    a.wakeAt = Infinity;
    // Two cursors walk outward: `up` from the entry's row, `down` from a copy of it.
    const up = this.up;
    const down = this.down;
    up.leaf = from.leaf;
    up.index = from.index;
    down.leaf = from.leaf;
    down.index = from.index;
    let hasUp = order.next(up);
    let hasDown = order.previous(down);
    // Scratch reused by every scan (a scan never starts another).
    const acceptable = this.acceptableScratch;
    acceptable.length = 0;
    /** The closest game without a recent rematch, and the closest with one (used only without the former). */
    let best: Candidate | undefined;
    let fallback: Candidate | undefined;
    /** Per side, the nearest ticket beyond a's window. */
    const outside = this.outsideScratch;
    outside.length = 0;
    this.steps = this.budget;
    while (hasUp || hasDown) {
      const upRating = hasUp ? order.ratingAt(up) : 0;
      const downRating = hasDown ? order.ratingAt(down) : 0;
      const takeUp = hasUp && (!hasDown || upRating - a.rating <= a.rating - downRating);
      const xRating = takeUp ? upRating : downRating;
      if (best && Math.abs(xRating - a.rating) >= best.spread) break;
      if (!this.acceptsRating(a, xRating, now)) {
        // Distances only grow further out: this side of the window is done.
        outside.push(xRating);
        if (takeUp) hasUp = false;
        else hasDown = false;
        continue;
      }
      const x = takeUp ? order.valueAt(up) : order.valueAt(down);
      if (takeUp) hasUp = order.next(up);
      else hasDown = order.previous(down);
      const at = this.mutualAt(a, x);
      if (at > now) {
        // x does not accept a yet (or a rematch waits for the fallback): x looks again then.
        this.wake(x, at, now);
        continue;
      }
      const found = this.gameWith(
        a,
        x,
        acceptable,
        now,
        best?.spread ?? Infinity,
        best ? -Infinity : (fallback?.spread ?? Infinity),
      );
      acceptable.push(x);
      if (found.fresh) best = found.fresh;
      if (found.repeat) fallback = found.repeat;
    }
    for (let i = 0; i < outside.length; i++) {
      const xRating = outside[i];
      if (best && Math.abs(xRating - a.rating) >= best.spread) continue;
      // When x enters the rating window a rescans (x is then in it, and a wake-up for the criteria
      // is set if they still part them), so a ticket beyond x is looked at in its turn.
      this.wake(a, this.ratingAcceptTime(a, xRating), now);
    }
    const chosen = best ?? fallback;
    if (!chosen) return;
    a.candidate = chosen;
    this.candidates.push(chosen);
    for (const m of chosen.members) {
      if (m === a) continue;
      (m.dependents ??= new Set()).add(a);
    }
  }

  private wake(entry: Entry, at: number, now: number): void {
    if (at === Infinity) return;
    const when = Math.max(at, Math.floor(now) + 1); // never a wake-up already due
    if (when >= entry.wakeAt) return;
    entry.wakeAt = when;
    this.wakes.push({ entry, version: entry.version, at: when });
  }

  private runWakes(now: number): void {
    for (let top = this.wakes.peek(); top && top.at <= now; top = this.wakes.peek()) {
      this.wakes.pop();
      this.scan(top.entry, now);
    }
  }

  /**
   * The closest games made of `a`, `x` and tickets among `nearer` (all already mutually
   * acceptable with `a`): without a recent rematch and spread below `limit`, and with one and
   * spread below `repeatLimit`. A game of two seats: just the pair, if its sides allow it.
   */
  private gameWith(
    a: Entry,
    x: Entry,
    nearer: readonly Entry[],
    now: number,
    limit: number,
    repeatLimit: number,
  ): { fresh?: Candidate; repeat?: Candidate } {
    const seats = this.seats;
    const base = a.ticket.players.length + x.ticket.players.length;
    if (base > seats) return {};
    const low0 = Math.min(a.rating, x.rating);
    const high0 = Math.max(a.rating, x.rating);
    const repeat0 = this.isRepeat(a, x, now);
    const bound = Math.max(limit, repeatLimit);
    if (high0 - low0 >= (repeat0 ? repeatLimit : bound)) return {};
    if (base === seats) {
      if (!canAssembleGame([a.ticket, x.ticket], this.shape)) return {};
      const game = this.candidate(a, [a, x], high0 - low0, repeat0);
      return repeat0 ? { repeat: game } : { fresh: game };
    }
    const pool = nearer.filter((y) => y.ticket.players.length <= seats - base && this.mutualAt(x, y) <= now);
    // Players in pool[i..]: a branch that cannot fill the game stops at once.
    const rest: number[] = new Array(pool.length + 1).fill(0);
    for (let i = pool.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + pool[i].ticket.players.length;
    if (base + rest[0] < seats) return {};
    const found: { fresh?: Candidate; repeat?: Candidate } = {};
    let freshLimit = limit;
    let repLimit = repeatLimit;
    const chosen: Entry[] = [a, x];
    const search = (from: number, filled: number, low: number, high: number, repeat: boolean): void => {
      if (high - low >= (repeat ? repLimit : Math.max(freshLimit, repLimit)) || this.steps <= 0) return;
      this.steps--;
      if (filled === seats) {
        if (
          !canAssembleGame(
            chosen.map((e) => e.ticket),
            this.shape,
          )
        )
          return;
        const game = this.candidate(a, chosen, high - low, repeat);
        if (repeat) {
          if (high - low < repLimit) [found.repeat, repLimit] = [game, high - low];
        } else if (high - low < freshLimit) [found.fresh, freshLimit, repLimit] = [game, high - low, -Infinity];
        return;
      }
      for (let i = from; i < pool.length && filled + rest[i] >= seats; i++) {
        const y = pool[i];
        if (filled + y.ticket.players.length > seats) continue;
        let fits = true;
        let withRepeat = repeat || this.isRepeat(a, y, now) || this.isRepeat(x, y, now);
        for (let c = 2; c < chosen.length && fits; c++) {
          fits = this.mutualAt(chosen[c], y) <= now;
          withRepeat ||= this.isRepeat(chosen[c], y, now);
        }
        if (!fits) continue;
        chosen.push(y);
        search(i + 1, filled + y.ticket.players.length, Math.min(low, y.rating), Math.max(high, y.rating), withRepeat);
        chosen.pop();
      }
    };
    search(0, base, low0, high0, repeat0);
    // A fresh game found after a repeat one makes the repeat one moot for this anchor.
    return found.fresh ? { fresh: found.fresh } : found;
  }

  private isRepeat(a: Entry, b: Entry, now: number): boolean {
    return this.avoid !== undefined && this.avoid.isRepeat(a.ticket, b.ticket, now);
  }

  private candidate(anchor: Entry, members: readonly Entry[], spread: number, repeat: boolean): Candidate {
    let oldest = Infinity;
    for (const m of members) oldest = Math.min(oldest, m.ticket.enqueuedAt);
    return {
      anchor,
      anchorRating: anchor.rating,
      anchorSeq: anchor.seq,
      version: anchor.version,
      members: [...members].sort(compareEntries),
      spread,
      oldest,
      repeat,
    };
  }

  /** Forget a ticket; returns the anchors whose candidate included it (they must rescan). */
  private drop(entry: Entry): readonly Entry[] {
    entry.version++;
    if (this.order.findIn(entry.leaf, entry.rating, entry.seq, this.at)) this.order.remove(this.at);
    entry.leaf = NO_LEAF;
    this.count--;
    if (this.byId.get(entry.ticket.id) === entry) this.byId.delete(entry.ticket.id);
    entry.ticket = GONE;
    this.freeEntries.push(entry);
    const dependents = entry.dependents;
    entry.dependents = undefined;
    if (entry.candidate) for (const m of entry.candidate.members) m.dependents?.delete(entry);
    entry.candidate = undefined;
    if (!dependents) return NO_ENTRIES;
    const affected: Entry[] = [];
    for (const anchor of dependents)
      if (isHeld(anchor) && anchor.candidate?.members.includes(entry)) affected.push(anchor);
    return affected;
  }

  private top(): Candidate | undefined {
    return this.candidates.peek();
  }

  /** Drop stale heap entries once they outnumber the live ones. */
  private compact(): void {
    this.candidates.compact(this.count, 64);
    this.wakes.compact(this.count, 64);
  }
}
