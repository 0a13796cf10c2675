/**
 * Recent-opponent avoidance (`avoidRecent: N`): a small community of players re-joins again and
 * again; an independent model of everyone's last N games checks that a rematch forms only when
 * the pool offers no other valid game at that moment, and only after both waited the fallback.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canAssemble } from "../../src/core/assembly.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { RecentOpponents } from "../../src/core/recent-opponents.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { party, sideArb } from "../helpers/tickets.js";

const PLAYERS = 6;
const FALLBACK = 5000;

/** Each player's last N games, as the model remembers them. */
class Model {
  private readonly games = new Map<string, string[][]>();
  constructor(private readonly n: number) {}
  record(match: Match): void {
    const ids = match.teams.flatMap((t) => t.players.map((p) => p.sessionId));
    for (const id of ids) {
      const list = this.games.get(id) ?? [];
      list.push(ids.filter((o) => o !== id));
      this.games.set(id, list.slice(-this.n));
    }
  }
  met(p: string, q: string): boolean {
    return (this.games.get(p) ?? []).some((g) => g.includes(q)) || (this.games.get(q) ?? []).some((g) => g.includes(p));
  }
  repeat(a: Ticket, b: Ticket): boolean {
    return a.players.some((p) => b.players.some((q) => this.met(p.sessionId, q.sessionId)));
  }
}

const setupArb = fc.record({
  policy: fc.constantFrom("greedy", "lifo", "expanding-window", "brackets"),
  n: fc.integer({ min: 1, max: 3 }),
});
const opArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("join" as const),
      player: fc.integer({ min: 0, max: PLAYERS - 1 }),
      side: sideArb,
      dt: fc.integer({ min: 0, max: 3000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("wait" as const), dt: fc.integer({ min: 1, max: 8000 }) }) },
);

