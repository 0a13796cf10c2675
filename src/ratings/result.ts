/**
 * A match's result as a game room reports it, checked and turned into each team's place. A game
 * says it in its own words: the winning team, a draw, the teams' places, or their scores.
 */
import { MatchmakerError } from "../core/errors.js";

/**
 * A match's result, in team order (`MatchInfo.teams`; in a free-for-all every player is a team):
 * - `{ winner: 1 }`: team 1 won, every other team lost (tied for second);
 * - `{ draw: true }`: nobody won;
 * - `{ ranks: [1, 0, 2] }`: each team's place, 0 first; equal places are a draw between those teams;
 * - `{ scores: [12, 30, 7] }`: each team's score, higher is better; equal scores tie.
 */
export type MatchResult =
  | { readonly winner: number }
  | { readonly draw: true }
  | { readonly ranks: readonly number[] }
  | { readonly scores: readonly number[] };

const KEYS = ["winner", "draw", "ranks", "scores"] as const;

/**
 * Each team's place (0 first, ties equal) for a result of a match of `teams` teams. Throws
 * `MatchmakerError("invalid_request")` naming what is wrong: a result is the game's code's, and a
 * bad one must change no rating.
 */
export function ranksOf(result: unknown, teams: number): number[] {
  if (typeof result !== "object" || result === null || Array.isArray(result))
    throw refused("must be an object: { winner }, { draw: true }, { ranks } or { scores }");
  const given = Object.keys(result).filter((key) => Object.prototype.hasOwnProperty.call(result, key));
  const known = given.filter((key) => (KEYS as readonly string[]).includes(key));
  const unknown = given.filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) throw refused(`unknown field ${unknown[0]}`, unknown[0]);
  if (known.length !== 1) throw refused("give exactly one of winner, draw, ranks, scores");
  const r = result as Record<string, unknown>;
  if ("winner" in r) {
    const winner = r.winner;
    if (!Number.isInteger(winner) || (winner as number) < 0 || (winner as number) >= teams)
      throw refused(`must be a team index, 0 to ${teams - 1}`, "winner");
    return Array.from({ length: teams }, (_, team) => (team === winner ? 0 : 1));
  }
  if ("draw" in r) {
    if (r.draw !== true) throw refused("must be true", "draw");
    return new Array<number>(teams).fill(0);
  }
  const name = "ranks" in r ? "ranks" : "scores";
  const values = r[name];
  if (!Array.isArray(values) || values.length !== teams)
    throw refused(`must list one number per team (${teams})`, name);
  if (!values.every((x) => typeof x === "number" && Number.isFinite(x))) throw refused("must be finite numbers", name);
  if (name === "ranks" && !values.every((x) => Number.isInteger(x) && x >= 0))
    throw refused("must be places: integers from 0", name);
  // Places by value: the lowest rank (or the highest score) is 0, equal values share a place.
  const key = (x: number) => (name === "ranks" ? x : -x);
  const distinct = [...new Set(values.map(key))].sort((a, b) => a - b);
  return values.map((x) => distinct.indexOf(key(x)));
}

function refused(message: string, field?: string): MatchmakerError {
  return new MatchmakerError(
    "invalid_request",
    `result${field ? `.${field}` : ""}: ${message}`,
    field ? `result.${field}` : "result",
  );
}
