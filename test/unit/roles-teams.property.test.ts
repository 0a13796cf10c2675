/**
 * Role queues of three teams or more (every team one player per role) against brute force: the
 * seat matching over T·k seats, the search for a role-valid game among tickets, the chain of
 * minimal windows, the exact mode's best game, the assembly past its exact limit, and engine
 * sessions; shapes whose role search would be too large are refused at start-up.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { assembleGame, teamsImbalance } from "../../src/core/game-assembly.js";
import { ratingSumDifference } from "../../src/core/imbalance.js";
import { RoleTable } from "../../src/core/role-rules.js";
import type { GameShape } from "../../src/core/shape.js";
import { TeamsRoleSearch } from "../../src/core/team-role-search.js";
import { reachedMaxWait, type Match, type Ticket } from "../../src/core/types.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import type { RolesPolicy } from "../../src/policies/roles.js";
import { RoleWindows, SeatMatching } from "../../src/policies/shared/role-windows.js";
import { expectEachTicketOnce, expectValidShapedMatch } from "../helpers/match-checks.js";
import {
  bruteMaxSeats,
  bruteMinimalWindows,
  bruteTeamRoleValid,
  expectRoleValidMatch,
  ROLE_NAMES,
  roleParty,
  roleSubsetArb,
} from "../helpers/roles.js";

const rolesOf = (k: number): string[] => ROLE_NAMES.slice(0, k);
const teams = (count: number, teamSize: number): GameShape => ({
  kind: "teams",
  teams: count,
  teamSize,
  minTeamSize: teamSize,
});
const playersOf = (tickets: readonly Ticket[]) => tickets.flatMap((t) => [...t.players]);

interface MemberSpec {
  rating: number;
  roles: string[];
}

/** Parties of 1..maxParty members (ratings bunched or spread), kept when they can take distinct roles. */
function ticketSpecArb(k: number, maxParty: number): fc.Arbitrary<MemberSpec[]> {
  const table = new RoleTable(rolesOf(k));
  return fc
    .array(
      fc.record({
        rating: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1000, max: 1004 })),
        roles: roleSubsetArb(rolesOf(k)),
      }),
      { minLength: 1, maxLength: maxParty },
    )
    .filter((members) => table.partyMasks(roleParty("x", members)).length > 0);
}

/**
 * Every way to seat `count` role-valid teams of k from whole tickets of `tickets` (each a list of
 * teams, as tickets), by brute force over ticket subsets.
 */
function allTeamGames(tickets: readonly Ticket[], k: number, count: number): Ticket[][][] {
  const roles = rolesOf(k);
  const valid: number[] = [];
  for (let mask = 1; mask < 1 << tickets.length; mask++) {
    const team = tickets.filter((_, i) => mask & (1 << i));
    if (bruteTeamRoleValid(playersOf(team), roles)) valid.push(mask);
  }
  const games: Ticket[][][] = [];
  const chosen: number[] = [];
  const visit = (from: number, used: number): void => {
    if (chosen.length === count) {
      games.push(chosen.map((m) => tickets.filter((_, i) => m & (1 << i))));
      return;
    }
    for (let i = from; i < valid.length; i++) {
      if (valid[i] & used) continue;
      chosen.push(valid[i]);
      visit(i + 1, used | valid[i]);
      chosen.pop();
    }
  };
  visit(0, 0);
  return games;
}

const bruteBest = (tickets: readonly Ticket[], k: number, count: number): number | undefined => {
  let best: number | undefined;
  for (const game of allTeamGames(tickets, k, count)) {
    const value = teamsImbalance(ratingSumDifference, game.map(playersOf));
    if (best === undefined || value < best) best = value;
  }
  return best;
};

const setupArb = fc
  .record({ k: fc.integer({ min: 1, max: 3 }), count: fc.integer({ min: 3, max: 4 }) })
  .filter(({ k, count }) => k * count <= 9)
  .chain(({ k, count }) =>
    fc.record({
      k: fc.constant(k),
      count: fc.constant(count),
      specs: fc.array(ticketSpecArb(k, Math.min(k, 2)), { minLength: 1, maxLength: 10 }),
    }),
  );

const ticketsOf = (specs: readonly MemberSpec[][]): Ticket[] =>
  specs.map((members, i) => roleParty(`t${i}`, members, { at: i }));

