/**
 * Several matching criteria (Schlup's D > 1). A queue may declare criteria beside the rating,
 * e.g. a time-to-think or a position on a map, each with its range and weight; the rating stays
 * the first criterion (weight 1, the queue's rating range). Players give a value for each at join.
 *
 * Schlup's eq. (1) prices a game by the weighted dispersion of every criterion (highest minus
 * lowest value within the game, on the criterion's range scaled to [0, 1]) plus its time cost:
 * cost = sum_d f_d q_d + sum_i tau_i / tau_max, with f_d = k w_d / sum(w) (k = players per game;
 * equal weights give the text's f_d = k / D). With no declared criteria this is the one-criterion
 * cost the engine always had.
 */
import * as v from "valibot";
import { MatchmakerError } from "./errors.js";
import type { ImbalanceFn } from "./imbalance.js";
import type { Player, Ticket } from "./types.js";
import { unknownKeyMessage } from "./validation.js";

/** The most criteria a queue may declare beside the rating. */
export const MAX_CRITERIA = 8;

/** A criterion's name: a letter, then letters, digits, `_` or `-` (at most 64 characters). */
export const CRITERION_NAME = /^[A-Za-z][\w-]{0,63}$/;

const finite = v.pipe(v.number("must be a number"), v.finite("must be finite"));

/** One criterion of the queue option `criteria`, its range ordered. */
const CriterionSchema = v.pipe(
  v.strictObject(
    {
      /** The name players give their value under (join option `criteria`); not `rating`. */
      name: v.pipe(
        v.string("must be a string"),
        v.regex(CRITERION_NAME, "must be a letter then letters, digits, _ or - (at most 64)"),
        v.check((name) => name !== "rating", "must not be rating (the rating is always the first criterion)"),
      ),
      /**
       * The lowest value a player may give.
       * @defaultValue `0`
       */
      min: v.optional(finite, 0),
      /**
       * The highest value a player may give (above `min`).
       * @defaultValue `1`
       */
      max: v.optional(finite, 1),
      /**
       * The criterion's weight in the cost, relative to the rating's 1 (above 0).
       * @defaultValue `1`
       */
      weight: v.optional(v.pipe(finite, v.gtValue(0, "must be positive")), 1),
    },
    unknownKeyMessage,
  ),
  v.check((c) => c.min < c.max, "min must be below max"),
);

/** A criterion as a queue declares it (`criteria` option). */
export type CriterionOption = Readonly<v.InferInput<typeof CriterionSchema>>;

/** A declared criterion with its defaults filled. */
export type Criterion = Readonly<v.InferOutput<typeof CriterionSchema>>;

/** The queue option `criteria`: up to {@link MAX_CRITERIA} distinct names, each range ordered. */
export const CriteriaSchema = v.pipe(
  v.array(CriterionSchema, "must be a list of criteria ({ name, min, max, weight })"),
  v.minLength(1, "must declare at least one criterion (or leave criteria out)"),
  v.maxLength(MAX_CRITERIA, `must declare at most ${MAX_CRITERIA} criteria`),
  v.check((list) => new Set(list.map((c) => c.name)).size === list.length, "must not name a criterion twice"),
);

/**
 * One axis of the cost: the rating (index 0) or a declared criterion, with the range its values
 * are scaled from to Schlup's [0, 1].
 */
export interface Dimension {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly weight: number;
}

/** The queue's dimensions: the rating first (weight 1, `ratingRange`), then the declared criteria. */
export function dimensionsOf(
  ratingRange: { readonly min: number; readonly max: number },
  criteria: readonly Criterion[] | undefined,
): Dimension[] {
  return [{ name: "rating", min: ratingRange.min, max: ratingRange.max, weight: 1 }, ...(criteria ?? [])];
}

/** A player's value on `name` (`rating` is the rating). Undefined when the player gave none. */
export function criterionValue(player: Player, name: string): number | undefined {
  return name === "rating" ? player.rating : player.criteria?.[name];
}

/** A value scaled from the dimension's range to [0, 1], clamped there. */
export function scaled(value: number, dimension: Dimension): number {
  return Math.min(1, Math.max(0, (value - dimension.min) / (dimension.max - dimension.min)));
}

