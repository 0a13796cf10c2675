/**
 * The seat's own lifecycle, after the queue sent it: "seat sent" is not the end. For every batch
 * of seats reserved in one game room (a new match's, or a backfill's), the watch waits for the
 * game room to report each arrival (`playerArrived`), and settles the seats nobody took:
 * - at the reservation's expiry (the game room's real `seatReservationTimeout`, plus a grace for
 *   the report to travel): reason `seat_expired`;
 * - at once when the game room, or the process it lives on, is gone (a probe per game room with
 *   open seats, every `probeMs`): reason `game_lost` (or `seat_expired` when the seats had already
 *   run out and the room disposed itself, as Colyseus does with an empty room).
 *
 * Work is per event: one expiry timer per batch and one probe per game room with open seats,
 * all cancelled when the batch settles or the watch is disposed; nothing walks the waiting
 * tickets. Socket-free: the clock, the probe and the reservation time are injected, so unit tests
 * drive it with a manual clock; `game-room.ts` provides the Colyseus side.
 */
import type { Ticket } from "../../core/types.js";

/** One reserved seat the watch waits for. */
export interface WatchedSeat {
  readonly sessionId: string;
  /** The seat's team index (0 for side A, 1 for side B in a two-team game). */
  readonly team: number;
  /** A replacement seat in a running game (`requestBackfill`). */
  readonly backfill: boolean;
}

/** Why seats were settled without their players: the reservation ran out, or the game room is gone. */
export type NoShowReason = "seat_expired" | "game_lost";

/** A batch of seats settled with some players missing: what the queue re-queues or removes. */
export interface SettledSeats {
  readonly matchId: string;
  readonly roomId: string;
  readonly reason: NoShowReason;
  /** The tickets seated in this batch, as they were matched (original `enqueuedAt`). */
  readonly tickets: readonly Ticket[];
  /** The seats nobody took. */
  readonly noShows: readonly WatchedSeat[];
  /** Players of this batch who entered the game room. */
  readonly arrived: ReadonlySet<string>;
  /** Opaque data the caller attached to the batch (e.g. the parties to restore). */
  readonly data: unknown;
}

/** A timer the watch can cancel. */
export interface WatchTimer {
  clear(): void;
}

/** What the watch needs from its driver (the room, or a test). */
export interface SeatWatchHost {
  /** The driver's clock (ms). */
  now(): number;
  setTimeout(fn: () => void, ms: number): WatchTimer;
  /** The game room's seat reservation time (ms), read from the room itself (a value, or its promise). */
  reservationMs(roomId: string): number | Promise<number>;
  /** Whether the game room still exists and its process answers (a value, or its promise). */
  roomAlive(roomId: string): boolean | Promise<boolean>;
  /** Seats settled with players missing: put them back (or count them out). */
  settle(settled: SettledSeats, now: number): void;
  /** Tell the game room who never arrived (only for `seat_expired`: a lost room has nobody to tell). */
  tellGameRoom(roomId: string, report: NoShowReport): void;
  /** A player entered its game room. */
  entered(sessionId: string): void;
  /** Handled failures worth a log line. */
  onError?(message: string): void;
}

/**
 * What a game room learns about the seats of its match that were never taken (its method
 * `onNoShow(report)`, see {@link NoShowListener}): it may ask for replacements with
 * `requestBackfill(match, team, count)`, or end the match.
 */
export interface NoShowReport {
  readonly matchId: string;
  readonly reason: NoShowReason;
  /** The players who did not enter, with their team; `backfill` for replacement seats. */
  readonly players: readonly WatchedSeat[];
}

/** Timing of the watch. */
export interface SeatWatchOptions {
  /** How often a game room with open seats is checked for being gone (ms). */
  readonly probeMs: number;
  /** Time after the reservation's end for an arrival report to reach the queue (ms). */
  readonly graceMs: number;
  /** The reservation time used when the game room cannot be asked (ms). */
  readonly fallbackReservationMs: number;
}

/** Defaults: a lost game room is noticed within about a second (plus the probe's own time). */
export const SEAT_WATCH_DEFAULTS: SeatWatchOptions = {
  probeMs: 1000,
  graceMs: 2000,
  fallbackReservationMs: 15_000,
};

interface Batch {
  readonly matchId: string;
  readonly roomId: string;
  readonly tickets: readonly Ticket[];
  readonly data: unknown;
  readonly seatedAt: number;
  /** Seats not taken yet, by session id. */
  readonly open: Map<string, WatchedSeat>;
  readonly arrived: Set<string>;
  /** When the reservation ends (without the grace); known once the game room answered. */
  expiresAt?: number;
  timer?: WatchTimer;
  closed: boolean;
}

interface RoomWatch {
  readonly batches: Set<Batch>;
  probe?: WatchTimer;
  probing: boolean;
}

/** The seats sent and not yet taken, per game room; see the module comment. */
export class SeatWatch {
  private readonly options: SeatWatchOptions;
  /** Open seats by `matchId` and session id. */
  private readonly seats = new Map<string, Batch>();
  private readonly rooms = new Map<string, RoomWatch>();
  private disposed = false;

  constructor(
    private readonly host: SeatWatchHost,
    options: Partial<SeatWatchOptions> = {},
  ) {
    this.options = { ...SEAT_WATCH_DEFAULTS, ...options };
  }

  /** Seats sent and not yet taken. */
  get open(): number {
    return this.seats.size;
  }

  /** Game rooms with open seats (each has one probe running). */
  get watchedRooms(): number {
    return this.rooms.size;
  }

