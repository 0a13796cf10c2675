/** The queue options for parties, ready checks and reconnection: checked at start-up, naming the field. */
import { describe, expect, it } from "vitest";
import { parseRoomOptions } from "../../src/options/index.js";
import { defineQueue } from "../../src/index.js";

describe("queue options: readyCheck, reconnectGraceMs, allowPartialParties", () => {
  it("default to no ready check, no grace and complete parties only", () => {
    const parsed = parseRoomOptions({ teamSize: 2, gameRoom: "g" });
    expect(parsed.readyCheck).toBeUndefined();
    expect(parsed.reconnectGraceMs).toBe(0);
    expect(parsed.allowPartialParties).toBe(false);
    expect(
      parseRoomOptions({
        teamSize: 2,
        gameRoom: "g",
        readyCheck: { timeoutMs: 15_000 },
        reconnectGraceMs: 20_000,
        allowPartialParties: true,
      }),
    ).toMatchObject({
      readyCheck: { timeoutMs: 15_000 },
      reconnectGraceMs: 20_000,
      allowPartialParties: true,
    });
  });

  it("refuses bad values at start-up with the field named", () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ readyCheck: {} }, "readyCheck.timeoutMs: is required"],
      [{ readyCheck: { timeoutMs: 10 } }, "readyCheck.timeoutMs: must be at least 100"],
      [{ readyCheck: { timeoutMs: 1e6 } }, "readyCheck.timeoutMs: must be at most 120000"],
      [{ readyCheck: { timeoutMs: 1000, retries: 2 } }, "readyCheck.retries: unknown field"],
      [{ readyCheck: true }, "readyCheck: "],
      [{ reconnectGraceMs: -1 }, "reconnectGraceMs: must not be negative"],
      [{ reconnectGraceMs: 1.5 }, "reconnectGraceMs: must be an integer"],
      [{ reconnectGraceMs: "10s" }, "reconnectGraceMs: must be a number of milliseconds"],
      [{ allowPartialParties: "yes" }, "allowPartialParties: must be true or false"],
    ];
    for (const [options, message] of bad) {
      expect(() => defineQueue({ teamSize: 2, gameRoom: "g", ...options } as never)).toThrow(
        `MatchmakerRoom options: ${message}`,
      );
    }
  });
});