describe("avoidRecent", () => {
  test.prop([setupArb, fc.array(opArb, { minLength: 5, maxLength: 80 })], { numRuns: 300 })(
    "no rematch within N games while the pool offers any other valid game; a rematch only after the fallback wait",
    ({ policy, n }, ops) => {
      const params = policy === "expanding-window" ? { initial: 1e6, growthPerSecond: 0 } : {};
      const mm = new Matchmaker({ teamSize: 1, policy, params, avoidRecent: n, avoidRecentFallbackMs: FALLBACK });
      const model = new Model(n);
      let now = 0;
      let seq = 0;
      const tick = () => {
        const pool = new Map([...mm.waiting()].map((t) => [t.id, t]));
        for (const m of mm.tick(now)) {
          const [a, b] = m.tickets;
          if (model.repeat(a, b)) {
            expect(
              Math.max(a.enqueuedAt, b.enqueuedAt) + FALLBACK,
              "rematch before the fallback wait",
            ).toBeLessThanOrEqual(now);
            const others = [...pool.values()];
            for (const x of others) {
              for (const y of others) {
                if (x.id < y.id && canAssemble([x, y], 1))
                  expect(model.repeat(x, y), `fresh game ${x.id}–${y.id} was available`).toBe(true);
              }
            }
          }
          for (const t of m.tickets) pool.delete(t.id);
          model.record(m);
        }
      };
      const advance = (to: number) => {
        for (let wake = mm.nextWakeup(now); wake !== undefined && wake <= to; wake = mm.nextWakeup(now)) {
          now = Math.max(now, wake);
          tick();
        }
        now = to;
      };
      for (const op of ops) {
        advance(now + op.dt);
        if (op.kind === "join") {
          const id = `p${op.player}`;
          if ([...mm.waiting()].some((t) => t.players[0].sessionId === id)) continue;
          mm.enqueue(
            { ...party(`t${seq++}`, [1500], { at: now, side: op.side }), players: [{ sessionId: id, rating: 1500 }] },
            now,
          );
        }
        tick();
      }
    },
  );

  it("two players who just met wait for the fallback while a third is on the way, then play someone new", () => {
    for (const policy of ["greedy", "expanding-window"]) {
      const mm = new Matchmaker({
        teamSize: 1,
        policy,
        params: policy === "greedy" ? {} : { initial: 1000, growthPerSecond: 0 },
        avoidRecent: 2,
        avoidRecentFallbackMs: 10_000,
      });
      const ticket = (tid: string, player: string, at: number): Ticket => ({
        id: tid,
        players: [{ sessionId: player, rating: 1500 }],
        enqueuedAt: at,
      });
      mm.enqueue(ticket("1", "ann", 0), 0);
      mm.enqueue(ticket("2", "bob", 0), 0);
      expect(mm.tick(0)).toHaveLength(1); // first meeting
      mm.enqueue(ticket("3", "ann", 1000), 1000);
      mm.enqueue(ticket("4", "bob", 1000), 1000);
      expect(mm.tick(1000), policy).toEqual([]); // a rematch, and nobody else
      mm.enqueue(ticket("5", "cid", 5000), 5000);
      const [m] = mm.tick(5000);
      const names = m.tickets.map((t) => t.players[0].sessionId);
      expect(names, policy).toContain("cid");
      // The one left over waits alone; at 11 s nobody is there to replay.
      const left = [...mm.waiting()];
      expect(left, policy).toHaveLength(1);
      expect(mm.tick(11_000)).toEqual([]);
    }
  });

  it("with nobody new, the old pair replays once both waited the fallback", () => {
    for (const policy of ["greedy", "expanding-window"]) {
      const mm = new Matchmaker({
        teamSize: 1,
        policy,
        params: policy === "greedy" ? {} : { initial: 1000, growthPerSecond: 0 },
        avoidRecent: 1,
        avoidRecentFallbackMs: 10_000,
      });
      const ticket = (tid: string, player: string, at: number): Ticket => ({
        id: tid,
        players: [{ sessionId: player, rating: 1500 }],
        enqueuedAt: at,
      });
      mm.enqueue(ticket("1", "ann", 0), 0);
      mm.enqueue(ticket("2", "bob", 0), 0);
      expect(mm.tick(0)).toHaveLength(1);
      mm.enqueue(ticket("3", "ann", 1000), 1000);
      mm.enqueue(ticket("4", "bob", 2000), 2000);
      let now = 2000;
      const formed: number[] = [];
      for (let wake = mm.nextWakeup(now); wake !== undefined && formed.length === 0; wake = mm.nextWakeup(now)) {
        now = wake;
        if (mm.tick(now).length > 0) formed.push(now);
      }
      expect(formed, policy).toEqual([12_000]);
    }
  });

  it("with a time span, a rematch is allowed once the last meeting is older than the span", () => {
    for (const policy of ["greedy", "expanding-window"]) {
      const mm = new Matchmaker({
        teamSize: 1,
        policy,
        params: policy === "greedy" ? {} : { initial: 1000, growthPerSecond: 0 },
        avoidRecent: 3,
        avoidRecentFallbackMs: 60_000,
        avoidRecentMs: 5000,
      });
      const ticket = (tid: string, player: string, at: number): Ticket => ({
        id: tid,
        players: [{ sessionId: player, rating: 1500 }],
        enqueuedAt: at,
      });
      mm.enqueue(ticket("1", "ann", 0), 0);
      mm.enqueue(ticket("2", "bob", 0), 0);
      expect(mm.tick(0)).toHaveLength(1);
      mm.enqueue(ticket("3", "ann", 1000), 1000);
      mm.enqueue(ticket("4", "bob", 1000), 1000);
      expect(mm.tick(4999), policy).toEqual([]);
      if (policy === "expanding-window") expect(mm.nextWakeup(4999)).toBe(5000); // exact; greedy notices at its next poll
      expect(mm.tick(5000), policy).toHaveLength(1);
    }
  });

  it("keeps at most N games per player and forgets the least recently matched players first", () => {
    const history = new RecentOpponents(2, 0, 10);
    const game = (id: string, a: string, b: string) =>
      ({
        id,
        createdAt: Number(id),
        teams: [
          { side: "A", players: [{ sessionId: a, rating: 0, ticketId: a, waitMs: 0 }], ticketIds: [a], ratingSum: 0 },
          { side: "B", players: [{ sessionId: b, rating: 0, ticketId: b, waitMs: 0 }], ticketIds: [b], ratingSum: 0 },
        ],
      }) as unknown as Match;
    history.record(game("1", "ann", "bob"));
    history.record(game("2", "ann", "cid"));
    expect(history.metRecently("ann", "bob")).toBe(true);
    history.record(game("3", "ann", "dan"));
    expect(history.metRecently("bob", "ann")).toBe(true); // still in bob's own last 2
    history.record(game("4", "bob", "eve"));
    history.record(game("5", "bob", "fay"));
    expect(history.metRecently("ann", "bob")).toBe(false); // out of both windows
    const small = new RecentOpponents(1, 0, 3);
    small.record(game("1", "ann", "bob"));
    small.record(game("2", "cid", "dan")); // 4 players: ann, the least recently matched, is forgotten
    expect(small.players).toBe(3);
    expect(small.metRecently("ann", "bob")).toBe(true); // bob still remembers ann
    small.record(game("3", "eve", "fay"));
    expect(small.players).toBe(3);
    expect(small.metRecently("ann", "bob")).toBe(false);
  });
});
