/**
 * Joins by hand, where the SDK cannot go: the matchmaking request with a body as it is
 * ({@link postJoin}); a join from another loopback address (`127.0.0.2`, …; the SDK cannot choose
 * the address its WebSocket connects from), reading the room's first frame ({@link joinFrom}); a
 * player's socket that sends one frame of the test's bytes ({@link sendFrame}).
 */
import { decode, type Iterator } from "@colyseus/schema";
import { Protocol } from "@colyseus/core";
import { WebSocket } from "ws";

/** What the matchmaking route answers: a seat reservation, or an error's code and message. */
export interface MatchmakeAnswer {
  readonly sessionId?: string;
  readonly roomId?: string;
  readonly processId?: string;
  readonly code?: number;
  readonly error?: string;
}

/**
 * POST `body` (JSON text, sent as it is: deep or odd JSON that `JSON.stringify` would not write)
 * to `joinOrCreate` of `queue` on `port`; the HTTP status and the answer.
 */
export async function postJoin(
  port: number,
  queue: string,
  body: string,
): Promise<{ status: number; json: MatchmakeAnswer }> {
  const res = await fetch(`http://127.0.0.1:${port}/matchmake/joinOrCreate/${queue}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  return { status: res.status, json: (await res.json()) as MatchmakeAnswer };
}

/**
 * Reserve a seat in `queue` with join `options`, connect a raw WebSocket to it and send `bytes`
 * once it is open; resolves with the code the server closes it with.
 */
export async function sendFrame(
  port: number,
  queue: string,
  options: Record<string, unknown>,
  bytes: Buffer,
): Promise<number> {
  const { json: seat } = await postJoin(port, queue, JSON.stringify(options));
  const ws = new WebSocket(`ws://127.0.0.1:${port}/${seat.processId}/${seat.roomId}?sessionId=${seat.sessionId}`);
  return new Promise((resolve, reject) => {
    ws.on("error", reject);
    ws.on("close", (code) => resolve(code));
    ws.on("open", () => ws.send(bytes));
  });
}

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
  const { status, json: seat } = await postJoin(port, queue, JSON.stringify(options));
  if (status < 200 || status > 299 || !seat.sessionId)
    return { joined: false, code: seat.code ?? status, message: seat.error ?? "" };
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
