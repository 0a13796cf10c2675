import { describe, expect, it, vi } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Policy } from "../../src/core/policy.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { idSet, ids, party, solo } from "../helpers/tickets.js";

/** Everything a failed call must leave untouched. */
function snapshot(mm: Matchmaker, now = 0) {
  return { size: mm.size, players: mm.waitingPlayers, waiting: ids(mm.waiting()), stats: mm.stats(now) };
}

function expectRefused(mm: Matchmaker, ticket: unknown, code: MatchmakerError["code"], mentions?: string) {
  const before = snapshot(mm);
  let caught: unknown;
  try {
    mm.enqueue(ticket as Ticket, 0);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(MatchmakerError);
  expect((caught as MatchmakerError).code).toBe(code);
  if (mentions) expect((caught as MatchmakerError).message).toContain(mentions);
  expect(snapshot(mm)).toEqual(before);
}

describe("Matchmaker.enqueue validation", () => {
  const withPlayer = (player: Record<string, unknown>) => ({ id: "bad", players: [player], enqueuedAt: 0 });

  it.each([
    ["a NaN rating", withPlayer({ sessionId: "p", rating: NaN }), "rating"],
    ["an infinite rating", withPlayer({ sessionId: "p", rating: Infinity }), "rating"],
    ["a string rating", withPlayer({ sessionId: "p", rating: "1500" }), "rating"],
    ["an empty player id", withPlayer({ sessionId: "", rating: 1500 }), "id"],
    ["an unknown player field", withPlayer({ sessionId: "p", rating: 1500, admin: true }), "admin"],
    ["an empty ticket id", { id: "", players: [{ sessionId: "p", rating: 1 }], enqueuedAt: 0 }, "id"],
    ["zero players", { id: "bad", players: [], enqueuedAt: 0 }, "players"],
    ["a party larger than teamSize", party("bad", [1, 2, 3]), "teamSize = 2"],
    ["a NaN enqueue time", { ...solo("bad"), enqueuedAt: NaN }, "enqueuedAt"],
    ["an unknown side", { ...solo("bad"), side: "C" }, "side"],
    ["zones in a zone-less queue", { ...solo("bad"), zones: ["eu"] }, "zones"],
  ])("refuses %s with invalid_ticket and changes nothing", (_, ticket, mentions) => {
    const mm = new Matchmaker({ teamSize: 2 });
    mm.enqueue(solo("w", 1500), 0);
    expectRefused(mm, ticket, "invalid_ticket", mentions);
  });

  it("refuses a ticket id that is already waiting with duplicate_ticket", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    mm.enqueue(solo("t"), 0);
    expectRefused(
      mm,
      { id: "t", players: [{ sessionId: "someone-else", rating: 1 }], enqueuedAt: 0 },
      "duplicate_ticket",
      '"t"',
    );
  });

  it("refuses a player already waiting in another ticket with duplicate_player", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    mm.enqueue(solo("t1"), 0); // player "t1/0"
    expectRefused(
      mm,
      {
        id: "t2",
        players: [
          { sessionId: "fresh", rating: 1 },
          { sessionId: "t1/0", rating: 1 },
        ],
        enqueuedAt: 0,
      },
      "duplicate_player",
      "t1/0",
    );
  });

  it("refuses the same player twice in one ticket with duplicate_player", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    expectRefused(
      mm,
      {
        id: "t",
        players: [
          { sessionId: "p", rating: 1 },
          { sessionId: "p", rating: 1 },
        ],
        enqueuedAt: 0,
      },
      "duplicate_player",
    );
  });

  it("does not hand a refused ticket to the policy: it never plays", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a"), 0);
    expect(() => mm.enqueue(withPlayer({ sessionId: "p", rating: NaN }) as unknown as Ticket, 1)).toThrow(
      MatchmakerError,
    );
    expect(() => mm.enqueue({ id: "dup", players: [{ sessionId: "a/0", rating: 1 }], enqueuedAt: 1 }, 1)).toThrow(
      MatchmakerError,
    );
    expect(mm.tick(1)).toEqual([]);
    const [match] = (mm.enqueue(solo("c"), 2), mm.tick(2));
    expect(idSet(match.tickets)).toEqual(["a", "c"]);
  });

  it("lets a player queue again once their ticket was matched or cancelled", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a"), 0);
    mm.enqueue(solo("b"), 0);
    expect(mm.tick(0)).toHaveLength(1);
    expect(() => mm.enqueue(solo("a", 1500, { at: 10 }), 10)).not.toThrow();
    expect(mm.cancel("a")).toBe(true);
    expect(() => mm.enqueue(solo("a", 1500, { at: 20 }), 20)).not.toThrow();
    expect(ids(mm.waiting())).toEqual(["a"]);
  });
});

