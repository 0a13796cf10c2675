/**
 * One account, one place, in the engine: a ticket with a `playerId` that already waits (in another
 * ticket, or twice in its own) is refused with `duplicate_account` and changes nothing; `requeue`
 * keeps the rule; an account is free again once its ticket is matched or cancelled.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { simulate } from "../../src/sim/index.js";
import { ids } from "../helpers/tickets.js";
import { thrown } from "../helpers/thrown.js";

/** A ticket whose players have accounts: `players` are [sessionId, playerId?] pairs. */
function ticket(id: string, players: ReadonlyArray<readonly [string, string?]>, at = 0): Ticket {
  return {
    id,
    players: players.map(([sessionId, playerId]) => ({
      sessionId,
      rating: 1500,
      ...(playerId !== undefined ? { playerId } : {}),
    })),
    enqueuedAt: at,
  };
}

const refusal = (call: () => void): MatchmakerError => thrown(call, MatchmakerError);

describe("an account waits at most once", () => {
  it("refuses a second ticket of a waiting account with duplicate_account naming it, changing nothing", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(ticket("s1", [["s1", "acct-7"]]), 0);
    const before = { waiting: ids(mm.waiting()), players: mm.waitingPlayers };
    const error = refusal(() => mm.enqueue(ticket("s2", [["s2", "acct-7"]]), 1));
    expect(error.code).toBe("duplicate_account");
    expect(error.field).toBe("playerId");
    expect(error.message).toContain('"acct-7"');
    expect({ waiting: ids(mm.waiting()), players: mm.waitingPlayers }).toEqual(before);
    expect(mm.ticketOfAccount("acct-7")).toBe("s1");
    // The same account on both sides of a 1v1 never happens: the one ticket waits alone.
    expect(mm.tick(2)).toEqual([]);
  });

  it("refuses an account twice in one ticket (a party of one account)", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    const error = refusal(() =>
      mm.enqueue(
        ticket("p", [
          ["m1", "acct"],
          ["m2", "acct"],
        ]),
        0,
      ),
    );
    expect(error.code).toBe("duplicate_account");
    expect(mm.size).toBe(0);
    expect(mm.ticketOfAccount("acct")).toBeUndefined();
  });

  it("refuses a party holding a waiting account, and a solo of an account waiting in a party", () => {
    const mm = new Matchmaker({ teamSize: 2 });
    mm.enqueue(
      ticket("party", [
        ["m1", "a"],
        ["m2", "b"],
      ]),
      0,
    );
    expect(refusal(() => mm.enqueue(ticket("x", [["x", "b"]]), 1)).code).toBe("duplicate_account");
    expect(
      refusal(() =>
        mm.enqueue(
          ticket("p2", [
            ["y", "c"],
            ["z", "a"],
          ]),
          1,
        ),
      ).code,
    ).toBe("duplicate_account");
    expect(mm.size).toBe(1);
  });

  it("reports a waiting ticket id before the account", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(ticket("t", [["t", "a"]]), 0);
    expect(refusal(() => mm.enqueue(ticket("t", [["other", "a"]]), 0)).code).toBe("duplicate_ticket");
  });

  it("players without playerId are their own accounts (distinct session ids never collide)", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(ticket("a", [["a"]]), 0);
    // A playerId equal to another player's session id is another account.
    mm.enqueue(ticket("b", [["b", "a"]]), 0);
    expect(mm.size).toBe(2);
    expect(mm.tick(0)).toHaveLength(1);
  });

  it("frees the account once its ticket is cancelled or matched", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(ticket("s1", [["s1", "a"]]), 0);
    mm.cancel("s1");
    mm.enqueue(ticket("s2", [["s2", "a"]]), 1);
    mm.enqueue(ticket("s3", [["s3", "b"]]), 1);
    const [match] = mm.tick(1);
    expect(match!.tickets.map((t) => t.id).sort()).toEqual(["s2", "s3"]);
    expect(mm.ticketOfAccount("a")).toBeUndefined();
    mm.enqueue(ticket("s4", [["s4", "a"]]), 2);
    expect(mm.ticketOfAccount("a")).toBe("s4");
  });

  it("requeue keeps the rule: a match's ticket whose account waits again meanwhile is refused, the others go back", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(ticket("s1", [["s1", "a"]]), 0);
    mm.enqueue(ticket("s2", [["s2", "b"]]), 0);
    const [match] = mm.tick(0) as [Match];
    // Account "a" joined again (a new session) while its first ticket was in the match.
    mm.enqueue(ticket("s9", [["s9", "a"]]), 5);
    const refused = mm.requeue(match.tickets, 6);
    expect(refused.map((t) => t.id)).toEqual(["s1"]);
    expect(ids(mm.waiting()).sort()).toEqual(["s2", "s9"]);
    expect(mm.ticketOfAccount("a")).toBe("s9");
    expect(mm.stats(6).ticketsRequeued).toBe(1);
  });
});

