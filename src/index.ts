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
export {
  QueueSession,
  JoinRefused,
  type Place,
  type PlayerView,
  type QueueSessionOptions,
  type RemovalReason,
  type RemovedMessage,
  type RequeueReason,
  type RequeuedMessage,
  type SessionEffects,
  type SessionJoin,
  type StartResult,
} from "./colyseus/session.js";
export {
  PartyBook,
  newPartyCode,
  partyTicketId,
  PARTY_CODE_PATTERN,
  type Party,
  type PartyMessage,
  type PartyStatus,
  type PartyJoinProblem,
} from "./colyseus/parties.js";
export {
  PendingMatches,
  type MatchFoundMessage,
  type PendingMatch,
  type ReadyCheckOptions,
} from "./colyseus/ready-check.js";
export { MatchmakerState, WaitingEntry, QueueFigures } from "./colyseus/state.js";
export {
  QueueViewRoom,
  QueueViewState,
  WaitingRoster,
  type QueueViewOptions,
  type SampleTicket,
} from "./colyseus/queue-view.js";
export { countBucket, type WaitingTicket } from "./colyseus/status-notifier.js";
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