describe("Matchmaker.cancel", () => {
  it("removes a waiting ticket, which then never plays", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(party("a", [1500]), 0);
    expect(mm.has("a")).toBe(true);
    expect(mm.cancel("a", 1)).toBe(true);
    expect(mm.has("a")).toBe(false);
    expect(mm.get("a")).toBeUndefined();
    expect(mm.size).toBe(0);
    expect(mm.waitingPlayers).toBe(0);
    mm.enqueue(solo("b", 1500, { at: 2 }), 2);
    expect(mm.tick(2)).toEqual([]);
    mm.enqueue(solo("c", 1500, { at: 3 }), 3);
    expect(mm.tick(3).map((m) => idSet(m.tickets))).toEqual([["b", "c"]]);
  });

  it("returns false for unknown, already cancelled and already matched tickets", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    expect(mm.cancel("ghost")).toBe(false);
    mm.enqueue(solo("a"), 0);
    mm.cancel("a");
    expect(mm.cancel("a")).toBe(false);
    mm.enqueue(solo("b"), 0);
    mm.enqueue(solo("c"), 0);
    mm.tick(0);
    expect(mm.cancel("b")).toBe(false);
    expect(mm.stats(0).ticketsCancelled).toBe(1);
  });
});

describe("Matchmaker.requeue", () => {
  it("puts a match's tickets back with their original enqueue time", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    const a = solo("a", 1500, { at: 0 });
    const b = solo("b", 1500, { at: 10 });
    mm.enqueue(a, 0);
    mm.enqueue(b, 10);
    const [match] = mm.tick(10);
    expect(mm.size).toBe(0);
    expect(mm.requeue(match.tickets, 50)).toEqual([]);
    expect(mm.get("a")).toBe(a);
    expect(mm.get("a")!.enqueuedAt).toBe(0);
    expect(mm.waitingPlayers).toBe(2);
    expect(mm.stats(60).oldestWaitMs).toBe(60);
    expect(mm.stats(60).ticketsRequeued).toBe(2);
    // Waits of the re-formed match count from the original enqueue time.
    const [again] = mm.tick(60);
    expect(Object.fromEntries(again.teams.flatMap((t) => t.players).map((p) => [p.ticketId, p.waitMs]))).toEqual({
      a: 60,
      b: 50,
    });
  });

  it("a re-queued older ticket stands ahead of a newer one and is matched first", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    const old = solo("old", 1500, { at: 0, side: "A" });
    mm.enqueue(old, 0);
    mm.enqueue(solo("b1", 1500, { at: 5, side: "B" }), 5);
    const [first] = mm.tick(5);
    mm.enqueue(solo("newer", 1500, { at: 20, side: "A" }), 20);
    expect(mm.tick(20)).toEqual([]);
    // The game with "old" failed to start: it goes back ahead of "newer".
    expect(
      mm.requeue(
        first.tickets.filter((t) => t.id === "old"),
        30,
      ),
    ).toEqual([]);
    expect(mm.tick(30)).toEqual([]); // two side-A players cannot meet
    expect(ids(mm.waiting())).toEqual(["old", "newer"]);
    mm.enqueue(solo("b2", 1500, { at: 40, side: "B" }), 40);
    const [match] = mm.tick(40);
    expect(match.teams[0].ticketIds).toEqual(["old"]);
    expect(match.teams[0].players[0].waitMs).toBe(40);
    expect(ids(mm.waiting())).toEqual(["newer"]);
  });

  it("returns the tickets it cannot put back and counts only the others", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a"), 0);
    mm.enqueue(solo("b"), 0);
    const [match] = mm.tick(0);
    // Player a/0 queued again meanwhile, under a new ticket.
    mm.enqueue({ id: "a-again", players: [{ sessionId: "a/0", rating: 1500 }], enqueuedAt: 5 }, 5);
    const refused = mm.requeue(match.tickets, 10);
    expect(ids(refused)).toEqual(["a"]);
    expect(idSet(mm.waiting())).toEqual(["a-again", "b"]);
    expect(mm.stats(10).ticketsRequeued).toBe(1);
  });
});

