/** Why the engine refused a request. Stable strings, safe to show to operators. */
export type MatchmakerErrorCode =
  "invalid_ticket" | "duplicate_ticket" | "duplicate_player" | "invalid_config" | "unknown_policy" | "policy_contract";

/** An error the engine raises for a request it cannot honour; the engine's state is unchanged. */
export class MatchmakerError extends Error {
  constructor(
    readonly code: MatchmakerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "MatchmakerError";
  }
}