  /**
   * Seats were sent for `tickets` in game room `roomId`: wait for their players. `data` comes
   * back with the settlement.
   */
  watch(matchId: string, roomId: string, tickets: readonly Ticket[], seats: readonly WatchedSeat[], data?: unknown) {
    if (this.disposed || seats.length === 0) return;
    const batch: Batch = {
      matchId,
      roomId,
      tickets,
      data,
      seatedAt: this.host.now(),
      open: new Map(),
      arrived: new Set(),
      closed: false,
    };
    for (const seat of seats) {
      const key = seatKey(matchId, seat.sessionId);
      // A player seated again in the same match (a backfill after a re-queue): the newer seat counts.
      const earlier = this.seats.get(key);
      if (earlier?.open.delete(seat.sessionId) && earlier.open.size === 0) this.close(earlier);
      batch.open.set(seat.sessionId, seat);
      this.seats.set(key, batch);
    }
    let room = this.rooms.get(roomId);
    if (!room) {
      room = { batches: new Set(), probing: false };
      this.rooms.set(roomId, room);
    }
    room.batches.add(batch);
    this.scheduleProbe(roomId, room);
    whenReady(
      () => this.host.reservationMs(roomId),
      (ms) => this.armExpiry(batch, ms),
      () => this.armExpiry(batch, this.options.fallbackReservationMs),
    );
  }

  /**
   * The game room reports that `sessionId` entered match `matchId`. Arguments are untrusted (any
   * server code may call the queue's remote method): anything but an open seat answers false.
   */
  arrived(matchId: unknown, sessionId: unknown): boolean {
    if (typeof matchId !== "string" || typeof sessionId !== "string") return false;
    const key = seatKey(matchId, sessionId);
    const batch = this.seats.get(key);
    if (!batch || !batch.open.delete(sessionId)) return false;
    this.seats.delete(key);
    batch.arrived.add(sessionId);
    this.host.entered(sessionId);
    if (batch.open.size === 0) this.close(batch);
    return true;
  }

  /** Whether `sessionId` holds an open seat in match `matchId`. */
  isOpen(matchId: string, sessionId: string): boolean {
    return this.seats.get(seatKey(matchId, sessionId))?.open.has(sessionId) ?? false;
  }

  /** Stop every timer and probe (the queue room is disposed); nothing settles afterwards. */
  dispose(): void {
    this.disposed = true;
    for (const room of this.rooms.values()) {
      room.probe?.clear();
      for (const batch of room.batches) {
        batch.timer?.clear();
        batch.closed = true;
      }
    }
    this.rooms.clear();
    this.seats.clear();
  }

  private armExpiry(batch: Batch, reservationMs: number): void {
    if (batch.closed) return;
    const ms = Number.isFinite(reservationMs) && reservationMs > 0 ? reservationMs : this.options.fallbackReservationMs;
    batch.expiresAt = batch.seatedAt + ms;
    const dueIn = Math.max(0, batch.expiresAt + this.options.graceMs - this.host.now());
    batch.timer = this.host.setTimeout(() => this.settle(batch, "seat_expired"), dueIn);
  }

  private scheduleProbe(roomId: string, room: RoomWatch): void {
    if (room.probe || room.probing || this.disposed) return;
    room.probe = this.host.setTimeout(() => {
      room.probe = undefined;
      this.probe(roomId, room);
    }, this.options.probeMs);
  }

  private probe(roomId: string, room: RoomWatch): void {
    if (this.rooms.get(roomId) !== room) return;
    room.probing = true;
    const done = (alive: boolean) => {
      room.probing = false;
      if (this.rooms.get(roomId) !== room) return;
      if (alive) return this.scheduleProbe(roomId, room);
      const now = this.host.now();
      for (const batch of [...room.batches]) {
        // A room gone after the seats ran out disposed itself for want of players.
        const expired = batch.expiresAt !== undefined && now >= batch.expiresAt;
        this.settle(batch, expired ? "seat_expired" : "game_lost");
      }
    };
    whenReady(
      () => this.host.roomAlive(roomId),
      done,
      (error) => {
        this.host.onError?.(`could not check game room ${roomId}: ${String(error)}`);
        done(true);
      },
    );
  }

  private settle(batch: Batch, reason: NoShowReason): void {
    if (batch.closed || this.disposed) return;
    const noShows = [...batch.open.values()];
    this.close(batch);
    if (noShows.length === 0) return;
    const settled: SettledSeats = {
      matchId: batch.matchId,
      roomId: batch.roomId,
      reason,
      tickets: batch.tickets,
      noShows,
      arrived: batch.arrived,
      data: batch.data,
    };
    try {
      this.host.settle(settled, this.host.now());
    } catch (error) {
      this.host.onError?.(`settling the seats of match ${batch.matchId} failed: ${String(error)}`);
    }
    if (reason === "seat_expired")
      this.host.tellGameRoom(batch.roomId, { matchId: batch.matchId, reason, players: noShows });
  }

  private close(batch: Batch): void {
    if (batch.closed) return;
    batch.closed = true;
    batch.timer?.clear();
    for (const id of batch.open.keys()) {
      const key = seatKey(batch.matchId, id);
      if (this.seats.get(key) === batch) this.seats.delete(key);
    }
    const room = this.rooms.get(batch.roomId);
    if (!room) return;
    room.batches.delete(batch);
    if (room.batches.size === 0) {
      room.probe?.clear();
      this.rooms.delete(batch.roomId);
    }
  }
}

/** Run `get`; hand its value (at once, or when its promise settles) to `then`, or its failure to `fail`. */
function whenReady<T>(get: () => T | Promise<T>, then: (value: T) => void, fail: (error: unknown) => void): void {
  let value: T | Promise<T>;
  try {
    value = get();
  } catch (error) {
    return fail(error);
  }
  if (value instanceof Promise) value.then(then, fail);
  else then(value);
}

function seatKey(matchId: string, sessionId: string): string {
  return `${matchId}\u0000${sessionId}`;
}
