/**
 * A `QueueSession` without sockets, its effects recorded: the messages sent, the removals, the
 * matches spawned and the tickets shown as waiting. Time is passed to each call.
 */
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { QueueSession, type QueueSessionOptions, type RemovedMessage } from "../../src/colyseus/session.js";

export interface RecordedSessionOptions {
  /** Players per team (default 2). */
  readonly teamSize?: number;
  /** A ready check of this many ms on every match (none by default). */
  readonly readyCheck?: number;
  readonly allowPartialParties?: boolean;
  readonly duplicateAccount?: QueueSessionOptions["duplicateAccount"];
}

export function recordedSession(options: RecordedSessionOptions = {}) {
  const sent: Array<{ to: string; type: string; payload: unknown }> = [];
  const removed = new Map<string, RemovedMessage>();
  const spawns: Match[] = [];
  const shown = new Map<string, Ticket>();
  const session = new QueueSession({
    matchmaker: new Matchmaker({ teamSize: options.teamSize ?? 2 }),
    ...(options.readyCheck ? { readyCheck: { timeoutMs: options.readyCheck } } : {}),
    allowPartialParties: options.allowPartialParties ?? false,
    ...(options.duplicateAccount ? { duplicateAccount: options.duplicateAccount } : {}),
    effects: {
      send: (to, type, payload) => sent.push({ to, type, payload }),
      waiting: (t) => shown.set(t.id, t),
      notWaiting: (id) => shown.delete(id),
      spawn: (m) => spawns.push(m),
      remove: (id, m) => removed.set(id, m),
    },
  });
  /** The last message of `type` sent to `to`. */
  const last = <T>(to: string, type: string): T | undefined =>
    sent.filter((m) => m.to === to && m.type === type).at(-1)?.payload as T | undefined;
  return { session, sent, removed, spawns, shown, last };
}
