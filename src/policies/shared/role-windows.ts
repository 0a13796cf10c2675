/**
 * The candidate structure of the `roles` policy: Alman and McKay's shortest interval containing
 * distinct representatives (section 6), kept under insertions and deletions.
 *
 * The paper keeps 2k lists, each role's players twice (l_1, l'_1, ..., l_k, l'_k), and looks for
 * rating intervals holding distinct representatives of all 2k lists: 2k different players, two
 * per role. Here the 2k lists are the 2k seats of a game (role r on team A, role r on team B),
 * and "distinct representatives in a window" is a perfect bipartite matching of the window's
 * players to the seats ({@link SeatMatching}), which is the same condition.
 *
 * Tickets are ordered by their lowest rating. A window is a run of consecutive tickets; it is
 * *feasible* when it holds a role-valid game. The structure keeps every *minimal* feasible window
 * (no shorter run inside it is feasible), one candidate game per window, in a min-heap keyed by
 * the game's imbalance. The minimal windows form a chain increasing in both ends, so an
 * insertion or deletion only disturbs the windows around it: those are re-derived by a
 * two-pointer sweep over the gap between the nearest undisturbed windows.
 *
 * A candidate's imbalance (its best role-valid split) is computed lazily: a new window enters
 * the heap keyed by a lower bound of its imbalance (0, or Lemma 6's k^(−1/q)·spread/2 for the
 * Alman–McKay imbalance) and is split only when it reaches the top; the top is returned once it
 * is split, so it is the least imbalance of all. Windows that a later insertion or deletion
 * replaces before anyone asks are never split.
 *
 * Why it is a rho-approximation (Theorem 3), for solo, choice-free tickets and Alman and McKay's
 * imbalance f = alpha·d_p + v_q: the collection M of least rating spread c is found in some
 * minimal window. M holds two players per role, and Lemma 5 splits each pair across the teams
 * with d_p ≤ c, so the best role-valid split of M has f ≤ (1 + alpha)·c (Lemma 6: v_q ≤ c);
 * every role-valid game has f ≥ v_q ≥ k^(−1/q)·c/2 (Lemma 6, its spread being at least c).
 * The heap's top is no worse than M's game, hence within rho = 2·k^(1/q)·(1 + alpha) of the
 * best role-valid game in the pool.
 *
 * Parties and sides: a window's feasibility is exact for them too (a party's players share a
 * team in different roles, side preferences are honoured): windows of solos use the matching,
 * windows holding a party add the exact {@link RoleGameSearch}. A party's position is its lowest
 * rating and its spread counts its highest. Every candidate is role-valid, but the ratio above
 * is proved only for solo, choice-free pools (the paper's model).
 *
 * More than two teams (T teams of k, one player per role on each): the lists are the T·k seats
 * and the same windows hold the candidates; windows holding a party use {@link TeamsRoleSearch}
 * (teams interchangeable, no sides). Lemma 6's bound still orders the work (the two teams
 * holding the game's lowest and highest player have its spread), but the ratio is proved for two
 * teams only. Costs below read T·k for 2k.
 *
 * Cost (honestly, this is not the paper's O(log n) Lemma 3 structure, whose (2k+1)! pointer
 * permutations are impractical for k = 5): an insertion or deletion costs O(log n) in the
 * ordered index, O(k²) in the pool-wide matching, and, only while the pool as a whole can seat
 * a game, a sweep of the gap between the nearest undisturbed windows: O(g·k²) for g tickets in
 * the gap, plus one best split (at most C(2k, k)/2 role-checked splits) per window that reaches the top, plus
 * O(g·4^k·m) of game search (m: the sets of roles a party can fill) in windows that hold a
 * party. g is a few window lengths when every role is common at every rating, and up to n when
 * a role is rare (windows must stretch to reach it) or when the pool can seat a game only on
 * paper (relaxed matching complete, parties that cannot combine). While the pool as a whole
 * cannot seat a game (the usual state of a live queue between games) an operation costs
 * O(log n + k²). The best candidate is read in O(1).
 */
import { RoleGameSearch, type RoleTable } from "../../core/role-rules.js";
import { TeamsRoleSearch } from "../../core/team-role-search.js";
import type { Side, Ticket } from "../../core/types.js";
import { compareRanked, sortedTree, type RankedKey, type SortedTree } from "../../core/sorted-tree.js";
import { LazyHeap } from "./lazy-heap.js";

/** A ticket's place in rating order: its lowest rating, then the order it was added in. */
type OrderKey = RankedKey;
const compareKeys = compareRanked;

/** One player as a candidate for seats: the roles they accept and the side their ticket insists on. */
interface SeatPlayer {
  readonly mask: number;
  readonly side: Side | undefined;
  readonly node: Node;
}

