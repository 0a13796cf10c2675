/**
 * A hand-written check that a ticket is plainly well-formed, for the engine's hot path: when it
 * says yes, the ticket is one that the engine's valibot ticket schema accepts too, so the schema
 * need not run; when it says no (anything unusual, including valid but rare shapes), the engine
 * runs the schema, which then words the error (or accepts). The check never accepts what the
 * schema refuses: every condition below is one of the schema's, or stricter.
 */
import type { Ticket } from "./types.js";

const isId = (x: unknown): boolean => typeof x === "string" && x.length >= 1 && x.length <= 128;
const isFinite = (x: unknown): boolean => typeof x === "number" && Number.isFinite(x);

function isStringList(x: unknown): boolean {
  if (!Array.isArray(x)) return false;
  for (let i = 0; i < x.length; i++) if (typeof x[i] !== "string") return false;
  return true;
}

function plainPlayer(p: unknown): boolean {
  if (typeof p !== "object" || p === null || Array.isArray(p)) return false;
  const player = p as Record<string, unknown>;
  if (!isId(player.sessionId) || !isFinite(player.rating)) return false;
  // The keys a player may carry (the schema's player object is strict), as a switch: the keys are
  // internalised strings, so each case is one pointer comparison (cheaper than a set's lookup).
  for (const key in player) {
    switch (key) {
      case "sessionId":
      case "rating":
        break;
      case "uncertainty": {
        const u = player.uncertainty;
        if (u !== undefined && !(isFinite(u) && (u as number) >= 0)) return false;
        break;
      }
      case "roles":
        if (player.roles !== undefined && !isStringList(player.roles)) return false;
        break;
      case "playerId":
        if (player.playerId !== undefined && !isId(player.playerId)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True when `ticket` is certainly accepted by the engine's ticket schema for `teamSize`. */
export function plainlyValidTicket(ticket: unknown, teamSize: number): ticket is Ticket {
  if (typeof ticket !== "object" || ticket === null || Array.isArray(ticket)) return false;
  const t = ticket as Record<string, unknown>;
  if (!isId(t.id) || !isFinite(t.enqueuedAt)) return false;
  const players = t.players;
  if (!Array.isArray(players) || players.length < 1 || players.length > teamSize) return false;
  for (let i = 0; i < players.length; i++) if (!plainPlayer(players[i])) return false;
  const side = t.side;
  if (side !== undefined && side !== "A" && side !== "B") return false;
  if (t.zones !== undefined && !isStringList(t.zones)) return false;
  return true;
}
