/**
 * `best-game` against brute force on random small pools (n ≤ 12 tickets; teamSize 1–3; solos
 * and parties, with and without sides), built by random sequences of inserts and deletes.
 *
 * - Window ≥ n − 1 (Lemma 2's default window for small alpha and q, or an explicit one), exhaustive
 *   budget: the first game one poll forms has the least imbalance over ALL games of the pool
 *   (with beta > 0: the least f + beta·oldest).
 * - Lemma 2 proper: solos without sides, window = Lemma 2's bound < n − 1: still the pool's best.
 * - Engine sessions with random parameters: the engine's guarantees hold.
 * - Narrower windows: the game is the exact best among games spanning at most `window` positions
 *   after their lowest ticket (rating order, ties by arrival); with solos and no sides and any
 *   budget, Alman–McKay's imbalance is within rho = 2·k^(1/q)·(1+alpha) of the pool's best, and
 *   rating-sum's is at most the smallest rating span of 2k consecutive solos.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { almanMcKay, ratingSumDifference, type ImbalanceFn, type ResolvedImbalance } from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Player, Ticket } from "../../src/core/types.js";
import { BestGamePolicy, lemma2Window } from "../../src/policies/best-game.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { expectEachTicketOnce, expectValidMatch } from "../helpers/match-checks.js";
import { party, ticketSpecArb, type TicketSpec } from "../helpers/tickets.js";
import { twoTeamFields } from "../../src/core/policy.js";

type Op = { kind: "add"; spec: TicketSpec; at: number } | { kind: "remove"; pick: number };

const playersOf = (tickets: readonly Ticket[]): Player[] => tickets.flatMap((t) => [...t.players]);
const seatsOf = (tickets: readonly Ticket[]): number => tickets.reduce((n, t) => n + t.players.length, 0);
const meanOf = (t: Ticket): number => t.players.reduce((s, p) => s + p.rating, 0) / t.players.length;

/** Alman–McKay imbalances compare up to rounding (sums of powers taken in different orders). */
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

interface Game {
  teamA: Ticket[];
  teamB: Ticket[];
  tickets: Ticket[];
}

/**
 * Every valid game of `pool`: two disjoint sets of whole tickets, k players each, side-A tickets
 * only on A and side-B only on B. Each unordered game appears once or twice (once per side order
 * its tickets allow), which does not change a minimum.
 */
function* allGames(pool: readonly Ticket[], k: number): Generator<Game> {
  const n = pool.length;
  const seats: number[] = new Array(1 << n).fill(0);
  const hasA: boolean[] = new Array(1 << n).fill(false);
  const hasB: boolean[] = new Array(1 << n).fill(false);
  for (let m = 1; m < 1 << n; m++) {
    const i = 31 - Math.clz32(m);
    const rest = m & ~(1 << i);
    seats[m] = seats[rest] + pool[i].players.length;
    hasA[m] = hasA[rest] || pool[i].side === "A";
    hasB[m] = hasB[rest] || pool[i].side === "B";
  }
  const pick = (m: number) => pool.filter((_, i) => m & (1 << i));
  for (let a = 1; a < 1 << n; a++) {
    if (seats[a] !== k || hasB[a]) continue;
    const free = ((1 << n) - 1) & ~a;
    for (let b = free; b > 0; b = (b - 1) & free) {
      if (seats[b] !== k || hasA[b]) continue;
      const teamA = pick(a);
      const teamB = pick(b);
      yield { teamA, teamB, tickets: pick(a | b) };
    }
  }
}

/** The least value of `value` over the games `accept` admits (undefined when there are none). */
function bruteBest(
  pool: readonly Ticket[],
  k: number,
  value: (g: Game) => number,
  accept: (g: Game) => boolean = () => true,
): number | undefined {
  let best: number | undefined;
  for (const g of allGames(pool, k)) {
    if (!accept(g)) continue;
    const x = value(g);
    if (best === undefined || x < best) best = x;
  }
  return best;
}

/** The least imbalance over the splits of one chosen set of tickets. */
function bestSplit(tickets: readonly Ticket[], k: number, f: ImbalanceFn): number {
  return bruteBest(tickets, k, (g) => f(playersOf(g.teamA), playersOf(g.teamB)))!;
}

