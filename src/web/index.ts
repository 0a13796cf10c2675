/**
 * `colyseus-matchmaker/web`: the browser player page and the operator dashboard, as request
 * handlers to mount in your server. Their HTML and scripts are built with the package (nothing
 * is bundled in your app, nothing comes from a CDN):
 *
 * ```ts
 * app.use("/play", playPage());
 * app.use("/matchmaker/metrics", operatorAuth(), matchmakerMetrics());
 * app.use("/dashboard", operatorAuth(), dashboardPage());
 * ```
 */
import { pageHandler, type PageHandler } from "./page-handler.js";
import { MatchmakerError } from "../core/errors.js";
import { describeQueues, queueRatings } from "./queues.js";
import { parseBinWidth, ratingDistribution, type RatingDistribution } from "./rating-distribution.js";

export type { PageHandler } from "./page-handler.js";
export type { RatingDistribution } from "./rating-distribution.js";

/** Options of {@link playPage}. */
export interface PlayPageOptions {
  /**
   * The queue rooms the page offers, by room name, in this order. Default: every queue room
   * type the server defines (`defineQueue`), role queues excepted.
   */
  readonly queues?: readonly string[];
}

/**
 * The player page: pick a queue (each shown with its shape: "2v2", "free-for-all of 3", "4 teams
 * of 2", "2 to 4 players") and a rating, play alone, open a party (its code is shown; up to the
 * shape's party limit) or join one by code, choose a side (in a game of two teams) or zones where
 * the queue has them; follow the wait (waited time, estimate, rating window), answer the ready
 * check, and land in the game room the queue reserves a seat in, told its side, or in other
 * shapes its team. Where the game room's state has a `seats` map of `{ side, team?, rating,
 * arrived }` (the example server's demo game), the page lists the players by side or team, and
 * where it also has `emptySeats` (a game that started short-handed), the seats left empty.
 *
 * The page connects to the Colyseus server that serves it. Mount it on a path of its own:
 * `app.use("/play", playPage())`; it answers `/play/` (the page), `/play/play.js` and
 * `/play/queues.json` (what it knows of each queue), and redirects `/play` to `/play/`.
 */
export function playPage(options: PlayPageOptions = {}): PageHandler {
  return pageHandler("play", {
    what: "the player page failed to build",
    routes: { "/queues.json": () => ({ queues: describeQueues(options.queues) }) },
  });
}

/** Options of {@link dashboardPage}. */
export interface DashboardPageOptions {
  /**
   * Where `matchmakerMetrics()` is mounted, as the page's browser fetches it: absolute
   * ("/ops/metrics") or relative to the dashboard's page. Default `"../matchmaker/metrics"`:
   * the dashboard at `/dashboard/` and the metrics at `/matchmaker/metrics`.
   */
  readonly metrics?: string;
}

const attribute = (value: string) =>
  value.replace(/[&"<>]/g, (ch) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[ch]!);

/**
 * The operator dashboard: for every queue defined in the process, from the server's start and
 * across its rooms, its state in words ("no players yet", players waiting and the longest wait,
 * "nobody waiting"; "no matches yet" or its matches), live uPlot charts of the waiting players
 * and the p50 and p95 waits over the last five minutes, the running totals (matches, players
 * seated, no-shows, requeued, declines, spawn failures, abandoned matches, backfill failures,
 * the side-mix flag) and the ten longest-waiting tickets with readable waits; each queue's shape
 * ("2v2", "free-for-all of 3", ...) and the quality figure that fits it (the mean imbalance of team
 * games, the mean rating spread of a free-for-all). It polls `matchmakerMetrics()`'s `/` and
 * `/sample?limit=10` once a second, so mount that too, and put both behind the same gate:
 *
 * ```ts
 * app.use("/matchmaker/metrics", operatorAuth(), matchmakerMetrics());
 * app.use("/dashboard", operatorAuth(), dashboardPage());
 * ```
 *
 * It answers `/dashboard/` (the page), `/dashboard/dashboard.js`, `/dashboard/uplot.css`,
 * `/dashboard/queues.json` (each queue's shape, as the player page's) and
 * `/dashboard/ratings.json?queue=NAME&width=W` (a {@link RatingDistribution}). For a ranked queue (one
 * defined with the queue option `ratings`), the panel draws that distribution as a histogram: the
 * players of the current season by rating, in bands of 50 points (10 to 1,000 may be asked; at
 * most 100 bands are answered, wider ones when the ratings spread further). The dashboard reads
 * each queue's ledger from the queue's own `ratings` option: there is nothing else to wire, and
 * the answer is behind whatever gate the dashboard is mounted behind.
 */
export function dashboardPage(options: DashboardPageOptions = {}): PageHandler {
  const metrics = options.metrics;
  return pageHandler("dashboard", {
    what: "the dashboard failed to build",
    routes: { "/queues.json": () => ({ queues: describeQueues() }), "/ratings.json": distributionRoute },
    html:
      metrics === undefined
        ? undefined
        : (html) =>
            html.replace(
              /(<meta name="matchmaker-metrics" content=")[^"]*(")/,
              (_all, open: string, close: string) => `${open}${attribute(metrics)}${close}`,
            ),
  });
}

/** `ratings.json?queue=NAME&width=W`: the ranked queue's rating distribution (400 for anything else). */
function distributionRoute(query: URLSearchParams): Promise<RatingDistribution> {
  const queue = query.get("queue") ?? "";
  const ratings = queueRatings(queue);
  if (!ratings)
    throw new MatchmakerError("invalid_request", "queue: must name a ranked queue (one with ratings)", "queue");
  return ratingDistribution(queue, ratings, parseBinWidth(query.get("width")));
}