/** A ticket's value on `name`: its players' mean (a party's value, as a party's rating is its mean rating). */
export function ticketCriterion(ticket: Ticket, name: string): number {
  let sum = 0;
  for (const p of ticket.players) sum += criterionValue(p, name) ?? 0;
  return sum / ticket.players.length;
}

/**
 * Each criterion's dispersion among `players` (highest minus lowest value, in the criterion's
 * own units), the rating's too under `rating`. An empty list has dispersion 0.
 */
export function dispersions(
  players: Iterable<Player>,
  criteria: readonly Criterion[],
): Readonly<Record<string, number>> {
  const low = new Map<string, number>();
  const high = new Map<string, number>();
  const names = ["rating", ...criteria.map((c) => c.name)];
  for (const p of players) {
    for (const name of names) {
      const value = criterionValue(p, name);
      if (value === undefined) continue;
      low.set(name, Math.min(low.get(name) ?? Infinity, value));
      high.set(name, Math.max(high.get(name) ?? -Infinity, value));
    }
  }
  return Object.fromEntries(names.map((n) => [n, low.has(n) ? high.get(n)! - low.get(n)! : 0]));
}

/**
 * Schlup's factors f_d = k w_d / sum(w): the weight of each dimension's dispersion in a game of
 * `seats` players (equal weights: k / D each, so a game's criteria cost per player is at most 1).
 */
export function schlupFactors(dimensions: readonly Dimension[], seats: number): number[] {
  const total = dimensions.reduce((s, d) => s + d.weight, 0);
  return dimensions.map((d) => (seats * d.weight) / total);
}

/**
 * Refuse a ticket whose players do not give a value, within range, for each of the queue's
 * criteria: throws `MatchmakerError("invalid_ticket")` naming `players.i.criteria.NAME`.
 */
export function checkTicketCriteria(ticket: Ticket, criteria: readonly Criterion[]): void {
  ticket.players.forEach((player, i) => {
    const values = player.criteria;
    for (const c of criteria) {
      const field = `players.${i}.criteria.${c.name}`;
      const value = values?.[c.name];
      if (typeof value !== "number" || !Number.isFinite(value))
        throw new MatchmakerError("invalid_ticket", `invalid ticket: ${field}: is required (a number)`, field);
      if (value < c.min || value > c.max)
        throw new MatchmakerError(
          "invalid_ticket",
          `invalid ticket: ${field}: must be from ${c.min} to ${c.max}, got ${value}`,
          field,
        );
    }
    if (values) {
      for (const name of Object.keys(values)) {
        if (!criteria.some((c) => c.name === name)) {
          const field = `players.${i}.criteria.${name}`;
          throw new MatchmakerError(
            "invalid_ticket",
            `invalid ticket: ${field}: is not a criterion of this queue`,
            field,
          );
        }
      }
    }
  });
}

/**
 * The criteria as an added cost term, for a policy that scores whole games by the queue's
 * imbalance (`best-game`'s param `criteriaCost`): the game's score becomes the imbalance plus,
 * for each named criterion, `costs[name]` (imbalance units per unit of the criterion) times its
 * dispersion among both teams. The term is the same for every split of one set of players, so
 * the assembly's choice of teams (by the rating) is unchanged. Throws `invalid_config` naming
 * `criteriaCost.NAME` for a criterion the queue does not have.
 */
export function withCriteriaCost(
  imbalance: ImbalanceFn,
  criteria: readonly Criterion[],
  costs: Readonly<Record<string, number>>,
  what: string,
): ImbalanceFn {
  const terms = Object.entries(costs).map(([name, cost]) => {
    if (!criteria.some((c) => c.name === name))
      throw new MatchmakerError(
        "invalid_config",
        `${what}: criteriaCost.${name}: is not a criterion of this queue${criteria.length === 0 ? " (it has none)" : ""}`,
        `criteriaCost.${name}`,
      );
    return { name, cost };
  });
  return (teamA, teamB) => {
    let score = imbalance(teamA, teamB);
    for (const { name, cost } of terms) {
      let low = Infinity;
      let high = -Infinity;
      for (const team of [teamA, teamB]) {
        for (const p of team) {
          const value = p.criteria?.[name];
          if (value === undefined) continue;
          if (value < low) low = value;
          if (value > high) high = value;
        }
      }
      if (high > low) score += cost * (high - low);
    }
    return score;
  };
}
