/**
 * Blocks (queue option `blocked`): two accounts one of which blocked the other are never in one
 * match, whatever the policy, and the tickets around them still play: the newer ticket of a
 * blocked pair is held back for the rest of the engine's run, then those held back get a turn
 * without the tickets they are blocked with.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canAssemble } from "../../src/core/assembly.js";
import { BlockList } from "../../src/core/blocks.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker, type MatchmakerOptions } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";

/** A solo whose session id and account are both `id`. */
const solo = (id: string, at: number, rating = 1500): Ticket => ({
  id,
  players: [{ sessionId: id, rating, playerId: id }],
  enqueuedAt: at,
});

const accountsOf = (m: Match) => m.teams.flatMap((t) => t.players.filter((p) => !p.bot).map((p) => p.playerId!));
const pairsOf = (matches: readonly Match[]) => matches.map((m) => accountsOf(m).sort().join("-")).sort();

function engine(blocks: BlockList, options: Partial<MatchmakerOptions> = {}): Matchmaker {
  return new Matchmaker({ teamSize: 1, blocked: (a, b) => blocks.has(a, b), ...options });
}

describe("BlockList", () => {
  it("a block goes one way and keeps the two apart both ways; unblock lifts only that one", () => {
    const blocks = new BlockList();
    blocks.block("ann", "bob");
    blocks.block("ann", "bob");
    blocks.block("ann", "ann");
    expect(blocks.size).toBe(1);
    expect(blocks.has("ann", "bob")).toBe(true);
    expect(blocks.has("bob", "ann")).toBe(true);
    expect(blocks.has("ann", "cid")).toBe(false);
    blocks.block("bob", "ann");
    blocks.unblock("ann", "bob");
    expect(blocks.has("ann", "bob")).toBe(true); // bob's own block stays
    blocks.unblock("bob", "ann");
    expect(blocks.has("ann", "bob")).toBe(false);
    expect(blocks.size).toBe(0);
  });
});

describe("the engine never forms a game with a blocked pair", () => {
  it("refuses an option that is not a function, naming it", () => {
    expect(() => new Matchmaker({ teamSize: 1, blocked: "ann" as never })).toThrow(/blocked: must be a function/);
    try {
      new Matchmaker({ teamSize: 1, blocked: 1 as never });
    } catch (error) {
      expect((error as MatchmakerError).field).toBe("blocked");
    }
  });

  for (const policy of ["greedy", "best-game"]) {
    it(`${policy}: two blocked players alone wait; a third plays the older, the newer waits on`, () => {
      const blocks = new BlockList();
      blocks.block("b", "a");
      const mm = engine(blocks, { policy });
      mm.enqueue(solo("a", 0), 0);
      mm.enqueue(solo("b", 1), 1);
      expect(mm.tick(1)).toEqual([]);
      expect(mm.size).toBe(2);
      expect(mm.stats(1).blockedGames).toBeGreaterThan(0);
      expect(mm.stats(1).policyErrors).toBe(0);
      mm.enqueue(solo("c", 2, 1700), 2);
      expect(pairsOf(mm.tick(2))).toEqual(["a-c"]);
      expect([...mm.waiting()].map((t) => t.id)).toEqual(["b"]);
      // b kept its place: the next arrival plays it.
      mm.enqueue(solo("d", 3), 3);
      expect(pairsOf(mm.tick(3))).toEqual(["b-d"]);
    });

    it(`${policy}: one player blocked by two others: the two still meet`, () => {
      const blocks = new BlockList();
      blocks.block("a", "b");
      blocks.block("a", "c");
      const mm = engine(blocks, { policy });
      mm.enqueue(solo("a", 0, 1500), 0);
      mm.enqueue(solo("b", 1, 1510), 1);
      mm.enqueue(solo("c", 2, 1490), 2);
      expect(pairsOf(mm.tick(2))).toEqual(["b-c"]);
      expect([...mm.waiting()].map((t) => t.id)).toEqual(["a"]);
    });
  }

  it("2v2 (greedy): the oldest four hold a blocked pair; the game forms without the newer of it", () => {
    const blocks = new BlockList();
    blocks.block("t1", "t3");
    const mm = engine(blocks, { teamSize: 2 });
    for (let i = 0; i < 5; i++) mm.enqueue(solo(`t${i}`, i), i);
    const [match] = mm.tick(5) as [Match];
    expect(accountsOf(match).sort()).toEqual(["t0", "t1", "t2", "t4"]);
    expect([...mm.waiting()].map((t) => t.id)).toEqual(["t3"]);
  });

  it("in a queue with zones: the pair is kept apart in every zone, the others play", () => {
    const blocks = new BlockList();
    blocks.block("a", "b");
    blocks.block("a", "c");
    const mm = engine(blocks, { zones: ["eu", "na"] });
    mm.enqueue(solo("a", 0), 0);
    mm.enqueue(solo("b", 1), 1);
    mm.enqueue(solo("c", 2), 2);
    expect(pairsOf(mm.tick(2))).toEqual(["b-c"]);
    expect([...mm.waiting()].map((t) => [t.id, mm.zonesOfTicket(t.id)])).toEqual([["a", ["eu", "na"]]]);
    mm.enqueue(solo("d", 3), 3);
    expect(pairsOf(mm.tick(3))).toEqual(["a-d"]);
  });

  it("a party's own members are their choice; the rule is between tickets", () => {
    const blocks = new BlockList();
    blocks.block("p1", "p2");
    const mm = engine(blocks, { teamSize: 2 });
    mm.enqueue(
      {
        id: "party",
        players: [
          { sessionId: "p1", rating: 1500, playerId: "p1" },
          { sessionId: "p2", rating: 1500, playerId: "p2" },
        ],
        enqueuedAt: 0,
      },
      0,
    );
    mm.enqueue(solo("x", 1), 1);
    mm.enqueue(solo("y", 1), 1);
    expect(mm.tick(1)).toHaveLength(1);
  });

  it("bot games never seat a blocked pair together", () => {
    const blocks = new BlockList();
    blocks.block("a", "b");
    const mm = engine(blocks, { teamSize: 2, maxWaitMs: 1000, fillWithBots: true });
    mm.enqueue(solo("a", 0), 0);
    mm.enqueue(solo("b", 10), 10);
    const first = mm.tick(1000);
    expect(first).toHaveLength(1);
    expect(accountsOf(first[0]!)).toEqual(["a"]);
    expect(accountsOf(mm.tick(1010)[0]!)).toEqual(["b"]);
  });

  it("accounts are playerId, else the session id; the rule is asked about accounts", () => {
    const asked: string[] = [];
    const mm = new Matchmaker({
      teamSize: 1,
      blocked: (a, b) => {
        asked.push([a, b].sort().join("-"));
        return false;
      },
    });
    mm.enqueue({ id: "s1", players: [{ sessionId: "s1", rating: 1, playerId: "acct" }], enqueuedAt: 0 }, 0);
    mm.enqueue({ id: "s2", players: [{ sessionId: "s2", rating: 1 }], enqueuedAt: 0 }, 0);
    expect(mm.tick(0)).toHaveLength(1);
    expect(asked).toEqual(["acct-s2"]);
  });
});

