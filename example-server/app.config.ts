/**
 * The example server's definition: thirteen queues (1v1, 2v2, 5v5, a 2v2 with a ready check, a 1v1
 * with zones, a 1v1 whose zones are regions chosen by each player's latency, a ranked 1v1
 * whose players and ratings come from the server, a ranked 1v1 and a ranked 2v2 whose ratings are
 * learned from the demo game's results (ranked-ratings.ts), and four other shapes of game: free-for-alls of
 * 3 and of 4, one of 2 to 4 players that starts short-handed, and four teams of two), anonymous sign-in
 * at /auth (`@colyseus/auth`), the demo game room, the Colyseus monitor at /monitor, the queues' figures at
 * /matchmaker/metrics (JSON) and /matchmaker/metrics/prometheus (Prometheus text), the squad
 * queue's recorded traffic at /matchmaker/traces (for `npm run sim -- --trace FILE`), the player
 * page at /play and the operator dashboard at /dashboard (both from `colyseus-matchmaker/web`),
 * the Colyseus playground at /playground, and a front page linking them. The monitor, the metrics,
 * the traces, the dashboard and the playground sit behind `operatorAuth` (credentials from
 * MATCHMAKER_OPERATOR_USER / MATCHMAKER_OPERATOR_PASSWORD; without them, this machine only, and no
 * request that came through a proxy): the playground lists every room and starts and stops a CPU
 * profiler, so it is an operator tool like the monitor (and it is left out when NODE_ENV is
 * production). Matchmaking request bodies are bounded before they are read, and repeated errors
 * fold into one log line per kind.
 * The tests boot this same definition.
 */
import { createSecretKey } from "node:crypto";
import { JWT } from "colyseus";
import { monitor } from "@colyseus/monitor";
import { playground } from "@colyseus/playground";
import config from "@colyseus/tools";
import { WebSocketTransport } from "@colyseus/ws-transport";
import {
  aggregatingLogger,
  defineQueue,
  limitRequestBodies,
  matchmakerMetrics,
  matchmakerTraces,
  operatorAuth,
} from "../src/index.js";
import { defineDemoGame } from "./DemoGameRoom.js";
import { dashboardPage, playPage } from "../src/web/index.js";
import { frontPage } from "./front-page.js";
import { accountPlayers, authSettings, jwtSecret, rankedPlayers } from "./accounts.js";
import { ratings } from "./ranked-ratings.js";

// Auth tokens (anonymous sign-in, the ranked queue) are signed with JWT_SECRET (a loud default in development).
// A key object: given a string, jsonwebtoken tries it as a public key at every verify (about 0.7 ms).
JWT.settings.secret = createSecretKey(Buffer.from(jwtSecret()));