/** A pool driven through the policy and mirrored in arrival (seq) order. */
class Session {
  readonly policy: BestGamePolicy;
  /** Waiting tickets with the order the policy saw them added in. */
  readonly pool: { ticket: Ticket; seq: number }[] = [];
  private seq = 0;
  private issued = 0;

  constructor(k: number, spec: ResolvedImbalance, f: ImbalanceFn, params: Record<string, unknown>) {
    this.policy = defaultPolicies.create(
      "best-game",
      { ...twoTeamFields(k), imbalance: f, imbalanceSpec: spec },
      params,
    ) as BestGamePolicy;
  }

  run(ops: readonly Op[], maxPool: number): void {
    for (const op of ops) {
      if (op.kind === "add") {
        if (this.pool.length >= maxPool) continue;
        const ticket = party(`t${this.issued++}`, op.spec.ratings, { at: op.at, side: op.spec.side });
        this.policy.add(ticket, op.at);
        this.pool.push({ ticket, seq: this.seq++ });
      } else if (this.pool.length > 0) {
        const [gone] = this.pool.splice(op.pick % this.pool.length, 1);
        this.policy.remove(gone.ticket.id);
      }
    }
  }

  get tickets(): Ticket[] {
    return this.pool.map((e) => e.ticket);
  }

  /** Position of each waiting ticket in rating order (mean rating, then arrival). */
  positions(): Map<string, number> {
    const sorted = [...this.pool].sort((a, b) => meanOf(a.ticket) - meanOf(b.ticket) || a.seq - b.seq);
    return new Map(sorted.map((e, i) => [e.ticket.id, i]));
  }
}

const opsArb = (k: number, solosOnly: boolean): fc.Arbitrary<Op[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant("add" as const),
          spec: solosOnly ? ticketSpecArb(1, fc.constant(undefined)) : ticketSpecArb(k),
          at: fc.integer({ min: 0, max: 100_000 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
    ),
    { minLength: 1, maxLength: 24 },
  );

/** k = 3 pools stay at 10 tickets so that brute force over all games stays quick. */
const maxPoolFor = (k: number): number => (k === 3 ? 10 : 12);

const exponentArb = fc.constantFrom(1, 2, Infinity);

const almanArb = () =>
  fc
    .record({ alpha: fc.constantFrom(0, 0.25, 0.5, 1, 2, 3), p: exponentArb, q: exponentArb })
    .map((a): ResolvedImbalance => ({ kind: "alman-mckay", alpha: a.alpha, p: a.p, q: a.q, floor: 0 }));

const fOf = (spec: ResolvedImbalance): ImbalanceFn =>
  spec.kind === "alman-mckay" ? almanMcKay(spec) : ratingSumDifference;
const gameImbalance = (g: Game, f: ImbalanceFn) => f(playersOf(g.teamA), playersOf(g.teamB));

describe("best-game equals brute force when the window covers the pool", () => {
  test.prop(
    [
      fc
        .integer({ min: 1, max: 3 })
        .chain((k) => fc.record({ k: fc.constant(k), spec: almanArb(), ops: opsArb(k, false) })),
    ],
    { numRuns: 700 },
  )("Alman–McKay, Lemma 2's default window ≥ n − 1, parties and sides", ({ k, spec, ops }) => {
    if (spec.kind !== "alman-mckay") throw new Error("unreachable");
    const window = lemma2Window(k, spec.alpha, spec.q);
    const f = fOf(spec);
    const s = new Session(k, spec, f, { budget: Infinity });
    expect(s.policy.window).toBe(window);
    s.run(ops, Math.min(maxPoolFor(k), window + 1));
    const best = bruteBest(s.tickets, k, (g) => gameImbalance(g, f));
    const games = s.policy.poll(0);
    if (best === undefined) {
      expect(games).toEqual([]);
      return;
    }
    expect(games.length).toBeGreaterThan(0);
    const got = bestSplit(games[0], k, f);
    expect(close(got, best), `got ${got}, brute force ${best}`).toBe(true);
  });

  test.prop(
    [
      fc
        .integer({ min: 1, max: 3 })
        .chain((k) => fc.record({ k: fc.constant(k), beta: fc.constantFrom(0, 0, 0.5, 20), ops: opsArb(k, false) })),
    ],
    { numRuns: 700 },
  )("rating-sum, window ≥ n, with and without beta (then the least f + beta·oldest)", ({ k, beta, ops }) => {
    const f = ratingSumDifference;
    const s = new Session(k, { kind: "rating-sum" }, f, { window: 12, budget: "inf", beta });
    s.run(ops, maxPoolFor(k));
    const key = (tickets: readonly Ticket[], imbalance: number) =>
      imbalance + (beta * Math.min(...tickets.map((t) => t.enqueuedAt))) / 1000;
    const best = bruteBest(s.tickets, k, (g) => key(g.tickets, gameImbalance(g, f)));
    const games = s.policy.poll(0);
    if (best === undefined) {
      expect(games).toEqual([]);
      return;
    }
    expect(games.length).toBeGreaterThan(0);
    const got = key(games[0], bestSplit(games[0], k, f));
    expect(close(got, best), `got ${got}, brute force ${best}`).toBe(true);
    // The games formed afterwards are disjoint and each is a valid game.
    const seen = new Set<string>();
    for (const g of games) {
      expect(seatsOf(g)).toBe(2 * k);
      for (const t of g) {
        expect(seen.has(t.id)).toBe(false);
        seen.add(t.id);
      }
    }
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 2 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          alpha: fc.constantFrom(0, 0.25),
          p: exponentArb,
          q: fc.constant(Infinity),
          ops: opsArb(k, true),
        }),
      ),
    ],
    { numRuns: 300 },
  )(
    "Lemma 2 proper: solos without sides, window = Lemma 2's bound, which may be < n − 1",
    ({ k, alpha, p, q, ops }) => {
      const spec: ResolvedImbalance = { kind: "alman-mckay", alpha, p, q, floor: 0 };
      const f = fOf(spec);
      const s = new Session(k, spec, f, { budget: Infinity });
      expect(s.policy.window).toBe(lemma2Window(k, alpha, q));
      s.run(ops, 12);
      const best = bruteBest(s.tickets, k, (g) => gameImbalance(g, f));
      const games = s.policy.poll(0);
      expect(games.length > 0).toBe(best !== undefined);
      if (best === undefined) return;
      const got = bestSplit(games[0], k, f);
      expect(close(got, best), `got ${got}, brute force ${best} (window ${s.policy.window}, n ${s.pool.length})`).toBe(
        true,
      );
    },
  );
});

