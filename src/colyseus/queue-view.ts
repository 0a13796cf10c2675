/**
 * The queue as operators see it, kept out of the players' state.
 *
 * Why: Colyseus sends a new client its first state by walking the whole state tree (in
 * @colyseus/schema 5, `_fullSyncWalk` recurses into every child even where the client's
 * StateView hides it), and with view-filtered state every patch is encoded and sent to every
 * client. A queue room whose state held one entry per waiting ticket therefore paid O(waiting)
 * for every join and sent every client a frame for every other player's join. So the queue
 * room's own state holds only the shared `figures`; the waiting tickets live here:
 *
 * - {@link WaitingRoster}: the waiting tickets as plain entries (O(1) per entry and exit), the
 *   longest-waiting sample and the lookup of one ticket; the room exposes it as `state.waiting`
 *   on the server (not synchronized) and through {@link MatchmakerRoom.lookupTicket} and
 *   {@link MatchmakerRoom.waitingSample} (the monitor's "call" API reaches both);
 * - {@link QueueViewRoom}: an operator-facing room whose synchronized state is the complete
 *   waiting list, the figures and the sample (waited times in seconds), refreshed once a
 *   second. Only operators join it (a token), so only they pay for the full list.
 */
import { ErrorCode, matchMaker, Room, ServerError, type Client } from "@colyseus/core";
import { schema, t, type SchemaType } from "@colyseus/schema";
import type { Ticket } from "../core/types.js";
import type { WaitingTicket } from "./status-notifier.js";
import { WaitingEntry } from "./state.js";
import { closeUnknownMessage } from "./unknown-message.js";

/** One waiting ticket in an operator's view: waited time in seconds, not epoch milliseconds. */
export interface SampleTicket {
  readonly id: string;
  readonly rating: number;
  readonly partySize: number;
  readonly side: string;
  readonly zones: readonly string[];
  /** Seconds waited so far (whole seconds). */
  readonly waitedS: number;
  /** Epoch ms of entry, for tools. */
  readonly waitingSince: number;
}

/** Something watching the roster: an operator view mirroring the complete list. */
export interface RosterWatcher {
  entered(ticket: WaitingTicket): void;
  left(ticketId: string): void;
}

/** The waiting tickets of one queue, for operators; O(1) per entry and exit. */
export class WaitingRoster implements ReadonlyMap<string, WaitingTicket> {
  private readonly byId = new Map<string, WaitingTicket>();
  private readonly watchers = new Set<RosterWatcher>();

  /** `oldestFirst`: the waiting tickets, longest waiting first (the engine's arrival order). */
  constructor(private readonly oldestFirst: () => Iterable<Ticket>) {}

  set(ticket: WaitingTicket): void {
    this.byId.set(ticket.id, ticket);
    for (const w of this.watchers) w.entered(ticket);
  }

  delete(ticketId: string): boolean {
    if (!this.byId.delete(ticketId)) return false;
    for (const w of this.watchers) w.left(ticketId);
    return true;
  }

