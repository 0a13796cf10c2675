/**
 * Assembly for every shape of game: tickets a policy chose become the teams of one game, parties
 * never split. Two teams keep their own search (`assembly.ts`: sides, the exact split, roles);
 * more teams have the search here; a free-for-all seats every player for themselves.
 *
 * With T teams the imbalance of a split is the largest imbalance between any two of its teams
 * (for two teams, the queue's imbalance itself). The split is exact while the splits to try
 * are few ({@link EXACT_TEAM_SPLITS}); beyond that, parties are placed first (a search for any
 * placement that fits) and solos then go, strongest first, round by round, to the teams with
 * the lowest rating sums. With solos only that heuristic's rating-sum imbalance is at most the
 * highest minus the lowest rating in the game: in each round the weakest team so far takes the
 * strongest player, so no two teams' sums drift apart by more than one round's spread. A role
 * queue past the limit first searches a bounded number of steps, pruned by the roles (keeping the
 * best split found); only if that finds none does each solo go, round by round, to the weakest
 * team that can still give it a role (and failing that, any placement that fits is taken).
 */
import { assembleTeams, canAssemble, fitsWithBots, playersOf } from "./assembly.js";
import type { ImbalanceFn } from "./imbalance.js";
import { assignTeamRoles, fillRole, fitsWithBotsAndRoles, RoleTable } from "./role-rules.js";
import type { GameShape } from "./shape.js";
import type { Player, Ticket } from "./types.js";
import { meanRating, partySize, ratingSum } from "./types.js";

/** The teams of one game, as tickets, with their imbalance (absent in a free-for-all). */
export interface GameSplit {
  /** Per team, its tickets; in a free-for-all, one entry per ticket (each player then plays alone). */
  readonly teams: readonly (readonly Ticket[])[];
  /** The largest imbalance between two teams; absent in a free-for-all. */
  readonly imbalance?: number;
  /** In a role queue: each player's role (player id → role), one per role on each team. */
  readonly roles?: ReadonlyMap<string, string>;
}

/**
 * Above this many ways to split the tickets among more than two teams, the exact search gives
 * way to the heuristic (4 teams of 2 solos: 105 ways; 3 teams of 4: 5,775; 4 of 4: 2,627,625).
 */
export const EXACT_TEAM_SPLITS = 20_000;

/** Steps of the exact search a role queue's game may take past {@link EXACT_TEAM_SPLITS}, keeping the best found. */
const ROLE_SEARCH_STEPS = 50_000;

/** Steps allowed to the search that places parties before solos. */
const PARTY_PLACEMENT_STEPS = 100_000;

/** The largest imbalance between any two of `teams`. */
export function teamsImbalance(imbalance: ImbalanceFn, teams: readonly (readonly Player[])[]): number {
  let worst = 0;
  for (let i = 0; i < teams.length; i++) {
    for (let j = i + 1; j < teams.length; j++) worst = Math.max(worst, imbalance(teams[i], teams[j]));
  }
  return worst;
}

/**
 * The teams of one game of `shape` from `tickets`, or undefined when they cannot form one
 * (wrong player count, a party larger than a team, a side in a shape without sides, roles that
 * cannot be filled).
 */
export function assembleGame(
  tickets: readonly Ticket[],
  shape: GameShape,
  imbalance: ImbalanceFn,
  roles?: RoleTable,
): GameSplit | undefined {
  if (shape.kind === "free-for-all") {
    let total = 0;
    for (const t of tickets) {
      if (t.side !== undefined) return undefined;
      total += partySize(t);
    }
    return total === shape.players ? { teams: tickets.map((t) => [t]) } : undefined;
  }
  if (shape.teams === 2) {
    const split = assembleTeams(tickets, shape.teamSize, imbalance, roles);
    if (!split) return undefined;
    return {
      teams: [split.teamA, split.teamB],
      imbalance: split.imbalance,
      ...(split.roles ? { roles: split.roles } : {}),
    };
  }
  return assembleManyTeams(tickets, shape.teams, shape.teamSize, imbalance, roles);
}

/** True when `tickets` can form one game of `shape` (roles aside). */
export function canAssembleGame(tickets: readonly Ticket[], shape: GameShape): boolean {
  if (shape.kind === "free-for-all") {
    let total = 0;
    for (const t of tickets) {
      if (t.side !== undefined) return false;
      total += partySize(t);
    }
    return total === shape.players;
  }
  if (shape.teams === 2) return canAssemble(tickets, shape.teamSize);
  let total = 0;
  for (const t of tickets) total += partySize(t);
  return (
    total === shape.teams * shape.teamSize &&
    placeAll(tickets, shape.teams, shape.teamSize, undefined, true) !== undefined
  );
}

