/**
 * With the rating-sum imbalance `best-game` scores sets from rating sums (the splitter), and for
 * plain solos by shortcuts (a 2v2 enumeration, the 2k-block of 5v5, the early stop of the
 * splitter's sorted subsets). Whatever the sequence of joins, leaves and games, its best candidate
 * must be the one the general search holds when scoring every set through the shared assembly
 * (the same imbalance behind a function the policy cannot recognise), and the one a policy built
 * afresh holds. Integer ratings keep every sum exact, so the priorities agree to the bit.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type { PolicyParams } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import type { BestGamePolicy } from "../../src/policies/best-game.js";
import { fastBestGame, generalBestGame } from "../helpers/rating-sum-best-game.js";
import { ids, party, sideArb } from "../helpers/tickets.js";

type Op =
  { kind: "add"; ratings: number[]; side: "A" | "B" | undefined } | { kind: "remove"; pick: number } | { kind: "form" };

const casesArb = fc.record({
  k: fc.constantFrom(2, 2, 3, 5),
  params: fc.constantFrom<PolicyParams>(
    {},
    { window: 9 },
    { budget: 16 },
    { budget: 16 },
    { budget: 300 },
    { beta: 0.5 },
  ),
  /** Mostly plain solos (the shortcuts' case), some parties and sides (their fallbacks). */
  plain: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
  coarse: fc.boolean(),
});

const opsArb = (k: number, plain: boolean, coarse: boolean): fc.Arbitrary<Op[]> => {
  const rating = coarse ? fc.integer({ min: 0, max: 8 }).map((x) => 1400 + 25 * x) : fc.integer({ min: 0, max: 3000 });
  return fc.array(
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant("add" as const),
          ratings: plain
            ? fc.oneof({ weight: 30, arbitrary: fc.tuple(rating) }, fc.array(rating, { minLength: 1, maxLength: k }))
            : fc.array(rating, { minLength: 1, maxLength: k }),
          side: plain ? fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, sideArb) : sideArb,
        }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.constant({ kind: "form" as const }) },
    ),
    { maxLength: 200 },
  );
};

describe("best-game: the rating-sum shortcuts hold the general search's candidate", () => {
  test.prop([casesArb.chain((c) => fc.record({ c: fc.constant(c), ops: opsArb(c.k, c.plain, c.coarse) }))], {
    numRuns: 200,
  })("same best tickets and priority as through the assembly, and as a fresh build", ({ c, ops }) => {
    const fast = fastBestGame(c.k, c.params);
    const general = generalBestGame(c.k, c.params);
    const waiting: Ticket[] = [];
    let seq = 0;
    const view = (p: BestGamePolicy) => {
      const got = p.peek();
      return got && { tickets: ids(got.tickets), priority: got.priority };
    };
    const check = () => {
      const fresh = fastBestGame(c.k, c.params);
      for (const t of waiting) fresh.add(t, 0);
      const got = view(fast);
      expect(got).toEqual(view(general));
      // With beta the priorities count from the first ticket added, which a fresh build need not share.
      if (!c.params.beta) expect(got).toEqual(view(fresh));
    };
    for (const op of ops) {
      if (op.kind === "add") {
        const t = party(`t${seq++}`, op.ratings, { at: seq * 1000, side: op.side });
        fast.add(t, seq);
        general.add(t, seq);
        waiting.push(t);
      } else if (op.kind === "remove") {
        if (waiting.length === 0) continue;
        const [gone] = waiting.splice(op.pick % waiting.length, 1);
        fast.remove(gone.id);
        general.remove(gone.id);
      } else {
        check();
        const game = fast.peek();
        if (!game) continue;
        for (const t of game.tickets) {
          fast.remove(t.id);
          general.remove(t.id);
          waiting.splice(waiting.indexOf(t), 1);
        }
      }
    }
    check();
  });
});
