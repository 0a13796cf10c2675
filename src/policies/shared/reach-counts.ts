/**
 * How many waiting anchors last searched up to each offset after themselves (their reach), and
 * the largest reach of any: a join or a leave at some position can change the search of the
 * anchors at most `max` places before it, so that is how far back a change is looked for.
 * Shared by best-game's general search and its 1v1 layout ({@link BestPairs}).
 */
export class ReachCounts {
  /** counts[r]: waiting anchors whose reach is r (new ones count at 0, not yet searched). */
  private readonly counts: Int32Array;
  /** The largest reach of any waiting anchor. */
  max = 0;

  /** @param window the largest reach an anchor can have. */
  constructor(window: number) {
    this.counts = new Int32Array(window + 1);
  }

  /** A new anchor, not searched yet (reach 0). */
  join(): void {
    this.counts[0]++;
  }

  /** An anchor's reach changes from `old` to `reach`. */
  move(old: number, reach: number): void {
    this.counts[old]--;
    this.counts[reach]++;
    if (reach > this.max) this.max = reach;
    else this.shrink();
  }

  /** An anchor of reach `old` leaves. */
  leave(old: number): void {
    this.counts[old]--;
    this.shrink();
  }

  private shrink(): void {
    while (this.max > 0 && this.counts[this.max] === 0) this.max--;
  }
}
