/**
 * colyseus-matchmaker: matchmaking for Colyseus 0.18.
 *
 * - `MatchmakerRoom` / `defineQueue`: the queue room players join.
 * - `Matchmaker` and the policies: the pure engine, also driven by the simulator.
 */
export * from "./core/index.js";
export * from "./sim/index.js";
export { MatchmakerRoom, defineQueue } from "./colyseus/MatchmakerRoom.js";
export type { MatchmakerRoomOptions, JoinOptions } from "./colyseus/options.js";
export type { MatchInfo, SeatOptions, SeatMessage } from "./colyseus/seats.js";
export { MatchmakerState, WaitingEntry, QueueFigures } from "./colyseus/state.js";
export type { StatusMessage, WaitingBreakdown } from "./colyseus/status.js";
export {
  matchmakerMetrics,
  collectMetrics,
  prometheusText,
  registerQueue,
  unregisterQueue,
  PROMETHEUS_CONTENT_TYPE,
  type QueueMetrics,
  type MetricsSource,
} from "./colyseus/metrics.js";
export { requestBackfill, cancelBackfill, type BackfillReceipt } from "./colyseus/backfill.js";
