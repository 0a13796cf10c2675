/**
 * Colyseus's built-in `QueueRoom` without a server, for timing its regrouping cycle
 * (`reassignMatchGroups()`) on the same pools as the engine.
 *
 * Every cycle (once per second by default) `reassignMatchGroups()` filters `this.clients` to the
 * ones not yet in a ready group, sorts them by `userData.rank`, cuts them into groups of
 * `maxPlayers` in rank order, and then `processGroupsReady()` creates rooms and reserves seats.
 * Here `processGroupsReady` is stubbed out (no room is created, no message sent) and the clients
 * are plain objects; the timed part is the filter, the sort, the regrouping and
 * `evaluateHighPriorityGroups()`.
 */
// Colyseus 0.18 on Node 20 needs the global WebSocket before it loads.
import "../example-server/node20.js";
import { QueueRoom } from "colyseus";

interface FakeClient {
  sessionId: string;
  userData: {
    rank: number;
    currentCycle: number;
    options: Record<string, never>;
    group?: unknown;
    highPriority?: boolean;
  };
  send(): void;
}

/** The members of QueueRoom this harness touches (some are protected in the typings). */
interface QueueRoomInternals {
  maxPlayers: number;
  clients: { push(...items: FakeClient[]): number; length: number; [index: number]: FakeClient };
  groups: { ready?: boolean }[];
  reassignMatchGroups(): void;
  processGroupsReady(): void;
}

export class QueueRoomHarness {
  private readonly room: QueueRoomInternals;
  private readonly clients: FakeClient[] = [];

  /** `maxPlayers` = 2 × teamSize; `ratings` are the waiting players' ranks. */
  constructor(maxPlayers: number, ratings: readonly number[]) {
    this.room = new QueueRoom() as unknown as QueueRoomInternals;
    this.room.maxPlayers = maxPlayers;
    this.room.processGroupsReady = () => {};
    for (let i = 0; i < ratings.length; i++) {
      const client: FakeClient = {
        sessionId: `c${i}`,
        userData: { rank: ratings[i], currentCycle: 0, options: {} },
        send() {},
      };
      this.clients.push(client);
      this.room.clients.push(client);
    }
  }

  /**
   * Undo what a cycle did to the clients (groups marked ready are skipped by the next cycle,
   * cycles counted): every timed cycle then regroups the whole pool. Not timed.
   */
  reset(): void {
    for (const c of this.clients) {
      c.userData.group = undefined;
      c.userData.currentCycle = 0;
      c.userData.highPriority = undefined;
    }
  }

  /** One regrouping cycle; returns the number of full (ready) groups. */
  cycle(): number {
    this.room.reassignMatchGroups();
    let ready = 0;
    for (const g of this.room.groups) if (g.ready) ready++;
    return ready;
  }
}