  /** Watch entries and exits; returns the function that stops watching. */
  watch(watcher: RosterWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** The `limit` longest-waiting tickets, longest first; O(limit). */
  sample(limit: number, now: number): SampleTicket[] {
    const out: SampleTicket[] = [];
    if (limit <= 0) return out;
    for (const ticket of this.oldestFirst()) {
      const entry = this.byId.get(ticket.id);
      if (entry) out.push(readable(entry, now));
      if (out.length >= limit) break;
    }
    return out;
  }

  /** One waiting ticket by its id (a solo player's session id; a party's: its leader's); undefined if not waiting. */
  lookup(id: string, now: number): SampleTicket | undefined {
    const entry = this.byId.get(id);
    return entry ? readable(entry, now) : undefined;
  }

  // ReadonlyMap, so server code and tests read it as they read the old schema map.
  get size(): number {
    return this.byId.size;
  }
  get(id: string): WaitingTicket | undefined {
    return this.byId.get(id);
  }
  has(id: string): boolean {
    return this.byId.has(id);
  }
  keys(): MapIterator<string> {
    return this.byId.keys();
  }
  values(): MapIterator<WaitingTicket> {
    return this.byId.values();
  }
  entries(): MapIterator<[string, WaitingTicket]> {
    return this.byId.entries();
  }
  forEach(fn: (value: WaitingTicket, key: string, map: ReadonlyMap<string, WaitingTicket>) => void): void {
    for (const [k, v] of this.byId) fn(v, k, this);
  }
  [Symbol.iterator](): MapIterator<[string, WaitingTicket]> {
    return this.byId[Symbol.iterator]();
  }
}

function readable(entry: WaitingTicket, now: number): SampleTicket {
  return {
    id: entry.id,
    rating: Math.round(entry.rating),
    partySize: entry.partySize,
    side: entry.side,
    zones: [...entry.zones],
    waitedS: Math.floor(Math.max(0, now - entry.waitingSince) / 1000),
    waitingSince: entry.waitingSince,
  };
}

// ---- the operator-facing room ----

/** A ticket of the longest-waiting sample: waited time in whole seconds. */
export const SampleEntry = schema(
  {
    id: t.string(),
    rating: t.number(),
    partySize: t.uint8().default(1),
    side: t.string().default(""),
    zones: t.array("string"),
    waitedS: t.number().default(0),
  },
  "SampleEntry",
);
export type SampleEntry = SchemaType<typeof SampleEntry>;

export const QueueViewState = schema(
  {
    /** The queue's room name and id. */
    queue: t.string().default(""),
    queueRoomId: t.string().default(""),
    waitingPlayers: t.number().default(0),
    waitingTickets: t.number().default(0),
    /** Waits of players in recent matches, in seconds (the queue's `figures` hold them in ms). */
    meanWaitS: t.number().default(0),
    p50WaitS: t.number().default(0),
    p95WaitS: t.number().default(0),
    p99WaitS: t.number().default(0),
    /** The longest current wait (s). */
    oldestWaitS: t.number().default(0),
    /** The longest-waiting tickets, longest first (at most `sampleSize`). */
    sample: t.array(SampleEntry),
    /** Every waiting ticket, by ticket id. */
    waiting: t.map(WaitingEntry),
  },
  "QueueViewState",
);
export type QueueViewState = SchemaType<typeof QueueViewState>;

/** What the operator view reads from its queue room (a {@link MatchmakerRoom} in this process). */
export interface ViewedQueue {
  readonly roomName: string;
  readonly roomId: string;
  readonly roster: WaitingRoster;
  /** The queue's figures, from its (bounded-rate) refresh. */
  operatorFigures(now: number): {
    waitingPlayers: number;
    waitingTickets: number;
    meanWaitMs: number;
    p50WaitMs: number;
    p95WaitMs: number;
    p99WaitMs: number;
    oldestWaitMs: number;
  };
}

/** `defineRoom(QueueViewRoom, { token })`: the token operators must give; `sampleSize` (default 20), `refreshMs` (default 1000). */
export interface QueueViewOptions {
  readonly token: string;
  readonly sampleSize?: number;
  readonly refreshMs?: number;
}

function isViewedQueue(room: unknown): room is ViewedQueue {
  return typeof room === "object" && room !== null && "roster" in room && "operatorFigures" in room;
}

/**
 * An operator's view of one queue: `client.create("queue_view", { queueRoomId, token })` (define
 * it with `defineRoom(QueueViewRoom, { token: process.env.OPERATOR_TOKEN })`). Its state is the
 * complete waiting list, the figures and the longest-waiting sample; `request("lookup", ticketId)`
 * answers one ticket. The view must run in the queue room's process (it reads the queue in
 * memory); the monitor lists it like any room and shows its state.
 */
export class QueueViewRoom extends Room<{ state: QueueViewState }> {
  override state = new QueueViewState();
  private queue!: ViewedQueue;
  private stopWatching?: () => void;
  private sampleSize = 20;
  private token = "";