describe("one account, one place: a random history", () => {
  const op = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("join" as const),
        accounts: fc.array(fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }), {
          minLength: 1,
          maxLength: 2,
        }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("leave" as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("tick" as const), requeue: fc.boolean() }) },
  );

  test.prop([fc.constantFrom("greedy", "best-game", "fifo"), fc.array(op, { minLength: 1, maxLength: 60 })], {
    numRuns: 200,
  })("a ticket enters exactly when none of its accounts waits; no two waiting tickets share one", (policy, ops) => {
    const mm = new Matchmaker({ teamSize: 2, policy });
    let seq = 0;
    let now = 0;
    const owner = (t: Ticket) => t.players.flatMap((p) => (p.playerId === undefined ? [] : [p.playerId]));
    const waitingAccounts = () => [...mm.waiting()].flatMap(owner);
    for (const o of ops) {
      now += 10;
      if (o.kind === "join") {
        const id = `t${seq++}`;
        const t = ticket(
          id,
          o.accounts.map((a, i) => [`${id}/${i}`, a === undefined ? undefined : `acct${a}`] as const),
          now,
        );
        const mine = owner(t);
        const waiting = new Set(waitingAccounts());
        const clash = mine.some((a) => waiting.has(a)) || new Set(mine).size < mine.length;
        if (clash) expect(refusal(() => mm.enqueue(t, now)).code).toBe("duplicate_account");
        else mm.enqueue(t, now);
      } else if (o.kind === "leave") {
        const all = [...mm.waiting()];
        if (all.length > 0) mm.cancel(all[o.pick % all.length]!.id);
      } else {
        for (const match of mm.tick(now)) {
          const accounts = match.teams.flatMap((team) => team.players.flatMap((p) => p.playerId ?? []));
          expect(new Set(accounts).size, "an account twice in one match").toBe(accounts.length);
          if (o.requeue) mm.requeue(match.tickets, now);
        }
      }
      const accounts = waitingAccounts();
      expect(new Set(accounts).size, "an account waits twice").toBe(accounts.length);
      for (const t of mm.waiting()) for (const a of owner(t)) expect(mm.ticketOfAccount(a)).toBe(t.id);
    }
  });
});

describe("the simulator", () => {
  it("refuses a community member who comes back while still waiting, as a queue does", () => {
    const trace = simulate({
      policy: "greedy",
      teamSize: 2,
      traffic: {
        arrivals: "poisson",
        rate: 8,
        parties: [{ value: 1, weight: 1 }],
        skill: { kind: "uniform" },
        sides: [{ value: undefined, weight: 1 }],
        community: 5,
      },
      tickets: 500,
      seed: 4,
    });
    expect(trace.refused).toBeGreaterThan(0);
    expect(trace.arrivals.length + trace.refused!).toBe(500);
    for (const m of trace.matches) {
      const accounts = m.teams.flatMap((t) => t.players.map((p) => p.playerId!));
      expect(new Set(accounts).size).toBe(4);
    }
  });
});