describe("Matchmaker: match fields", () => {
  it("numbers matches with the prefix and reports createdAt, waits and quality", () => {
    const mm = new Matchmaker({ teamSize: 2, matchIdPrefix: "room42" });
    mm.enqueue(solo("a", 1500, { at: 0 }), 0);
    mm.enqueue(solo("b", 1700, { at: 100 }), 100);
    mm.enqueue(party("c", [1400, 1600], { at: 200 }), 200);
    const [match] = mm.tick(1000);
    expectValidMatch(match, 2);
    expect(match.id).toBe("room42-1");
    expect(match.createdAt).toBe(1000);
    expect(match.teamSize).toBe(2);
    expect(match.tickets.map((t) => mm.get(t.id))).toEqual([undefined, undefined, undefined]);
    const waits = Object.fromEntries(match.teams.flatMap((t) => t.players).map((p) => [p.sessionId, p.waitMs]));
    expect(waits).toEqual({ "a/0": 1000, "b/0": 900, "c/0": 800, "c/1": 800 });
    // The duo (3000) against a + b (3200).
    expect(match.quality).toEqual({ imbalance: 200, spread: 300, meanWaitMs: 875, maxWaitMs: 1000 });
    expect(Math.abs(match.teams[0].ratingSum - match.teams[1].ratingSum)).toBe(200);
  });

  it("gives every match a fresh id, prefixed m- by default", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    const matchIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      mm.enqueue(solo(`t${i}`, 1500, { at: i }), i);
      matchIds.push(...mm.tick(i).map((m) => m.id));
    }
    expect(matchIds).toHaveLength(5);
    expect(new Set(matchIds).size).toBe(5);
    for (const id of matchIds) expect(id).toMatch(/^m-/);
  });

  it("returns the very ticket objects it consumed, for re-queueing", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    const a = solo("a");
    const b = solo("b");
    mm.enqueue(a, 0);
    mm.enqueue(b, 0);
    const [match] = mm.tick(0);
    expect(match.tickets).toHaveLength(2);
    expect(match.tickets).toContain(a);
    expect(match.tickets).toContain(b);
  });

  it("never reports a negative wait for a ticket stamped after now", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a", 1500, { at: 500 }), 0);
    mm.enqueue(solo("b", 1500, { at: 0 }), 0);
    const [match] = mm.tick(100);
    const waits = Object.fromEntries(match.teams.flatMap((t) => t.players).map((p) => [p.ticketId, p.waitMs]));
    expect(waits).toEqual({ a: 0, b: 100 });
    expect(match.quality.meanWaitMs).toBe(50);
  });
});