interface Node {
  readonly ticket: Ticket;
  readonly key: OrderKey;
  /** Highest rating among the ticket's players. */
  readonly high: number;
  players: readonly SeatPlayer[];
  prev: Node | undefined;
  next: Node | undefined;
}

/** A minimal feasible window and its candidate game. */
export interface RoleWindow {
  /** The tickets of the candidate game (a game's players), in rating order. */
  readonly tickets: readonly Ticket[];
  /** The imbalance of the best role-valid split of `tickets` (Infinity if it has none). */
  readonly imbalance: number;
  /** Highest minus lowest rating among the game's players. */
  readonly spread: number;
  readonly first: Ticket;
  readonly last: Ticket;
}

interface WindowRecord extends RoleWindow {
  readonly left: Node;
  readonly right: Node;
  alive: boolean;
  /** Until split: a lower bound of the imbalance, the heap's key meanwhile. */
  bound: number;
  evaluated: boolean;
  imbalance: number;
}

/** The heap's key: the imbalance once known, its lower bound until then. */
const heapKey = (w: WindowRecord): number => (w.evaluated ? w.imbalance : w.bound);

/**
 * A maximum matching of players to the T·k seats of a game (seat t·k + r: role r on team t; T = 2
 * unless given), kept under insertion (one augmenting path from the newcomer) and deletion (one
 * augmenting path into the seat it left): O((T·k)²) each. Complete when every seat is taken.
 * Sides bind a player to team 0 (A) or 1 (B) of two.
 */
export class SeatMatching {
  private readonly owner: Array<SeatPlayer | undefined>;
  private readonly seatOf = new Map<SeatPlayer, number>();
  /** Per seat: players without a seat who could take it. */
  private readonly waiting: Array<Set<SeatPlayer>>;
  private matched = 0;
  /** Seats in a game (T·k). */
  private readonly seats: number;
  /** Seats visited by the running search, marked with its number (no clearing between searches). */
  private readonly visited: Uint32Array;
  private searchId = 0;

  constructor(
    private readonly k: number,
    teams = 2,
  ) {
    this.seats = teams * k;
    this.owner = new Array(this.seats).fill(undefined);
    this.waiting = Array.from({ length: this.seats }, () => new Set<SeatPlayer>());
    this.visited = new Uint32Array(this.seats);
  }

  get size(): number {
    return this.matched;
  }

  get complete(): boolean {
    return this.matched === this.seats;
  }

  /** The seated players. */
  seated(): SeatPlayer[] {
    return this.owner.filter((p): p is SeatPlayer => p !== undefined);
  }

  add(player: SeatPlayer): void {
    const search = this.newSearch();
    const visited = this.visited;
    const place = (q: SeatPlayer): boolean => {
      for (let s = 0; s < this.seats; s++) {
        if (visited[s] === search || !this.accepts(q, s)) continue;
        visited[s] = search;
        const current = this.owner[s];
        if (current === undefined || place(current)) {
          this.owner[s] = q;
          this.seatOf.set(q, s);
          return true;
        }
      }
      return false;
    };
    if (place(player)) this.matched++;
    else for (let s = 0; s < this.seats; s++) if (this.accepts(player, s)) this.waiting[s].add(player);
  }

  remove(player: SeatPlayer): void {
    const seat = this.seatOf.get(player);
    if (seat === undefined) {
      for (let s = 0; s < this.seats; s++) this.waiting[s].delete(player);
      return;
    }
    this.seatOf.delete(player);
    this.owner[seat] = undefined;
    this.matched--;
    // The matching stays maximum unless an augmenting path ends at the freed seat: search
    // breadth-first for someone to take it, moving seated players along.
    const from: number[] = new Array(this.seats).fill(-1);
    const search = this.newSearch();
    const visited = this.visited;
    visited[seat] = search;
    const queue = [seat];
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head];
      const newcomer = this.waiting[s].values().next().value;
      if (newcomer !== undefined) {
        for (let t = 0; t < this.seats; t++) if (this.accepts(newcomer, t)) this.waiting[t].delete(newcomer);
        // Seat the newcomer at s; whoever sat at s moves to the seat it was reached from, and so on.
        let mover: SeatPlayer | undefined = newcomer;
        for (let at = s; ; at = from[at]) {
          const previous = this.owner[at];
          this.owner[at] = mover;
          this.seatOf.set(mover!, at);
          if (at === seat) break;
          mover = previous;
        }
        this.matched++;
        return;
      }
      // Otherwise a seated player who could take s moves there, freeing their own seat.
      for (let t = 0; t < this.seats; t++) {
        const q = this.owner[t];
        if (q === undefined || visited[t] === search || !this.accepts(q, s)) continue;
        visited[t] = search;
        from[t] = s;
        queue.push(t);
      }
    }
  }

  /** A new mark for {@link visited} (wrapping round, the marks are cleared once). */
  private newSearch(): number {
    if (++this.searchId === 0xffffffff) {
      this.visited.fill(0);
      this.searchId = 1;
    }
    return this.searchId;
  }

  private accepts(player: SeatPlayer, seat: number): boolean {
    if (!((player.mask >> (seat % this.k)) & 1)) return false;
    // Sides exist with two teams only: seats below k are team A's.
    return player.side === undefined || player.side === (seat < this.k ? "A" : "B");
  }
}

