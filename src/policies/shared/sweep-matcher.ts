/**
 * The sweep-and-prune engine behind the window policies (`expanding-window`, `brackets`), after
 * hplus0603 in the forum thread: each ticket accepts the tickets within its window (a distance
 * and a width the subclass defines); a game forms only when every ticket in it accepts every
 * other (mutual acceptance), and among acceptable games the closest one (smallest rating
 * spread, then the longest waiting) forms first, not the first one found.
 *
 * Event driven, over the rating axis:
 * - the tickets sit in rating order (in the leaves of a B+tree, {@link RowTree}, whose rows hold
 *   the ratings: a scan reads its neighbours' ratings without touching them; each row also holds
 *   the ticket's scan version and pending wake-up, so a waiting ticket costs no object of its
 *   own beyond its row); a ticket's *scan*
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
 * With `teamSize` k > 1 a game is 2k players in tickets that pairwise accept each other and can
 * be assembled; the scan searches subsets of the acceptable tickets nearest the scanner, up to
 * `budget` search steps per scan (so for teams the closest game is exact while within budget).
 */
import { canAssemble } from "../../core/assembly.js";
import type { AcceptanceWindow, Policy, PolicyContext, TicketSlot } from "../../core/policy.js";
import { repeatAllowedAt, type RepeatAvoidance } from "../../core/recent-opponents.js";
import { meanRating, type Ticket } from "../../core/types.js";
import type { CriteriaBox } from "./criteria-box.js";
import { LazyHeap } from "./lazy-heap.js";
import {
  columnAt,
  companionAt,
  nextRow,
  previousRow,
  ratingAt,
  ROW_TREE_WIDTH,
  rowCursor,
  RowTree,
  SEQ,
  setColumnAt,
  valueAt,
  type RowCursor,
  type RowLeaf,
} from "./row-tree.js";

/** Default search steps per scan for teams (teamSize > 1). */
export const DEFAULT_WINDOW_BUDGET = 512;

/**
 * A waiting ticket's handle, the value of its row: the engine's slot, or a stand-in made for a
 * ticket added without one. Its `policyData` is the leaf holding the row while the ticket waits
 * (kept through splits), undefined otherwise: a leave or a rescan finds the row in that leaf, with
 * no descent and no record of the matcher's own.
 */
type Holder = TicketSlot;

/** Row columns beside the rating and seq: the version of the ticket's last scan (from one counter, never reused) and its earliest pending wake-up. */
const VERSION = 2;
const WAKE_AT = 3;
const COLUMNS = 4;

/** A ticket met by a scan (within the scanner's window) or in a candidate game. */
interface Member {
  readonly holder: Holder;
  readonly ticket: Ticket;
  /** Position in rating order: the party's mean rating, then `seq` (the order it was added in). */
  readonly rating: number;
  readonly seq: number;
}

interface Candidate {
  readonly anchor: Member;
  /** The anchor's scan version: a later scan makes this candidate stale. */
  readonly version: number;
  readonly members: readonly Member[];
  readonly spread: number;
  readonly oldest: number;
  /** Some two of its tickets met recently (allowed only after the fallback wait; formed last). */
  readonly repeat: boolean;
}

interface Wake {
  readonly holder: Holder;
  /** The ticket's scan version when set (a later scan makes it stale). */
  readonly version: number;
  readonly at: number;
}

/** Rating order: a party's mean rating, then the order it was added in. */
const compareMembers = (a: Member, b: Member): number => a.rating - b.rating || a.seq - b.seq;

const compareCandidates = (a: Candidate, b: Candidate): number =>
  Number(a.repeat) - Number(b.repeat) ||
  a.spread - b.spread ||
  a.oldest - b.oldest ||
  compareMembers(a.anchor, b.anchor);

const NO_HOLDERS: readonly Holder[] = [];

