import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { plainlyValidTicket } from "../../src/core/ticket-check.js";

/** Ticket-like objects: mostly well-formed, often with one field wrong or an extra key. */
const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 3 }),
  fc.constantFrom("A", "B", "", "x".repeat(129)),
  fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
);
/** Mostly `good`, sometimes any of the values above. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 40 }, { arbitrary: value, weight: 1 });
const player = fc.record(
  {
    sessionId: mostly(fc.string({ minLength: 1, maxLength: 6 })),
    rating: mostly(fc.double({ min: 0, max: 3000, noNaN: true })),
    uncertainty: mostly(fc.double({ min: 0, max: 100, noNaN: true })),
    roles: mostly(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })),
    playerId: mostly(fc.string({ minLength: 1, maxLength: 6 })),
    extra: value,
  },
  { requiredKeys: ["sessionId", "rating"] },
);
const ticket = fc.record(
  {
    id: mostly(fc.string({ minLength: 1, maxLength: 6 })),
    players: mostly(fc.array(player, { minLength: 0, maxLength: 3 })),
    enqueuedAt: mostly(fc.double({ min: 0, max: 1e9, noNaN: true })),
    side: mostly(fc.constantFrom("A", "B")),
    zones: mostly(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })),
  },
  { requiredKeys: ["id", "players", "enqueuedAt"] },
);

describe("plainlyValidTicket", () => {
  it("takes the fast path for the plain tickets the room makes", () => {
    const plain = { id: "t", players: [{ sessionId: "s", rating: 1500, playerId: "acct" }], enqueuedAt: 0, side: "A" };
    expect(plainlyValidTicket(plain, 2)).toBe(true);
    expect(plainlyValidTicket({ ...plain, players: [{ id: "s", rating: 1500 }] }, 2)).toBe(false);
  });

  test.prop([ticket], { numRuns: 3000 })(
    "accepts only tickets that the engine's ticket schema accepts (the schema words every refusal)",
    (t) => {
      if (!plainlyValidTicket(t, 2)) return;
      // The engine's own ticket schema (a private field: the check is a stand-in for it).
      const schema = (new Matchmaker({ teamSize: 2 }) as unknown as { validTicket: v.GenericSchema }).validTicket;
      const result = v.safeParse(schema, t);
      expect(result.success, JSON.stringify(result.issues?.map((i) => i.message))).toBe(true);
    },
  );
});
