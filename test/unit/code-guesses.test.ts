import { describe, expect, it } from "vitest";
import { CodeGuessLimiter } from "../../src/colyseus/code-guesses.js";

describe("CodeGuessLimiter", () => {
  it("blocks an address after maxWrong wrong codes until its window ends, others unaffected", () => {
    const limiter = new CodeGuessLimiter({ maxWrong: 3, windowMs: 1000 });
    for (let t = 0; t < 3; t++) {
      expect(limiter.blockedFor("a", t)).toBe(0);
      limiter.wrong("a", t);
    }
    expect(limiter.blockedFor("a", 10)).toBe(990);
    expect(limiter.blockedFor("b", 10)).toBe(0);
    expect(limiter.blockedFor("a", 999)).toBe(1);
    expect(limiter.blockedFor("a", 1000)).toBe(0); // a new window
  });

  it("remembers at most maxAddresses, forgetting the oldest window first", () => {
    const limiter = new CodeGuessLimiter({ maxWrong: 1, windowMs: 1000, maxAddresses: 2 });
    limiter.wrong("a", 0);
    limiter.wrong("b", 1);
    limiter.wrong("c", 2);
    expect(limiter.blockedFor("a", 3)).toBe(0);
    expect(limiter.blockedFor("b", 3)).toBeGreaterThan(0);
    expect(limiter.blockedFor("c", 3)).toBeGreaterThan(0);
  });
});
