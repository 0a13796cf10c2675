import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Ticket } from "../../src/core/types.js";
import { PatientPolicy } from "../../src/policies/patient.js";

const solo = (id: string, at: number, rating = 0, side?: "A" | "B"): Ticket => ({
  id,
  players: [{ sessionId: id, rating }],
  enqueuedAt: at,
  ...(side ? { side } : {}),
});
const duo = (id: string, at: number, side?: "A" | "B"): Ticket => ({
  id,
  players: [
    { sessionId: `${id}.1`, rating: 0 },
    { sessionId: `${id}.2`, rating: 0 },
  ],
  enqueuedAt: at,
  ...(side ? { side } : {}),
});

/** Enqueue in order, ticking after each; the ids of every game formed. */
function play(policy: string, teamSize: number, tickets: Ticket[], params = {}): string[][] {
  const engine = new Matchmaker({ teamSize, policy, params, imbalance: { kind: "high-low" } });
  const games: string[][] = [];
  for (const t of tickets) {
    engine.enqueue(t, t.enqueuedAt);
    for (const m of engine.tick(t.enqueuedAt)) games.push(m.tickets.map((x) => x.id).sort());
  }
  return games;
}

describe("Xu et al.'s service orders (2v2, three solos then a duo)", () => {
  const arrivals = [solo("s1", 0), solo("s2", 1), solo("s3", 2), duo("d", 3)];

  it("fifo takes the two oldest solos with the duo", () => {
    expect(play("fifo", 2, arrivals)).toEqual([["d", "s1", "s2"]]);
  });

  it("lifo takes the two newest solos with the duo", () => {
    expect(play("lifo", 2, arrivals)).toEqual([["d", "s2", "s3"]]);
  });

  it("packing packs the first two solos into a team and matches it with the duo", () => {
    expect(play("packing", 2, arrivals)).toEqual([["d", "s1", "s2"]]);
  });

  it("two-queue never mixes solos and duos: the duo waits for another duo", () => {
    expect(play("two-queue", 2, [...arrivals, solo("s4", 4), duo("e", 5)])).toEqual([
      ["s1", "s2", "s3", "s4"],
      ["d", "e"],
    ]);
  });
});

describe("packing for larger teams", () => {
  it("fills teams of 3 exactly from parties (a subset sum), oldest first, never splitting a party", () => {
    // 3v3: duo a, duo b, solo c, solo d: teams {a, c} and {b, d}.
    expect(play("packing", 3, [duo("a", 0), duo("b", 1), solo("c", 2), solo("d", 3)])).toEqual([["a", "b", "c", "d"]]);
  });

  it("does not pack side-A and side-B tickets into one team, and does not pit two side-A teams", () => {
    const t = [
      solo("a1", 0, 0, "A"),
      solo("b1", 1, 0, "B"),
      solo("a2", 2, 0, "A"),
      solo("a3", 3, 0, "A"),
      solo("a4", 4, 0, "A"),
    ];
    // Teams {a1, a2} and {a3, a4} are both side A: no game; b1 waits for a side-B or free partner.
    expect(play("packing", 2, t)).toEqual([]);
    expect(play("packing", 2, [...t, solo("b2", 5, 0, "B")])).toEqual([["a1", "a2", "b1", "b2"]]);
  });

  it("re-packs a team whose member left", () => {
    const engine = new Matchmaker({ teamSize: 2, policy: "packing" });
    for (const t of [solo("a", 0), solo("b", 1), solo("c", 2)]) engine.enqueue(t, t.enqueuedAt);
    engine.tick(2);
    engine.cancel("a"); // team {a, b} falls apart; b packs with c
    engine.enqueue(solo("d", 3), 3);
    engine.enqueue(solo("e", 4), 4);
    const [m] = engine.tick(4);
    expect(m.tickets.map((t) => t.id).sort()).toEqual(["b", "c", "d", "e"]);
  });
});

describe("patient (Wu)", () => {
  const hl = (id: string, at: number, high: boolean) => solo(id, at, high ? 1 : 0);

  it("forms a balanced game at once and waits one arrival rather than form an imbalanced one", () => {
    // 2v2: H, H, L, L is balanced: formed at the fourth arrival.
    expect(play("patient", 2, [hl("a", 0, true), hl("b", 1, true), hl("c", 2, false), hl("d", 3, false)])).toEqual([
      ["a", "b", "c", "d"],
    ]);
    // H, H, H, L has an odd number of H: wait; the fifth (an L) allows H, H, L, L.
    expect(play("patient", 2, [hl("a", 0, true), hl("b", 1, true), hl("c", 2, true), hl("d", 3, false)])).toEqual([]);
    expect(
      play("patient", 2, [hl("a", 0, true), hl("b", 1, true), hl("c", 2, true), hl("d", 3, false), hl("e", 4, false)]),
    ).toEqual([["a", "b", "d", "e"]]);
  });

  it("gives up waiting after maxExtraArrivals and plays the least imbalanced game", () => {
    const t = [hl("a", 0, true), hl("b", 1, true), hl("c", 2, true), hl("d", 3, false), hl("e", 4, true)];
    // Four H and an L: H, H, H, H is balanced and includes the oldest.
    expect(play("patient", 2, t)).toEqual([["a", "b", "c", "e"]]);
    expect(play("patient", 2, t.slice(0, 4), { maxExtraArrivals: 0 })).toEqual([["a", "b", "c", "d"]]);
  });

  it("in auto mode follows Theorem 3.3 on the measured share of H players", () => {
    const engine = new Matchmaker({
      teamSize: 2,
      policy: "patient",
      params: { mode: "auto", alpha: 0.5 },
      imbalance: { kind: "high-low" },
    });
    // 80% H: greedy is optimal for alpha 0.5 (1/(1 − 0.6^4) ≈ 1.15).
    for (let i = 0; i < 40; i++) {
      engine.enqueue(hl(`t${i}`, i, i % 5 !== 0), i);
      engine.tick(i);
    }
    expect((engine.policy as PatientPolicy).currentMode()).toBe("greedy");
  });

  it("refuses unknown parameters", () => {
    expect(() => new Matchmaker({ teamSize: 2, policy: "patient", params: { mode: "eager" } })).toThrow(
      MatchmakerError,
    );
    expect(() => new Matchmaker({ teamSize: 2, policy: "fifo", params: { x: 1 } })).toThrow(/x: unknown field/);
  });
});
