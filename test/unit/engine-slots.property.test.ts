/**
 * The engine hands its policy its arrival node as the ticket's slot, and greedy queues and
 * multi-queue take that node into their own orders (on other lanes) instead of making their own.
 * Driven through the engine, with re-queues and cancels, a policy given slots must behave as the
 * same policy that never sees one (wrapped so that every call drops the slot), also when a
 * refused game hands tickets back with their stale slots.
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Policy, PolicyParams } from "../../src/core/policy.js";
import type { Match } from "../../src/core/types.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { ids, party } from "../helpers/tickets.js";

type Op =
  | { kind: "enqueue"; size: number; rating: number; side: "A" | "B" | undefined; back: number }
  | { kind: "cancel"; pick: number }
  | { kind: "tick"; advance: number }
  | { kind: "requeue" }
  | { kind: "spoil" };

const opArb = (teamSize: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("enqueue" as const),
        size: fc.integer({ min: 1, max: teamSize }),
        rating: fc.integer({ min: 1000, max: 2000 }),
        side: fc.constantFrom("A" as const, "B" as const, undefined),
        back: fc.oneof(
          { weight: 4, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 50 }) },
        ),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant("tick" as const), advance: fc.integer({ min: 0, max: 4000 }) }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "requeue" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "spoil" as const }) },
  );

/**
 * The policy, seen through calls with slots or without; when `spoil.next` is set, its next game
 * loses a ticket (which the policy has then forgotten and the engine still holds), so that the
 * engine refuses the game and hands the rest back, with the slots they were added with.
 */
function wrapped(inner: Policy, slots: boolean, spoil: { next: boolean }): Policy {
  return {
    name: inner.name,
    add: (ticket, now, slot) => inner.add(ticket, now, slots ? slot : undefined),
    remove: (ticketId, slot) => inner.remove(ticketId, slots ? slot : undefined),
    poll: (now) => {
      const games = inner.poll(now);
      if (spoil.next && games.length > 0) {
        spoil.next = false;
        games[0] = games[0].slice(1);
      }
      return games;
    },
    nextWakeup: (now) => inner.nextWakeup(now),
    ...(inner.acceptanceWindow
      ? { acceptanceWindow: (id: string, now: number) => inner.acceptanceWindow!(id, now) }
      : {}),
  };
}

function run(name: string, teamSize: number, params: PolicyParams, slots: boolean, ops: readonly Op[]) {
  const options = { teamSize, ratingRange: { min: 1000, max: 2000 }, maxWaitMs: 10_000 };
  const context = {
    teamSize,
    imbalance: (a: number, b: number) => Math.abs(a - b),
    maxWaitMs: 10_000,
    ratingRange: options.ratingRange,
  };
  const policy = defaultPolicies.create(name, context as never, params);
  const spoil = { next: false };
  const mm = new Matchmaker({ ...options, policy: wrapped(policy, slots, spoil), onPolicyError: () => {} });
  const trace: unknown[] = [];
  let now = 0;
  let seq = 0;
  let lastMatch: Match | undefined;
  const record = (matches: Match[]) => {
    for (const m of matches) trace.push(ids(m.tickets));
    if (matches.length > 0) lastMatch = matches[matches.length - 1];
  };
  for (const op of ops) {
    if (op.kind === "enqueue") {
      const id = `t${seq++}`;
      const ratings = Array.from({ length: op.size }, (_, i) => op.rating + 10 * i);
      mm.enqueue(party(id, ratings, { at: Math.max(0, now - op.back), side: op.side }), now);
      record(mm.tick(now));
    } else if (op.kind === "cancel") {
      const waiting = ids(mm.waiting());
      if (waiting.length > 0) trace.push(mm.cancel(waiting[op.pick % waiting.length], now));
      record(mm.tick(now));
    } else if (op.kind === "tick") {
      now += op.advance;
      record(mm.tick(now));
    } else if (op.kind === "spoil") {
      spoil.next = true;
    } else if (lastMatch) {
      // The last game could not start: its tickets wait again at their original places.
      trace.push(ids(mm.requeue(lastMatch.tickets, now)));
      lastMatch = undefined;
      record(mm.tick(now));
    }
    trace.push(mm.size, ids(mm.waiting()), mm.nextWakeup(now), mm.stats(now).policyErrors);
    for (const id of ids(mm.waiting())) trace.push(mm.acceptanceWindow(id, now));
  }
  return trace;
}

for (const [name, teamSize, params] of [
  ["greedy", 1, {}],
  ["fifo", 2, {}],
  ["two-queue", 2, {}],
  ["multi-queue", 1, { r: 4 }],
  ["multi-queue", 2, { r: 3 }],
] as const) {
  test.prop([fc.array(opArb(teamSize), { maxLength: 150 })], { numRuns: 60 })(
    `${name} ${teamSize}v${teamSize} ${JSON.stringify(params)} through the engine: the same with and without slots`,
    (ops) => {
      expect(run(name, teamSize, params, true, ops)).toEqual(run(name, teamSize, params, false, ops));
    },
  );
}
