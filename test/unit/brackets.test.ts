/**
 * `brackets`: the forum thread's third suggestion, its worked example (500–1000 splits after six
 * games in a period, 499 vs 990 is then refused, the halves merge back after two quiet periods),
 * mutual acceptance and parameters.
 */
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match } from "../../src/core/types.js";
import { BracketsPolicy } from "../../src/policies/brackets.js";
import { idSet, solo } from "../helpers/tickets.js";

const S = 1000;

function engine(params: Record<string, unknown> = {}) {
  const mm = new Matchmaker({
    teamSize: 1,
    policy: "brackets",
    params: { width: 500, min: 0, max: 1500, period: 60, splitAt: 6, mergeBelow: 3, idlePeriods: 2, ...params },
  });
  return { mm, policy: mm.policy as BracketsPolicy };
}

let seq = 0;
/** Two players who join together and play at once. */
function pair(mm: Matchmaker, a: number, b: number, at: number): Match[] {
  mm.enqueue(solo(`x${seq++}`, a, { at }), at);
  mm.enqueue(solo(`x${seq++}`, b, { at }), at);
  return mm.tick(at);
}

describe("brackets: the thread's example", () => {
  it("splits 500–1000 after six games, refuses 499 vs 990 then, and merges back after two quiet periods", () => {
    const { mm, policy } = engine();
    expect(policy.brackets()).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
    ]);
    for (let i = 0; i < 6; i++) expect(pair(mm, 700, 710, i * S)).toHaveLength(1);
    expect(mm.nextWakeup(10 * S)).toBeUndefined(); // nobody waits
    mm.enqueue(solo("low", 499, { at: 61 * S }), 61 * S);
    expect(mm.tick(61 * S)).toEqual([]); // the review at 60 s runs first
    expect(policy.brackets()).toEqual([
      [0, 500],
      [500, 750],
      [750, 1000],
      [1000, 1500],
    ]);
    mm.enqueue(solo("high", 990, { at: 61 * S }), 61 * S);
    expect(mm.tick(61 * S)).toEqual([]); // 499 and 990 are no longer in neighbouring brackets
    // One game in each half during the next period: 2 < 3, a first quiet period.
    expect(pair(mm, 600, 610, 70 * S).map((m) => idSet(m.tickets))).toHaveLength(1);
    expect(pair(mm, 800, 810, 71 * S)).toHaveLength(1);
    expect(mm.nextWakeup(71 * S)).toBe(120 * S); // periods run from the first arrival
    expect(mm.tick(120 * S)).toEqual([]);
    expect(policy.brackets()).toHaveLength(4);
    // A second quiet period: the halves merge, and 499 vs 990 (491 apart, widths 500) plays.
    expect(mm.nextWakeup(120 * S)).toBe(180 * S);
    const [m] = mm.tick(180 * S);
    expect(policy.brackets()).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
    ]);
    expect(idSet(m.tickets)).toEqual(["high", "low"]);
  });

  it("a ticket accepts only within its own bracket's width, so a narrow bracket refuses a wide one's far player", () => {
    const { mm, policy } = engine({ width: 500, splitAt: 1, minWidth: 100 });
    pair(mm, 700, 710, 0);
    mm.tick(60 * S); // split: 500–750, 750–1000
    const at = 61 * S;
    const narrow = solo("n", 740, { at });
    const wide = solo("w", 300, { at });
    // 300 is in 0–500 (width 500): it accepts 740 (440 away); 740's bracket is 250 wide: it does not.
    expect(policy.accepts(wide, narrow, at)).toBe(true);
    expect(policy.accepts(narrow, wide, at)).toBe(false);
    mm.enqueue(narrow, at);
    mm.enqueue(wide, at);
    expect(mm.tick(at)).toEqual([]);
  });

  it("does not split below minWidth and refuses bad parameters naming the field", () => {
    const { mm, policy } = engine({ splitAt: 1, minWidth: 300 });
    pair(mm, 700, 710, 0);
    mm.tick(60 * S);
    expect(policy.brackets()).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
    ]);
    expect(() => engine({ period: 0 })).toThrow(/period: must be positive/);
    expect(() => engine({ splitAt: 1.5 })).toThrow(/splitAt: must be a whole number/);
    expect(() => engine({ min: 10, max: 5 })).toThrow(/min must be below max/);
    expect(() => engine({ size: 3 })).toThrow(/size: unknown field/);
  });
});
