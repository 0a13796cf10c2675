/**
 * The window policies' box over the criteria beside the rating (the forum thread: "view the
 * allowable match set as a volume in a multi-dimensional parameter space ... different types
 * among different axes", a shape that grows with age). On each criterion a ticket accepts the
 * tickets whose value (a party's mean) is within its window there, `initial` + `growthPerSecond`
 * per second of waiting, clamped at `max`, in the criterion's own units; the rating keeps the
 * policy's own window. A ticket accepts another only inside the whole box.
 */
import * as v from "valibot";
import { ticketCriterion, type Criterion } from "../../core/criteria.js";
import { MatchmakerError } from "../../core/errors.js";
import type { PolicyContext } from "../../core/policy.js";
import type { Ticket } from "../../core/types.js";
import { unknownKeyMessage } from "../../core/validation.js";
import { WindowRule } from "./window-rule.js";

const nonNegative = v.pipe(
  v.number("must be a number"),
  v.finite("must be a finite number"),
  v.minValue(0, "must not be negative"),
);

/** The `criteria` parameter: a window per criterion, e.g. `{ think: { initial: 5, growthPerSecond: 1, max: 30 } }`. */
export const criteriaWindowsEntry = v.optional(
  v.record(
    v.string(),
    v.strictObject(
      {
        initial: v.optional(nonNegative),
        growthPerSecond: v.optional(nonNegative),
        max: v.optional(
          v.union([v.pipe(v.number(), v.minValue(0)), v.literal("inf")], 'must be a number of at least 0 or "inf"'),
        ),
      },
      unknownKeyMessage,
    ),
  ),
);

/** The `criteria` parameter as given (before defaults). */
export type CriteriaWindowsParam = v.InferOutput<typeof criteriaWindowsEntry>;

/** Each criterion's window (in its units) and the wait after which a ticket accepts another on all of them. */
export class CriteriaBox {
  private readonly rules: ReadonlyArray<{ readonly criterion: Criterion; readonly rule: WindowRule }>;

  private constructor(rules: ReadonlyArray<{ readonly criterion: Criterion; readonly rule: WindowRule }>) {
    this.rules = rules;
  }

  /**
   * The box for the queue's criteria, or undefined in a queue without criteria. A criterion the
   * parameter leaves out gets the rating's defaults on its range: 5% of it, plus 1% per second.
   * Throws `invalid_config` naming `criteria.NAME` for a criterion the queue does not have.
   */
  static of(context: PolicyContext, param: CriteriaWindowsParam, what: string): CriteriaBox | undefined {
    const criteria = context.criteria ?? [];
    for (const name of Object.keys(param ?? {})) {
      if (!criteria.some((c) => c.name === name))
        throw new MatchmakerError(
          "invalid_config",
          `${what}: criteria.${name}: is not a criterion of this queue${criteria.length === 0 ? " (it has none)" : ""}`,
          `criteria.${name}`,
        );
    }
    if (criteria.length === 0) return undefined;
    return new CriteriaBox(
      criteria.map((criterion) => {
        const given = param?.[criterion.name] ?? {};
        const range = criterion.max - criterion.min;
        const initial = given.initial ?? 0.05 * range;
        const max = given.max === undefined || given.max === "inf" ? Infinity : given.max;
        if (max < initial)
          throw new MatchmakerError(
            "invalid_config",
            `${what}: criteria.${criterion.name}.max: must be at least initial (${initial})`,
            `criteria.${criterion.name}.max`,
          );
        const rule = new WindowRule({
          unit: "rating",
          initial,
          growthPerSecond: given.growthPerSecond ?? 0.01 * range,
          stepMs: 0,
          max,
        });
        return { criterion, rule };
      }),
    );
  }

  /** The wait (ms) after which `a` accepts `b` on every criterion: 0 if it already does, Infinity if never. */
  waitToAccept(a: Ticket, b: Ticket): number {
    let wait = 0;
    for (const { criterion, rule } of this.rules) {
      const distance = Math.abs(ticketCriterion(a, criterion.name) - ticketCriterion(b, criterion.name));
      wait = Math.max(wait, rule.waitToReach(distance));
    }
    return wait;
  }

  /** Each criterion's window width after waiting `waitMs`. */
  widths(waitMs: number): Record<string, number> {
    return Object.fromEntries(this.rules.map(({ criterion, rule }) => [criterion.name, rule.width(waitMs)]));
  }
}
