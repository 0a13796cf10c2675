/**
 * Why a request was refused. Stable strings, safe to show to operators and players; the room
 * turns them into the client's error in one place (`src/colyseus/client-error.ts`). Each is
 * documented for users in docs/reference.md#errors; add one only for a kind of input no
 * existing code names.
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
  /** A traffic trace to replay (`checkTrace`, `replayTrace`) that is not one this version reads. */
  | "invalid_trace"
  /** A join refused while the player's account cools down after breaking matches: the client's 429, saying when to retry. */
  | "cooldown";

/**
 * The one error the library raises for what a user or a client can cause; the state is
 * unchanged. `field` names the option, parameter or message field at fault (dotted:
 * `penalties.windowMs`, `players.0.rating`), where there is one.
 *
 * The rule (docs/reference.md#errors): configuration (queue options, policy parameters, a
 * simulation's configuration, a registry), input (a join, a ticket, a game room's backfill
 * request, a trace to replay) and a policy breaking its contract are this error, with a code;
 * internal helpers may collect several problems and throw them as one. Two other kinds remain,
 * on purpose, for programming errors only: `RangeError` for an argument that breaks a building
 * block's documented precondition (e.g. `selectBackfill` with 0 seats), and plain `Error` for a
 * broken internal invariant (a bug in the library itself). The simulator's command line
 * refuses its arguments with its own `UsageError`, which never leaves the command line; the
 * queue room turns this error into the Colyseus client's (`toClientError`) at its edge.
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
