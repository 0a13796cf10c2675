/** A queued SDK client that records every queue message it receives (parties, ready checks, reconnection tests). */
import type { ColyseusTestServer } from "@colyseus/testing";
import type { Room as SdkRoom } from "@colyseus/sdk";

/** A message payload as the SDK hands it over: untyped JSON the tests read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Payload = any;

/** The messages a queue sends to its clients. */
export const QUEUE_MESSAGES = ["party", "match_found", "requeued", "removed", "seat"] as const;

export interface Inbox {
  readonly messages: Array<{ type: string; payload: Payload }>;
  /** Payloads of one type, in arrival order. */
  all(type: string): Payload[];
  /** Resolves with the `n`-th (1-based) message of `type`, now or when it arrives. */
  nth(type: string, n?: number): Promise<Payload>;
  /** Resolves with the first message of `type` whose payload matches `fields`, now or when it arrives. */
  first(type: string, fields: Record<string, unknown>): Promise<Payload>;
}

/** Record the queue's messages on `room` (register at once after joining, so nothing is missed). */
export function listen(room: SdkRoom): Inbox {
  const messages: Array<{ type: string; payload: Payload }> = [];
  const waiters: Array<() => void> = [];
  const all = (type: string) => messages.filter((m) => m.type === type).map((m) => m.payload);
  for (const type of QUEUE_MESSAGES) {
    room.onMessage(type, (payload: unknown) => {
      messages.push({ type, payload });
      for (const w of waiters.splice(0)) w();
    });
  }
  // Wait figures are not recorded; registered so the SDK does not warn about unhandled types.
  room.onMessage("status", () => undefined);
  room.onMessage("clients", () => undefined);
  const nth = (type: string, n = 1): Promise<Payload> =>
    new Promise((resolve) => {
      const check = () => {
        const got = all(type);
        if (got.length >= n) resolve(got[n - 1]);
        else waiters.push(check);
      };
      check();
    });
  const matches = (payload: Payload, fields: Record<string, unknown>) =>
    Object.entries(fields).every(([k, v]) => payload?.[k] === v);
  const first = (type: string, fields: Record<string, unknown>): Promise<Payload> =>
    new Promise((resolve) => {
      const check = () => {
        const found = all(type).find((p) => matches(p, fields));
        if (found !== undefined) resolve(found);
        else waiters.push(check);
      };
      check();
    });
  return { messages, all, nth, first };
}

export interface Player {
  room: SdkRoom;
  inbox: Inbox;
  /** Whether the server closed or we left. */
  left: Promise<number>;
}

/** Join a queue and record its messages. */
export async function join(
  server: ColyseusTestServer,
  queue: string,
  options: Record<string, unknown>,
): Promise<Player> {
  const room = await server.sdk.joinOrCreate(queue, options);
  return track(room);
}

/** Record a room's messages and its end. */
export function track(room: SdkRoom): Player {
  const inbox = listen(room);
  const left = new Promise<number>((resolve) => room.onLeave((code: number) => resolve(code)));
  return { room, inbox, left };
}

/** The join error of `options` (code and message), or undefined if the join succeeded. */
export async function joinError(server: ColyseusTestServer, queue: string, options: Record<string, unknown>) {
  return server.sdk.joinOrCreate(queue, options).then(
    async (room) => {
      await room.leave();
      return undefined;
    },
    (e: Error & { code?: number }) => ({ code: e.code, message: e.message }),
  );
}

/**
 * Kill a client's connection the way a crash or a network cut does (no close handshake, the
 * server sees 1006), without the SDK's automatic reconnection.
 */
export function kill(room: SdkRoom): void {
  room.reconnection.enabled = false;
  const ws = (room.connection as unknown as { transport: { ws: { terminate?: () => void; close: () => void } } })
    .transport.ws;
  if (ws.terminate) ws.terminate();
  else throw new Error("this WebSocket cannot be terminated (expected the ws package's WebSocket)");
}
