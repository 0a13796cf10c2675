import { describe, expect, it } from "vitest";
import { assembleTeams } from "../../src/core/assembly.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { assignRoles, matchRoles, checkQueueRoles, RoleGameSearch, RoleTable } from "../../src/core/role-rules.js";
import type { Player } from "../../src/core/types.js";
import { RolesPolicy } from "../../src/policies/roles.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { expectRoleValidMatch, roleParty, roleSolo } from "../helpers/roles.js";
import { ids } from "../helpers/tickets.js";
import { twoTeamFields } from "../../src/core/policy.js";

const R3 = ["tank", "healer", "dps"];
const R5 = ["top", "jungle", "mid", "bot", "support"];
const p = (id: string, roles: string[], rating = 1000): Player => ({ sessionId: id, rating, roles });

describe("assignRoles: the shared role-assignment step", () => {
  it("gives every player an accepted role, one per role on each team", () => {
    const teamA = [p("a1", ["tank", "healer"]), p("a2", ["tank"]), p("a3", ["dps", "healer"])];
    const teamB = [p("b1", ["dps"]), p("b2", ["healer", "dps"]), p("b3", ["tank", "dps", "healer"])];
    const roles = assignRoles(teamA, teamB, R3)!;
    expect(Object.fromEntries(roles)).toEqual({
      a1: "healer",
      a2: "tank",
      a3: "dps",
      b1: "dps",
      b2: "healer",
      b3: "tank",
    });
  });

  it("reports impossible when two players of a team can only take the same role", () => {
    const teamA = [p("a1", ["tank"]), p("a2", ["tank"]), p("a3", R3)];
    const teamB = [p("b1", ["tank"]), p("b2", ["healer"]), p("b3", ["dps"])];
    expect(assignRoles(teamA, teamB, R3)).toBeUndefined();
  });

  it("reports impossible for a team of the wrong size and ignores roles the queue does not know", () => {
    expect(assignRoles([p("a", R3), p("b", R3)], [p("c", R3), p("d", R3), p("e", R3)], R3)).toBeUndefined();
    expect(assignRoles([p("a", ["mage"])], [p("b", ["tank"])], ["tank"])).toBeUndefined();
  });

  it("matchRoles is an exact bipartite matching (augmenting paths reassign earlier players)", () => {
    // Player 0 takes role 0 first, then must move to role 1 so that player 1 fits.
    expect(matchRoles([0b011, 0b001, 0b100], 3)).toEqual([1, 0, 2]);
    expect(matchRoles([0b011, 0b011, 0b011], 3)).toBeUndefined();
    expect(matchRoles([0b1, 0b1], 1)).toBeUndefined();
    expect(matchRoles([], 3)).toEqual([]);
  });

  it("a party's role sets are the distinct-role combinations its members can fill", () => {
    const table = new RoleTable(R3);
    const duo = roleParty("d", [
      { rating: 1, roles: ["tank", "healer"] },
      { rating: 1, roles: ["tank"] },
    ]);
    expect(table.partyMasks(duo)).toEqual([0b011]); // healer + tank
    expect(
      table.partyMasks(
        roleParty("x", [
          { rating: 1, roles: ["tank"] },
          { rating: 1, roles: ["tank"] },
        ]),
      ),
    ).toEqual([]);
    expect(table.partyMasks(roleSolo("s", 1, ["dps", "tank"]))).toEqual([0b001, 0b100]);
  });

  it("RoleGameSearch finds a role-valid game among tickets, parties kept on one team", () => {
    const table = new RoleTable(["a", "b"]);
    const search = new RoleGameSearch(table, "choose");
    const tickets = [
      roleParty("duo", [
        { rating: 1, roles: ["a"] },
        { rating: 1, roles: ["b", "a"] },
      ]),
      roleSolo("x", 1, ["a"]),
      roleSolo("y", 1, ["a"]),
      roleSolo("z", 1, ["b"]),
    ];
    for (const t of tickets.slice(0, 3)) search.add(t);
    expect(search.found).toBe(false); // x and y both play only "a": they cannot form the other team
    search.add(tickets[3]);
    expect(search.found).toBe(true);
    const game = search.game();
    expect(game.map((g) => g.ticket.id)).toEqual(["duo", "x", "z"]);
    expect(game.find((g) => g.ticket.id === "duo")!.team).not.toBe(game.find((g) => g.ticket.id === "x")!.team);
  });
});

