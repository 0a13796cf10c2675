/**
 * The oldest assemblable game among candidate tickets given in arrival order: the subset
 * whose sorted arrival positions are lexicographically smallest among all subsets that can
 * form one game of the queue's shape (parties intact, sides honoured) and, when `compatible` is
 * given, whose tickets are pairwise compatible (e.g. no recent rematch).
 */
import { canAssembleGame } from "../../core/game-assembly.js";
import { seatsOf, type GameShape } from "../../core/shape.js";
import type { Ticket } from "../../core/types.js";

/** Search steps allowed when a pairwise predicate disables memoisation. */
const COMPATIBLE_SEARCH_STEPS = 20_000;

export function findOldestGame(
  candidates: readonly Ticket[],
  shape: GameShape,
  compatible?: (a: Ticket, b: Ticket) => boolean,
): Ticket[] | undefined {
  if (shape.kind !== "teams" || shape.teams !== 2) return findOldestFill(candidates, shape, compatible);
  const k = shape.teamSize;
  const seats = 2 * k;
  if (!enoughSeats(candidates, k)) return undefined;
  const sizes = candidates.map((t) => t.players.length);
  const remaining: number[] = new Array(candidates.length + 1).fill(0);
  for (let i = candidates.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + sizes[i];
  const capMask = (1n << BigInt(k + 1)) - 1n;
  const chosen: number[] = [];
  // Failed states; the state is everything the rest of the search depends on.
  const dead = new Set<string>();
  // Without memoisation the search is bounded by steps instead (a large pool of mutual repeats).
  let steps = compatible ? COMPATIBLE_SEARCH_STEPS : Infinity;

  // Include-first depth-first search visits subsets in lexicographic order of arrival.
  const search = (i: number, sizeA: number, sizeB: number, total: number, freeSums: bigint): boolean => {
    if (total === seats) return (freeSums & (1n << BigInt(k - sizeA))) !== 0n;
    if (i >= candidates.length || total + remaining[i] < seats || --steps < 0) return false;
    // With a pairwise predicate the chosen tickets matter too, so failures are not memoised.
    const key = compatible ? "" : `${i}|${sizeA}|${sizeB}|${total}|${freeSums}`;
    if (!compatible && dead.has(key)) return false;
    const size = sizes[i];
    const side = candidates[i].side;
    if (total + size <= seats) {
      const a = side === "A" ? sizeA + size : sizeA;
      const b = side === "B" ? sizeB + size : sizeB;
      const sums = side ? freeSums : (freeSums | (freeSums << BigInt(size))) & capMask;
      if (a <= k && b <= k && (!compatible || chosen.every((c) => compatible(candidates[c], candidates[i])))) {
        chosen.push(i);
        if (search(i + 1, a, b, total + size, sums)) return true;
        chosen.pop();
      }
    }
    if (search(i + 1, sizeA, sizeB, total, freeSums)) return true;
    if (!compatible) dead.add(key);
    return false;
  };
  return search(0, 0, 0, 0, 1n) ? chosen.map((i) => candidates[i]) : undefined;
}

/**
 * A necessary condition, checked before the search allocates anything: the candidates hold at
 * least 2k players, of whom at least k may play side A (not bound to B) and k side B.
 */
function enoughSeats(candidates: readonly Ticket[], k: number): boolean {
  let total = 0;
  let onA = 0;
  let onB = 0;
  for (let i = 0; i < candidates.length; i++) {
    const t = candidates[i];
    const size = t.players.length;
    total += size;
    if (t.side !== "B") onA += size;
    if (t.side !== "A") onB += size;
  }
  return total >= 2 * k && onA >= k && onB >= k;
}

/**
 * {@link findOldestGame} for shapes without sides (a free-for-all, more than two teams): the
 * lexicographically first subset that seats exactly a game, whose parties the shape can place.
 * Failures are memoised by position, players so far and the parties chosen (what placement
 * depends on); a free-for-all places any parties that add up.
 */
function findOldestFill(
  candidates: readonly Ticket[],
  shape: GameShape,
  compatible?: (a: Ticket, b: Ticket) => boolean,
): Ticket[] | undefined {
  const seats = seatsOf(shape);
  const sizes = candidates.map((t) => t.players.length);
  const remaining: number[] = new Array(candidates.length + 1).fill(0);
  for (let i = candidates.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + sizes[i];
  if (remaining[0] < seats) return undefined;
  const most = shape.kind === "teams" ? shape.teamSize : shape.players;
  const chosen: number[] = [];
  const dead = new Set<string>();
  let steps = compatible ? COMPATIBLE_SEARCH_STEPS : Infinity;
  // A free-for-all fits any parties that add up; teams need the parties' sizes (solos fill anything).
  const partiesKey = (): string =>
    shape.kind === "free-for-all"
      ? ""
      : chosen
          .map((c) => sizes[c])
          .filter((s) => s > 1)
          .sort((a, b) => a - b)
          .join(",");
  const search = (i: number, total: number): boolean => {
    if (total === seats)
      return canAssembleGame(
        chosen.map((c) => candidates[c]),
        shape,
      );
    if (i >= candidates.length || total + remaining[i] < seats || --steps < 0) return false;
    const key = compatible ? "" : `${i}|${total}|${partiesKey()}`;
    if (!compatible && dead.has(key)) return false;
    const size = sizes[i];
    if (
      total + size <= seats &&
      size <= most &&
      candidates[i].side === undefined &&
      (!compatible || chosen.every((c) => compatible(candidates[c], candidates[i])))
    ) {
      chosen.push(i);
      if (search(i + 1, total + size)) return true;
      chosen.pop();
    }
    if (search(i + 1, total)) return true;
    if (!compatible) dead.add(key);
    return false;
  };
  return search(0, 0) ? chosen.map((i) => candidates[i]) : undefined;
}
