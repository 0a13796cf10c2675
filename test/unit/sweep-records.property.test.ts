/**
 * The sweep (`expanding-window`) reuses a dropped ticket's record for the next arrival. Driven
 * through slots (as the engine drives it) and by id, one policy must hold what the other holds
 * (the same games in the same order, size, wake-ups, windows); and a slot handed back after its
 * ticket left (a cancel, a game) must read as not held, even once its old record serves another
 * ticket: removing through it, or asking its window, must not reach that other ticket.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import type { PolicyContext, TicketSlot } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import { ExpandingWindowPolicy, expandingWindowOptions } from "../../src/policies/expanding-window.js";
import { ids, party, sideArb } from "../helpers/tickets.js";

const context: PolicyContext = { teamSize: 1, imbalance: ratingSumDifference, ratingRange: { min: 0, max: 3000 } };

const paramsArb = fc.record({
  unit: fc.constantFrom("rating", "relative", "percentile"),
  initial: fc.constantFrom(0, 0.02, 50),
  growthPerSecond: fc.constantFrom(0, 0.01, 5),
});

type Op =
  | { kind: "add"; dt: number; rating: number; side: "A" | "B" | undefined }
  | { kind: "remove"; pick: number }
  | { kind: "stale"; pick: number }
  | { kind: "poll"; dt: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      dt: fc.integer({ min: 0, max: 2000 }),
      rating: fc.integer({ min: 1, max: 3000 }),
      side: sideArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("stale" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("poll" as const), dt: fc.integer({ min: 0, max: 20_000 }) }) },
);

describe("sweep records reused across tickets", () => {
  test.prop([paramsArb, fc.array(opArb, { maxLength: 300 })], { numRuns: 150 })(
    "through slots as by id; a slot handed back after its ticket left reads as not held",
    (params, ops) => {
      const make = () => new ExpandingWindowPolicy(context, expandingWindowOptions(context, params));
      const slotted = make();
      const byId = make();
      const waiting: Ticket[] = [];
      /** Tickets that left, with the slot each was added with. */
      const gone: Ticket[] = [];
      const slots = new Map<string, TicketSlot>();
      let seq = 0;
      let now = 0;
      const view = (p: ExpandingWindowPolicy) => ({
        size: p.size,
        wakeup: p.nextWakeup(),
        windows: waiting.map((t) => p.acceptanceWindow(t.id, now, p === slotted ? slots.get(t.id) : undefined)),
      });
      for (const op of ops) {
        if (op.kind === "add") {
          now += op.dt;
          const t = party(`t${seq++}`, [op.rating], { at: now, side: op.side });
          const slot: TicketSlot = { policyData: undefined };
          slots.set(t.id, slot);
          slotted.add(t, now, slot);
          byId.add(t, now);
          waiting.push(t);
        } else if (op.kind === "remove") {
          if (waiting.length === 0) continue;
          const [t] = waiting.splice(op.pick % waiting.length, 1);
          slotted.remove(t.id, slots.get(t.id));
          byId.remove(t.id);
          gone.push(t);
        } else if (op.kind === "stale") {
          if (gone.length === 0) continue;
          const t = gone[op.pick % gone.length];
          expect(slotted.acceptanceWindow(t.id, now, slots.get(t.id))).toBeUndefined();
          slotted.remove(t.id, slots.get(t.id));
        } else {
          now += op.dt;
          const games = slotted.poll(now);
          expect(games.map(ids)).toEqual(byId.poll(now).map(ids));
          for (const game of games) {
            for (const t of game) {
              waiting.splice(waiting.indexOf(t), 1);
              gone.push(t);
            }
          }
        }
        expect(view(slotted)).toEqual(view(byId));
      }
    },
  );
});
