/**
 * Request bodies bounded before they are read. Colyseus 0.18 reads a matchmaking request's whole
 * body into memory before `onAuth` sees the join options (its routes buffer every chunk, with no
 * cap when the server was started with `listen()`), so one client could post 64 MiB per request.
 * {@link limitRequestBodies} sits in front of every other `request` listener of the HTTP server
 * and answers 413 (or 411 for a body of unstated length) from the headers alone.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** Options of {@link limitRequestBodies}. */
export interface BodyLimitOptions {
  /** The largest body accepted, in bytes (default 16 KiB: join options are a few hundred bytes). */
  readonly maxBytes?: number;
  /** URL path prefixes the limit applies to (default: Colyseus's matchmaking routes, `/matchmake/`). */
  readonly pathPrefixes?: readonly string[];
}

/** The default body limit on the matchmaking routes, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

function refuse(res: ServerResponse, status: 411 | 413, message: string): void {
  // Close the connection after answering: Node would otherwise read the unread body to reuse it.
  res.writeHead(status, { "Content-Type": "application/json", Connection: "close" });
  res.end(JSON.stringify({ error: message }));
}

/** Why a request's body is refused, from its headers, or `undefined` when it may be read. */
export function bodyRefusal(
  req: IncomingMessage,
  maxBytes: number,
): { status: 411 | 413; message: string } | undefined {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return undefined;
  const length = req.headers["content-length"];
  if (length === undefined) {
    if (req.headers["transfer-encoding"] === undefined) return undefined; // no body at all
    return { status: 411, message: "a request body needs a Content-Length" };
  }
  const bytes = Number(length);
  if (!Number.isSafeInteger(bytes) || bytes < 0) return { status: 413, message: "bad Content-Length" };
  if (bytes > maxBytes) return { status: 413, message: `request body too large: at most ${maxBytes} bytes` };
  return undefined;
}

/**
 * Put the body limit in front of `server`'s request handling, whenever its listeners are added
 * (Colyseus binds its routes at `listen()`, in front of the others): the check runs when the
 * server emits `request`. Call it where the HTTP server is created, e.g. in `@colyseus/tools`'
 * `initializeTransport: (options) => (limitRequestBodies(options.server), new WebSocketTransport(options))`.
 */
export function limitRequestBodies(server: Server, options: BodyLimitOptions = {}): void {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError("maxBytes: must be a positive integer");
  const prefixes = options.pathPrefixes ?? ["/matchmake/"];
  const emit = server.emit;
  server.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const path = (req.url ?? "/").split("?")[0];
      const refusal = prefixes.some((p) => path.startsWith(p)) ? bodyRefusal(req, maxBytes) : undefined;
      if (refusal) {
        refuse(res, refusal.status, refusal.message);
        return true;
      }
    }
    return (emit as (event: string | symbol, ...args: unknown[]) => boolean).apply(this, [event, ...args]);
  } as Server["emit"];
}
