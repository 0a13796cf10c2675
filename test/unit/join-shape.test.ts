import { describe, expect, it } from "vitest";
import { toClientError } from "../../src/colyseus/client-error.js";
import {
  checkJoinOptions,
  checkJoinOptionsShape,
  JOIN_OPTIONS_LIMITS,
  joinOptionsSchema,
  joinOptionsShapeProblem,
  parseJoinOptions,
  RESERVED_JOIN_KEYS,
} from "../../src/colyseus/join-options.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { twoTeams } from "../../src/core/shape.js";

/** `depth` arrays nested in one another, as JSON.parse builds them (no recursion here either). */
function nested(depth: number): unknown {
  let value: unknown[] = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe("join options' shape limits", () => {
  const validator = joinOptionsSchema({ min: 0, max: 10_000 }, undefined, twoTeams(5));

  it("accepts every real join option well within the limits", () => {
    const join = { rating: 1500, side: "A", uncertainty: 50, party: { size: 3 }, playerId: "account-42" };
    expect(joinOptionsShapeProblem(join)).toBeUndefined();
    expect(parseJoinOptions(validator, join)).toMatchObject({ ok: true });
  });

  it("refuses deep nesting in any field, naming the field and the limit, without walking all of it", () => {
    const deep = { rating: 1000, extra: nested(5000) };
    const message = "extra: nested deeper than 8 levels (the join options' limit)";
    expect(joinOptionsShapeProblem(deep)).toEqual({ field: "extra", message });
    expect(parseJoinOptions(validator, deep)).toEqual({ ok: false, message });
    expect(() => checkJoinOptions(validator, deep)).toThrow(message);
    // A hundred thousand levels (far deeper than a recursive walk survives) are refused the same way.
    expect(joinOptionsShapeProblem({ extra: nested(100_000) })?.field).toBe("extra");
    // The options object is level 1: 7 levels below it pass the shape check (the schema then names the field).
    expect(joinOptionsShapeProblem({ extra: nested(7) })).toBeUndefined();
    expect(joinOptionsShapeProblem({ extra: nested(8) })?.message).toBe(message);
    expect(joinOptionsShapeProblem(nested(9))?.message).toBe(
      "join options: nested deeper than 8 levels (the join options' limit)",
    );
  });

  it("refuses too many values and too many characters, naming the limit", () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    expect(joinOptionsShapeProblem(wide)?.message).toMatch(/^k\d+: join options may hold at most 1000 values$/);
    expect(joinOptionsShapeProblem({ rating: 1, list: new Array(5000).fill(0) })).toEqual({
      field: "list",
      message: "list: join options may hold at most 1000 values",
    });
    expect(joinOptionsShapeProblem({ playerId: "x".repeat(JOIN_OPTIONS_LIMITS.maxChars + 1) })).toEqual({
      field: "playerId",
      message: `playerId: join options may hold at most ${JOIN_OPTIONS_LIMITS.maxChars} characters`,
    });
    // The full check then never runs: the refusal is the limit, not a list of a thousand unknown fields.
    expect(() => checkJoinOptions(validator, wide)).toThrow(/may hold at most 1000 values$/);
  });

  it("refuses a key named after an Object.prototype member at any depth, naming it, as a malformed request (400)", () => {
    const why = "it names a member of every JavaScript object (Object.prototype)";
    for (const key of ["hasOwnProperty", "toString", "constructor", "__proto__", "valueOf", "isPrototypeOf"]) {
      expect(RESERVED_JOIN_KEYS.has(key)).toBe(true);
      // As JSON.parse builds it from a request body: "__proto__" becomes an own key, as the others.
      const top = JSON.parse(`{"rating":1500,"${key}":1}`);
      expect(joinOptionsShapeProblem(top)).toEqual({
        field: key,
        message: `${key}: refused as a key: ${why}`,
        reservedKey: key,
      });
      const nested = JSON.parse(`{"rating":1500,"criteria":{"think":3,"${key}":1}}`);
      expect(joinOptionsShapeProblem(nested)).toEqual({
        field: "criteria",
        message: `criteria: the key "${key}" is refused: ${why}`,
        reservedKey: key,
      });
      const deep = JSON.parse(`{"rating":1500,"party":{"size":2,"x":[{"${key}":{}}]}}`);
      expect(joinOptionsShapeProblem(deep)?.reservedKey).toBe(key);
      // The throwing form and what the client receives: 400 with the key named.
      let thrown: unknown;
      try {
        checkJoinOptionsShape(top);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MatchmakerError);
      expect(thrown).toMatchObject({ code: "malformed_request", field: key });
      expect(toClientError(thrown)).toMatchObject({
        code: 400,
        message: `invalid join options: ${key}: refused as a key: ${why}`,
      });
      expect(() => checkJoinOptions(validator, top)).toThrow(`${key}: refused as a key`);
      expect(parseJoinOptions(validator, nested)).toEqual({
        ok: false,
        message: `criteria: the key "${key}" is refused: ${why}`,
      });
    }
    // Values are not keys: a string "hasOwnProperty" anywhere is an ordinary value (the schema judges it).
    expect(
      joinOptionsShapeProblem({ rating: 1500, playerId: "hasOwnProperty", roles: ["constructor"] }),
    ).toBeUndefined();
    // Every other limit still answers as a join the queue declines (525), not as malformed.
    expect(toClientError(new MatchmakerError("join_refused", "x"))).toMatchObject({ code: 525 });
  });
});
