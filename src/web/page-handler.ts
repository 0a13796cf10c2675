/**
 * One browser page as a request handler: its HTML at the mount point, its files beside it, and
 * any JSON routes it needs. A plain Node handler `(req, res, next)`, so Express (`app.use`)
 * mounts it as it is and the package needs no Express of its own.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { loadAsset, PAGES, type Asset, type PageName } from "./assets.js";

/** What `playPage()` and `dashboardPage()` return: mount it with `app.use(path, handler)`. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** A page's own routes beside its files, by path below the mount point (e.g. "/queues.json"). */
export type PageRoutes = Readonly<Record<string, () => unknown>>;

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
    const path = URL.canParse(`http://localhost${req.url ?? "/"}`)
      ? new URL(`http://localhost${req.url ?? "/"}`).pathname
      : "";
    if (options.routes && Object.hasOwn(options.routes, path)) {
      send(req, res, 200, "application/json; charset=utf-8", JSON.stringify(options.routes[path]!()));
      return;
    }
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