export abstract class SweepMatcher implements Policy {
  abstract readonly name: string;
  private readonly teamSize: number;
  private readonly budget: number;
  private readonly avoid: RepeatAvoidance | undefined;
  /** The waiting tickets in rating order: rows of (rating, seq, version, wake-up), the holder as value and the ticket beside it. */
  private readonly order = new RowTree<Holder, Ticket>(COLUMNS, {
    priorities: false,
    companions: true,
    moved: (holder, leaf) => (holder.policyData = leaf),
  });
  /** Cursors of the running scan (outward from the scanner), of a leave, and of the heaps' liveness checks. */
  private readonly up = rowCursor<Holder, Ticket>();
  private readonly down = rowCursor<Holder, Ticket>();
  private readonly at = rowCursor<Holder, Ticket>();
  private readonly probe = rowCursor<Holder, Ticket>();
  /** Stand-in holders of the tickets added without the engine's slot. */
  private readonly byId = new Map<string, Holder>();
  /** Each anchor's current candidate, while it has one. */
  private readonly candidateOf = new Map<Holder, Candidate>();
  /** Anchors whose candidate may include the ticket (pruned lazily), while there are any. */
  private readonly dependentsOf = new Map<Holder, Set<Holder>>();
  private count = 0;
  private readonly acceptableScratch: Member[] = [];
  /** Ratings of the nearest tickets beyond the scanner's window. */
  private readonly outsideScratch: number[] = [];
  private readonly candidates = new LazyHeap<Candidate>(compareCandidates, (c) => this.isLiveCandidate(c));
  private readonly wakes = new LazyHeap<Wake>(
    (a, b) => a.at - b.at,
    (w) => this.locate(w.holder, this.probe) && columnAt(this.probe, VERSION) === w.version,
  );
  private seq = 0;
  /** The last scan version handed out (one counter for every ticket, so a re-added ticket's versions are new). */
  private version = 0;
  /** The latest time the policy was told (removals carry no time). */
  protected lastNow = -Infinity;
  /** Search steps left in the running team search. */
  private steps = 0;
  /** With criteria beside the rating: each ticket's window on them (the box); set by a subclass. */
  protected criteria: CriteriaBox | undefined;

  constructor(context: PolicyContext, budget = DEFAULT_WINDOW_BUDGET) {
    this.teamSize = context.teamSize;
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

  add(ticket: Ticket, now: number, slot?: TicketSlot): void {
    const holder = slot ?? this.standIn(ticket.id);
    // A ticket already held moves to its new position (never held twice).
    if (this.locate(holder, this.at)) this.leave(this.at);
    this.lastNow = Math.max(this.lastNow, now);
    const rating = meanRating(ticket);
    this.arrived(ticket);
    this.order.insert(rating, this.seq++, holder, this.up, ticket);
    holder.policyData = this.up.leaf;
    this.count++;
    this.scanFrom(this.up, this.lastNow);
  }

  /**
   * A waiting ticket's acceptance window at `now` (its party's mean rating ± its window), as
   * ratings. `slot`: the one the ticket was added with, if any (the engine passes it); a caller
   * without it, asking for a ticket added with one, costs a walk over the waiting tickets.
   */
  acceptanceWindow(ticketId: string, now: number, slot?: TicketSlot): AcceptanceWindow | undefined {
    const at = this.at;
    if (!this.locateTicket(ticketId, slot, at)) return undefined;
    const ticket = companionAt(at);
    const rating = ratingAt(at);
    return this.ratingWindow(rating, this.width(ticket, rating, now));
  }

  remove(ticketId: string, slot?: TicketSlot): void {
    const holder = slot ?? this.byId.get(ticketId);
    if (holder && this.locate(holder, this.at)) this.leave(this.at);
  }

  /** The holder of a ticket added without a slot (made on its first add, forgotten when it leaves). */
  private standIn(ticketId: string): Holder {
    let holder = this.byId.get(ticketId);
    if (!holder) this.byId.set(ticketId, (holder = { policyData: undefined }));
    return holder;
  }

  /** Put `at` on the row of `holder`; false when its ticket is not waiting. */
  private locate(holder: Holder, at: RowCursor<Holder, Ticket>): boolean {
    const leaf = holder.policyData as RowLeaf<Holder, Ticket> | undefined;
    return leaf !== undefined && this.order.indexIn(leaf, holder, at);
  }

  /** Put `at` on a waiting ticket's row, from its slot, by id, or (added with a slot, asked without) by a walk. */
  private locateTicket(ticketId: string, slot: TicketSlot | undefined, at: RowCursor<Holder, Ticket>): boolean {
    if (slot) return this.locate(slot, at) && companionAt(at).id === ticketId;
    const holder = this.byId.get(ticketId);
    if (holder) return this.locate(holder, at);
    if (this.byId.size === this.count || !this.order.first(at)) return false;
    do if (companionAt(at).id === ticketId) return true;
    while (nextRow(at));
    return false;
  }

  /** Is the ticket of `m` still waiting, as the same arrival (not left and added again)? */
  private holds(m: Member): boolean {
    return this.locate(m.holder, this.probe) && columnAt(this.probe, SEQ) === m.seq;
  }

  /** A candidate stands while its anchor has not rescanned and all its tickets still wait. */
  private isLiveCandidate(c: Candidate): boolean {
    if (!this.locate(c.anchor.holder, this.probe) || columnAt(this.probe, VERSION) !== c.version) return false;
    for (let i = 0; i < c.members.length; i++) if (!this.holds(c.members[i])) return false;
    return true;
  }

  /** The ticket at `at` leaves: its row goes, and the anchors whose candidate included it rescan. */
  private leave(at: RowCursor<Holder, Ticket>): void {
    const affected = this.drop(at);
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
        this.scan(top.anchor.holder, now); // the percentile distribution moved under it
        continue;
      }
      const affected = new Set<Holder>();
      for (const m of top.members)
        if (this.locate(m.holder, this.at)) for (const a of this.drop(this.at)) affected.add(a);
      const tickets = top.members.map((m) => m.ticket);
      games.push(tickets);
      this.formed(tickets, now);
      for (const anchor of affected) this.scan(anchor, now);
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
    const holders: Holder[] = [];
    const at = this.at;
    if (this.order.first(at))
      do holders.push(valueAt(at));
      while (nextRow(at));
    for (const holder of holders) this.scan(holder, now);
  }

