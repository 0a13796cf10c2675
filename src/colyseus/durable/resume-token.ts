/**
 * Resume tokens: at join the queue gives each player one (192 random bits from the system's
 * cryptographic source). A player whose queue connection died with its process rejoins with
 * `resume: token` and gets its original place back. Presence stores only the token's SHA-256
 * (so reading Redis does not let anyone take a place), and a token from a client is untrusted
 * input: its shape is checked before anything looks it up.
 */
import { createHash, randomBytes } from "node:crypto";
import { MatchmakerError } from "../../core/errors.js";

/** A resume token: 24 random bytes in base64url, 32 characters. */
export const RESUME_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The join option that carries a resume token. */
export const RESUME_OPTION = "resume";

/** A fresh resume token. */
export function newResumeToken(): string {
  return randomBytes(24).toString("base64url");
}

/** The key a token's place is stored under: its SHA-256, so the stored key shows nothing of the token. */
export function resumeKey(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** The `resume` message a player receives at join: keep the token, rejoin with `{ ...options, resume: token }`. */
export interface ResumeMessage {
  readonly token: string;
  /** How long the place is kept for a player whose queue was lost (ms). */
  readonly graceMs: number;
}

/**
 * Split untrusted join options into the resume token (checked: a 32-character base64url string)
 * and the other options, which the queue's join schema checks as before. Throws
 * `MatchmakerError("join_refused")` naming the field for a malformed token.
 */
export function splitResume(options: unknown): { token?: string; rest: unknown } {
  if (options === null || typeof options !== "object" || Array.isArray(options) || !(RESUME_OPTION in options))
    return { rest: options };
  const { [RESUME_OPTION]: token, ...rest } = options as Record<string, unknown>;
  if (typeof token !== "string" || !RESUME_TOKEN_PATTERN.test(token))
    throw new MatchmakerError("join_refused", "resume: must be the token the queue sent in `resume`", RESUME_OPTION);
  return { token, rest };
}