describe("Matchmaker.stats", () => {
  it("is all zeros for an empty queue", () => {
    // toMatchObject: the engine may report more figures than these.
    expect(new Matchmaker({ teamSize: 3 }).stats(1234)).toMatchObject({
      policy: "greedy",
      waitingTickets: 0,
      waitingPlayers: 0,
      matchesFormed: 0,
      playersMatched: 0,
      ticketsCancelled: 0,
      ticketsRequeued: 0,
      meanWaitMs: 0,
      p95WaitMs: 0,
      meanImbalance: 0,
      oldestWaitMs: 0,
      policyErrors: 0,
    });
  });

  it("adds up a scripted 1v1 session", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a", 1500, { at: 0 }), 0);
    mm.enqueue(solo("b", 1600, { at: 100 }), 100);
    expect(mm.tick(100)).toHaveLength(1); // waits 100, 0; imbalance 100
    mm.enqueue(solo("c", 1500, { at: 200, side: "A" }), 200);
    mm.enqueue(solo("d", 1550, { at: 250, side: "A" }), 250);
    expect(mm.tick(250)).toEqual([]);
    expect(mm.cancel("d", 300)).toBe(true);
    mm.enqueue(solo("e", 1450, { at: 400, side: "B" }), 400);
    const [second] = mm.tick(400); // c vs e: waits 200, 0; imbalance 50
    mm.requeue(second.tickets, 500);
    expect(mm.tick(500)).toHaveLength(1); // again: waits 300, 100; imbalance 50
    mm.enqueue(solo("f", 1500, { at: 600 }), 600);
    mm.enqueue(solo("g", 1500, { at: 650, side: "A" }), 650);
    expect(mm.tick(650)).toHaveLength(1); // f vs g: waits 50, 0; imbalance 0
    mm.enqueue(solo("h", 1500, { at: 660, side: "A" }), 660);
    expect(mm.tick(660)).toEqual([]); // h waits alone
    const waits = [100, 0, 200, 0, 300, 100, 50, 0];
    expect(mm.stats(700)).toMatchObject({
      policy: "greedy",
      waitingTickets: 1,
      waitingPlayers: 1,
      matchesFormed: 4,
      playersMatched: 8,
      ticketsCancelled: 1,
      ticketsRequeued: 2,
      meanWaitMs: waits.reduce((s, w) => s + w, 0) / waits.length,
      p95WaitMs: 300, // nearest rank ceil(0.95 * 8) = 8: the largest
      meanImbalance: (100 + 50 + 50 + 0) / 4,
      oldestWaitMs: 40,
      policyErrors: 0,
    });
  });

  it("covers only the most recent statsWindow matches", () => {
    const mm = new Matchmaker({ teamSize: 1, statsWindow: 1 });
    mm.enqueue(solo("a", 1000, { at: 0 }), 0);
    mm.enqueue(solo("b", 2000, { at: 0 }), 0);
    mm.tick(1000); // waits 1000, 1000; imbalance 1000
    mm.enqueue(solo("c", 1500, { at: 1000 }), 1000);
    mm.enqueue(solo("d", 1510, { at: 1000 }), 1000);
    mm.tick(1020); // waits 20, 20; imbalance 10
    const stats = mm.stats(1020);
    expect(stats.meanWaitMs).toBe(20);
    expect(stats.p95WaitMs).toBe(20);
    expect(stats.meanImbalance).toBe(10);
    expect(stats.matchesFormed).toBe(2);
  });
});

/**
 * A hand-driven policy: it holds what it is given and proposes whatever `next` returns,
 * forgetting those tickets as the contract requires.
 */
class FakePolicy implements Policy {
  readonly name = "fake";
  readonly held = new Map<string, Ticket>();
  readonly added: string[] = [];
  next: (held: Ticket[]) => Ticket[][] = () => [];

  add(ticket: Ticket): void {
    this.held.set(ticket.id, ticket);
    this.added.push(ticket.id);
  }
  remove(ticketId: string): void {
    this.held.delete(ticketId);
  }
  poll(): Ticket[][] {
    const proposals = this.next([...this.held.values()]);
    for (const p of proposals) for (const t of p) this.held.delete(t.id);
    return proposals;
  }
  nextWakeup(now: number): number {
    return now + 42;
  }
}

