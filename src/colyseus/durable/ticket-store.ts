/**
 * Waiting tickets in presence: what a queue needs to give a player its place back after the
 * queue room was lost (its process died, Redis lost its data, a deploy stopped it). One record
 * per player in the hash `mm:tickets:<queue>`, under the player's resume key (the SHA-256 of its
 * resume token): its ticket's id and size, the original enqueue time, side, zones, party and
 * rating. Writes are batched: the room marks records as they change (O(1) per join, leave or
 * match) and a flush sends at most `maxPerFlush` of them; the hash expires `ttlSeconds` after
 * the last flush that wrote to it.
 */
import type { Presence } from "@colyseus/core";
import type { Side } from "../../core/types.js";
import { parseJsonObject } from "../../core/validation.js";

/** The presence calls the store needs (Redis or memory). */
export type StorePresence = Pick<Presence, "hset" | "hdel" | "hget" | "hgetall" | "expire">;

/** One player's place as stored. */
export interface StoredPlace {
  readonly v: 1;
  /** The queue room that wrote it (records of another room are orphans to restore or expire). */
  readonly room: string;
  /** The ticket the player waits on (players of one ticket come back as one ticket). */
  readonly ticket: string;
  /** Players on that ticket. */
  readonly size: number;
  /** The ticket's original enqueue time (ms since the epoch): the place to give back. */
  readonly enqueuedAt: number;
  readonly side?: Side;
  readonly zones?: readonly string[];
  /** The party the ticket is: its size as the leader asked, and whether this player leads it. */
  readonly party?: { readonly size: number; readonly leader: boolean };
  readonly player: {
    readonly rating: number;
    readonly uncertainty?: number;
    readonly roles?: readonly string[];
    readonly playerId?: string;
    /** In a queue with criteria: the player's values (checked again by the engine when restored). */
    readonly criteria?: Readonly<Record<string, number>>;
  };
}

/** The presence key of a queue's stored places. */
export function ticketsKey(queue: string): string {
  return `mm:tickets:${queue}`;
}

export interface TicketStoreOptions {
  /** Most writes and deletes one flush sends (default 500); the rest go at the next flush. */
  readonly maxPerFlush?: number;
  /** Seconds the whole hash lives after the last flush that wrote to it (default 600). */
  readonly ttlSeconds?: number;
}

/** A queue's stored places, written in batches. */
export class TicketStore {
  readonly key: string;
  private readonly maxPerFlush: number;
  private readonly ttlSeconds: number;
  /** Records to write, by resume key; a key is in at most one of `writes` and `deletes`. */
  private readonly writes = new Map<string, StoredPlace>();
  private readonly deletes = new Set<string>();

  constructor(
    private readonly presence: StorePresence,
    queue: string,
    options: TicketStoreOptions = {},
  ) {
    this.key = ticketsKey(queue);
    this.maxPerFlush = options.maxPerFlush ?? 500;
    this.ttlSeconds = options.ttlSeconds ?? 600;
  }

  /** Mark a player's place to be written at the next flush. */
  put(resumeKey: string, place: StoredPlace): void {
    this.deletes.delete(resumeKey);
    this.writes.set(resumeKey, place);
  }

  /** Mark a player's place to be deleted at the next flush (matched, left, removed). */
  forget(resumeKey: string): void {
    this.writes.delete(resumeKey);
    this.deletes.add(resumeKey);
  }

  /** Writes and deletes not flushed yet. */
  get pending(): number {
    return this.writes.size + this.deletes.size;
  }

  /**
   * Send up to `maxPerFlush` pending writes and deletes. One that fails (Redis unreachable) is
   * pending again unless a newer change of the same record came meanwhile. Returns how many were sent.
   */
  async flush(): Promise<number> {
    const batch: Array<[string, StoredPlace | undefined]> = [];
    for (const key of this.deletes) {
      if (batch.length >= this.maxPerFlush) break;
      batch.push([key, undefined]);
    }
    for (const [key, place] of this.writes) {
      if (batch.length >= this.maxPerFlush) break;
      batch.push([key, place]);
    }
    if (batch.length === 0) return 0;
    for (const [key, place] of batch) {
      if (place) this.writes.delete(key);
      else this.deletes.delete(key);
    }
    let failed = 0;
    await Promise.all(
      batch.map(async ([key, place]) => {
        try {
          if (place) await this.presence.hset(this.key, key, JSON.stringify(place));
          else await this.presence.hdel(this.key, key);
        } catch {
          failed++;
          if (this.writes.has(key) || this.deletes.has(key)) return; // superseded meanwhile
          if (place) this.writes.set(key, place);
          else this.deletes.add(key);
        }
      }),
    );
    if (failed < batch.length) await Promise.resolve(this.presence.expire(this.key, this.ttlSeconds)).catch(() => 0);
    return batch.length - failed;
  }

  /** One stored place by resume key (undefined: none, or not a valid record). */
  async get(resumeKey: string): Promise<StoredPlace | undefined> {
    const raw = await this.presence.hget(this.key, resumeKey);
    return raw ? parseStoredPlace(raw) : undefined;
  }

  /** Every valid stored place, by resume key (read once when a room takes a queue over). */
  async all(): Promise<Map<string, StoredPlace>> {
    const raw = (await this.presence.hgetall(this.key)) ?? {};
    const places = new Map<string, StoredPlace>();
    for (const [key, value] of Object.entries(raw)) {
      const place = parseStoredPlace(value);
      if (place) places.set(key, place);
    }
    return places;
  }

  /** Delete records now (orphans nobody came back for), bypassing the batch. */
  async drop(resumeKeys: readonly string[]): Promise<void> {
    await Promise.all(resumeKeys.map((key) => this.presence.hdel(this.key, key)));
  }
}

/** A stored record, checked: presence is shared, so a malformed record is ignored, never trusted. */
export function parseStoredPlace(raw: string): StoredPlace | undefined {
  const r = parseJsonObject(raw);
  if (!r) return undefined;
  const player = r.player as Record<string, unknown> | undefined;
  const party = r.party as Record<string, unknown> | undefined;
  const ok =
    r.v === 1 &&
    typeof r.room === "string" &&
    typeof r.ticket === "string" &&
    isCount(r.size) &&
    typeof r.enqueuedAt === "number" &&
    Number.isFinite(r.enqueuedAt) &&
    (r.side === undefined || r.side === "A" || r.side === "B") &&
    (r.zones === undefined || (Array.isArray(r.zones) && r.zones.every((z) => typeof z === "string"))) &&
    (party === undefined ||
      (typeof party === "object" && party !== null && isCount(party.size) && typeof party.leader === "boolean")) &&
    typeof player === "object" &&
    player !== null &&
    typeof player.rating === "number" &&
    Number.isFinite(player.rating) &&
    (player.uncertainty === undefined || typeof player.uncertainty === "number") &&
    (player.roles === undefined || (Array.isArray(player.roles) && player.roles.every((x) => typeof x === "string"))) &&
    (player.playerId === undefined || typeof player.playerId === "string") &&
    (player.criteria === undefined ||
      (typeof player.criteria === "object" &&
        player.criteria !== null &&
        Object.values(player.criteria).every((x) => typeof x === "number")));
  return ok ? (r as unknown as StoredPlace) : undefined;
}

function isCount(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x) && x >= 1 && x <= 100;
}
