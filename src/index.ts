/**
 * colyseus-matchmaker: matchmaking for Colyseus 0.18. What a game server needs:
 *
 * - the queue room players join (`MatchmakerRoom`, `defineQueue`) and its options;
 * - the game-room helpers (`queueSeatsOnly`, `closeUnknownMessage`, `playerArrived`, `requestBackfill`, `cancelBackfill`)
 *   and the types of what a game room receives (`MatchInfo`, `SeatOptions`, `NoShowReport`);
 * - ratings learned from results (`Ratings`, `MemoryRatingStore`) for a ranked queue (option `ratings`);
 * - the join options a client sends, as types (the messages it receives: `colyseus-matchmaker/client`);
 * - the queues' figures for operators (`matchmakerMetrics`, `collectMetrics`, `prometheusText`).
 *
 * The engine and the policies without Colyseus: `colyseus-matchmaker/engine`.
 * The simulator: `colyseus-matchmaker/sim`.
 */
export { MatchmakerRoom, defineQueue } from "./colyseus/MatchmakerRoom.js";
export type { JoinOptions, ClientJoinOptions } from "./options/player-options.js";
// Trusted players: who a player is and its rating from the server (the queue option `players`).
export { PlayerRefused } from "./colyseus/trusted-players.js";
export type { PlayersOption, PlayerRequest, TrustedPlayer } from "./options/player-options.js";
export type { MatchmakerRoomOptions } from "./options/index.js";
export type { ReadyCheckOptions } from "./colyseus/ready-check.js";
export type { ImbalanceSpec } from "./core/imbalance.js";
export type { ZoneSpec, ZoneOption } from "./core/zones.js";
export type { CriterionOption } from "./core/criteria.js";
export type { Side } from "./core/types.js";
export { MatchmakerError, type MatchmakerErrorCode } from "./core/errors.js";
// Accounts that never play together (queue option `blocked`).
export { BlockList, type BlockRule } from "./core/blocks.js";
// Ratings learned from results (queue option `ratings`): the ledger, what a result and a rating
// are, and the stores (see docs/ratings.md).
export { Ratings, type RatingsOptions, type PlayerRating, type ResultReport } from "./ratings/ratings.js";
export type { MatchResult } from "./ratings/result.js";
export type { RatingScale } from "./ratings/rating-system.js";
export type { RatingStore, RatingBin, SettleOutcome } from "./ratings/store.js";
export { MemoryRatingStore } from "./ratings/memory-store.js";
export { SqliteRatingStore, type SqliteRatingStoreOptions } from "./ratings/sqlite-store.js";
export { RedisRatingStore, type RedisRatingStoreOptions, type RedisEvalClient } from "./ratings/redis-store.js";
export type { Rating, StoredRating, OpenMatch, OpenSeat, RatingChange, SettledMatch } from "./ratings/types.js";

// What the spawned game room receives, and how it asks for replacement players.
export type { MatchInfo, SeatOptions } from "./colyseus/director/game-room.js";
export type { GameShape, TeamsShape, FreeForAllShape } from "./core/shape.js";
export { requestBackfill, cancelBackfill, type BackfillReceipt } from "./colyseus/backfill-desk.js";
// How the game room tells the queue who entered, and learns who never did.
export { playerArrived, type NoShowListener } from "./colyseus/director/arrivals.js";
// A game room's static onAuth: players enter only through the seats the queue reserved.
export { queueSeatsOnly } from "./colyseus/director/seat-gate.js";
// A room's fallback message handler: an unknown type closes the sender, never the process.
export { closeUnknownMessage } from "./colyseus/unknown-message.js";
export type { NoShowReport, NoShowReason } from "./colyseus/director/seat-watch.js";

// The operator's view of a queue: counts, percentiles and a bounded sample of the waiting tickets.
export { QueueViewRoom, type QueueViewOptions, type SampleTicket } from "./colyseus/queue-view.js";
export { MatchmakerState, WaitingEntry, QueueFigures } from "./colyseus/state.js";

// The queues' figures, for operators.
export {
  matchmakerMetrics,
  collectMetrics,
  prometheusText,
  PROMETHEUS_CONTENT_TYPE,
  type QueueMetrics,
} from "./colyseus/metrics.js";

// A queue's recorded traffic (queue option `trafficTrace`), for `npm run sim -- --trace FILE`.
export { matchmakerTraces } from "./colyseus/traffic-trace.js";

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
} from "./server/aggregating-logger.js";
export { limitRequestBodies, type BodyLimitOptions } from "./server/body-limit.js";
// The address per-client limits key on: the connection's own, forwarding headers only from trusted proxies.
export { clientAddress } from "./colyseus/client-address.js";

// Several processes (Redis): joins that fail fast while Redis is unreachable, and the messages of
// a durable queue (resume tokens, handover). See docs/scale-out.md.
export { failFastDriver } from "./colyseus/durable/fail-fast.js";
