/**
 * A join from another loopback address (`127.0.0.2`, …): the SDK cannot choose the address its
 * WebSocket connects from, so this does what the SDK's `joinOrCreate` does by hand, the
 * matchmaking request and then the room's WebSocket bound to `localAddress`, and reads the room's
 * first frame: `JOIN_ROOM` (joined) or `ERROR` (its code and message).
 */
import { decode, type Iterator } from "@colyseus/schema";
import { Protocol } from "@colyseus/core";
import { WebSocket } from "ws";

export type JoinOutcome =
  | { readonly joined: true; readonly close: () => void }
  | { readonly joined: false; readonly code: number; readonly message: string };

/** Join `queue` on `port` with `options`, the room's connection coming from `localAddress`. */
export async function joinFrom(
  port: number,
  localAddress: string,
  queue: string,
  options: Record<string, unknown>,
  timeoutMs = 5000,
): Promise<JoinOutcome> {
  const res = await fetch(`http://127.0.0.1:${port}/matchmake/joinOrCreate/${queue}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(options),
  });
  const seat = (await res.json()) as {
    sessionId?: string;
    roomId?: string;
    processId?: string;
    code?: number;
    error?: string;
  };
  if (!res.ok || !seat.sessionId) return { joined: false, code: seat.code ?? res.status, message: seat.error ?? "" };
  const url = `ws://127.0.0.1:${port}/${seat.processId}/${seat.roomId}?sessionId=${seat.sessionId}`;
  const ws = new WebSocket(url, { localAddress });
  ws.binaryType = "arraybuffer";
  return new Promise<JoinOutcome>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`no answer from the room within ${timeoutMs} ms`));
    }, timeoutMs);
    ws.once("message", (data: ArrayBuffer) => {
      clearTimeout(timer);
      const bytes = new Uint8Array(data);
      if (bytes[0] === Protocol.JOIN_ROOM) {
        resolve({ joined: true, close: () => ws.close() });
        return;
      }
      const it: Iterator = { offset: 1 };
      const code = bytes[0] === Protocol.ERROR ? decode.number(bytes, it) : -1;
      const message = bytes[0] === Protocol.ERROR ? decode.string(bytes, it) : `unexpected frame ${bytes[0]}`;
      ws.close();
      resolve({ joined: false, code, message });
    });
    ws.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
