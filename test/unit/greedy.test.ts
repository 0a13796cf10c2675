import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { greedy, GreedyPolicy } from "../../src/policies/greedy.js";
import { ReferenceGreedy } from "../helpers/brute-force.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { idSet, ids, party, solo, ticketSpecArb, type TicketSpec } from "../helpers/tickets.js";
import { twoTeamFields } from "../../src/core/policy.js";

/** Enqueue and tick at the same instant, as the room does on every join. */
function join(mm: Matchmaker, ticket: Ticket, now = ticket.enqueuedAt): Match[] {
  mm.enqueue(ticket, now);
  return mm.tick(now);
}

function expectError(fn: () => unknown, code: MatchmakerError["code"]): MatchmakerError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MatchmakerError);
    expect((error as MatchmakerError).code).toBe(code);
    return error as MatchmakerError;
  }
  throw new Error(`expected a MatchmakerError with code ${code}`);
}

describe("greedy: forms a game as soon as one can be assembled", () => {
  it("1v1: the first join waits, the second join forms the game", () => {
    const mm = new Matchmaker({ teamSize: 1, policy: "greedy" });
    expect(join(mm, solo("a", 1500, { at: 0 }))).toEqual([]);
    const [match, ...rest] = join(mm, solo("b", 1600, { at: 5 }));
    expect(rest).toEqual([]);
    expectValidMatch(match, 1);
    expect(idSet(match.tickets)).toEqual(["a", "b"]);
    expect(mm.size).toBe(0);
  });

  it("2v2: a waiting duo is completed by two solos, duo on one team, solos on the other", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    expect(join(mm, party("duo", [1500, 1500], { at: 0 }))).toEqual([]);
    expect(join(mm, solo("s1", 1400, { at: 1 }))).toEqual([]);
    const [match] = join(mm, solo("s2", 1600, { at: 2 }));
    expectValidMatch(match, 2);
    expect(match.teams[0].ticketIds).toEqual(["duo"]);
    expect([...match.teams[1].ticketIds].sort()).toEqual(["s1", "s2"]);
    expect(match.quality.imbalance).toBe(0);
  });

  it("2v2: three solos then a duo: the duo and the two oldest solos play, the newest solo waits", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    for (const [i, id] of ["s1", "s2", "s3"].entries()) expect(join(mm, solo(id, 1500, { at: i }))).toEqual([]);
    const [match] = join(mm, party("duo", [1500, 1500], { at: 3 }));
    expect(idSet(match.tickets)).toEqual(["duo", "s1", "s2"]);
    expect(ids(mm.waiting())).toEqual(["s3"]);
  });

  it("takes the oldest tickets first when several games are possible", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    for (const [i, id] of ["a", "b", "c"].entries()) mm.enqueue(solo(id, 1500, { at: i }), i);
    const matches = mm.tick(3);
    expect(matches.map((m) => idSet(m.tickets))).toEqual([["a", "b"]]);
    expect(ids(mm.waiting())).toEqual(["c"]);
  });

  it("forms every possible game in one tick, oldest first", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    for (let i = 0; i < 5; i++) mm.enqueue(solo(`t${i}`, 1500, { at: i }), i);
    expect(mm.tick(5).map((m) => idSet(m.tickets))).toEqual([
      ["t0", "t1"],
      ["t2", "t3"],
    ]);
    expect(ids(mm.waiting())).toEqual(["t4"]);
  });
});

describe("greedy: side constraints", () => {
  it("1v1: two side-A solos never match; a side-B solo then matches the older one", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    expect(join(mm, solo("a1", 1500, { at: 0, side: "A" }))).toEqual([]);
    expect(join(mm, solo("a2", 1500, { at: 1, side: "A" }))).toEqual([]);
    const [match] = join(mm, solo("b", 1500, { at: 2, side: "B" }));
    expect(match.teams[0].ticketIds).toEqual(["a1"]);
    expect(match.teams[1].ticketIds).toEqual(["b"]);
    expect(ids(mm.waiting())).toEqual(["a2"]);
  });

  it("1v1: a choice-free solo takes the side a side-B solo leaves open", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    join(mm, solo("b", 1500, { at: 0, side: "B" }));
    const [match] = join(mm, solo("free", 1500, { at: 1 }));
    expect(match.teams[0].ticketIds).toEqual(["free"]);
    expect(match.teams[1].ticketIds).toEqual(["b"]);
  });

  it("2v2: two side-A duos wait until a side-B duo arrives", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    expect(join(mm, party("a1", [1, 2], { at: 0, side: "A" }))).toEqual([]);
    expect(join(mm, party("a2", [1, 2], { at: 1, side: "A" }))).toEqual([]);
    const [match] = join(mm, party("b", [1, 2], { at: 2, side: "B" }));
    expectValidMatch(match, 2);
    expect(match.teams.map((t) => t.ticketIds)).toEqual([["a1"], ["b"]]);
  });
});