  override messages = {
    lookup: (_client: Client, ticketId: unknown) =>
      typeof ticketId === "string" ? (this.queue.roster.lookup(ticketId, Date.now()) ?? null) : null,
    _: closeUnknownMessage, // any other type: closed with a fixed reason (see unknown-message.ts)
  };

  override onCreate(clientOptions: { queueRoomId?: unknown } & Partial<QueueViewOptions>): void {
    const handlerOptions = (matchMaker.getHandler(this.roomName)?.options ?? {}) as Partial<QueueViewOptions>;
    if (typeof handlerOptions.token !== "string" || handlerOptions.token.length < 8)
      throw new ServerError(
        ErrorCode.APPLICATION_ERROR,
        "QueueViewRoom: define it with a `token` of 8 characters or more",
      );
    this.token = handlerOptions.token;
    this.sampleSize = Math.max(0, Math.min(1000, Math.floor(handlerOptions.sampleSize ?? 20)));
    const queue =
      typeof clientOptions.queueRoomId === "string"
        ? matchMaker.getLocalRoomById(clientOptions.queueRoomId)
        : undefined;
    if (!isViewedQueue(queue))
      throw new ServerError(
        ErrorCode.APPLICATION_ERROR,
        "QueueViewRoom: `queueRoomId` must name a queue room of this process",
      );
    this.queue = queue;
    this.maxClients = 16;
    this.state.queue = queue.roomName;
    this.state.queueRoomId = queue.roomId;
    for (const entry of queue.roster.values()) this.entered(entry);
    this.stopWatching = queue.roster.watch({
      entered: (entry) => this.entered(entry),
      left: (id) => this.state.waiting.delete(id),
    });
    this.refresh();
    this.clock.setInterval(() => this.refresh(), Math.max(100, handlerOptions.refreshMs ?? 1000));
  }

  override onAuth(_client: Client, options: { token?: unknown }): boolean {
    if (options?.token !== this.token) throw new ServerError(ErrorCode.AUTH_FAILED, "QueueViewRoom: bad token");
    return true;
  }

  override onDispose(): void {
    this.stopWatching?.();
  }

  private entered(ticket: WaitingTicket): void {
    const entry = new WaitingEntry();
    entry.id = ticket.id;
    entry.rating = ticket.rating;
    entry.partySize = ticket.partySize;
    entry.side = ticket.side;
    entry.zones.push(...ticket.zones);
    entry.waitingSince = ticket.waitingSince;
    this.state.waiting.set(ticket.id, entry);
  }

  private refresh(): void {
    const now = Date.now();
    const f = this.queue.operatorFigures(now);
    const s = this.state;
    s.waitingPlayers = f.waitingPlayers;
    s.waitingTickets = f.waitingTickets;
    s.meanWaitS = Math.round(f.meanWaitMs / 100) / 10;
    s.p50WaitS = Math.round(f.p50WaitMs / 100) / 10;
    s.p95WaitS = Math.round(f.p95WaitMs / 100) / 10;
    s.p99WaitS = Math.round(f.p99WaitMs / 100) / 10;
    s.oldestWaitS = Math.floor(f.oldestWaitMs / 1000);
    const sample = this.queue.roster.sample(this.sampleSize, now);
    // Rewrite in place: entries keep their identity, only moved fields are patched.
    while (s.sample.length > sample.length) s.sample.pop();
    sample.forEach((ticket, i) => {
      let entry = s.sample[i];
      if (!entry) s.sample.push((entry = new SampleEntry()));
      if (entry.id !== ticket.id) {
        entry.id = ticket.id;
        entry.rating = ticket.rating;
        entry.partySize = ticket.partySize;
        entry.side = ticket.side;
        entry.zones.clear();
        entry.zones.push(...ticket.zones);
      }
      entry.waitedS = ticket.waitedS;
    });
  }
}
