/**
 * `TicketSlot`: a policy given the engine's record of each ticket keeps its own record there
 * instead of in a map by id. The same operations with and without slots must leave the policy in
 * the same state (same size, same proposals in the same order); a slot the policy is handed again
 * after it proposed (and so forgot) the ticket holds a stale record that it must not act on.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { ratingSumDifference, resolveImbalance } from "../../src/core/imbalance.js";
import type { Policy, PolicyParams, TicketSlot } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { ids, party, sideArb, solo } from "../helpers/tickets.js";

function make(name: string, teamSize: number, params: PolicyParams = {}): Policy {
  const context = { teamSize, imbalance: ratingSumDifference, imbalanceSpec: resolveImbalance({ kind: "rating-sum" }) };
  return defaultPolicies.create(name, context, params);
}

type Op =
  | { kind: "add"; size: number; rating: number; side: "A" | "B" | undefined }
  | { kind: "remove"; pick: number }
  | { kind: "poll" };

const opArb = (teamSize: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant("add" as const),
        size: fc.integer({ min: 1, max: teamSize }),
        rating: fc.integer({ min: 1000, max: 2000 }),
        side: sideArb,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.constant({ kind: "poll" as const }) },
  );

/**
 * Run `ops` on two instances of a policy, one given slots, one not; returns the games each
 * proposed (ids, in order) and the sizes after each operation.
 */
function runBoth(name: string, teamSize: number, params: PolicyParams, ops: readonly Op[]) {
  const withSlots = make(name, teamSize, params);
  const without = make(name, teamSize, params);
  const slots = new Map<string, TicketSlot>();
  const waiting: Ticket[] = [];
  const games: [string[][], string[][]] = [[], []];
  const sizes: [number[], number[]] = [[], []];
  const windows: [unknown[], unknown[]] = [[], []];
  const size = (p: Policy) => (p as unknown as { size: number }).size;
  let seq = 0;
  const forget = (proposed: Ticket[][]) => {
    for (const g of proposed) for (const t of g) waiting.splice(waiting.indexOf(t), 1);
  };
  for (const op of ops) {
    const now = seq;
    if (op.kind === "add") {
      const id = `t${seq++}`;
      const ratings = Array.from({ length: op.size }, (_, i) => op.rating + 10 * i);
      const ticket =
        op.size === 1
          ? solo(id, op.rating, { at: now, side: op.side })
          : party(id, ratings, { at: now, side: op.side });
      const slot: TicketSlot = { policyData: undefined };
      slots.set(id, slot);
      withSlots.add(ticket, now, slot);
      without.add(ticket, now);
      waiting.push(ticket);
    } else if (op.kind === "remove") {
      if (waiting.length === 0) continue;
      const [gone] = waiting.splice(op.pick % waiting.length, 1);
      withSlots.remove(gone.id, slots.get(gone.id));
      without.remove(gone.id);
    } else {
      const a = withSlots.poll(now);
      const b = without.poll(now);
      games[0].push(...a.map(ids));
      games[1].push(...b.map(ids));
      forget(a);
    }
    sizes[0].push(size(withSlots));
    sizes[1].push(size(without));
    // A window policy reports the same acceptance windows.
    for (const t of waiting) {
      windows[0].push(withSlots.acceptanceWindow?.(t.id, seq));
      windows[1].push(without.acceptanceWindow?.(t.id, seq));
    }
  }
  return { games, sizes, windows };
}

describe("TicketSlot: a policy keeps its record in the engine's slot", () => {
  for (const [name, teamSize, params] of [
    ["greedy", 1, {}],
    ["greedy", 2, {}],
    ["fifo", 3, {}],
    ["lifo", 2, {}],
    ["best-game", 1, {}],
    ["best-game", 2, {}],
    ["best-game", 1, { threshold: 50 }],
    ["expanding-window", 1, { initial: 100, growthPerSecond: 0 }],
    ["expanding-window", 2, { initial: 200, growthPerSecond: 0 }],
    ["brackets", 1, {}],
    ["multi-queue", 1, { r: 4, min: 1000, max: 2000 }],
    ["multi-queue", 2, { r: 3, min: 1000, max: 2000 }],
    ["two-queue", 2, {}],
  ] as const) {
    test.prop([fc.array(opArb(teamSize), { maxLength: 120 })], { numRuns: 60 })(
      `${name} ${teamSize}v${teamSize} ${JSON.stringify(params)}: the same proposals and sizes with and without slots`,
      (ops) => {
        const { games, sizes, windows } = runBoth(name, teamSize, params, ops);
        expect(games[0]).toEqual(games[1]);
        expect(sizes[0]).toEqual(sizes[1]);
        expect(windows[0]).toEqual(windows[1]);
      },
    );
  }

  for (const name of ["greedy", "best-game", "expanding-window", "multi-queue", "two-queue"]) {
    it(`${name}: a ticket added twice with its slot is held once; a stale slot (proposed, then handed back) is not acted on`, () => {
      const p = make(name, 1, name === "expanding-window" ? { initial: 100, growthPerSecond: 0 } : {});
      const size = () => (p as unknown as { size: number }).size;
      const a = solo("a", 1500, { at: 0 });
      const b = solo("b", 1510, { at: 1 });
      const slotA: TicketSlot = { policyData: undefined };
      const slotB: TicketSlot = { policyData: undefined };
      p.add(a, 0, slotA);
      p.add(a, 0, slotA);
      expect(size()).toBe(1);
      p.add(b, 1, slotB);
      const [game, ...more] = p.poll(1);
      expect(more).toEqual([]);
      expect(ids(game).sort()).toEqual(["a", "b"]);
      expect(size()).toBe(0);
      // The engine could not form the game: it hands both back with their (now stale) slots.
      p.add(a, 2, slotA);
      p.add(b, 2, slotB);
      expect(size()).toBe(2);
      // Removing one leaves the other waiting alone; removing it again changes nothing.
      p.remove("a", slotA);
      p.remove("a", slotA);
      expect(size()).toBe(1);
      expect(p.poll(3)).toEqual([]);
      p.add(solo("c", 1490, { at: 4 }), 4, { policyData: undefined });
      expect(p.poll(4).map((g) => ids(g).sort())).toEqual([["b", "c"]]);
      expect(size()).toBe(0);
    });
  }
});
