/**
 * Why a request was refused. Stable strings, safe to show to operators and players; the room
 * turns them into the client's error in one place.
 */
export type MatchmakerErrorCode =
  | "invalid_ticket"
  | "duplicate_ticket"
  | "duplicate_player"
  /** A player whose account (`playerId`) already waits in this queue: one account, one place. */
  | "duplicate_account"
  | "invalid_config"
  | "unknown_policy"
  | "policy_contract"
  /** A join the queue refuses (bad join options, a party code that does not admit it): the client's 525. */
  | "join_refused"
  /** A client over one of the queue's per-address limits (joins per second): the client's 429, saying when to retry. */
  | "rate_limited"
  /** A request no honest client sends (join options keyed by an `Object.prototype` member's name): the client's 400. */
  | "malformed_request"
  /** A player the queue's `players.resolve` did not accept (no or a bad token, an unknown account): the client's 525. */
  | "player_refused"
  /** A bad call from the server side, e.g. a game room's `requestBackfill` arguments. */
  | "invalid_request"
  /** A broken internal invariant: a bug, reported rather than hidden. */
  | "internal"
  /** A join refused while the player's account cools down after breaking matches: the client's 429, saying when to retry. */
  | "cooldown";

/**
 * The one error the engine and the room raise for a request they cannot honour; the state is
 * unchanged. `field` names the option or message field at fault, where there is one.
 *
 * In the engine (core and policies) every refusal a caller can trigger (configuration, tickets,
 * policy parameters, a policy breaking its contract) is this error; helpers that check
 * something throw it rather than return a message. Two other kinds remain, on purpose:
 * `RangeError` for an argument that breaks a building block's documented precondition (a
 * programming error in the caller's code, e.g. `selectBackfill` with 0 seats), and plain `Error`
 * for a broken internal invariant (a bug in the engine itself), never for a request.
 */
export class MatchmakerError extends Error {
  constructor(
    readonly code: MatchmakerErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "MatchmakerError";
  }
}
