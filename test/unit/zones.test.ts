/** Zone routing in the engine: one policy per zone, choice-free tickets, FIFO between zones, eligibility. */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { resolveZones, ticketZones } from "../../src/core/zones.js";
import { idSet, ids, party, solo } from "../helpers/tickets.js";

const zoned = (extra: Partial<ConstructorParameters<typeof Matchmaker>[0]> = {}) =>
  new Matchmaker({ teamSize: 1, zones: ["junior", { name: "advanced", minRating: 1800 }], ...extra });

describe("zones", () => {
  it("matches within a zone and says which zone", () => {
    const mm = zoned();
    mm.enqueue(solo("a", 1900, { zones: ["advanced"] }), 0);
    mm.enqueue(solo("j", 1000, { zones: ["junior"] }), 1);
    expect(mm.tick(1)).toEqual([]); // one player per zone: nobody to play
    mm.enqueue(solo("b", 2000, { zones: ["advanced"] }), 2);
    const [match] = mm.tick(2);
    expect(match.zone).toBe("advanced");
    expect(idSet(match.tickets)).toEqual(["a", "b"]);
    expect(ids(mm.waiting())).toEqual(["j"]);
  });

  it("lets a choice-free ticket wait in every zone and withdraws it from the others once matched", () => {
    const mm = zoned();
    mm.enqueue(solo("c", 1900), 0); // no zones listed: every zone that admits 1900
    expect(mm.zonesOfTicket("c")).toEqual(["junior", "advanced"]);
    expect(mm.stats(0).byZone).toMatchObject({ junior: { waitingTickets: 1 }, advanced: { waitingTickets: 1 } });
    mm.enqueue(solo("j", 1000, { zones: ["junior"] }), 1);
    const [match] = mm.tick(1);
    expect(match.zone).toBe("junior");
    expect(idSet(match.tickets)).toEqual(["c", "j"]);
    // c is gone from advanced too: a newcomer there waits alone.
    mm.enqueue(solo("a", 2000, { zones: ["advanced"] }), 2);
    expect(mm.tick(2)).toEqual([]);
    expect(mm.stats(2).byZone).toMatchObject({ junior: { waitingTickets: 0 }, advanced: { waitingTickets: 1 } });
  });

  it("gives a choice-free newcomer to whoever has waited longest (FIFO between zones)", () => {
    for (const [first, second] of [
      ["j", "a"],
      ["a", "j"],
    ]) {
      const mm = zoned();
      const tickets = {
        j: solo("j", 1000, { zones: ["junior"] }),
        a: solo("a", 2000, { zones: ["advanced"] }),
      } as const;
      mm.enqueue({ ...tickets[first as "j" | "a"], enqueuedAt: 0 }, 0);
      mm.enqueue({ ...tickets[second as "j" | "a"], enqueuedAt: 1 }, 1);
      mm.tick(1);
      mm.enqueue(solo("c", 1900, { at: 2 }), 2);
      const [match, ...rest] = mm.tick(2);
      expect(rest).toEqual([]);
      expect(idSet(match.tickets)).toEqual(["c", first].sort());
      expect(ids(mm.waiting())).toEqual([second]);
    }
  });

  it("forms both zones' games in one tick when they do not compete", () => {
    const mm = zoned();
    for (const [id, rating, zone, at] of [
      ["j1", 1000, "junior", 0],
      ["a1", 1900, "advanced", 1],
      ["j2", 1100, "junior", 2],
      ["a2", 2000, "advanced", 3],
    ] as const) {
      mm.enqueue(solo(id, rating, { zones: [zone], at }), at);
    }
    const matches = mm.tick(3);
    expect(matches.map((m) => [m.zone, idSet(m.tickets)])).toEqual([
      ["junior", ["j1", "j2"]],
      ["advanced", ["a1", "a2"]],
    ]);
  });

  it("refuses a zone that does not admit the rating, an unknown zone, and zones in a queue without them", () => {
    const mm = zoned();
    expect(() => mm.enqueue(solo("x", 1500, { zones: ["advanced"] }), 0)).toThrow(
      /zones: zone "advanced" needs a rating of at least 1800/,
    );
    expect(() => mm.enqueue(solo("y", 1500, { zones: ["pro"] }), 0)).toThrow(
      /zones: "pro" is not one of junior, advanced/,
    );
    // A party enters a zone only if every member may.
    expect(() => mm.enqueue(party("p", [1900, 1700], { zones: ["advanced"] }), 0)).toThrow(MatchmakerError);
    expect(mm.size).toBe(0);
    const plain = new Matchmaker({ teamSize: 1 });
    expect(() => plain.enqueue(solo("z", 1500, { zones: ["junior"] }), 0)).toThrow(/this queue has no zones/);
  });

  it("refuses a ticket no zone admits", () => {
    const mm = new Matchmaker({ teamSize: 1, zones: [{ name: "advanced", minRating: 1800 }] });
    expect(() => mm.enqueue(solo("x", 1000), 0)).toThrow(/no zone of this queue admits this rating/);
  });

  it("checks the zones option", () => {
    expect(() => resolveZones([])).toThrow(/zones: must name at least one zone/);
    expect(() => resolveZones(["a", "a"])).toThrow(/"a" is listed twice/);
    expect(() => resolveZones([{ name: "a", minRating: 10, maxRating: 5 }])).toThrow(/minRating is above maxRating/);
    expect(() => resolveZones([{ name: "a", floor: 3 } as never])).toThrow(/zones:/);
    expect(ticketZones(solo("t", 5), resolveZones(["a", { name: "b", maxRating: 4 }]))).toEqual(["a"]);
  });

  it("puts a cancelled choice-free ticket out of every zone", () => {
    const mm = zoned();
    mm.enqueue(solo("c", 1900), 0);
    expect(mm.cancel("c")).toBe(true);
    mm.enqueue(solo("j", 1000, { zones: ["junior"] }), 1);
    mm.enqueue(solo("a", 2000, { zones: ["advanced"] }), 1);
    expect(mm.tick(1)).toEqual([]);
    for (const policy of mm.zonePolicies.values()) expect(policy.poll(2)).toEqual([]);
  });

  it("re-queues a match's tickets into all their zones at their original place", () => {
    const mm = zoned();
    mm.enqueue(solo("c", 1900, { at: 0 }), 0);
    mm.enqueue(solo("j", 1000, { zones: ["junior"], at: 1 }), 1);
    const [match] = mm.tick(1);
    expect(mm.requeue(match.tickets, 5)).toEqual([]);
    expect(mm.zonesOfTicket("c")).toEqual(["junior", "advanced"]);
    mm.cancel("j");
    mm.enqueue(solo("a", 2000, { zones: ["advanced"], at: 6 }), 6);
    const [again] = mm.tick(6);
    expect(again.zone).toBe("advanced");
    expect(again.teams.flatMap((t) => t.players).find((p) => p.sessionId === "c/0")!.waitMs).toBe(6);
  });

  it("fills a bot game inside one zone the overdue ticket accepts", () => {
    const mm = new Matchmaker({ teamSize: 2, zones: ["x", "y"], maxWaitMs: 100, fillWithBots: true });
    mm.enqueue(solo("old", 1500, { zones: ["x"], at: 0 }), 0);
    mm.enqueue(solo("other", 1500, { zones: ["y"], at: 1 }), 1);
    mm.enqueue(solo("both", 1500, { at: 2 }), 2);
    const [match] = mm.tick(100);
    expect(match.zone).toBe("x");
    expect(idSet(match.tickets)).toEqual(["both", "old"]);
    expect(match.bots).toBe(2);
    expect(ids(mm.waiting())).toEqual(["other"]);
  });

  it("needs a policy by name when there are several zones", () => {
    const policy = { name: "mine", add() {}, remove() {}, poll: () => [], nextWakeup: () => undefined };
    expect(() => new Matchmaker({ teamSize: 1, zones: ["x", "y"], policy })).toThrow(/give the policy by name/);
  });
});

