/**
 * A Colyseus room as the {@link DurableHost} of its queue's durability: its clock, its clients,
 * its listing in the matchmaker's driver. Kept here so that the queue room only wires it.
 */
import { matchMaker, type Room } from "@colyseus/core";
import type { QueueSession } from "../session.js";
import type { DurableHost } from "./durable-queue.js";

/** What the room passes that Colyseus's `Room` does not expose publicly. */
export interface QueueParts {
  readonly session: QueueSession;
  now(): number;
  runEngine(): void;
}

/** The host for `room`, whose queue lifecycle is `parts`. */
export function roomHost(room: Room, parts: QueueParts): DurableHost {
  return {
    roomId: room.roomId,
    roomName: room.roomName,
    presence: room.presence,
    session: parts.session,
    now: () => parts.now(),
    send: (id, type, payload) => room.clients.getById(id)?.send(type, payload),
    runEngine: () => parts.runEngine(),
    every: (ms, fn) => {
      const timer = room.clock.setInterval(fn, ms);
      return () => timer.clear();
    },
    isListed: async (roomId) => (await matchMaker.driver.findOne({ roomId })) !== undefined,
    relist: async () => {
      // Redis lost its data: this process's room listings and its room count (for placement).
      await matchMaker.restoreMissingRoomCaches();
      await matchMaker.stats.persist();
    },
    lock: () => void room.lock(),
    closeAll: (code) => room.disconnect(code),
  };
}
