/**
 * `colyseus-matchmaker/client`: a player's side of the queue, for games and bots, in the browser
 * or in Node. One call joins a queue through an `@colyseus/sdk` `Client` and follows the player to
 * its game room: joins retried as the queue's refusals say, the resume token kept and used after
 * a lost connection, the waited time derived, the ready check answered, the seat taken.
 *
 * ```ts
 * import { Client } from "@colyseus/sdk";
 * import { joinQueue } from "colyseus-matchmaker/client";
 *
 * const queue = joinQueue(new Client("wss://example.com"), "queue_2v2", { rating: 1500 });
 * queue.on("status", (status) => console.log(`${status.waiting} waiting, ${queue.waitedMs()} ms so far`));
 * const game = await queue.game;
 * ```
 *
 * Browser-safe: at run time it imports `@colyseus/sdk` and nothing else (no Node module, no
 * server code; the message types below are types only).
 */
export {
  joinQueue,
  MatchmakingEnded,
  type Matchmaking,
  type MatchmakingEndReason,
  type MatchmakingEvents,
  type MatchmakingSettings,
  type MatchmakingState,
  type JoinRetryNotice,
  type ReconnectNotice,
} from "./matchmaking.js";
// A rated game's result, as a game room tells each player (the example's demo game does).
export {
  describeRatingChange,
  RATING_CHANGE_MESSAGE,
  type RatingChangeMessage,
  type RatingFigures,
} from "./rating-change.js";

// The join options and the messages a queue sends its players, as types.
export type { ClientJoinOptions } from "../options/player-options.js";
export type { StatusMessage } from "../colyseus/status.js";
export type { PartyMessage, PartyStatus } from "../colyseus/parties.js";
export type { MatchFoundMessage } from "../colyseus/ready-check.js";
export type { SeatMessage } from "../colyseus/director/game-room.js";
export type {
  PenaltyNotice,
  RemovedMessage,
  RemovalReason,
  RequeuedMessage,
  RequeueReason,
} from "../colyseus/director/tickets.js";
export type { HandoverMessage, ResumedMessage } from "../colyseus/durable/durable-queue.js";
export type { ResumeMessage } from "../colyseus/durable/resume-token.js";
