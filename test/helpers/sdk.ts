/** Helpers for integration tests that drive a real server through the Colyseus client SDK. */
import { matchMaker, type Room } from "@colyseus/core";
import type { ColyseusTestServer } from "@colyseus/testing";
import type { Client, Room as SdkRoom } from "@colyseus/sdk";
import type { SeatMessage, StatusMessage } from "../../src/client/index.js";

export interface QueuedClient {
  queue: SdkRoom;
  seat: Promise<SeatMessage>;
  /** Every `status` received, oldest first (its own ticket, counts, estimate). */
  statuses: StatusMessage[];
}

/** Join a queue and start listening for the seat at once, so no message is missed. */
export async function joinQueue(
  server: ColyseusTestServer,
  queue: string,
  options: Record<string, unknown>,
): Promise<QueuedClient> {
  const room = await server.sdk.joinOrCreate(queue, options);
  let resolve!: (seat: SeatMessage) => void;
  const seat = new Promise<SeatMessage>((r) => (resolve = r));
  room.onMessage("seat", (message: SeatMessage) => resolve(message));
  // Tests that look at these add their own handlers; these keep the SDK from warning about them.
  const statuses: StatusMessage[] = [];
  room.onMessage("status", (status: StatusMessage) => statuses.push(status));
  room.onMessage("clients", () => undefined);
  return { queue: room, seat, statuses };
}

/** Join `queue` through `client`: the room (every message it receives acknowledged), or the refusal as `"<code>: <message>"`. */
export async function attemptJoin(
  client: Client,
  queue: string,
  options: Record<string, unknown>,
): Promise<SdkRoom | string> {
  try {
    const room = await client.joinOrCreate(queue, options);
    room.onMessage("*", () => undefined);
    return room;
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return `${code}: ${message}`;
  }
}

/** The room listed first under `name`, if it lives in this process (e.g. the one room of a queue). */
export async function localRoom<T extends Room = Room>(name: string): Promise<T | undefined> {
  const [listing] = await matchMaker.query({ name });
  return listing && (matchMaker.getLocalRoomById(listing.roomId) as T | undefined);
}

/** Resolve with the value, or reject after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms),
    ),
  ]);
}

/** True if the promise is still pending after `ms`. */
export async function staysPending(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, ms));
  return !settled;
}

/**
 * The port for an integration test file: TEST_PORT_BASE (default 2570) plus the file's own
 * offset, so that test runs in several checkouts on one machine do not collide.
 */
export function testPort(offset: number): number {
  const port = Number(process.env.TEST_PORT_BASE ?? 2570) + offset;
  if (FETCH_BLOCKED_PORTS.has(port))
    throw new Error(
      `TEST_PORT_BASE=${process.env.TEST_PORT_BASE} puts offset ${offset} on port ${port}, which fetch (and so the SDK) refuses as a "bad port"; choose another base`,
    );
  return port;
}

/** Ports at or above 1024 that fetch refuses to connect to (the Fetch standard's "bad ports"). */
const FETCH_BLOCKED_PORTS = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);