/** The exact search for a game among a run's tickets: two teams' (sides honoured), or more teams'. */
type GameSearch = Pick<RoleGameSearch, "add" | "found"> & { game(): Array<{ ticket: Ticket }> };

/** A run of consecutive tickets under examination: its seat matching and, with parties, the exact search. */
class Run {
  private readonly matching: SeatMatching;
  private readonly nodes: Node[] = [];
  private start = 0;
  private parties = 0;
  private search: GameSearch | undefined;

  constructor(
    private readonly table: RoleTable,
    private readonly teams: number,
  ) {
    this.matching = new SeatMatching(table.k, teams);
  }

  push(node: Node): void {
    for (const p of node.players) this.matching.add(p);
    this.nodes.push(node);
    if (node.players.length > 1) this.parties++;
    this.search?.add(node.ticket);
  }

  /** Drop the run's first ticket. */
  shift(): void {
    const node = this.nodes[this.start++];
    for (const p of node.players) this.matching.remove(p);
    if (node.players.length > 1) this.parties--;
    this.search = undefined;
  }

  /** True when the run holds a role-valid game. */
  feasible(): boolean {
    if (!this.matching.complete) return false;
    if (this.parties === 0) return true;
    if (!this.search) {
      this.search =
        this.teams === 2 ? new RoleGameSearch(this.table, "choose") : new TeamsRoleSearch(this.table, this.teams);
      for (let i = this.start; i < this.nodes.length; i++) this.search.add(this.nodes[i].ticket);
    }
    return this.search.found;
  }

  /** The game a feasible run holds, in rating order. */
  game(): Node[] {
    const nodes =
      this.parties === 0
        ? [...new Set(this.matching.seated().map((p) => p.node))]
        : this.search!.game().map((step) => this.nodes.find((n) => n.ticket === step.ticket)!);
    return nodes.sort((a, b) => compareKeys(a.key, b.key));
  }
}

/** The minimal feasible windows of a pool of role-queue tickets, with the best candidate on top. */
export class RoleWindows {
  private readonly order: SortedTree<OrderKey, Node> = sortedTree<OrderKey, Node>(compareKeys);
  private readonly nodes = new Map<string, Node>();
  private head: Node | undefined;
  private tail: Node | undefined;
  /** The chain of minimal windows, by their first ticket. */
  private readonly windows: SortedTree<OrderKey, WindowRecord> = sortedTree<OrderKey, WindowRecord>(compareKeys);
  // On equal keys a split window comes first: its imbalance is final and no other can beat it.
  private readonly heap = new LazyHeap<WindowRecord>(
    (a, b) =>
      heapKey(a) - heapKey(b) ||
      Number(b.evaluated) - Number(a.evaluated) ||
      a.spread - b.spread ||
      compareKeys(a.left.key, b.left.key),
    (w) => w.alive,
  );
  /** All waiting players against the seats: no window can be feasible while this is incomplete. */
  private readonly pool: SeatMatching;
  private seq = 0;

  /**
   * @param evaluate the imbalance of the best role-valid split of a game's tickets (the
   * engine's assembly), or `undefined` if it has none.
   * @param lowerBound a lower bound of that imbalance from the game's lowest and highest
   * rating (default 0); it only orders the work, never the result.
   * @param teams teams in a game (2: sides are honoured; more: every team one player per role).
   */
  constructor(
    private readonly table: RoleTable,
    private readonly evaluate: (tickets: readonly Ticket[]) => number | undefined,
    private readonly lowerBound: (low: number, high: number) => number = () => 0,
    private readonly teams = 2,
  ) {
    this.pool = new SeatMatching(table.k, teams);
  }

  get size(): number {
    return this.nodes.size;
  }

  has(ticketId: string): boolean {
    return this.nodes.has(ticketId);
  }

  /** The candidate game of least imbalance, if the pool holds any role-valid game. */
  best(): RoleWindow | undefined {
    for (let top = this.heap.peek(); top; top = this.heap.peek()) {
      if (top.evaluated) return top;
      this.heap.pop();
      this.split(top);
      if (Number.isFinite(top.imbalance)) this.heap.push(top);
    }
    return undefined;
  }

