/**
 * `ArrivalOrder` and `ArrivalIndex`: tickets in order of `enqueuedAt`, ties in the order they were
 * added, against a sorted-array model, with out-of-order arrivals (a re-queued ticket keeps its
 * place ahead of newcomers), removals, an id added again while held (refused; removed first,
 * it moves), walks from either end, and a walk during which tickets leave.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { ArrivalIndex, ArrivalOrder, type Arrival } from "../../src/core/arrival-order.js";
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

const ticketAt = (id: string, enqueuedAt: number): Ticket => ({
  id,
  players: [{ sessionId: id, rating: 0 }],
  enqueuedAt,
});

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
        // A held id is refused; removed first, the ticket moves.
        const held = model.some((m) => m.ticket.id === ticket.id);
        expect(index.add(ticket)).toBe(!held);
        if (held) {
          index.remove(ticket.id);
          expect(index.add(ticket)).toBe(true);
        }
        model = model.filter((m) => m.ticket.id !== ticket.id);
        model.push({ ticket, added: adds++ });
      };
      for (const op of ops) {
        if (op.kind === "add") {
          clock += seq % 3 === 0 ? 0 : 1;
          add(ticketAt(`t${seq++}`, clock - op.back));
        } else if (model.length > 0) {
          const { ticket } = model[op.pick % model.length];
          if (op.kind === "again") add({ ...ticket, enqueuedAt: clock - op.back });
          else {
            expect(index.remove(ticket.id)).toBe(ticket);
            expect(index.remove(ticket.id)).toBeUndefined();
            model = model.filter((m) => m.ticket !== ticket);
          }
        }
        const want = [...model]
          .sort((a, b) => a.ticket.enqueuedAt - b.ticket.enqueuedAt || a.added - b.added)
          .map((m) => m.ticket);
        expect(index.size).toBe(want.length);
        expect(index.first()).toBe(want[0]);
        expect([...index.oldest()]).toEqual(want);
        expect([...index.oldest(3)]).toEqual(want.slice(0, 3));
        for (const t of want) expect(index.get(t.id)).toBe(t);
      }
    },
  );
});

describe("ArrivalOrder", () => {
  test.prop([fc.array(opArb, { minLength: 1, maxLength: 300 }), fc.nat(8)], { numRuns: 150 })(
    "collects the oldest and the newest as the sorted model",
    (ops, limit) => {
      const order = new ArrivalOrder();
      const model: Arrival[] = [];
      let clock = 1000;
      let seq = 0;
      for (const op of ops) {
        if (op.kind === "remove" || op.kind === "again") {
          if (model.length === 0) continue;
          const [arrival] = model.splice(op.pick % model.length, 1);
          order.remove(arrival);
          if (op.kind === "again") model.push(order.add({ ...arrival.ticket, enqueuedAt: clock - op.back }));
        } else {
          clock += seq % 3 === 0 ? 0 : 1;
          model.push(order.add(ticketAt(`t${seq++}`, clock - op.back)));
        }
        const want = [...model].sort((a, b) => a.at - b.at || a.seq - b.seq);
        const oldest: Arrival[] = [];
        const newest: Arrival[] = [];
        order.collect(limit, oldest);
        order.collectNewest(limit, newest);
        expect(order.size).toBe(want.length);
        expect(oldest).toEqual(want.slice(0, limit));
        expect(newest).toEqual([...want].reverse().slice(0, limit));
      }
    },
  );

  it("keeps its order once most tickets left and newcomers compact its slots", () => {
    const order = new ArrivalOrder();
    const arrivals = Array.from({ length: 200 }, (_, i) => order.add(ticketAt(`t${i}`, i)));
    // Every ticket but every seventh leaves, then newcomers arrive (the emptied slots are dropped).
    arrivals.forEach((a, i) => i % 7 !== 0 && order.remove(a));
    const kept = arrivals.filter((_, i) => i % 7 === 0);
    const newcomers = Array.from({ length: 20 }, (_, i) => order.add(ticketAt(`n${i}`, 200 + i)));
    order.remove(kept[3]);
    const want = [...kept.filter((a) => a !== kept[3]), ...newcomers];
    expect([...order.oldest()]).toEqual(want.map((a) => a.ticket));
    const newest: Arrival[] = [];
    order.collectNewest(Infinity, newest);
    expect(newest).toEqual([...want].reverse());
  });

  it("a walk goes on past tickets that leave during it", () => {
    const order = new ArrivalOrder();
    const arrivals = [0, 1, 2, 3, 4].map((i) => order.add(ticketAt(`t${i}`, i)));
    const late = order.add(ticketAt("late", 1.5));
    const seen: string[] = [];
    for (const t of order.oldest()) {
      seen.push(t.id);
      if (t.id === "t1") {
        // The ticket just walked, the next one, and the late one leave.
        order.remove(arrivals[1]);
        order.remove(arrivals[2]);
        order.remove(late);
      }
    }
    expect(seen).toEqual(["t0", "t1", "t3", "t4"]);
  });
});
