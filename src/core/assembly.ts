/**
 * Team assembly, shared by every policy: split the tickets a policy chose into two teams of
 * exactly `teamSize` players, never splitting a party, honouring side preferences, and
 * choosing the split with the least imbalance.
 */
import type { ImbalanceFn } from "./imbalance.js";
import { assignRoles, fillRole, RoleTable } from "./role-rules.js";
import type { Player, Ticket } from "./types.js";
import { meanRating, partySize, ratingSum } from "./types.js";

/** The result of assembly: which tickets play side A and which play side B. */
export interface TeamSplit {
  readonly teamA: readonly Ticket[];
  readonly teamB: readonly Ticket[];
  readonly imbalance: number;
  /** In a role queue: each player's role (player id → role), one per role on each team. */
  readonly roles?: ReadonlyMap<string, string>;
}

/**
 * Above this many choice-free tickets the exhaustive search (at most C(16, 8) = 12,870
 * splits) gives way to a rating-greedy split that is still guaranteed to fill both teams.
 */
export const EXACT_SPLIT_LIMIT = 16;

/**
 * Split `tickets` into two teams of `teamSize` players.
 * Returns `undefined` when no valid split exists (wrong player count, a party larger than a
 * team, or side preferences that cannot be met). Ties keep the first split found in ticket
 * order, so the result is deterministic; with no side preferences the first ticket plays A.
 *
 * With `roles` (a role queue's k = teamSize role names), only role-valid splits count: each team
 * must be able to put one player in every role, each in a role they accept. The search is then
 * always exhaustive (role queues have at most 8 per team, so at most C(16, 8) splits, pruned as
 * soon as a partial team cannot take distinct roles), and the split carries each player's role.
 */
export function assembleTeams(
  tickets: readonly Ticket[],
  teamSize: number,
  imbalance: ImbalanceFn,
  roles?: readonly string[] | RoleTable,
): TeamSplit | undefined {
  const tally = tallyBySide(tickets, teamSize);
  if (!tally || tally.total !== 2 * teamSize) return undefined;
  const { forcedA, forcedB, free } = tally;
  const need = teamSize - tally.sizeA;
  const table = roles === undefined || roles instanceof RoleTable ? roles : new RoleTable(roles);
  if (table && table.k !== teamSize) return undefined;
  const pick =
    table || free.length <= EXACT_SPLIT_LIMIT
      ? bestExactPick(forcedA, forcedB, free, need, imbalance, table)
      : balancedGreedyPick(forcedA, forcedB, free, need);
  if (!pick) return undefined;
  const teamA = [...forcedA];
  const teamB = [...forcedB];
  free.forEach((t, i) => (pick[i] ? teamA : teamB).push(t));
  const playersA = playersOf(teamA);
  const playersB = playersOf(teamB);
  const value = imbalance(playersA, playersB);
  if (!table) return { teamA, teamB, imbalance: value };
  const assignment = assignRoles(playersA, playersB, table);
  return assignment ? { teamA, teamB, imbalance: value, roles: assignment } : undefined;
}

/** True when some split of `tickets` into two teams of `teamSize` exists. */
export function canAssemble(tickets: readonly Ticket[], teamSize: number): boolean {
  const tally = tallyBySide(tickets, teamSize);
  if (!tally || tally.total !== 2 * teamSize) return false;
  return (subsetSums(tally.free.map(partySize), teamSize) & (1n << BigInt(teamSize - tally.sizeA))) !== 0n;
}

/**
 * True when `tickets` plus computer players (solo, choice-free) in the empty seats can be split
 * into two teams of `teamSize`: some choice-free subset fits beside the side-A tickets while the
 * rest fits beside the side-B tickets.
 */
export function fitsWithBots(tickets: readonly Ticket[], teamSize: number): boolean {
  const tally = tallyBySide(tickets, teamSize);
  if (!tally || tally.total > 2 * teamSize) return false;
  const { sizeA, sizeB, total } = tally;
  const freeTotal = total - sizeA - sizeB;
  const sums = subsetSums(tally.free.map(partySize), teamSize);
  for (let s = Math.max(0, freeTotal + sizeB - teamSize); s <= teamSize - sizeA; s++) {
    if ((sums & (1n << BigInt(s))) !== 0n) return true;
  }
  return false;
}

interface SideTally {
  readonly forcedA: Ticket[];
  readonly forcedB: Ticket[];
  readonly free: Ticket[];
  readonly sizeA: number;
  readonly sizeB: number;
  readonly total: number;
}

/** Tickets grouped by side preference with their player counts; undefined if a side or a party overflows a team. */
function tallyBySide(tickets: readonly Ticket[], teamSize: number): SideTally | undefined {
  const tally = {
    forcedA: [] as Ticket[],
    forcedB: [] as Ticket[],
    free: [] as Ticket[],
    sizeA: 0,
    sizeB: 0,
    total: 0,
  };
  for (const t of tickets) {
    const size = partySize(t);
    if (size < 1 || size > teamSize) return undefined;
    tally.total += size;
    if (t.side === "A") {
      tally.forcedA.push(t);
      tally.sizeA += size;
    } else if (t.side === "B") {
      tally.forcedB.push(t);
      tally.sizeB += size;
    } else tally.free.push(t);
  }
  return tally.sizeA > teamSize || tally.sizeB > teamSize ? undefined : tally;
}

