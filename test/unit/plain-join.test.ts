import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { checkJoinOptions, joinOptionsSchema } from "../../src/colyseus/join-options.js";
import { twoTeams } from "../../src/core/shape.js";

/** checkJoinOptions's answer: the options, or "refused". */
function answer(check: () => unknown): unknown {
  try {
    return check();
  } catch {
    return "refused";
  }
}

describe("the plain join's fast check", () => {
  // Every combination of these values for rating, rank and side (absent = not a key), and a few oddities.
  const ratings = [undefined, 0, 1500, 3000, 3000.5, -1, Number.NaN, Number.POSITIVE_INFINITY, "1500", null];
  const sides = [undefined, "A", "B", "C", "", null];
  const inputs: unknown[] = [
    undefined,
    null,
    "rating",
    [],
    { rating: 1500, extra: 1 },
    { rating: 1500, side: undefined },
    { rating: 1500, uncertainty: 50 },
    Object.assign(Object.create({ inherited: true }), { rating: 1500 }),
  ];
  for (const rating of ratings)
    for (const rank of ratings)
      for (const side of sides) {
        const o: Record<string, unknown> = {};
        if (rating !== undefined) o.rating = rating;
        if (rank !== undefined) o.rank = rank;
        if (side !== undefined) o.side = side;
        inputs.push(o);
      }

  it("answers exactly what the schema answers, for every input", () => {
    const validator = joinOptionsSchema({ min: 0, max: 3000 });
    let accepted = 0;
    for (const input of inputs) {
      const reference = v.safeParse(validator, input ?? {});
      const expected = reference.success ? reference.output : "refused";
      expect(
        answer(() => checkJoinOptions(validator, input)),
        JSON.stringify(input),
      ).toEqual(expected);
      if (reference.success) accepted++;
    }
    // The grid holds both answers in number.
    expect(accepted).toBeGreaterThan(20);
    expect(inputs.length - accepted).toBeGreaterThan(100);
  });

  it("is not used where a join needs more than a rating (a role queue)", () => {
    const validator = joinOptionsSchema({ min: 0, max: 3000 }, ["tank", "healer"], twoTeams(2));
    expect(answer(() => checkJoinOptions(validator, { rating: 1500 }))).toBe("refused");
    expect(answer(() => checkJoinOptions(validator, { rating: 1500, roles: ["tank"] }))).toEqual({
      rating: 1500,
      roles: ["tank"],
    });
  });
});