/**
 * True when `tickets` plus computer players (solo, any role) in the empty seats can form one
 * game of `shape`.
 */
export function fitsGameWithBots(tickets: readonly Ticket[], shape: GameShape, roles?: RoleTable): boolean {
  if (shape.kind === "free-for-all") {
    let total = 0;
    for (const t of tickets) {
      if (t.side !== undefined) return false;
      total += partySize(t);
    }
    return total <= shape.players;
  }
  if (shape.teams === 2) return roles ? fitsWithBotsAndRoles(tickets, roles) : fitsWithBots(tickets, shape.teamSize);
  let total = 0;
  for (const t of tickets) total += partySize(t);
  return (
    total <= shape.teams * shape.teamSize && placeAll(tickets, shape.teams, shape.teamSize, roles, false) !== undefined
  );
}

/** {@link assembleGame} for three teams or more. */
function assembleManyTeams(
  tickets: readonly Ticket[],
  teams: number,
  teamSize: number,
  imbalance: ImbalanceFn,
  table?: RoleTable,
): GameSplit | undefined {
  let total = 0;
  for (const t of tickets) {
    const size = partySize(t);
    if (t.side !== undefined || size < 1 || size > teamSize) return undefined;
    total += size;
  }
  if (total !== teams * teamSize) return undefined;
  if (table && table.k !== teamSize) return undefined;
  const order = [...tickets].sort((a, b) => partySize(b) - partySize(a) || meanRating(b) - meanRating(a));
  // A role queue's search is pruned by the roles; past the limit it keeps the best split found.
  const placed =
    splitCount(tickets.length, teams) <= EXACT_TEAM_SPLITS
      ? bestPlacement(order, teams, teamSize, imbalance, table, Infinity)
      : ((table && bestPlacement(order, teams, teamSize, imbalance, table, ROLE_SEARCH_STEPS)) ??
        heuristicPlacement(order, teams, teamSize, table));
  if (!placed) return undefined;
  const players = placed.map(playersOf);
  const value = teamsImbalance(imbalance, players);
  if (!table) return { teams: placed, imbalance: value };
  const roles = assignTeamRoles(players, table);
  return roles ? { teams: placed, imbalance: value, roles } : undefined;
}

/**
 * The splits the exact search scores for a game of `teams` teams of `teamSize` solos (ways to
 * deal them into unlabelled teams); parties only lower it. Above {@link EXACT_TEAM_SPLITS} the
 * heuristic places them instead.
 */
export function soloSplits(teams: number, teamSize: number): number {
  return Math.round(splitCount(teams * teamSize, teams));
}

/** Ways to deal `n` tickets into `teams` unlabelled equal teams, as if all were solos (an upper bound). */
function splitCount(n: number, teams: number): number {
  const per = n / teams;
  let logWays = logFactorial(n) - teams * logFactorial(Math.floor(per)) - logFactorial(teams);
  if (!Number.isInteger(per)) logWays += Math.log(teams);
  return Math.exp(logWays);
}

function logFactorial(n: number): number {
  let sum = 0;
  for (let i = 2; i <= n; i++) sum += Math.log(i);
  return sum;
}

/** Per team, the sets of roles its players so far can fill (see `fillRole`); absent without roles. */
type RoleFill = Array<readonly number[]>;

/** Adds `ticket`'s players to a team's role fill; undefined when they cannot take distinct roles there. */
function withRoles(filled: readonly number[], ticket: Ticket, table: RoleTable): readonly number[] | undefined {
  let next: readonly number[] = filled;
  for (const p of ticket.players) {
    next = fillRole(next, table.maskOf(p));
    if (next.length === 0) return undefined;
  }
  return next;
}

/**
 * Deals `order`'s tickets, in order, into `teams` teams of `teamSize`, depth first (empty teams
 * interchangeable; roles respected when given; a party too large for a team or bound to a side
 * fits nowhere), handing `atEnd` each complete deal until it answers true or `maxSteps` calls
 * run out. `found` says whether `atEnd` answered true; the deal is then left in `members`.
 */