describe("assembleTeams with roles", () => {
  it("chooses the least imbalanced role-valid split, not the least imbalanced split", () => {
    // Unconstrained, 1000+1300 vs 1100+1200 (imbalance 0) is best; but both "a"-only players
    // would then sit on one team.
    const tickets = [
      roleSolo("w", 1000, ["a"]),
      roleSolo("x", 1300, ["a"]),
      roleSolo("y", 1100, ["b"]),
      roleSolo("z", 1200, ["b"]),
    ];
    expect(assembleTeams(tickets, 2, ratingSumDifference)!.imbalance).toBe(0);
    const split = assembleTeams(tickets, 2, ratingSumDifference, ["a", "b"])!;
    expect(split.imbalance).toBe(200);
    expect(ids(split.teamA).sort()).toEqual(["w", "z"]);
    expect(Object.fromEntries(split.roles!)).toEqual({ "w/0": "a", "z/0": "b", "x/0": "a", "y/0": "b" });
  });

  it("returns undefined when no split is role-valid, and keeps side preferences", () => {
    const noB = [roleSolo("w", 1, ["a"]), roleSolo("x", 1, ["a"]), roleSolo("y", 1, ["a"]), roleSolo("z", 1, ["b"])];
    expect(assembleTeams(noB, 2, ratingSumDifference, ["a", "b"])).toBeUndefined();
    const sided = [
      roleSolo("w", 1, ["a"], { side: "A" }),
      roleSolo("x", 1, ["b"], { side: "A" }),
      roleSolo("y", 1, ["a", "b"]),
      roleSolo("z", 1, ["a", "b"]),
    ];
    const split = assembleTeams(sided, 2, ratingSumDifference, ["a", "b"])!;
    expect(ids(split.teamA)).toEqual(["w", "x"]);
    const clash = [
      roleSolo("w", 1, ["a"], { side: "A" }),
      roleSolo("x", 1, ["a"], { side: "A" }),
      roleSolo("y", 1, ["b"]),
      roleSolo("z", 1, ["b"]),
    ];
    expect(assembleTeams(clash, 2, ratingSumDifference, ["a", "b"])).toBeUndefined();
  });

  it("without roles, no roles appear in the split", () => {
    const split = assembleTeams([roleSolo("a", 1, []), roleSolo("b", 2, [])], 1, ratingSumDifference)!;
    expect("roles" in split).toBe(false);
  });
});