/** Bitmask of every sum up to `cap` that some subset of `sizes` reaches (bit s = sum s). */
export function subsetSums(sizes: readonly number[], cap: number): bigint {
  const limit = (1n << BigInt(cap + 1)) - 1n;
  let mask = 1n;
  for (const s of sizes) mask = (mask | (mask << BigInt(s))) & limit;
  return mask;
}

export function playersOf(tickets: readonly Ticket[]): Player[] {
  const players: Player[] = [];
  for (const t of tickets) players.push(...t.players);
  return players;
}

/**
 * Exhaustive search over the subsets of choice-free tickets that fill team A exactly; with a
 * role table, only splits whose two teams can each take distinct accepted roles.
 */
function bestExactPick(
  forcedA: readonly Ticket[],
  forcedB: readonly Ticket[],
  free: readonly Ticket[],
  need: number,
  imbalance: ImbalanceFn,
  table?: RoleTable,
): boolean[] | undefined {
  const sizes = free.map(partySize);
  const remaining: number[] = new Array(free.length + 1).fill(0);
  for (let i = free.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + sizes[i];
  // With nobody bound to a side, a split and its mirror are the same game: fix the first on A.
  const mirrorFree = forcedA.length === 0 && forcedB.length === 0 && free.length > 0;
  const choice: boolean[] = new Array(free.length).fill(false);
  let best: boolean[] | undefined;
  let bestValue = Infinity;
  // Role pruning: per team, a stack of the sets of roles its players so far can fill (each in
  // a different accepted role); a team whose set list runs empty cannot take distinct roles.
  const masks = (tickets: readonly Ticket[]) => (table ? playersOf(tickets).map((p) => table.maskOf(p)) : []);
  const freeMasks = free.map((t) => masks([t]));
  const fill = (filled: readonly number[], accepted: readonly number[]) =>
    accepted.reduce<readonly number[]>(fillRole, filled);
  const filled: [Array<readonly number[]>, Array<readonly number[]>] = [
    [fill([0], masks(forcedA))],
    [fill([0], masks(forcedB))],
  ];
  const join = (team: 0 | 1, i: number): boolean => {
    if (!table) return true;
    const next = fill(filled[team][filled[team].length - 1], freeMasks[i]);
    if (next.length === 0) return false;
    filled[team].push(next);
    return true;
  };
  const leave = (team: 0 | 1): void => {
    if (table) filled[team].pop();
  };
  if (table && (filled[0][0].length === 0 || filled[1][0].length === 0)) return undefined;

  const visit = (i: number, left: number): void => {
    if (left === 0) {
      if (table && fill(filled[1][filled[1].length - 1], freeMasks.slice(i).flat()).length === 0) return;
      const teamA = [...forcedA];
      const teamB = [...forcedB];
      for (let j = 0; j < free.length; j++) (choice[j] ? teamA : teamB).push(free[j]);
      const value = imbalance(playersOf(teamA), playersOf(teamB));
      if (value < bestValue) {
        bestValue = value;
        best = [...choice];
      }
      return;
    }
    if (i >= free.length || remaining[i] < left) return;
    if (sizes[i] <= left && join(0, i)) {
      choice[i] = true;
      visit(i + 1, left - sizes[i]);
      choice[i] = false;
      leave(0);
    }
    if (!(mirrorFree && i === 0) && join(1, i)) {
      visit(i + 1, left);
      leave(1);
    }
  };
  visit(0, need);
  return best;
}

/**
 * For large games: place tickets from the highest rating down on the weaker team, but only
 * where the remaining tickets can still fill team A exactly (a suffix subset-sum table).
 */
function balancedGreedyPick(
  forcedA: readonly Ticket[],
  forcedB: readonly Ticket[],
  free: readonly Ticket[],
  need: number,
): boolean[] | undefined {
  const order = free.map((_, i) => i).sort((a, b) => meanRating(free[b]) - meanRating(free[a]));
  const sizes = order.map((i) => partySize(free[i]));
  const reach: bigint[] = new Array(order.length + 1);
  reach[order.length] = 1n;
  for (let j = order.length - 1; j >= 0; j--) reach[j] = subsetSums(sizes.slice(j), need);
  if ((reach[0] & (1n << BigInt(need))) === 0n) return undefined;
  const canFill = (j: number, left: number) => left >= 0 && (reach[j] & (1n << BigInt(left))) !== 0n;

  let sumA = forcedA.reduce((s, t) => s + ratingSum(t), 0);
  let sumB = forcedB.reduce((s, t) => s + ratingSum(t), 0);
  let left = need;
  const pick: boolean[] = new Array(free.length).fill(false);
  order.forEach((i, j) => {
    const size = sizes[j];
    const fitsA = canFill(j + 1, left - size);
    const fitsB = canFill(j + 1, left);
    const toA = fitsA && (!fitsB || sumA <= sumB);
    if (toA) {
      pick[i] = true;
      left -= size;
      sumA += ratingSum(free[i]);
    } else sumB += ratingSum(free[i]);
  });
  return pick;
}