function dealTickets(
  order: readonly Ticket[],
  teams: number,
  teamSize: number,
  table: RoleTable | undefined,
  maxSteps: number,
  atEnd: (members: Ticket[][], room: readonly number[]) => boolean,
): { found: boolean; members: Ticket[][] } {
  let steps = maxSteps;
  const members: Ticket[][] = Array.from({ length: teams }, () => []);
  const room = new Array<number>(teams).fill(teamSize);
  const fills: RoleFill = Array.from({ length: teams }, () => [0]);
  const deal = (i: number): boolean => {
    if (--steps < 0) return false;
    if (i === order.length) return atEnd(members, room);
    const t = order[i];
    const size = partySize(t);
    if (size > teamSize || t.side !== undefined) return false;
    let triedEmpty = false;
    for (let team = 0; team < teams; team++) {
      if (room[team] < size) continue;
      const empty = room[team] === teamSize;
      if (empty && triedEmpty) continue;
      if (empty) triedEmpty = true;
      const before = fills[team];
      if (table) {
        const next = withRoles(before, t, table);
        if (!next) continue;
        fills[team] = next;
      }
      members[team].push(t);
      room[team] -= size;
      if (deal(i + 1)) return true;
      room[team] += size;
      members[team].pop();
      fills[team] = before;
    }
    return false;
  };
  return { found: deal(0), members };
}

/** The exact search: every way to deal the tickets into teams, the least imbalanced kept. */
function bestPlacement(
  order: readonly Ticket[],
  teams: number,
  teamSize: number,
  imbalance: ImbalanceFn,
  table: RoleTable | undefined,
  maxSteps: number,
): Ticket[][] | undefined {
  let best: Ticket[][] | undefined;
  let bestValue = Infinity;
  dealTickets(order, teams, teamSize, table, maxSteps, (members) => {
    const value = teamsImbalance(imbalance, members.map(playersOf));
    if (value < bestValue) {
      bestValue = value;
      best = members.map((m) => [...m]);
    }
    return false;
  });
  return best;
}

/**
 * Any placement of every ticket in `teams` teams of `teamSize` (roles respected when given),
 * parties first; with `exact`, every team must end full. Undefined when none is found.
 */
function placeAll(
  tickets: readonly Ticket[],
  teams: number,
  teamSize: number,
  table: RoleTable | undefined,
  exact: boolean,
): Ticket[][] | undefined {
  const order = [...tickets].sort((a, b) => partySize(b) - partySize(a));
  const { found, members } = dealTickets(
    order,
    teams,
    teamSize,
    table,
    PARTY_PLACEMENT_STEPS,
    (_, room) => !exact || room.every((r) => r === 0),
  );
  return found ? members : undefined;
}

/**
 * The heuristic: parties placed first (any fitting placement), then solos strongest first to the
 * weakest teams, round by round. With roles a solo goes to the weakest open team of the round
 * that can still give it a role, and when none can, the search that places everyone with their
 * roles ({@link placeAll}) decides instead.
 */
function heuristicPlacement(
  order: readonly Ticket[],
  teams: number,
  teamSize: number,
  table?: RoleTable,
): Ticket[][] | undefined {
  const parties = order.filter((t) => partySize(t) > 1);
  const solos = order.filter((t) => partySize(t) === 1).sort((a, b) => b.players[0].rating - a.players[0].rating);
  const members = placeAll(parties, teams, teamSize, table, false);
  if (!members) return undefined;
  const sums = members.map((m) => m.reduce((s, t) => s + ratingSum(t), 0));
  const room = members.map((m) => teamSize - m.reduce((s, t) => s + partySize(t), 0));
  const fills: RoleFill | undefined =
    table && members.map((m) => m.reduce<readonly number[]>((f, t) => withRoles(f, t, table) ?? [], [0]));
  let next = 0;
  while (next < solos.length) {
    const open = room.map((r, i) => i).filter((i) => room[i] > 0);
    open.sort((a, b) => sums[a] - sums[b] || a - b);
    while (open.length > 0 && next < solos.length) {
      const solo = solos[next++];
      const at = fills ? open.findIndex((team) => withRoles(fills[team], solo, table!) !== undefined) : 0;
      if (at < 0) return placeAll(order, teams, teamSize, table, true);
      const [team] = open.splice(at, 1);
      if (fills) fills[team] = withRoles(fills[team], solo, table!)!;
      members[team].push(solo);
      sums[team] += solo.players[0].rating;
      room[team]--;
    }
  }
  return room.every((r) => r === 0) ? members : undefined;
}