describe("greedy: configuration and registry", () => {
  it("is the default policy and never asks for a wakeup", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    expect(mm.policy).toBeInstanceOf(GreedyPolicy);
    expect(mm.policy.name).toBe("greedy");
    mm.enqueue(solo("a"), 0);
    expect(mm.nextWakeup(0)).toBeUndefined();
    expect(mm.policy.nextWakeup(1e9)).toBeUndefined();
    expect(defaultPolicies.names()).toContain("greedy");
  });

  it("refuses an unknown policy name with unknown_policy, naming the registered ones", () => {
    const error = expectError(() => new Matchmaker({ teamSize: 1, policy: "no-such-policy" }), "unknown_policy");
    expect(error.message).toContain("no-such-policy");
    expect(error.message).toContain("greedy");
    expectError(
      () => defaultPolicies.create("nope", { ...twoTeamFields(1), imbalance: ratingSumDifference }),
      "unknown_policy",
    );
  });

  it("refuses parameters greedy does not take with invalid_config", () => {
    const error = expectError(
      () => new Matchmaker({ teamSize: 1, policy: "greedy", params: { window: 5 } }),
      "invalid_config",
    );
    expect(error.message).toContain("window");
    expect(() => new Matchmaker({ teamSize: 1, policy: "greedy", params: {} })).not.toThrow();
  });

  it.each([
    ["teamSize 0", { teamSize: 0 }],
    ["teamSize 1.5", { teamSize: 1.5 }],
    ["teamSize 65", { teamSize: 65 }],
    ["teamSize NaN", { teamSize: NaN }],
    ["statsWindow 0", { teamSize: 2, statsWindow: 0 }],
    ["a 65-character match id prefix", { teamSize: 2, matchIdPrefix: "x".repeat(65) }],
  ])("refuses bad engine options (%s) with invalid_config", (_, options) => {
    expectError(() => new Matchmaker(options), "invalid_config");
  });

  it("refuses to register a second policy named greedy", () => {
    expectError(() => defaultPolicies.register(greedy), "invalid_config");
  });
});

/** Steps for the reference comparison: a new ticket (at a fresh, later time) or a cancellation. */
type Step = { kind: "add"; spec: TicketSpec } | { kind: "cancel"; pick: number };

const greedyScript = fc.integer({ min: 1, max: 4 }).chain((k) =>
  fc.record({
    k: fc.constant(k),
    steps: fc.array<Step>(
      fc.oneof(
        { weight: 5, arbitrary: ticketSpecArb(k).map((spec): Step => ({ kind: "add", spec })) },
        { weight: 1, arbitrary: fc.nat().map((pick): Step => ({ kind: "cancel", pick })) },
      ),
      { maxLength: 16 },
    ),
  }),
);

describe("greedy against a brute-force oldest-game reference", () => {
  test.prop([greedyScript], { numRuns: 250 })(
    "forms the same games, in the same order, one join at a time",
    ({ k, steps }) => {
      const mm = new Matchmaker({ teamSize: k });
      const ref = new ReferenceGreedy(k);
      steps.forEach((step, i) => {
        if (step.kind === "cancel") {
          const waiting = ref.waiting;
          if (waiting.length === 0) return;
          const id = waiting[step.pick % waiting.length].id;
          ref.remove(id);
          expect(mm.cancel(id, i)).toBe(true);
        } else {
          // Distinct enqueue times, so "oldest" is unambiguous.
          const ticket = party(`t${i}`, step.spec.ratings, { at: i, side: step.spec.side });
          const expected = ref.add(ticket);
          const matches = join(mm, ticket);
          expect(matches.map((m) => idSet(m.tickets))).toEqual(expected.map(idSet));
          for (const m of matches) expectValidMatch(m, k);
        }
        expect(ids(mm.waiting())).toEqual(ids(ref.waiting));
      });
    },
  );

  test.prop(
    [
      fc
        .integer({ min: 1, max: 4 })
        .chain((k) => fc.tuple(fc.constant(k), fc.array(ticketSpecArb(k), { maxLength: 12 }))),
    ],
    { numRuns: 150 },
  )("after a burst of joins and one tick, forms the same games as the reference", ([k, specs]) => {
    const tickets = specs.map((s, i) => party(`t${i}`, s.ratings, { at: i, side: s.side }));
    const mm = new Matchmaker({ teamSize: k });
    for (const t of tickets) mm.enqueue(t, t.enqueuedAt);
    const expected = new ReferenceGreedy(k).add(...tickets);
    expect(mm.tick(specs.length).map((m) => idSet(m.tickets))).toEqual(expected.map(idSet));
  });
});

describe("greedy: ties in enqueue time", () => {
  /**
   * Candidates come from several per-class arrival indexes; with equal enqueue times they must
   * still be ranked by when the engine added them (f1, f2, sA), so the oldest game is
   * {f1, f2, dB}, not {f1, sA, dB}. Guards the fixed tie-break across classes.
   */
  it("with equal enqueue times, prefers the ticket that was added first", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    for (const t of [solo("f1"), solo("f2"), solo("sA", 1500, { side: "A" })]) expect(join(mm, t, 0)).toEqual([]);
    expect(ids(mm.waiting())).toEqual(["f1", "f2", "sA"]);
    const [match] = join(mm, party("dB", [1500, 1500], { side: "B" }), 0);
    expect(idSet(match.tickets)).toEqual(["dB", "f1", "f2"]);
  });
});