// Casual queues: each player's rating (and playerId) is what its client declares: untrusted.
export const rooms = {
  duel: defineQueue({ teamSize: 1, gameRoom: "demo_game", policy: "greedy", tickMs: 500 }),
  // Records its traffic for replay in the simulator (/matchmaker/traces).
  squad: defineQueue({ teamSize: 2, gameRoom: "demo_game", policy: "greedy", tickMs: 500, trafficTrace: {} }),
  arena5: defineQueue({ teamSize: 5, gameRoom: "demo_game", policy: "greedy", tickMs: 500 }),
  // Every player must accept a found match within 15 s; the rating window widens with the wait.
  squad_ready: defineQueue({
    teamSize: 2,
    gameRoom: "demo_game",
    policy: "expanding-window",
    params: { unit: "rating", initial: 100, growthPerSecond: 25, max: 1000 },
    readyCheck: { timeoutMs: 15_000 },
    tickMs: 500,
  }),
  // Two zones: a player picks one or both (none: both).
  duel_zones: defineQueue({ teamSize: 1, gameRoom: "demo_game", zones: ["eu", "na"], tickMs: 500 }),
  // Regions by latency (docs/roles-sides-zones.md#regions-by-latency): each player sends its ping
  // to every region; it waits in those it reaches within 80 ms, widening by 5 ms a second up to 150.
  duel_regions: defineQueue({
    teamSize: 1,
    gameRoom: "demo_game",
    zones: ["eu", "us"],
    maxLatencyMs: 80,
    maxLatencyGrowthPerSecond: 5,
    maxLatencyCapMs: 150,
    tickMs: 500,
  }),
  // Ranked: who each player is and its rating come from the server (the account of its auth token,
  // the example's rating store), never from the client; a client that sends a rating is refused.
  ranked: defineQueue({
    teamSize: 1,
    gameRoom: "demo_game",
    policy: "expanding-window",
    params: { unit: "rating", initial: 100, growthPerSecond: 10, max: 1000 },
    rating: { min: 0, max: 5000 },
    tickMs: 500,
    players: accountPlayers,
  }),
  // Ratings learned from results (docs/ratings.md): the account from the auth token, the rating and
  // its uncertainty from the ratings, which the demo game room updates with each result.
  ranked_1v1: defineQueue({
    teamSize: 1,
    gameRoom: "demo_game",
    policy: "expanding-window",
    params: { unit: "rating", initial: 100, growthPerSecond: 25, max: 1000 },
    rating: { min: 0, max: 5000 },
    tickMs: 500,
    players: rankedPlayers,
    ratings,
  }),
  ranked_2v2: defineQueue({
    teamSize: 2,
    gameRoom: "demo_game",
    // Teams split by their predicted chances, on the ratings' own scale.
    imbalance: {
      kind: "win-probability",
      sigma: ratings.system.scale.uncertainty,
      beta: ratings.system.scale.performanceNoise,
    },
    rating: { min: 0, max: 5000 },
    tickMs: 500,
    players: rankedPlayers,
    ratings,
  }),
  // Other shapes of game (docs/shapes.md): no sides (only a game of two teams has them); the game
  // room seats each player by its team index (a free-for-all: one team per player).
  // A free-for-all of three: every game has exactly three players.
  ffa3: defineQueue({ maxPlayers: 3, gameRoom: "demo_game", tickMs: 500 }),
  ffa4: defineQueue({ maxPlayers: 4, gameRoom: "demo_game", tickMs: 500 }),
  // Two to four players: four as soon as they wait, or, once the oldest has waited 10 s, all who
  // wait (at least two); the empty seats stay empty.
  ffa2to4: defineQueue({
    maxPlayers: 4,
    minPlayers: 2,
    shortHandedAfterMs: 10_000,
    gameRoom: "demo_game",
    tickMs: 500,
  }),
  // Four teams of two.
  teams4x2: defineQueue({ teamSize: 2, teams: 4, gameRoom: "demo_game", tickMs: 500 }),
  demo_game: defineDemoGame(),
};

export default config({
  rooms,
  // Repeated errors (malformed frames, a flooding client) fold into one line per kind and window.
  // Anonymous sign-in (POST /auth/anonymous; the SDK's `client.auth.signInAnonymously()`), no OAuth.
  options: { logger: aggregatingLogger(), auth: { settings: authSettings, oauth: false } },
  initializeTransport: (options) => {
    limitRequestBodies(options.server, { pathPrefixes: ["/matchmake/", "/auth/"] });
    return new WebSocketTransport(options);
  },
  initializeExpress: (app) => {
    app.use("/monitor", operatorAuth(), monitor());
    app.use("/matchmaker/metrics", operatorAuth(), matchmakerMetrics());
    app.use("/matchmaker/traces", operatorAuth(), matchmakerTraces());
    app.use("/dashboard", operatorAuth(), dashboardPage());
    app.use("/play", playPage());
    if (process.env.NODE_ENV !== "production") app.use("/playground", operatorAuth(), playground());
    app.get("/", frontPage());
  },
});