  // ---- acceptance -------------------------------------------------------------------------

  /** Does `ticket` (rated `rating`) accept a ticket rated `other` by its rating window (the criteria aside)? */
  private acceptsRating(ticket: Ticket, rating: number, other: number, now: number): boolean {
    return this.distance(rating, other) <= this.width(ticket, rating, now);
  }

  /** When `a`'s window will reach `b` (Infinity: never). */
  private acceptTime(a: Ticket, ra: number, b: Ticket, rb: number): number {
    const rating = this.ratingAcceptTime(a, ra, rb);
    return this.criteria ? Math.max(rating, a.enqueuedAt + this.criteria.waitToAccept(a, b)) : rating;
  }

  /** When the rating window of `ticket` (rated `rating`) will reach a ticket rated `other` (Infinity: never), whatever the criteria. */
  private ratingAcceptTime(ticket: Ticket, rating: number, other: number): number {
    return ticket.enqueuedAt + this.waitToReach(ticket, rating, this.distance(rating, other));
  }

  /** The earliest time `a` and `b` may play together: both accept, and no recent rematch unless both waited the fallback. */
  private mutualAt(a: Ticket, ra: number, b: Ticket, rb: number): number {
    const both = Math.max(this.acceptTime(a, ra, b, rb), this.acceptTime(b, rb, a, ra));
    return this.avoid ? Math.max(both, repeatAllowedAt(a, b, this.avoid)) : both;
  }

  private mutualMembers(a: Member, b: Member): number {
    return this.mutualAt(a.ticket, a.rating, b.ticket, b.rating);
  }

