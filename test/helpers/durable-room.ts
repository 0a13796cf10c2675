/**
 * A queue room as the durable queue sees it, without sockets: a real `QueueSession` and
 * `DurableQueue` on the given presence (Colyseus's in-memory one answers the same calls as Redis),
 * an injected clock, manual timers, and the messages sent and removals recorded. Joins go through
 * `authorize` and `join` as the room's `onAuth` and `onJoin` do, the account (`playerId` of the
 * options) checked at `onAuth` as the room checks it.
 */
import type { LocalPresence } from "@colyseus/core";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { DuplicateAccount } from "../../src/colyseus/director/accounts.js";
import { DurableQueue, type DurableHost } from "../../src/colyseus/durable/durable-queue.js";
import { QueueSession, type RemovedMessage, type SessionJoin } from "../../src/colyseus/session.js";

export interface FakeRoomOptions {
  /** A ready check of this many ms on every match (none by default). */
  readonly readyCheck?: number;
  /** The queue option `duplicateAccount` (the session's default otherwise). */
  readonly duplicateAccount?: DuplicateAccount;
}

/** One 2v2 queue room `roomId` on `presence`; its clock is `clock.now`. */
export function fakeDurableRoom(
  presence: LocalPresence,
  roomId: string,
  clock: { now: number },
  options: FakeRoomOptions = {},
) {
  const sent: Array<{ to: string; type: string; payload: unknown }> = [];
  const removed = new Map<string, RemovedMessage>();
  const timers: Array<() => void> = [];
  const listed = new Set<string>([roomId]);
  let closed: number | undefined;
  let locked = false;
  const session: QueueSession = new QueueSession({
    matchmaker: new Matchmaker({ teamSize: 2 }),
    ...(options.readyCheck ? { readyCheck: { timeoutMs: options.readyCheck } } : {}),
    ...(options.duplicateAccount ? { duplicateAccount: options.duplicateAccount } : {}),
    effects: {
      send: (to, type, payload) => {
        sent.push({ to, type, payload });
        if (type === "seat") durable.gone(to);
      },
      waiting: (t) => durable.waiting(t),
      notWaiting: () => undefined,
      spawn: () => undefined,
      remove: (id, message) => {
        removed.set(id, message);
        durable.gone(id);
      },
    },
  });
  const host: DurableHost = {
    roomId,
    roomName: "q",
    presence,
    session,
    now: () => clock.now,
    send: (to, type, payload) => sent.push({ to, type, payload }),
    runEngine: () => session.tick(clock.now),
    every: (_ms, fn) => {
      timers.push(fn);
      return () => timers.splice(timers.indexOf(fn), 1);
    },
    isListed: async (id) => listed.has(id),
    relist: async () => undefined,
    lock: () => (locked = true),
    closeAll: async (code) => (closed = code),
  };
  const durable: DurableQueue = new DurableQueue(host, { graceMs: 10_000, announceMs: 20 });
  /** `onAuth` then `onJoin` of session `sessionId` with join `options` (`rating`, `playerId`, `resume`) and `extra`. */
  const join = async (sessionId: string, options: Record<string, unknown>, extra: Partial<SessionJoin> = {}) => {
    const check = (rest: unknown) => {
      const refusal = session.joinRefusal({ ...extra, playerId: (rest as { playerId?: string }).playerId });
      if (refusal) throw refusal;
      return rest;
    };
    await durable.authorize(sessionId, options, check, (rest) => rest);
    const playerId = options.playerId as string | undefined;
    durable.join(sessionId, () =>
      session.join(
        {
          player: { sessionId, rating: Number(options.rating), ...(playerId !== undefined ? { playerId } : {}) },
          ...extra,
        },
        clock.now,
      ),
    );
  };
  /** The resume token `id` was last given. */
  const tokenOf = (id: string) =>
    (sent.filter((m) => m.to === id && m.type === "resume").at(-1)?.payload as { token: string } | undefined)?.token;
  /** The code of the party `leader` opened. */
  const partyCodeOf = (leader: string) =>
    (sent.find((m) => m.to === leader && m.type === "party")!.payload as { code: string }).code;
  /** Run every timer once (the lease's renewal, the batch of writes, the grace). */
  const beat = async () => {
    for (const fn of [...timers]) fn();
    await new Promise((r) => setTimeout(r, 5));
  };
  /** The room is lost (its process died, no handover): its places stay in presence for a new room. */
  const lose = async () => {
    await durable.flushAll();
    durable.stop();
    await durable.lease.release();
  };
  return {
    durable,
    session,
    sent,
    removed,
    join,
    tokenOf,
    partyCodeOf,
    beat,
    lose,
    listed,
    closed: () => closed,
    locked: () => locked,
  };
}
