/**
 * The time a player has waited, on the client's clock. The queue sends a status only when
 * something moved, never on a clock, so the waited time is derived: from the pair of server
 * times a status carries (the ticket's entry and the moment it was sent), whatever the offset
 * between the two clocks.
 */
import type { StatusMessage } from "../colyseus/status.js";

export class WaitedTime {
  /** When this player entered the queue, on this client's clock (ms since epoch). */
  private enteredAt: number | undefined;

  /** The queue took the player in at `now` (a first estimate, until a status says better). */
  joined(now: number): void {
    this.enteredAt ??= now;
  }

  /** A status arrived at `now` (this client's clock). */
  status(status: StatusMessage, now: number): void {
    const waited =
      status.waitingSince !== undefined && status.serverTime !== undefined
        ? status.serverTime - status.waitingSince
        : status.waitedMs;
    this.enteredAt = now - waited;
  }

  /** Waited so far at `now` (ms; 0 before the queue took the player in). */
  at(now: number): number {
    return this.enteredAt === undefined ? 0 : Math.max(0, now - this.enteredAt);
  }
}
