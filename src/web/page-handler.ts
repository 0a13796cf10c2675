/**
 * One browser page as a request handler: its HTML at the mount point, its files beside it, and
 * any JSON routes it needs. A plain Node handler `(req, res, next)`, so Express (`app.use`)
 * mounts it as it is and the package needs no Express of its own.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MatchmakerError } from "../core/errors.js";
import { loadAsset, PAGES, type Asset, type PageName } from "./assets.js";

/** What `playPage()` and `dashboardPage()` return: mount it with `app.use(path, handler)`. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * A page's own JSON route: the answer for the request's query. A `MatchmakerError` thrown (or
 * rejected) is the request's fault: a 400 answer with its message; anything else a 500.
 */
export type PageRoute = (query: URLSearchParams) => unknown;

/** A page's own routes beside its files, by path below the mount point (e.g. "/queues.json"). */
export type PageRoutes = Readonly<Record<string, PageRoute>>;

export interface PageHandlerOptions {
  /** Rewrites the page's HTML once, before it is served (e.g. to fill in a setting). */
  readonly html?: (html: string) => string;
  readonly routes?: PageRoutes;
  /** Said in the 500 answer when a file cannot be read or built. */
  readonly what: string;
}

function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", type);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(req.method === "HEAD" ? undefined : body);
}

const JSON_TYPE = "application/json; charset=utf-8";

function answerRoute(req: IncomingMessage, res: ServerResponse, route: PageRoute, query: URLSearchParams): void {
  new Promise((resolve) => resolve(route(query))).then(
    (body) => send(req, res, 200, JSON_TYPE, JSON.stringify(body)),
    (error: unknown) => {
      const refused = error instanceof MatchmakerError;
      const field = refused && error.field !== undefined ? { field: error.field } : {};
      const message = error instanceof Error ? error.message : String(error);
      send(req, res, refused ? 400 : 500, JSON_TYPE, JSON.stringify({ error: message, ...field }));
    },
  );
}

export function pageHandler(page: PageName, options: PageHandlerOptions): PageHandler {
  const files = PAGES[page] as Record<string, Asset>;
  let html: Promise<string> | undefined;
  const pageHtml = () => {
    html ??= loadAsset(page, "index.html").then(options.html ?? ((text) => text));
    html.catch(() => (html = undefined));
    return html;
  };
  return (req, res, next) => {
    const pass = () => {
      if (next) return next();
      res.statusCode = 404;
      res.end();
    };
    if (req.method !== "GET" && req.method !== "HEAD") return pass();
    // The path as sent, never read as a host ("//elsewhere" is a path here).
    const url = URL.canParse(`http://localhost${req.url ?? "/"}`)
      ? new URL(`http://localhost${req.url ?? "/"}`)
      : undefined;
    const path = url?.pathname ?? "";
    if (options.routes && Object.hasOwn(options.routes, path))
      return answerRoute(req, res, options.routes[path]!, url!.searchParams);
    const name = path === "/" ? "index.html" : path.slice(1);
    if (!Object.hasOwn(files, name)) return pass();
    if (path === "/") {
      // The page's relative URLs (its script, its JSON) need the mount point with its trailing
      // slash: Express strips the mount from req.url, so ask originalUrl, as the browser sent it.
      const [sent, query] = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? "/").split("?");
      if (sent!.startsWith("//")) return pass(); // a redirect there would leave this site
      if (!sent!.endsWith("/")) {
        res.statusCode = 301;
        res.setHeader("Location", `${sent}/${query === undefined ? "" : `?${query}`}`);
        res.end();
        return;
      }
    }
    const text = name === "index.html" ? pageHtml() : loadAsset(page, name);
    text.then(
      (body) => send(req, res, 200, files[name]!.contentType, body),
      (error: Error) => send(req, res, 500, "text/plain; charset=utf-8", `${options.what}: ${error.message}`),
    );
  };
}
