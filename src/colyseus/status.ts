/**
 * The `status` message's shape and the waiting breakdown (players by party size, side and zone).
 * When a status is sent, and what it says, is the notifier's (status-notifier.ts).
 */
import type { AcceptanceWindow } from "../core/policy.js";
import type { Ticket } from "../core/types.js";

/** The `status` message: on entering the queue, then only when something the player cares about moved. */
export interface StatusMessage {
  /** Players waiting in this queue (every zone). */
  readonly waiting: number;
  /** For a ticket that names zones: players waiting in each of its zones. */
  readonly waitingByZone?: Readonly<Record<string, number>>;
  /** How long this player has waited so far (ms, whole seconds: it changes once a second). */
  readonly waitedMs: number;
  /**
   * The estimated total wait (ms, whole seconds) of a ticket like this one: the median recent
   * wait of tickets of the same party size, side, zone and rating band, falling back to coarser
   * classes when that class has too little data; null before anyone was matched.
   */
  readonly estimatedWaitMs: number | null;
  /** The ratings this player may currently be matched with, when the queue's policy has such a window. */
  readonly window?: AcceptanceWindow;
  /** The player's ticket (its party's id: the leader's session id). */
  readonly ticketId?: string;
  /**
   * Epoch ms when the ticket entered the queue, and the server's clock when this status was sent:
   * waited so far = `serverTime - waitingSince + (your clock now - your clock when this arrived)`.
   * Statuses are sent only when something moved, so derive the waited time; do not wait for it.
   */
  readonly waitingSince?: number;
  readonly serverTime?: number;
}

/** Waiting players counted by party size, side (`"A"`, `"B"`, `"any"`) and zone. */
export interface WaitingBreakdown {
  readonly players: number;
  readonly tickets: number;
  readonly byPartySize: Readonly<Record<string, number>>;
  readonly bySide: Readonly<Record<string, number>>;
  readonly byZone: Readonly<Record<string, number>>;
}

/** The zones a waiting ticket waits in (by default its own `zones`; the engine knows a choice-free ticket's). */
export type ZonesOf = (ticket: Ticket) => readonly string[] | undefined;

const ownZones: ZonesOf = (ticket) => ticket.zones;

/** Count waiting players by party size, side and zone (a ticket in several zones counts in each). */
export function breakdown(tickets: Iterable<Ticket>, zonesOf: ZonesOf = ownZones): WaitingBreakdown {
  const byPartySize: Record<string, number> = {};
  const bySide: Record<string, number> = {};
  const byZone: Record<string, number> = {};
  let players = 0;
  let count = 0;
  for (const t of tickets) {
    const n = t.players.length;
    players += n;
    count++;
    byPartySize[n] = (byPartySize[n] ?? 0) + n;
    const side = t.side ?? "any";
    bySide[side] = (bySide[side] ?? 0) + n;
    for (const zone of new Set(zonesOf(t) ?? [])) byZone[zone] = (byZone[zone] ?? 0) + n;
  }
  return { players, tickets: count, byPartySize, bySide, byZone };
}