describe("three or more teams with roles, against brute force", () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 3, max: 4 }),
      fc.array(fc.record({ add: fc.boolean(), mask: fc.integer({ min: 1, max: 7 }), pick: fc.nat() }), {
        maxLength: 30,
      }),
    ],
    { numRuns: 300 },
  )("the seat matching is maximum after every insertion and deletion", (k, count, ops) => {
    const matching = new SeatMatching(k, count);
    const inside: Array<{ mask: number; side: undefined; node: never }> = [];
    for (const op of ops) {
      if (op.add || inside.length === 0) {
        const player = { mask: op.mask & ((1 << k) - 1) || 1, side: undefined, node: undefined as never };
        inside.push(player);
        matching.add(player);
      } else matching.remove(inside.splice(op.pick % inside.length, 1)[0]);
      // Brute force: seats are role × team; a maximum matching fills min(players, count) seats per role.
      expect(matching.size).toBe(bruteMaxSeats(inside, k, count));
    }
  });

  test.prop([setupArb], { numRuns: 300 })(
    "the search finds a game exactly when some tickets seat every team, and its tickets do",
    ({ k, count, specs }) => {
      const table = new RoleTable(rolesOf(k));
      const search = new TeamsRoleSearch(table, count);
      const tickets = ticketsOf(specs);
      for (let i = 0; i < tickets.length; i++) {
        search.add(tickets[i]);
        expect(search.found).toBe(allTeamGames(tickets.slice(0, i + 1), k, count).length > 0);
        if (!search.found) continue;
        const game = search.game().map((s) => s.ticket);
        expect(allTeamGames(game, k, count).some((g) => g.flat().length === game.length)).toBe(true);
        return;
      }
    },
  );

  test.prop([setupArb], { numRuns: 200 })(
    "the minimal windows are the runs in rating order that first hold a game, and the best is the least of them",
    ({ k, count, specs }) => {
      const tickets = ticketsOf(specs);
      const shape = teams(count, k);
      const table = new RoleTable(rolesOf(k));
      const windows = new RoleWindows(
        table,
        (chosen) => assembleGame(chosen, shape, ratingSumDifference, table)?.imbalance,
        undefined,
        count,
      );
      for (const t of tickets) windows.add(t);
      const low = (t: Ticket) => Math.min(...t.players.map((p) => p.rating));
      const order = [...tickets].sort((a, b) => low(a) - low(b) || a.enqueuedAt - b.enqueuedAt);
      const expected = bruteMinimalWindows(order, (run) => allTeamGames(run, k, count).length > 0);
      const found = windows.minimalWindows();
      expect(found.map((w) => `${w.first.id}..${w.last.id}`)).toEqual(expected);
      for (const w of found) expect(Number.isFinite(w.imbalance)).toBe(true);
      const best = windows.best();
      if (found.length === 0) expect(best).toBeUndefined();
      else expect(best!.imbalance).toBe(Math.min(...found.map((w) => w.imbalance)));
    },
  );

  test.prop([setupArb], { numRuns: 150 })(
    "the exact mode forms the pool's best role-valid game",
    ({ k, count, specs }) => {
      const tickets = ticketsOf(specs).slice(0, 8);
      const shape = teams(count, k);
      const policy = defaultPolicies.create(
        "roles",
        { shape, seats: count * k, teamSize: k, imbalance: ratingSumDifference, roles: rolesOf(k) },
        { mode: "exact" },
      ) as RolesPolicy;
      for (const t of tickets) policy.add(t);
      expect(policy.best()?.imbalance).toBe(bruteBest(tickets, k, count));
    },
  );
});

describe("the assembly past its exact limit with roles", () => {
  test.prop(
    [
      fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 15, maxLength: 15 }),
      fc.array(fc.nat(), { minLength: 15, maxLength: 15 }),
    ],
    { numRuns: 200 },
  )("three teams of five solos: a role-valid split whenever one exists (here by construction)", (ratings, extras) => {
    const roles = rolesOf(5);
    // Player i can play role i mod 5 (three per role), and maybe one more.
    const tickets = ratings.map((rating, i) =>
      roleParty(`s${i}`, [{ rating, roles: [...new Set([roles[i % 5], roles[extras[i] % 5]])] }]),
    );
    const split = assembleGame(tickets, teams(3, 5), ratingSumDifference, new RoleTable(roles));
    expect(split).toBeDefined();
    expect(split!.teams.map((t) => t.length)).toEqual([5, 5, 5]);
    for (const team of split!.teams)
      expect(team.map((t) => split!.roles!.get(t.players[0].sessionId)).sort()).toEqual([...roles].sort());
  });
});

describe("engine sessions: three teams with roles", () => {
  const sessionArb = fc.integer({ min: 1, max: 3 }).chain((k) =>
    fc.record({
      k: fc.constant(k),
      mode: fc.constantFrom("approximate", "exact"),
      steps: fc.array(
        fc.record({ spec: ticketSpecArb(k, k), dt: fc.integer({ min: 0, max: 1500 }), cancel: fc.boolean() }),
        { maxLength: 30 },
      ),
    }),
  );

  test.prop([sessionArb], { numRuns: 150 })(
    "every game role-valid and whole, nobody lost, nobody past the maximum wait",
    ({ k, mode, steps }) => {
      const roles = rolesOf(k);
      const shape = teams(3, k);
      const mm = new Matchmaker({
        teamSize: k,
        teams: 3,
        roles,
        params: { mode },
        maxWaitMs: 3000,
        fillWithBots: true,
      });
      const issued: Ticket[] = [];
      const cancelled = new Set<string>();
      const matched: Match[] = [];
      let now = 0;
      for (const [i, step] of steps.entries()) {
        now += step.dt;
        const ticket = roleParty(`t${i}`, step.spec, { at: now });
        issued.push(ticket);
        mm.enqueue(ticket, now);
        // In exact mode the pool stays small enough for the brute force.
        if ((step.cancel || mode === "exact") && mm.size > 12) {
          const [oldest] = mm.waiting();
          if (mm.cancel(oldest.id, now)) cancelled.add(oldest.id);
        }
        for (const m of mm.tick(now)) {
          expectValidShapedMatch(m, shape);
          expectRoleValidMatch(m, roles);
          matched.push(m);
        }
        expect(mm.stats(now).policyErrors).toBe(0);
        for (const t of mm.waiting()) expect(reachedMaxWait(t, 3000, now), `ticket ${t.id} overdue`).toBe(false);
      }
      expectEachTicketOnce(issued, { waiting: mm.waiting(), cancelled, matched });
    },
  );

  it("refuses three teams of seven roles, naming the shape and why", () => {
    expect(() => new Matchmaker({ teamSize: 7, teams: 3, roles: rolesOf(7) })).toThrow(
      /roles policy: does not form games of 3 teams of 7 with 7 roles: its search for role-valid games would keep up to 357,760 role states/,
    );
    expect(() => new Matchmaker({ teamSize: 6, teams: 3, roles: rolesOf(6) })).not.toThrow();
  });
});
