/**
 * The oldest assemblable game among candidate tickets given in arrival order: the subset
 * whose sorted arrival positions are lexicographically smallest among all subsets that can
 * be split into two teams of `teamSize` (parties intact, sides honoured).
 */
import type { Ticket } from "../core/types.js";

export function findOldestGame(candidates: readonly Ticket[], teamSize: number): Ticket[] | undefined {
  const k = teamSize;
  const seats = 2 * k;
  const sizes = candidates.map((t) => t.players.length);
  const remaining: number[] = new Array(candidates.length + 1).fill(0);
  for (let i = candidates.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + sizes[i];
  const capMask = (1n << BigInt(k + 1)) - 1n;
  const chosen: number[] = [];
  // Failed states; the state is everything the rest of the search depends on.
  const dead = new Set<string>();

  // Include-first depth-first search visits subsets in lexicographic order of arrival.
  const search = (i: number, sizeA: number, sizeB: number, total: number, freeSums: bigint): boolean => {
    if (total === seats) return (freeSums & (1n << BigInt(k - sizeA))) !== 0n;
    if (i >= candidates.length || total + remaining[i] < seats) return false;
    const key = `${i}|${sizeA}|${sizeB}|${total}|${freeSums}`;
    if (dead.has(key)) return false;
    const size = sizes[i];
    const side = candidates[i].side;
    if (total + size <= seats) {
      const a = side === "A" ? sizeA + size : sizeA;
      const b = side === "B" ? sizeB + size : sizeB;
      const sums = side ? freeSums : (freeSums | (freeSums << BigInt(size))) & capMask;
      if (a <= k && b <= k) {
        chosen.push(i);
        if (search(i + 1, a, b, total + size, sums)) return true;
        chosen.pop();
      }
    }
    if (search(i + 1, sizeA, sizeB, total, freeSums)) return true;
    dead.add(key);
    return false;
  };
  return search(0, 0, 0, 0, 1n) ? chosen.map((i) => candidates[i]) : undefined;
}
