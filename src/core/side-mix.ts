/**
 * Whether the side mix can be served (Xu, Yu and Wu, section IV, Fact 3): with side choice the
 * queue is stable only while the choice-free arrival rate exceeds the difference between the
 * two sides' rates, lambda_C > |lambda_A − lambda_B|; otherwise the surplus side's waits grow
 * without bound. Measured over the most recent arrivals, as counts (the rates' common time
 * span cancels).
 */
import type { Side } from "./types.js";

/** Arrivals the flag needs before it says anything. */
const MIN_ARRIVALS = 20;

/** What the queue reports about its recent side mix. */
export interface SideMixFigures {
  /** Recent arrivals (tickets) insisting on side A, on side B, and choice-free. */
  readonly arrivals: { readonly A: number; readonly B: number; readonly any: number };
  /**
   * True when |A − B| ≥ choice-free over the window (and the window holds at least 20 arrivals,
   * some of them with a side): waits of the surplus side then grow without bound.
   */
  readonly unstable: boolean;
}

/** The sides of the last `capacity` arrivals, in a ring. */
export class SideMix {
  private readonly ring: Uint8Array;
  private next = 0;
  private count = 0;
  private readonly counts = [0, 0, 0];

  constructor(readonly capacity: number) {
    this.ring = new Uint8Array(capacity);
  }

  arrived(side: Side | undefined): void {
    const code = side === "A" ? 0 : side === "B" ? 1 : 2;
    if (this.count === this.capacity) this.counts[this.ring[this.next]]--;
    else this.count++;
    this.ring[this.next] = code;
    this.counts[code]++;
    this.next = (this.next + 1) % this.capacity;
  }

  figures(): SideMixFigures {
    const [A, B, any] = this.counts;
    return { arrivals: { A, B, any }, unstable: this.count >= MIN_ARRIVALS && A + B > 0 && Math.abs(A - B) >= any };
  }
}
