import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { selectBackfill, selectPartialBackfill } from "../../src/core/backfill-selection.js";
import type { Side, Ticket } from "../../src/core/types.js";

function party(id: string, ratings: number[], enqueuedAt = 0, side?: Side): Ticket {
  return {
    id,
    players: ratings.map((rating, i) => ({ sessionId: `${id}.${i}`, rating })),
    enqueuedAt,
    ...(side ? { side } : {}),
  };
}
const ids = (tickets: Ticket[] | undefined) => tickets?.map((t) => t.id);

describe("selectBackfill", () => {
  it("takes the waiting ticket closest to the team's rating, the oldest among equals", () => {
    const waiting = [party("far", [2000]), party("near-new", [1510], 50), party("near-old", [1490], 10)];
    expect(ids(selectBackfill(waiting, { count: 1, side: "A", targetRating: 1500 }))).toEqual(["near-old"]);
  });

  it("honours sides: a ticket insisting on the other side never fits", () => {
    const waiting = [party("b-only", [1500], 0, "B"), party("a-only", [1700], 0, "A"), party("any", [1800])];
    expect(ids(selectBackfill(waiting, { count: 1, side: "A", targetRating: 1500 }))).toEqual(["a-only"]);
    expect(ids(selectBackfill(waiting, { count: 1, side: "B", targetRating: 1500 }))).toEqual(["b-only"]);
  });

  it("never splits a party and fills the seats exactly", () => {
    const trio = party("trio", [1500, 1500, 1500]);
    const duo = party("duo", [1600, 1600]);
    const solo = party("solo", [2500]);
    // 2 seats: the trio is too big; the duo fills them exactly.
    expect(ids(selectBackfill([trio, duo, solo], { count: 2, side: "A", targetRating: 1500 }))).toEqual(["duo"]);
    // 3 seats: the trio (closest) fills them; not duo + solo.
    expect(ids(selectBackfill([trio, duo, solo], { count: 3, side: "A", targetRating: 1500 }))).toEqual(["trio"]);
    // 3 seats without the trio: the duo and the solo, though the solo is far.
    expect(ids(selectBackfill([duo, solo], { count: 3, side: "A", targetRating: 1500 }))?.sort()).toEqual([
      "duo",
      "solo",
    ]);
    // A close solo is skipped when taking it would leave a seat no other ticket can fill exactly.
    const near = party("near", [1500]);
    expect(ids(selectBackfill([near, duo], { count: 2, side: "A", targetRating: 1500 }))).toEqual(["duo"]);
  });

  it("in a queue with zones, takes only tickets waiting in the game's zone", () => {
    const eu = { ...party("eu", [1500]), zones: ["eu"] };
    const us = { ...party("us", [1500]), zones: ["us"] };
    const free = party("free", [1700]); // choice-free: the engine knows its zones
    const need = { count: 1, side: "A" as const, targetRating: 1500, zone: "us" };
    expect(ids(selectBackfill([eu, us], need))).toEqual(["us"]);
    expect(ids(selectBackfill([eu, free], need))).toBeUndefined();
    expect(ids(selectBackfill([eu, free], need, (t) => (t.id === "free" ? ["eu", "us"] : t.zones)))).toEqual(["free"]);
  });

  it("returns undefined when the seats cannot be filled exactly, and refuses a bad count", () => {
    expect(selectBackfill([party("duo", [1, 1])], { count: 1, side: "A", targetRating: 0 })).toBeUndefined();
    expect(selectBackfill([], { count: 1, side: "A", targetRating: 0 })).toBeUndefined();
    expect(() => selectBackfill([], { count: 0, side: "A", targetRating: 0 })).toThrow(RangeError);
    expect(() => selectBackfill([], { count: 17, side: "A", targetRating: 0 })).toThrow(RangeError);
  });

  it("fills what it can now when the whole need cannot be met", () => {
    const waiting = [party("solo", [1500]), party("trio", [1500, 1500, 1500])];
    expect(ids(selectPartialBackfill(waiting, { count: 2, side: "A", targetRating: 1500 }))).toEqual(["solo"]);
    expect(selectPartialBackfill([party("trio", [1, 1, 1])], { count: 2, side: "A", targetRating: 0 })).toBeUndefined();
  });

  const ticketArb = fc.record({
    size: fc.integer({ min: 1, max: 4 }),
    rating: fc.integer({ min: 0, max: 3000 }),
    at: fc.integer({ min: 0, max: 1000 }),
    side: fc.constantFrom<Side | undefined>("A", "B", undefined),
  });
  test.prop(
    [
      fc.array(ticketArb, { maxLength: 14 }),
      fc.integer({ min: 1, max: 6 }),
      fc.constantFrom<Side>("A", "B"),
      fc.integer({ min: 0, max: 3000 }),
    ],
    {
      numRuns: 300,
    },
  )("finds an exact fill exactly when one exists, with fitting whole parties", (specs, count, side, target) => {
    const waiting = specs.map((s, i) => party(`t${i}`, Array(s.size).fill(s.rating), s.at, s.side));
    const chosen = selectBackfill(waiting, { count, side, targetRating: target });
    const fitting = waiting.filter((t) => t.side === undefined || t.side === side);
    // Brute force: does any subset of fitting tickets sum to count players?
    let exists = false;
    for (let mask = 0; mask < 1 << fitting.length && !exists; mask++) {
      let sum = 0;
      for (let i = 0; i < fitting.length; i++) if (mask & (1 << i)) sum += fitting[i].players.length;
      exists = sum === count;
    }
    expect(chosen !== undefined).toBe(exists);
    if (chosen) {
      expect(chosen.reduce((s, t) => s + t.players.length, 0)).toBe(count);
      expect(new Set(chosen).size).toBe(chosen.length);
      for (const t of chosen) expect(fitting).toContain(t);
    }
  });
});
