/**
 * colyseus-matchmaker: matchmaking for Colyseus 0.18. What a game server needs:
 *
 * - the queue room players join (`MatchmakerRoom`, `defineQueue`) and its options;
 * - the game-room helpers (`requestBackfill`, `cancelBackfill`) and the types of what a game
 *   room receives (`MatchInfo`, `SeatOptions`);
 * - the messages a client receives, as types;
 * - the queues' figures for operators (`matchmakerMetrics`, `collectMetrics`, `prometheusText`).
 *
 * The engine and the policies without Colyseus: `colyseus-matchmaker/engine`.
 * The simulator: `colyseus-matchmaker/sim`.
 */
export { MatchmakerRoom, defineQueue } from "./colyseus/MatchmakerRoom.js";
export type { JoinOptions } from "./colyseus/join-options.js";
export type { MatchmakerRoomOptions, SharedQueueOptions } from "./options/index.js";
export type { ReadyCheckOptions, MatchFoundMessage } from "./colyseus/ready-check.js";
export type { ImbalanceSpec } from "./core/imbalance.js";
export type { ZoneSpec, ZoneOption } from "./core/zones.js";
export type { Side } from "./core/types.js";
export { MatchmakerError, type MatchmakerErrorCode } from "./core/errors.js";

// What the spawned game room receives, and how it asks for replacement players.
export type { MatchInfo, SeatOptions, SeatMessage } from "./colyseus/director/game-room.js";
export { requestBackfill, cancelBackfill, type BackfillReceipt } from "./colyseus/backfill-desk.js";

// Messages the queue sends to its clients.
export type { StatusMessage, WaitingBreakdown } from "./colyseus/status.js";

// The operator's view of a queue: counts, percentiles and a bounded sample of the waiting tickets.
export { QueueViewRoom, type QueueViewOptions, type SampleTicket } from "./colyseus/queue-view.js";
export type { PartyMessage, PartyStatus } from "./colyseus/parties.js";
export type { RemovedMessage, RemovalReason, RequeuedMessage, RequeueReason } from "./colyseus/session.js";
export { MatchmakerState, WaitingEntry, QueueFigures } from "./colyseus/state.js";

// The queues' figures, for operators.
export {
  matchmakerMetrics,
  collectMetrics,
  prometheusText,
  PROMETHEUS_CONTENT_TYPE,
  type QueueMetrics,
} from "./colyseus/metrics.js";

// Server-level guards for operators: authentication, request bodies, the log.
export {
  operatorAuth,
  operatorCredentialsFromEnv,
  type OperatorAuthOptions,
  type OperatorCredentials,
} from "./server/operator-auth.js";
export {
  aggregatingLogger,
  type AggregatingLogger,
  type AggregatingLoggerOptions,
  type LoggerLike,
} from "./server/aggregating-logger.js";
export { limitRequestBodies, DEFAULT_MAX_BODY_BYTES, type BodyLimitOptions } from "./server/body-limit.js";