describe("best-game with a narrower window: exact among windows, and the documented bounds", () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 3 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          extra: fc.integer({ min: 0, max: 4 }),
          alman: fc.boolean(),
          spec: almanArb(),
          ops: opsArb(k, false),
        }),
      ),
    ],
    { numRuns: 600 },
  )("exhaustive budget: the best game among those spanning ≤ window positions", ({ k, extra, alman, spec, ops }) => {
    const window = 2 * k - 1 + extra;
    const used = alman ? spec : ({ kind: "rating-sum" } as const);
    const f = fOf(used);
    const s = new Session(k, used, f, { window, budget: Infinity });
    s.run(ops, maxPoolFor(k));
    const pos = s.positions();
    const within = (g: Game) => {
      const ps = g.tickets.map((t) => pos.get(t.id)!);
      return Math.max(...ps) - Math.min(...ps) <= window;
    };
    const best = bruteBest(s.tickets, k, (g) => gameImbalance(g, f), within);
    const games = s.policy.poll(0);
    expect(games.length > 0).toBe(best !== undefined);
    if (best === undefined) return;
    const got = bestSplit(games[0], k, f);
    expect(close(got, best), `got ${got}, brute force within window ${best}`).toBe(true);
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 3 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          extra: fc.integer({ min: 0, max: 3 }),
          budget: fc.constantFrom<number | undefined>(undefined, 1, 10, 50),
          alman: fc.boolean(),
          spec: almanArb(),
          ops: opsArb(k, true),
        }),
      ),
    ],
    { numRuns: 600 },
  )(
    "solos without sides, any budget: within rho of the best (Alman–McKay), within the tightest 2k-block span (rating-sum)",
    ({ k, extra, budget, alman, spec, ops }) => {
      const window = 2 * k - 1 + extra;
      const used = alman ? spec : ({ kind: "rating-sum" } as const);
      const f = fOf(used);
      const s = new Session(k, used, f, budget === undefined ? { window } : { window, budget });
      s.run(ops, maxPoolFor(k));
      const games = s.policy.poll(0);
      const n = s.pool.length;
      expect(games.length > 0).toBe(n >= 2 * k);
      if (n < 2 * k) return;
      const got = bestSplit(games[0], k, f);
      if (used.kind === "alman-mckay") {
        const best = bruteBest(s.tickets, k, (g) => gameImbalance(g, f))!;
        const rho = 2 * (used.q === Infinity ? 1 : k ** (1 / used.q)) * (1 + used.alpha);
        expect(got <= rho * best + 1e-9, `got ${got}, best ${best}, rho ${rho}`).toBe(true);
      } else {
        const ratings = s.tickets.map((t) => t.players[0].rating).sort((a, b) => a - b);
        let span = Infinity;
        for (let i = 0; i + 2 * k - 1 < n; i++) span = Math.min(span, ratings[i + 2 * k - 1] - ratings[i]);
        expect(got).toBeLessThanOrEqual(span);
      }
    },
  );
});

