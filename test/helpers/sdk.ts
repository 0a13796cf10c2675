/** Helpers for integration tests that drive a real server through the Colyseus client SDK. */
import type { ColyseusTestServer } from "@colyseus/testing";
import type { Room as SdkRoom } from "@colyseus/sdk";
import type { SeatMessage, StatusMessage } from "../../src/index.js";

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
  return Number(process.env.TEST_PORT_BASE ?? 2570) + offset;
}