describe("role queue configuration", () => {
  it("needs exactly teamSize distinct non-empty role names, teamSize at most 8", () => {
    expect(checkQueueRoles(R5, 5)).toBeUndefined();
    const bad: Array<[unknown, RegExp]> = [
      [["top", "mid"], /roles: must name exactly teamSize = 5 roles, got 2/],
      [["top", "top", "mid", "bot", "support"], /roles: "top" is listed twice/],
      [["top", "", "mid", "bot", "support"], /roles: every role must be a non-empty string/],
      [["top", 3, "mid", "bot", "support"], /roles\.1: must be a string/],
      ["top", /roles: must be a list of role names/],
    ];
    for (const [roles, message] of bad) {
      expect(() => new Matchmaker({ teamSize: 5, policy: "roles", roles: roles as string[] })).toThrow(message);
    }
    const nine = Array.from({ length: 9 }, (_, i) => `r${i}`);
    expect(() => new Matchmaker({ teamSize: 9, policy: "roles", roles: nine })).toThrow(
      /roles: role queues support teamSize up to 8, got 9/,
    );
  });

  it("refuses a policy that cannot form role-valid games, and the roles policy without queue roles", () => {
    expect(() => new Matchmaker({ teamSize: 5, policy: "greedy", roles: R5 })).toThrow(
      /policy "greedy" does not form role-valid games; use policy "roles"/,
    );
    expect(new Matchmaker({ teamSize: 5, roles: R5 }).policy.name).toBe("roles"); // the default in a role queue
    expect(() => new Matchmaker({ teamSize: 5, policy: "roles" })).toThrow(/roles policy: the queue declares no roles/);
    expect(() => new Matchmaker({ teamSize: 5, policy: "roles", roles: R5, params: { mode: "fast" } })).toThrow(
      /roles policy parameters: mode: must be "approximate" or "exact"/,
    );
    expect(() => new Matchmaker({ teamSize: 5, policy: "roles", roles: R5, params: { window: 3 } })).toThrow(
      /window: unknown field/,
    );
    // Refused with the config code: the test fails if nothing is thrown.
    let refusal: unknown;
    try {
      new Matchmaker({ teamSize: 5, policy: "roles", roles: R5, params: { mode: 1 } });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(MatchmakerError);
    expect((refusal as MatchmakerError).code).toBe("invalid_config");
  });
});

describe("enqueue validation in role queues", () => {
  const mm = () => new Matchmaker({ teamSize: 5, policy: "roles", roles: R5 });
  const refused = (m: Matchmaker, ticket: Parameters<Matchmaker["enqueue"]>[0]) => {
    try {
      m.enqueue(ticket, 0);
    } catch (error) {
      expect(error).toBeInstanceOf(MatchmakerError);
      expect((error as MatchmakerError).code).toBe("invalid_ticket");
      return (error as Error).message;
    }
    throw new Error("the ticket was accepted");
  };

  it("every player must list one or more of the queue's roles, and nothing else", () => {
    const m = mm();
    expect(refused(m, { id: "t", players: [{ sessionId: "p", rating: 1 }], enqueuedAt: 0 })).toBe(
      "invalid ticket: players.0.roles: is required in a role queue (one or more of top, jungle, mid, bot, support)",
    );
    expect(refused(m, roleSolo("t", 1, []))).toMatch(/players\.0\.roles: is required/);
    expect(refused(m, roleSolo("t", 1, ["mid", "tank"]))).toBe(
      'invalid ticket: players.0.roles: "tank" is not one of this queue\'s roles (top, jungle, mid, bot, support)',
    );
    expect(refused(m, roleSolo("t", 1, ["mid", "mid"]))).toMatch(/players\.0\.roles: "mid" is listed twice/);
    expect(
      refused(m, {
        id: "t",
        players: [{ sessionId: "p", rating: 1, roles: "mid" as unknown as string[] }],
        enqueuedAt: 0,
      }),
    ).toMatch(/players\.0\.roles: must be a list of role names/);
    const duo = roleParty("d", [
      { rating: 1, roles: ["mid"] },
      { rating: 1, roles: ["top", "bot"] },
    ]);
    m.enqueue(duo, 0);
    expect(m.size).toBe(1);
  });

  it("a party whose members cannot take different roles is refused: it could never play", () => {
    const duo = roleParty("d", [
      { rating: 1, roles: ["mid"] },
      { rating: 1, roles: ["mid"] },
    ]);
    expect(refused(mm(), duo)).toBe("invalid ticket: players: the party's members cannot each take a different role");
  });

  it("without queue roles, players must not carry roles", () => {
    const m = new Matchmaker({ teamSize: 1 });
    expect(refused(m, roleSolo("t", 1, ["mid"]))).toBe("invalid ticket: players.0.roles: this queue has no roles");
    expect(m.size).toBe(0);
  });
});

describe("role queue matches", () => {
  it("carry each player's role, one per role on each team", () => {
    const m = new Matchmaker({ teamSize: 3, policy: "roles", roles: R3 });
    const tickets = [
      roleSolo("a", 1500, ["tank"]),
      roleSolo("b", 1510, ["tank", "dps"]),
      roleSolo("c", 1490, ["healer"]),
      roleSolo("d", 1520, ["healer", "tank"]),
      roleSolo("e", 1480, ["dps"]),
      roleSolo("f", 1505, ["dps", "healer"]),
    ];
    tickets.forEach((t, i) => m.enqueue({ ...t, enqueuedAt: i }, i));
    const [match] = m.tick(10);
    expect(match).toBeDefined();
    expectValidMatch(match, 3);
    expectRoleValidMatch(match, R3);
    expect(m.size).toBe(0);
  });

  it("do not form while the roles cannot be filled, however many players wait", () => {
    const m = new Matchmaker({ teamSize: 2, policy: "roles", roles: ["a", "b"] });
    for (let i = 0; i < 6; i++) m.enqueue(roleSolo(`t${i}`, 1000 + i, ["a"]), i);
    m.enqueue(roleSolo("b1", 1000, ["b"]), 7);
    expect(m.tick(7)).toEqual([]);
    m.enqueue(roleSolo("b2", 1003, ["b"]), 8);
    const [match] = m.tick(8);
    expectRoleValidMatch(match, ["a", "b"]);
    // The shortest window with two players per role runs from b1 to b2 (ratings 1000 to 1003).
    expect(match.tickets.map((t) => t.id)).toEqual(expect.arrayContaining(["b1", "b2"]));
    expect(match.quality.spread).toBeLessThanOrEqual(3);
  });

  it("give bots the roles left over when the queue fills with bots", () => {
    const m = new Matchmaker({ teamSize: 3, policy: "roles", roles: R3, maxWaitMs: 1000, fillWithBots: true });
    m.enqueue(roleSolo("a", 1500, ["tank"]), 0);
    m.enqueue(roleSolo("b", 1500, ["tank"]), 0);
    m.enqueue(roleSolo("c", 1500, ["tank"]), 0); // a third tank cannot join the same game
    m.enqueue(
      roleParty("d", [
        { rating: 1400, roles: ["healer"] },
        { rating: 1600, roles: ["dps", "healer"] },
      ]),
      0,
    );
    const matches = m.tick(1000);
    expect(matches.length).toBeGreaterThanOrEqual(1);
    const [first] = matches;
    expectValidMatch(first, 3);
    expectRoleValidMatch(first, R3);
    expect(first.tickets.map((t) => t.id).sort()).toEqual(["a", "b", "d"]);
    expect(first.bots).toBe(2);
    // The two tanks sit on different teams; the duo takes healer and dps beside one of them, and
    // the bots take the healer and dps seats of the other team.
    const bots = first.teams.flatMap((t) => t.players).filter((p) => p.bot);
    expect(bots.map((b) => b.role).sort()).toEqual(["dps", "healer"]);
  });

  it("exact mode forms the best role-valid game and refuses pools above its limit", () => {
    const m = new Matchmaker({ teamSize: 1, policy: "roles", roles: ["solo"], params: { mode: "exact" } });
    for (let i = 0; i < 3; i++) m.enqueue(roleSolo(`t${i}`, [0, 50, 60][i], ["solo"]), i);
    const [match] = m.tick(3);
    expect(match.tickets.map((t) => t.id).sort()).toEqual(["t1", "t2"]);
    expect(match.quality.imbalance).toBe(10);
    const big = new RolesPolicy(
      { ...twoTeamFields(1), imbalance: ratingSumDifference, roles: ["solo"] },
      { mode: "exact", threshold: Infinity, thresholdGrowthPerSecond: 0 },
    );
    for (let i = 0; i < 17; i++) big.add(roleSolo(`u${i}`, i, ["solo"]));
    expect(() => big.poll(0)).toThrow(
      /mode "exact"\): 17 tickets wait, but the exact search is for pools of at most 16/,
    );
  });

  it("a threshold holds the best game back until its imbalance qualifies, and nextWakeup says when", () => {
    const m = new Matchmaker({
      teamSize: 1,
      policy: "roles",
      roles: ["solo"],
      params: { threshold: 10, thresholdGrowthPerSecond: 5 },
    });
    m.enqueue(roleSolo("a", 1000, ["solo"], { at: 0 }), 0);
    m.enqueue(roleSolo("b", 1030, ["solo"], { at: 0 }), 0);
    expect(m.tick(0)).toEqual([]);
    // 30 ≤ 10 + 5·t/1000 once t = 4000 ms.
    expect(m.nextWakeup(0)).toBe(4000);
    expect(m.tick(3999)).toEqual([]);
    expect(m.tick(4000)).toHaveLength(1);
  });
});
