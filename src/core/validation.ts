/**
 * Parsing untrusted or user-supplied data with valibot, and turning its issues into one
 * clear message that names each offending field.
 */
import * as v from "valibot";
import { MatchmakerError } from "./errors.js";

/** `"rating: must be a finite number; side: must be A or B"`. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** The dotted path of the first issue (`"players.0.rating"`), the field a `MatchmakerError` names. */
export function firstIssueField(issues: readonly v.BaseIssue<unknown>[]): string | undefined {
  return issues.length > 0 ? (v.getDotPath(issues[0]) ?? undefined) : undefined;
}

/** Parse `input` or throw `MatchmakerError("invalid_config")` naming `what` and the fields. */
export function parseConfig<S extends v.GenericSchema>(what: string, schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (!result.success) {
    throw new MatchmakerError(
      "invalid_config",
      `${what}: ${describeIssues(result.issues)}`,
      firstIssueField(result.issues),
    );
  }
  return result.output;
}

/**
 * Message for a strict object's own issues, which valibot words obscurely: a key it does not
 * know (expected "never"), or a required key that is missing.
 */
export const unknownKeyMessage = (issue: v.BaseIssue<unknown>): string =>
  issue.expected === "never" ? "unknown field" : "is required";

/**
 * The fields of the object `text` holds as JSON, or undefined when it is not JSON or not an
 * object: the first step of reading a record back from storage others share (presence), which
 * is checked, never trusted.
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}
