/**
 * Party codes cannot be guessed (16 random bytes), but a client that tries code after code still
 * costs the queue a join per try. This limiter counts wrong codes per network address in a fixed
 * window and refuses further party joins from that address until the window ends.
 */

/** Options of {@link CodeGuessLimiter}. */
export interface CodeGuessLimits {
  /** Wrong codes one address may try per window (default 10). */
  readonly maxWrong?: number;
  /** The window, in ms (default 60,000). */
  readonly windowMs?: number;
  /** Addresses remembered at once; the oldest window is forgotten first (default 10,000). */
  readonly maxAddresses?: number;
}

interface Window {
  startedAt: number;
  wrong: number;
}

export class CodeGuessLimiter {
  private readonly maxWrong: number;
  private readonly windowMs: number;
  private readonly maxAddresses: number;
  /** Insertion order is window order: the first entry is the oldest. */
  private readonly windows = new Map<string, Window>();

  constructor(limits: CodeGuessLimits = {}) {
    this.maxWrong = limits.maxWrong ?? 10;
    this.windowMs = limits.windowMs ?? 60_000;
    this.maxAddresses = limits.maxAddresses ?? 10_000;
  }

  /** Ms until `address` may try a code again, or 0 when it may now. */
  blockedFor(address: string, now: number): number {
    const w = this.current(address, now);
    return w && w.wrong >= this.maxWrong ? w.startedAt + this.windowMs - now : 0;
  }

  /** Count one wrong code from `address`. */
  wrong(address: string, now: number): void {
    let w = this.current(address, now);
    if (!w) {
      if (this.windows.size >= this.maxAddresses) this.windows.delete(this.windows.keys().next().value!);
      w = { startedAt: now, wrong: 0 };
      this.windows.set(address, w);
    }
    w.wrong++;
  }

  private current(address: string, now: number): Window | undefined {
    const w = this.windows.get(address);
    if (w && now - w.startedAt >= this.windowMs) {
      this.windows.delete(address);
      return undefined;
    }
    return w;
  }
}