describe("Matchmaker with a policy that breaks its contract", () => {
  function setup(teamSize = 1) {
    const policy = new FakePolicy();
    const onPolicyError = vi.fn<(error: MatchmakerError) => void>();
    const mm = new Matchmaker({ teamSize, policy, onPolicyError });
    return { policy, onPolicyError, mm };
  }

  it("uses a policy instance as given, including its wakeups", () => {
    const { mm, policy } = setup();
    expect(mm.policy).toBe(policy);
    expect(mm.stats(0).policy).toBe("fake");
    expect(mm.nextWakeup(100)).toBe(142);
  });

  it("counts a game with the wrong number of players, reports it, and keeps every ticket", () => {
    const { mm, policy, onPolicyError } = setup(1);
    for (const id of ["a", "b", "c"]) mm.enqueue(solo(id), 0);
    policy.next = (held) => [held]; // three players for a 1v1
    expect(mm.tick(1)).toEqual([]);
    expect(mm.stats(1).policyErrors).toBe(1);
    expect(onPolicyError).toHaveBeenCalledTimes(1);
    const error = onPolicyError.mock.calls[0][0];
    expect(error).toBeInstanceOf(MatchmakerError);
    expect(error.code).toBe("policy_contract");
    expect(error.message).toContain("fake");
    expect(ids(mm.waiting())).toEqual(["a", "b", "c"]);
    expect(mm.waitingPlayers).toBe(3);
    // The policy got its tickets back, so a correct proposal now works.
    expect([...policy.held.keys()].sort()).toEqual(["a", "b", "c"]);
    policy.next = (held) => [held.filter((t) => t.id !== "b")];
    const [match] = mm.tick(2);
    expect(idSet(match.tickets)).toEqual(["a", "c"]);
    expect(ids(mm.waiting())).toEqual(["b"]);
    expect(mm.stats(2)).toMatchObject({ policyErrors: 1, matchesFormed: 1 });
  });

  it("refuses a proposal with a ticket that is not waiting, and keeps the others", () => {
    const { mm, policy, onPolicyError } = setup(1);
    mm.enqueue(solo("a"), 0);
    policy.next = (held) => [[...held, solo("stranger")]];
    expect(mm.tick(1)).toEqual([]);
    expect(onPolicyError).toHaveBeenCalledTimes(1);
    expect(onPolicyError.mock.calls[0][0].message).toContain("stranger");
    expect(ids(mm.waiting())).toEqual(["a"]);
    expect([...policy.held.keys()]).toEqual(["a"]);
  });

  it("refuses a proposal with the same ticket twice", () => {
    const { mm, policy, onPolicyError } = setup(1);
    mm.enqueue(solo("a"), 0);
    policy.next = (held) => [[held[0], held[0]]];
    expect(mm.tick(1)).toEqual([]);
    expect(onPolicyError.mock.calls[0][0].code).toBe("policy_contract");
    expect(ids(mm.waiting())).toEqual(["a"]);
    expect(mm.stats(1)).toMatchObject({ policyErrors: 1, matchesFormed: 0, waitingPlayers: 1 });
  });

  it("forms the valid game and refuses a second one that reuses its tickets", () => {
    const { mm, policy, onPolicyError } = setup(1);
    for (const id of ["a", "b", "c"]) mm.enqueue(solo(id), 0);
    policy.next = (held) => [
      [held[0], held[1]],
      [held[1], held[2]],
    ];
    const matches: Match[] = mm.tick(1);
    expect(matches.map((m) => idSet(m.tickets))).toEqual([["a", "b"]]);
    expect(onPolicyError).toHaveBeenCalledTimes(1);
    expect(ids(mm.waiting())).toEqual(["c"]);
    expect([...policy.held.keys()]).toEqual(["c"]);
  });

  it("keeps running without an onPolicyError callback", () => {
    const policy = new FakePolicy();
    const mm = new Matchmaker({ teamSize: 2, policy });
    mm.enqueue(solo("a"), 0);
    policy.next = (held) => [held];
    expect(() => mm.tick(1)).not.toThrow();
    expect(mm.stats(1).policyErrors).toBe(1);
    expect(mm.size).toBe(1);
  });
});