  private stillAcceptable(members: readonly Member[], now: number): boolean {
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) if (this.mutualMembers(members[i], members[j]) > now) return false;
    }
    return true;
  }

  // ---- scans and wake-ups -----------------------------------------------------------------

  /** Recompute the closest game of `holder`'s ticket (if it waits) and the wake-ups that keep the heap's minimum exact. */
  private scan(holder: Holder, now: number): void {
    if (this.locate(holder, this.up)) this.scanFrom(this.up, now);
  }

  /** {@link scan} of the row at `from` (the cursor is the scan's own: it walks upward from there). */
  private scanFrom(from: RowCursor<Holder, Ticket>, now: number): void {
    // The scanner's row (the tree does not change during a scan, so its place holds).
    const leaf = from.leaf;
    const index = from.index;
    const holder = leaf.values[index]!;
    const ticket = leaf.companions![index]!;
    const rating = ratingAt(from);
    const seq = columnAt(from, SEQ);
    const version = ++this.version;
    setColumnAt(from, VERSION, version);
    setColumnAt(from, WAKE_AT, Infinity);
    if (this.candidateOf.size > 0) this.candidateOf.delete(holder);
    /** The scanner as a member of a game, made once a game is in reach. */
    let anchor: Member | undefined;
    // Two cursors walk outward: `up` from the scanner's row, `down` from a copy of it.
    const up = this.up;
    const down = this.down;
    up.leaf = leaf;
    up.index = index;
    down.leaf = leaf;
    down.index = index;
    let hasUp = nextRow(up);
    let hasDown = previousRow(down);
    // Scratch reused by every scan (a scan never starts another).
    const acceptable = this.acceptableScratch;
    acceptable.length = 0;
    /** The closest game without a recent rematch, and the closest with one (used only without the former). */
    let best: Candidate | undefined;
    let fallback: Candidate | undefined;
    /** Per side, the nearest ticket beyond the scanner's window. */
    const outside = this.outsideScratch;
    outside.length = 0;
    this.steps = this.budget;
    while (hasUp || hasDown) {
      const upRating = hasUp ? ratingAt(up) : 0;
      const downRating = hasDown ? ratingAt(down) : 0;
      const takeUp = hasUp && (!hasDown || upRating - rating <= rating - downRating);
      const xRating = takeUp ? upRating : downRating;
      if (best && Math.abs(xRating - rating) >= best.spread) break;
      if (!this.acceptsRating(ticket, rating, xRating, now)) {
        // Distances only grow further out: this side of the window is done.
        outside.push(xRating);
        if (takeUp) hasUp = false;
        else hasDown = false;
        continue;
      }
      const cursor = takeUp ? up : down;
      const xTicket = companionAt(cursor);
      const at = this.mutualAt(ticket, rating, xTicket, xRating);
      if (at > now) {
        // x does not accept the scanner yet (or a rematch waits for the fallback): x looks again then.
        this.wake(cursor.leaf, cursor.index, at, now);
      } else {
        const x: Member = { holder: valueAt(cursor), ticket: xTicket, rating: xRating, seq: columnAt(cursor, SEQ) };
        anchor ??= { holder, ticket, rating, seq };
        const found = this.gameWith(
          anchor,
          version,
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
      if (takeUp) hasUp = nextRow(up);
      else hasDown = previousRow(down);
    }
    for (let i = 0; i < outside.length; i++) {
      const xRating = outside[i];
      if (best && Math.abs(xRating - rating) >= best.spread) continue;
      // When x enters the rating window the scanner rescans (x is then in it, and a wake-up for
      // the criteria is set if they still part them), so a ticket beyond x is looked at in its turn.
      this.wake(leaf, index, this.ratingAcceptTime(ticket, rating, xRating), now);
    }
    const chosen = best ?? fallback;
    if (!chosen) return;
    this.candidateOf.set(holder, chosen);
    this.candidates.push(chosen);
    for (const m of chosen.members) {
      if (m.holder === holder) continue;
      let dependents = this.dependentsOf.get(m.holder);
      if (!dependents) this.dependentsOf.set(m.holder, (dependents = new Set()));
      dependents.add(holder);
    }
  }

  /** Wake the ticket of row `index` of `leaf` at `at` (unless it wakes earlier already). */
  private wake(leaf: RowLeaf<Holder, Ticket>, index: number, at: number, now: number): void {
    if (at === Infinity) return;
    const when = Math.max(at, Math.floor(now) + 1); // never a wake-up already due
    const rows = leaf.rows;
    if (when >= rows[WAKE_AT * ROW_TREE_WIDTH + index]) return;
    rows[WAKE_AT * ROW_TREE_WIDTH + index] = when;
    this.wakes.push({ holder: leaf.values[index]!, version: rows[VERSION * ROW_TREE_WIDTH + index], at: when });
  }

  private runWakes(now: number): void {
    for (let top = this.wakes.peek(); top && top.at <= now; top = this.wakes.peek()) {
      this.wakes.pop();
      this.scan(top.holder, now);
    }
  }

  /**
   * The closest games made of `a`, `x` and tickets among `nearer` (all already mutually
   * acceptable with `a`): without a recent rematch and spread below `limit`, and with one and
   * spread below `repeatLimit`. 1v1: just the pair, if its sides allow it. `version`: the
   * scan's (the candidates' anchor is `a`).
   */
  private gameWith(
    a: Member,
    version: number,
    x: Member,
    nearer: readonly Member[],
    now: number,
    limit: number,
    repeatLimit: number,
  ): { fresh?: Candidate; repeat?: Candidate } {
    const seats = 2 * this.teamSize;
    const base = a.ticket.players.length + x.ticket.players.length;
    if (base > seats) return {};
    const low0 = Math.min(a.rating, x.rating);
    const high0 = Math.max(a.rating, x.rating);
    const repeat0 = this.isRepeat(a, x, now);
    const bound = Math.max(limit, repeatLimit);
    if (high0 - low0 >= (repeat0 ? repeatLimit : bound)) return {};
    if (base === seats) {
      if (!canAssemble([a.ticket, x.ticket], this.teamSize)) return {};
      const game = this.candidate(a, version, [a, x], high0 - low0, repeat0);
      return repeat0 ? { repeat: game } : { fresh: game };
    }
    const pool = nearer.filter((y) => y.ticket.players.length <= seats - base && this.mutualMembers(x, y) <= now);
    const found: { fresh?: Candidate; repeat?: Candidate } = {};
    let freshLimit = limit;
    let repLimit = repeatLimit;
    const chosen: Member[] = [a, x];
    const search = (from: number, filled: number, low: number, high: number, repeat: boolean): void => {
      if (high - low >= (repeat ? repLimit : Math.max(freshLimit, repLimit)) || this.steps <= 0) return;
      this.steps--;
      if (filled === seats) {
        if (
          !canAssemble(
            chosen.map((e) => e.ticket),
            this.teamSize,
          )
        )
          return;
        const game = this.candidate(a, version, chosen, high - low, repeat);
        if (repeat) {
          if (high - low < repLimit) [found.repeat, repLimit] = [game, high - low];
        } else if (high - low < freshLimit) [found.fresh, freshLimit, repLimit] = [game, high - low, -Infinity];
        return;
      }
      for (let i = from; i < pool.length; i++) {
        const y = pool[i];
        if (filled + y.ticket.players.length > seats) continue;
        let fits = true;
        let withRepeat = repeat || this.isRepeat(a, y, now) || this.isRepeat(x, y, now);
        for (let c = 2; c < chosen.length && fits; c++) {
          fits = this.mutualMembers(chosen[c], y) <= now;
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

  private isRepeat(a: Member, b: Member, now: number): boolean {
    return this.avoid !== undefined && this.avoid.isRepeat(a.ticket, b.ticket, now);
  }

  private candidate(
    anchor: Member,
    version: number,
    members: readonly Member[],
    spread: number,
    repeat: boolean,
  ): Candidate {
    let oldest = Infinity;
    for (const m of members) oldest = Math.min(oldest, m.ticket.enqueuedAt);
    return { anchor, version, members: [...members].sort(compareMembers), spread, oldest, repeat };
  }

  /** Forget the ticket at `at`; returns the anchors whose candidate included it (they must rescan). */
  private drop(at: RowCursor<Holder, Ticket>): readonly Holder[] {
    const holder = valueAt(at);
    const seq = columnAt(at, SEQ);
    // (The map is empty when the engine passes slots: the ticket is then not reached.)
    if (this.byId.size > 0) {
      const id = companionAt(at).id;
      if (this.byId.get(id) === holder) this.byId.delete(id);
    }
    this.order.remove(at);
    holder.policyData = undefined;
    this.count--;
    // (Both maps are empty while no ticket has a game in reach.)
    if (this.candidateOf.size === 0 && this.dependentsOf.size === 0) return NO_HOLDERS;
    const own = this.candidateOf.get(holder);
    if (own) {
      this.candidateOf.delete(holder);
      for (const m of own.members) this.dependentsOf.get(m.holder)?.delete(holder);
    }
    const dependents = this.dependentsOf.get(holder);
    if (!dependents) return NO_HOLDERS;
    this.dependentsOf.delete(holder);
    const affected: Holder[] = [];
    for (const anchor of dependents) {
      const candidate = this.candidateOf.get(anchor);
      if (candidate?.members.some((m) => m.holder === holder && m.seq === seq)) affected.push(anchor);
    }
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