describe("the side mix (Xu et al., Fact 3)", () => {
  const run = (sides: Array<"A" | "B" | undefined>) => {
    const mm = new Matchmaker({ teamSize: 1, statsWindow: 50 });
    sides.forEach((side, i) => mm.enqueue(solo(`t${i}`, 1500, { side, at: i }), i));
    return mm.stats(sides.length).sideMix;
  };

  it("is unstable when the sides differ by at least the choice-free arrivals", () => {
    expect(run(Array.from({ length: 40 }, (_, i) => (i % 2 ? "A" : "B")))).toMatchObject({
      unstable: true,
      arrivals: { A: 20, B: 20, any: 0 },
    });
    expect(
      run(Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? undefined : i % 4 === 3 ? "B" : "A"))).unstable,
    ).toBe(true);
  });

  it("is stable when choice-free players outnumber the difference, or nobody picks a side", () => {
    expect(
      run(Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? "A" : "B"))).unstable,
    ).toBe(false);
    expect(run(Array.from({ length: 40 }, () => undefined)).unstable).toBe(false);
    expect(run(["A", "B", "A"]).unstable).toBe(false); // too few arrivals to say
  });

  it("counts only the most recent arrivals", () => {
    const sides: Array<"A" | "B" | undefined> = [
      ...Array.from({ length: 60 }, () => "A" as const),
      ...Array.from({ length: 200 }, () => undefined),
    ];
    expect(run(sides)).toEqual({ arrivals: { A: 0, B: 0, any: 200 }, unstable: false });
  });

  it("reports waiting and recent waits per side", () => {
    const mm = new Matchmaker({ teamSize: 1 });
    mm.enqueue(solo("a", 1500, { side: "A", at: 0 }), 0);
    mm.enqueue(solo("c", 1500, { at: 0 }), 0);
    expect(mm.tick(300)).toHaveLength(1);
    mm.enqueue(solo("a2", 1500, { side: "A", at: 400 }), 400);
    expect(mm.stats(500).bySide).toEqual({
      A: { waitingTickets: 1, waitingPlayers: 1, meanWaitMs: 300, recentMatches: 1 },
      B: { waitingTickets: 0, waitingPlayers: 0, meanWaitMs: 0, recentMatches: 0 },
      any: { waitingTickets: 0, waitingPlayers: 0, meanWaitMs: 300, recentMatches: 1 },
    });
  });
});
