/**
 * `ArrivalIndex`: tickets in order of `enqueuedAt`, ties in the order they were added, against a
 * sorted-array model, with out-of-order arrivals (a re-queued ticket keeps its place ahead of
 * newcomers), removals, and a ticket added again while held (it moves, never held twice).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { ArrivalIndex } from "../../src/core/arrival-order.js";
import type { Ticket } from "../../src/core/types.js";

type Op =
  { kind: "add"; back: number } | { kind: "again"; pick: number; back: number } | { kind: "remove"; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      // Mostly in order; sometimes behind the newest (a re-queued ticket), often on a tie.
      back: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(30) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("again" as const), pick: fc.nat(), back: fc.nat(30) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
);

describe("ArrivalIndex", () => {
  test.prop([fc.array(opArb, { minLength: 1, maxLength: 300 })], { numRuns: 150 })(
    "walks, first, lookups and size match a model sorted by enqueue time, then order of adding",
    (ops) => {
      const index = new ArrivalIndex();
      /** The held tickets, each with the count of adds before it (its tie-break). */
      let model: { ticket: Ticket; added: number }[] = [];
      let clock = 1000;
      let adds = 0;
      let seq = 0;
      const add = (ticket: Ticket) => {
        index.add(ticket);
        model = model.filter((m) => m.ticket.id !== ticket.id);
        model.push({ ticket, added: adds++ });
      };
      for (const op of ops) {
        if (op.kind === "add") {
          clock += seq % 3 === 0 ? 0 : 1;
          add({ id: `t${seq++}`, players: [{ sessionId: "p", rating: 0 }], enqueuedAt: clock - op.back });
        } else if (model.length > 0) {
          const { ticket } = model[op.pick % model.length];
          if (op.kind === "again") add({ ...ticket, enqueuedAt: clock - op.back });
          else {
            expect(index.remove(ticket.id)).toBe(true);
            expect(index.remove(ticket.id)).toBe(false);
            model = model.filter((m) => m.ticket !== ticket);
          }
        }
        const want = [...model]
          .sort((a, b) => a.ticket.enqueuedAt - b.ticket.enqueuedAt || a.added - b.added)
          .map((m) => m.ticket);
        expect(index.size).toBe(want.length);
        expect(index.first()).toBe(want[0]);
        expect([...index.oldest()].map(([, t]) => t)).toEqual(want);
        expect([...index.oldest(3)].map(([, t]) => t)).toEqual(want.slice(0, 3));
        expect([...index.newest(2)].map(([, t]) => t)).toEqual([...want].reverse().slice(0, 2));
        for (const t of want) expect(index.get(t.id)).toBe(t);
      }
    },
  );
});
