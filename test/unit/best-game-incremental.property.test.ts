/**
 * `best-game` searches again only the anchors a change can affect (and skips one whose search a
 * change at its cut-off offset cannot alter). Whatever the sequence of joins, leaves and games,
 * the best candidate it holds must be the one a policy built afresh from the same waiting tickets
 * (added in the same order) holds: the same tickets and the same priority. Two teams, and the
 * other shapes it serves (a free-for-all, small games of more teams).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { almanMcKay, ratingSumDifference, resolveImbalance, type ImbalanceSpec } from "../../src/core/imbalance.js";
import type { PolicyParams } from "../../src/core/policy.js";
import type { Ticket } from "../../src/core/types.js";
import type { BestGamePolicy } from "../../src/policies/best-game.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { ids, party, sideArb } from "../helpers/tickets.js";
import { hasSides, maxPartyOf, seatsOf, teamSizeOf, twoTeams, type GameShape } from "../../src/core/shape.js";

function make(shape: GameShape, spec: ImbalanceSpec, params: PolicyParams): BestGamePolicy {
  const imbalanceSpec = resolveImbalance(spec);
  const imbalance = imbalanceSpec.kind === "alman-mckay" ? almanMcKay(imbalanceSpec) : ratingSumDifference;
  return defaultPolicies.create(
    "best-game",
    { shape, seats: seatsOf(shape), teamSize: teamSizeOf(shape), imbalance, imbalanceSpec },
    params,
  ) as BestGamePolicy;
}

type Op =
  | { kind: "add"; ratings: number[]; side: "A" | "B" | undefined }
  | { kind: "remove"; pick: number }
  | { kind: "peek" }
  | { kind: "form" };

/** Parties up to a team (a free-for-all: up to 3), with sides only in two teams. */
const opsArb = (shape: GameShape, ratings: fc.Arbitrary<number>): fc.Arbitrary<Op[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant("add" as const),
          ratings: fc.array(ratings, { minLength: 1, maxLength: Math.min(3, maxPartyOf(shape)) }),
          side: hasSides(shape) ? sideArb : fc.constant(undefined),
        }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
      { weight: 2, arbitrary: fc.constant({ kind: "peek" as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: "form" as const }) },
    ),
    { maxLength: 150 },
  );

const RATING_SUM: ImbalanceSpec = { kind: "rating-sum" };
const ffa = (players: number): GameShape => ({ kind: "free-for-all", players, minPlayers: players, countMultiple: 1 });

const casesArb = fc.oneof(
  // 1v1 rating-sum: the spread bound cuts every search; ties are common with coarse ratings.
  fc.record({
    shape: fc.constant(twoTeams(1)),
    spec: fc.constant(RATING_SUM),
    params: fc.constantFrom<PolicyParams>({}, { window: 2 }, { window: 6 }, { budget: 4 }),
    coarse: fc.boolean(),
  }),
  // Alman–McKay: the Lemma 6 bound, for teams too.
  fc.record({
    shape: fc.integer({ min: 1, max: 3 }).map((k) => twoTeams(k)),
    spec: fc.constantFrom<ImbalanceSpec>(
      { kind: "alman-mckay", alpha: 0, p: 1, q: 1 },
      { kind: "alman-mckay", alpha: 0.5, p: 2, q: Infinity },
    ),
    params: fc.constantFrom<PolicyParams>({}, { window: 5 }, { budget: 16 }),
    coarse: fc.boolean(),
  }),
  // A free-for-all: the exact spread bound (runs of solos, parties), or v_q's.
  fc.record({
    shape: fc.integer({ min: 2, max: 8 }).map(ffa),
    spec: fc.constantFrom<ImbalanceSpec>(RATING_SUM, { kind: "alman-mckay", alpha: 0, p: 1, q: 2 }),
    params: fc.constantFrom<PolicyParams>({}, { budget: 4 }, { window: 12 }),
    coarse: fc.boolean(),
  }),
  // More teams, split by the shared assembly.
  fc.record({
    shape: fc.constantFrom<GameShape>(
      { kind: "teams", teams: 3, teamSize: 2, minTeamSize: 2 },
      { kind: "teams", teams: 4, teamSize: 1, minTeamSize: 1 },
    ),
    spec: fc.constant(RATING_SUM),
    params: fc.constantFrom<PolicyParams>({}, { budget: 4 }),
    coarse: fc.boolean(),
  }),
);

describe("best-game: the incremental candidate equals a fresh build's", () => {
  test.prop([casesArb.chain((c) => fc.record({ c: fc.constant(c), ops: opsArb(c.shape, ratingArbOf(c.coarse)) }))], {
    numRuns: 500,
  })("same best tickets and priority after every peek and every game formed", ({ c, ops }) => {
    const p = make(c.shape, c.spec, c.params);
    const waiting: Ticket[] = [];
    let seq = 0;
    const check = () => {
      const fresh = make(c.shape, c.spec, c.params);
      for (const t of waiting) fresh.add(t, 0);
      const got = p.peek();
      const want = fresh.peek();
      expect(got && { tickets: ids(got.tickets), priority: got.priority }).toEqual(
        want && { tickets: ids(want.tickets), priority: want.priority },
      );
    };
    for (const op of ops) {
      if (op.kind === "add") {
        const t = party(`t${seq++}`, op.ratings, { at: seq, side: op.side });
        p.add(t, seq);
        waiting.push(t);
      } else if (op.kind === "remove") {
        if (waiting.length === 0) continue;
        const [gone] = waiting.splice(op.pick % waiting.length, 1);
        p.remove(gone.id);
      } else if (op.kind === "peek") {
        check();
      } else {
        check();
        const game = p.peek();
        if (!game) continue;
        // Form the best game as poll would (threshold Infinity): its tickets leave.
        for (const t of game.tickets) {
          p.remove(t.id);
          waiting.splice(waiting.indexOf(t), 1);
        }
      }
    }
    check();
  });
});

function ratingArbOf(coarse: boolean): fc.Arbitrary<number> {
  return coarse ? fc.integer({ min: 0, max: 8 }).map((x) => 1400 + 25 * x) : fc.integer({ min: 0, max: 3000 });
}