describe("best-game in the engine", () => {
  type EngineOp =
    | { kind: "enqueue"; dt: number; spec: TicketSpec }
    | { kind: "cancel"; dt: number; pick: number }
    | { kind: "tick"; dt: number }
    | { kind: "requeue"; dt: number; pick: number };
  const dtArb = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1500 }));
  const paramsArb = (k: number) =>
    fc.record(
      {
        window: fc.integer({ min: 2 * k - 1, max: 4 * k + 2 }),
        budget: fc.constantFrom(1, 16, 128, Infinity),
        threshold: fc.constantFrom(0, 100, 1000, Infinity),
        thresholdGrowthPerSecond: fc.constantFrom(0, 10, 500),
        beta: fc.constantFrom(0, 1, 50),
      },
      { requiredKeys: [] },
    );
  const sessionArb = fc.integer({ min: 1, max: 3 }).chain((k) =>
    fc.record({
      k: fc.constant(k),
      params: paramsArb(k),
      bots: fc.boolean(),
      ops: fc.array<EngineOp>(
        fc.oneof(
          {
            weight: 6,
            arbitrary: fc.record({ kind: fc.constant("enqueue" as const), dt: dtArb, spec: ticketSpecArb(k) }),
          },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), dt: dtArb, pick: fc.nat() }) },
          { weight: 3, arbitrary: fc.record({ kind: fc.constant("tick" as const), dt: dtArb }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant("requeue" as const), dt: dtArb, pick: fc.nat() }) },
        ),
        { maxLength: 40 },
      ),
    }),
  );

  test.prop([sessionArb], { numRuns: 250 })(
    "nobody lost or duplicated, valid matches, no policy errors; a wake-up is never in the past and one due now forms a game",
    ({ k, params, bots, ops }) => {
      const mm = new Matchmaker({
        teamSize: k,
        policy: "best-game",
        params,
        ...(bots ? { maxWaitMs: 2000, fillWithBots: true } : {}),
      });
      const issued: Ticket[] = [];
      const cancelled = new Set<string>();
      const active: Match[] = [];
      let now = 0;
      const tick = () => {
        for (const m of mm.tick(now)) {
          expectValidMatch(m, k);
          active.push(m);
        }
        expect(mm.stats(now).policyErrors).toBe(0);
        const wake = mm.nextWakeup(now);
        if (wake !== undefined) expect(wake).toBeGreaterThanOrEqual(now);
        // A game due now (a bot game took tickets after the poll) forms on the next tick.
        if (wake === now) {
          const before = active.length;
          for (const m of mm.tick(now)) active.push(m);
          expect(active.length).toBeGreaterThan(before);
        }
      };
      for (const op of ops) {
        now += op.dt;
        if (op.kind === "enqueue") {
          const ticket = party(`t${issued.length}`, op.spec.ratings, { at: now, side: op.spec.side });
          issued.push(ticket);
          mm.enqueue(ticket, now);
        } else if (op.kind === "cancel") {
          const id = issued.length ? issued[op.pick % issued.length].id : "none";
          if (mm.cancel(id, now)) cancelled.add(id);
        } else if (op.kind === "requeue" && active.length > 0) {
          const [m] = active.splice(op.pick % active.length, 1);
          expect(mm.requeue(m.tickets, now)).toEqual([]);
        }
        tick();
        expectEachTicketOnce(issued, { waiting: mm.waiting(), cancelled, matched: active });
      }
    },
  );
});
