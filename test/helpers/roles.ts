/**
 * Brute-force references for role queues, written independently of src/: role validity by
 * trying every permutation of the roles, games by trying every ticket placement (out, A, B).
 * Only for small inputs.
 */
import { expect } from "vitest";
import fc from "fast-check";
import type { ImbalanceFn } from "../../src/core/imbalance.js";
import type { Match, Player, Side, Ticket } from "../../src/core/types.js";

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}

/** True when the team's players can take the roles one each, every player in a role they accept. */
export function bruteTeamRoleValid(team: readonly Player[], roles: readonly string[]): boolean {
  if (team.length !== roles.length) return false;
  return permutations(roles).some((perm) => team.every((p, i) => (p.roles ?? []).includes(perm[i])));
}

export interface BruteRoleGame {
  teamA: Ticket[];
  teamB: Ticket[];
  imbalance: number;
}

/**
 * Every role-valid game among `tickets`: every pair of disjoint ticket subsets seating k players
 * each, sides honoured, parties whole, each team role-valid by {@link bruteTeamRoleValid}.
 */
export function allRoleGames(
  tickets: readonly Ticket[],
  k: number,
  roles: readonly string[],
  imbalance: ImbalanceFn,
): BruteRoleGame[] {
  if (tickets.length > 14) throw new Error("brute force: too many tickets");
  const members = (mask: number) => tickets.filter((_, i) => mask & (1 << i));
  const teams: [number[], number[]] = [[], []];
  for (let mask = 1; mask < 1 << tickets.length; mask++) {
    const team = members(mask);
    const players = team.flatMap((t) => [...t.players]);
    if (players.length !== k || !bruteTeamRoleValid(players, roles)) continue;
    if (!team.some((t) => t.side === "B")) teams[0].push(mask);
    if (!team.some((t) => t.side === "A")) teams[1].push(mask);
  }
  const games: BruteRoleGame[] = [];
  for (const a of teams[0]) {
    for (const b of teams[1]) {
      if (a & b) continue;
      const teamA = members(a);
      const teamB = members(b);
      games.push({
        teamA,
        teamB,
        imbalance: imbalance(
          teamA.flatMap((t) => [...t.players]),
          teamB.flatMap((t) => [...t.players]),
        ),
      });
    }
  }
  return games;
}

/** The least imbalance of a role-valid game among `tickets`, or undefined when there is none. */
export function bruteBestRoleImbalance(
  tickets: readonly Ticket[],
  k: number,
  roles: readonly string[],
  imbalance: ImbalanceFn,
): number | undefined {
  let best: number | undefined;
  for (const g of allRoleGames(tickets, k, roles, imbalance))
    if (best === undefined || g.imbalance < best) best = g.imbalance;
  return best;
}

/** Every team has one player per role, each in a role they accept (checked against the tickets). */
export function expectRoleValidMatch(match: Match, roles: readonly string[]): void {
  const accepted = new Map<string, readonly string[]>();
  for (const t of match.tickets) for (const p of t.players) accepted.set(p.sessionId, p.roles ?? []);
  for (const team of match.teams) {
    expect(team.players.map((p) => p.role).sort()).toEqual([...roles].sort());
    for (const p of team.players) {
      if (p.bot) continue;
      expect(accepted.get(p.sessionId), `player ${p.sessionId} accepts the role ${p.role}`).toContain(p.role);
    }
  }
}

/** A role ticket builder: a party with each member's roles; players are `${id}/0`, `${id}/1`, ... */
export function roleParty(
  id: string,
  members: ReadonlyArray<{ rating: number; roles: readonly string[] }>,
  options: { at?: number; side?: Side } = {},
): Ticket {
  return {
    id,
    players: members.map((m, i) => ({ sessionId: `${id}/${i}`, rating: m.rating, roles: m.roles })),
    enqueuedAt: options.at ?? 0,
    ...(options.side ? { side: options.side } : {}),
  };
}

/** A solo role ticket; its player is `${id}/0`. */
export function roleSolo(
  id: string,
  rating: number,
  roles: readonly string[],
  options: { at?: number; side?: Side } = {},
): Ticket {
  return roleParty(id, [{ rating, roles }], options);
}

/** The first k of the standard role names. */
export const ROLE_NAMES = ["top", "jungle", "mid", "bot", "support", "tank", "healer", "scout"] as const;

/** A non-empty subset of `roles`, as a list in queue order. */
export function roleSubsetArb(roles: readonly string[]): fc.Arbitrary<string[]> {
  return fc.subarray([...roles], { minLength: 1 });
}

/**
 * The minimal windows of `order` (tickets in the role structure's order) as "first..last" ids, by
 * brute force: for each first ticket, the shortest run from it that holds a game (`holdsGame`),
 * kept when the run without its first ticket holds none.
 */
export function bruteMinimalWindows(
  order: readonly Ticket[],
  holdsGame: (run: readonly Ticket[]) => boolean,
): string[] {
  const feasible = (i: number, j: number) => holdsGame(order.slice(i, j + 1));
  const windows: string[] = [];
  for (let i = 0; i < order.length; i++) {
    let j = i;
    while (j < order.length && !feasible(i, j)) j++;
    if (j === order.length) break;
    if (!feasible(i + 1, j)) windows.push(`${order[i].id}..${order[j].id}`);
  }
  return windows;
}

/**
 * Brute-force maximum matching of players (accepted-role masks, sides) to the seats of `teams`
 * teams of k roles (seat t·k + r); sides bind to team 0 (A) or 1 (B) of two.
 */
export function bruteMaxSeats(
  players: ReadonlyArray<{ mask: number; side?: Side | undefined }>,
  k: number,
  teams = 2,
): number {
  let best = 0;
  const used = new Array<boolean>(teams * k).fill(false);
  const visit = (i: number, matched: number): void => {
    if (matched + (players.length - i) <= best) return;
    if (i === players.length) {
      best = Math.max(best, matched);
      return;
    }
    const p = players[i];
    for (let s = 0; s < teams * k; s++) {
      const team: Side = s < k ? "A" : "B";
      if (used[s] || !((p.mask >> (s % k)) & 1) || (p.side && p.side !== team)) continue;
      used[s] = true;
      visit(i + 1, matched + 1);
      used[s] = false;
    }
    visit(i + 1, matched);
  };
  visit(0, 0);
  return best;
}