const POLICIES = [
  "greedy",
  "best-game",
  "fifo",
  "lifo",
  "packing",
  "two-queue",
  "patient",
  "multi-queue",
  "difference-wait",
  "expanding-window",
  "brackets",
  "weighted-pairing",
  "density-window",
  "periodic",
];

const arrivalArb = fc.record({
  dt: fc.integer({ min: 0, max: 400 }),
  account: fc.integer({ min: 0, max: 9 }),
  rating: fc.integer({ min: 1000, max: 2000 }),
});

describe("blocks under random traffic", () => {
  test.prop(
    [
      fc.constantFrom(...POLICIES),
      fc.constantFrom(1, 2),
      fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })), { maxLength: 12 }),
      fc.array(arrivalArb, { minLength: 1, maxLength: 60 }),
    ],
    { numRuns: 300 },
  )("no match holds a blocked pair, for every policy; nobody is lost", (policy, teamSize, pairs, arrivals) => {
    const blocks = new BlockList();
    for (const [a, b] of pairs) blocks.block(`acct${a}`, `acct${b}`);
    const mm = new Matchmaker({
      teamSize,
      policy,
      maxWaitMs: 5000,
      fillWithBots: true,
      blocked: (a, b) => blocks.has(a, b),
    });
    let now = 0;
    let seq = 0;
    let entered = 0;
    let matched = 0;
    const check = (matches: readonly Match[]) => {
      for (const m of matches) {
        const own = accountsOf(m);
        for (const a of own) for (const b of own) if (a !== b) expect(blocks.has(a, b), `${a} with ${b}`).toBe(false);
        matched += m.tickets.length;
      }
    };
    for (const a of arrivals) {
      now += a.dt;
      const id = `s${seq++}`;
      try {
        mm.enqueue(
          { id, players: [{ sessionId: id, rating: a.rating, playerId: `acct${a.account}` }], enqueuedAt: now },
          now,
        );
        entered++;
      } catch (error) {
        expect((error as MatchmakerError).code).toBe("duplicate_account");
      }
      check(mm.tick(now));
    }
    // Everyone plays by the maximum wait (with bots where the blocks leave nobody else).
    for (let step = 0; step < 20 && mm.size > 0; step++) check(mm.tick((now += 1000)));
    expect(mm.size).toBe(0);
    expect(matched).toBe(entered);
    expect(mm.stats(now).policyErrors).toBe(0);
  });

  test.prop(
    [
      fc.constantFrom("greedy", "best-game"),
      fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })), { maxLength: 8 }),
      fc.array(arrivalArb, { minLength: 1, maxLength: 40 }),
    ],
    { numRuns: 300 },
  )(
    "1v1 greedy and best-game are not stuck: after each run no two waiting players that may meet are left",
    (policy, pairs, arrivals) => {
      const blocks = new BlockList();
      for (const [a, b] of pairs) blocks.block(`acct${a}`, `acct${b}`);
      const mm = engine(blocks, { policy });
      let now = 0;
      let seq = 0;
      for (const a of arrivals) {
        now += a.dt;
        const id = `s${seq++}`;
        try {
          mm.enqueue(
            { id, players: [{ sessionId: id, rating: a.rating, playerId: `acct${a.account % 8}` }], enqueuedAt: now },
            now,
          );
        } catch {
          continue; // the account already waits
        }
        mm.tick(now);
        const waiting = [...mm.waiting()];
        for (const x of waiting)
          for (const y of waiting)
            if (x.id < y.id && canAssemble([x, y], 1))
              expect(
                blocks.has(x.players[0]!.playerId!, y.players[0]!.playerId!),
                `${x.players[0]!.playerId} and ${y.players[0]!.playerId} both wait`,
              ).toBe(true);
      }
    },
  );
});