  /** Every minimal window, in order, with its imbalance (for tests and diagnostics; the heap is left as it is). */
  minimalWindows(): RoleWindow[] {
    return [...this.windows.values()].map((w) => {
      const { tickets, spread, first, last } = w;
      return {
        tickets,
        spread,
        first,
        last,
        imbalance: w.evaluated ? w.imbalance : (this.evaluate(tickets) ?? Infinity),
      };
    });
  }

  add(ticket: Ticket): void {
    if (this.nodes.has(ticket.id)) this.remove([ticket.id]);
    let low = Infinity;
    let high = -Infinity;
    for (const p of ticket.players) {
      low = Math.min(low, p.rating);
      high = Math.max(high, p.rating);
    }
    const node: Node = { ticket, key: [low, this.seq++], high, players: [], prev: undefined, next: undefined };
    node.players = ticket.players.map((p) => ({ mask: this.table.maskOf(p), side: ticket.side, node }));
    const before = this.order.nextLowerPair(node.key)?.[1];
    node.prev = before;
    node.next = before ? before.next : this.head;
    if (node.prev) node.prev.next = node;
    else this.head = node;
    if (node.next) node.next.prev = node;
    else this.tail = node;
    this.order.set(node.key, node);
    this.nodes.set(ticket.id, node);
    for (const p of node.players) this.pool.add(p);
    this.repair([node.key]);
  }

  /** Remove tickets (unknown ids are ignored); the windows are repaired once for all of them. */
  remove(ticketIds: readonly string[]): void {
    const changed: OrderKey[] = [];
    for (const id of ticketIds) {
      const node = this.nodes.get(id);
      if (!node) continue;
      this.nodes.delete(id);
      this.order.delete(node.key);
      if (node.prev) node.prev.next = node.next;
      else this.head = node.next;
      if (node.next) node.next.prev = node.prev;
      else this.tail = node.prev;
      for (const p of node.players) this.pool.remove(p);
      changed.push(node.key);
    }
    if (changed.length > 0) this.repair(changed);
  }

  /**
   * After tickets at `changed` positions were inserted or deleted: drop the windows that span a
   * change, then sweep each gap between the nearest surviving windows for the new minimal ones.
   * A window not spanning any change keeps its feasibility and its minimality; a new minimal
   * window spans a change and lies strictly between two consecutive survivors.
   */
  private repair(changed: readonly OrderKey[]): void {
    for (const key of changed) {
      const spanning: WindowRecord[] = [];
      for (const [, w] of this.windows.entriesReversed(key)) {
        if (compareKeys(w.right.key, key) < 0) break;
        spanning.push(w);
      }
      for (const w of spanning) this.kill(w);
    }
    if (!this.pool.complete) return; // no run can hold a game; the chain is already empty
    const gaps = new Map<WindowRecord | undefined, WindowRecord | undefined>();
    for (const key of changed) {
      const before = this.windows.nextLowerPair(key)?.[1];
      if (!gaps.has(before)) gaps.set(before, this.windows.nextHigherPair(key)?.[1]);
    }
    for (const [before, after] of gaps)
      this.sweep(before ? before.left.next : this.head, after ? after.right.prev : this.tail);
  }

  /** Record every minimal feasible window of the run `from`..`to` (a two-pointer sweep). */
  private sweep(from: Node | undefined, to: Node | undefined): void {
    if (!from || !to || compareKeys(from.key, to.key) > 0) return;
    const end = to.next;
    const run = new Run(this.table, this.teams);
    let next: Node | undefined = from;
    let last: Node | undefined;
    for (let first: Node | undefined = from; first && first !== end; first = first.next) {
      while (!run.feasible() && next && next !== end) {
        run.push(next);
        last = next;
        next = next.next;
      }
      if (!run.feasible()) return;
      const game = run.game();
      run.shift();
      // Minimal: the shortest run from `first` is feasible and loses it without `first`.
      if (!run.feasible()) this.record(first, last!, game);
    }
  }

  private record(left: Node, right: Node, game: readonly Node[]): void {
    const tickets = game.map((n) => n.ticket);
    let low = Infinity;
    let high = -Infinity;
    for (const n of game) {
      low = Math.min(low, n.key[0]);
      high = Math.max(high, n.high);
    }
    const w: WindowRecord = {
      left,
      right,
      tickets,
      imbalance: Infinity,
      bound: this.lowerBound(low, high),
      evaluated: false,
      spread: high - low,
      first: left.ticket,
      last: right.ticket,
      alive: true,
    };
    this.windows.set(left.key, w);
    this.heap.push(w);
  }

  private split(w: WindowRecord): void {
    w.imbalance = this.evaluate(w.tickets) ?? Infinity;
    w.evaluated = true;
  }

  private kill(w: WindowRecord): void {
    w.alive = false;
    this.windows.delete(w.left.key);
    // Dead entries leave the heap lazily; it rebuilds itself when they dominate.
    this.heap.compact(this.windows.size, 64);
  }
}
