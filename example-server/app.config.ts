/**
 * The example server's definition: three queues (1v1, 2v2, 5v5), the demo game room, the
 * Colyseus monitor at /monitor, and the queues' figures at /matchmaker/metrics (JSON) and
 * /matchmaker/metrics/prometheus (Prometheus text), both behind `operatorAuth` (credentials from
 * MATCHMAKER_OPERATOR_USER / MATCHMAKER_OPERATOR_PASSWORD; without them, this machine only), and
 * matchmaking request bodies bounded before they are read, and repeated errors folded in the log.
 * The tests boot this same definition.
 */
import { monitor } from "@colyseus/monitor";
import config from "@colyseus/tools";
import { defineRoom } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { aggregatingLogger, defineQueue, limitRequestBodies, matchmakerMetrics, operatorAuth } from "../src/index.js";
import { DemoGameRoom } from "./DemoGameRoom.js";

export const rooms = {
  duel: defineQueue({ teamSize: 1, gameRoom: "demo_game", policy: "greedy", tickMs: 500 }),
  squad: defineQueue({ teamSize: 2, gameRoom: "demo_game", policy: "greedy", tickMs: 500 }),
  arena5: defineQueue({ teamSize: 5, gameRoom: "demo_game", policy: "greedy", tickMs: 500 }),
  demo_game: defineRoom(DemoGameRoom),
};

export default config({
  rooms,
  // Repeated errors (malformed frames, a flooding client) fold into one line per kind and window.
  options: { logger: aggregatingLogger() },
  initializeTransport: (options) => {
    limitRequestBodies(options.server);
    return new WebSocketTransport(options);
  },
  initializeExpress: (app) => {
    app.use("/monitor", operatorAuth(), monitor());
    app.use("/matchmaker/metrics", operatorAuth(), matchmakerMetrics());
  },
});
