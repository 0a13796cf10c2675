/**
 * Online estimate of the arrival rate (players per second) from the most recent arrivals,
 * for policies whose optimal parameter depends on it (Schlup's `x=auto` and `r=auto`).
 */
export class ArrivalRate {
  private readonly times: Float64Array;
  private readonly players: Float64Array;
  private next = 0;
  private count = 0;
  private playersInWindow = 0;

  /** `window`: how many recent arrivals the estimate covers. */
  constructor(window = 256) {
    this.times = new Float64Array(window);
    this.players = new Float64Array(window);
  }

  /** Record an arrival of `players` players at `now` (ms). */
  record(now: number, players: number): void {
    if (this.count === this.times.length) this.playersInWindow -= this.players[this.next];
    else this.count++;
    this.times[this.next] = now;
    this.players[this.next] = players;
    this.playersInWindow += players;
    this.next = (this.next + 1) % this.times.length;
  }

  /** Players per second over the window, or undefined until there are a few arrivals. */
  perSecond(minimumArrivals = 16): number | undefined {
    if (this.count < Math.max(2, minimumArrivals)) return undefined;
    const newest = this.times[(this.next - 1 + this.times.length) % this.times.length];
    const oldest = this.times[this.count === this.times.length ? this.next : 0];
    const spanSeconds = (newest - oldest) / 1000;
    // The oldest arrival opens the window; the players after it arrived during it.
    const oldestPlayers = this.players[this.count === this.times.length ? this.next : 0];
    return spanSeconds > 0 ? (this.playersInWindow - oldestPlayers) / spanSeconds : undefined;
  }
}
