/** The queue options are defined once: the engine and the room refuse the same values the same way. */
import { describe, expect, it } from "vitest";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { defineQueue } from "../../src/index.js";
import { DEFAULTS, LIMITS, parseRoomOptions, policiesHonouringAvoidRecent } from "../../src/options/index.js";

const engineMessage = (options: object) => {
  try {
    new Matchmaker(options as never);
  } catch (error) {
    return (error as MatchmakerError).message;
  }
  return undefined;
};

describe("one options module", () => {
  it("gives the engine and the room the same bounds, each error prefixed once", () => {
    const cases: Array<[object, string]> = [
      [{ teamSize: LIMITS.teamSize.max + 1 }, "teamSize: must be at most 16"],
      [{ teamSize: 2, statsWindow: LIMITS.statsWindow.max + 1 }, "statsWindow: must be at most 100000"],
      [{ teamSize: 2, maxWaitMs: 1.5 }, "maxWaitMs: must be an integer"],
      [{ teamSize: 2, fillWithBots: true }, "fillWithBots: needs maxWaitMs"],
    ];
    for (const [options, message] of cases) {
      expect(engineMessage(options)).toBe(`matchmaker options: ${message}`);
      expect(() => defineQueue({ gameRoom: "g", ...options } as never)).toThrow(
        new RegExp(`^MatchmakerRoom options: ${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
      );
    }
  });

  it("names the field at fault and reads the policies that honour avoidRecent from the registry", () => {
    const error = (() => {
      try {
        defineQueue({ teamSize: 1, gameRoom: "g", policy: "best-game", avoidRecent: 2 });
      } catch (e) {
        return e as MatchmakerError;
      }
    })();
    expect(error).toBeInstanceOf(MatchmakerError);
    expect(error?.field).toBe("avoidRecent");
    expect(error?.message).toBe(
      'MatchmakerRoom options: avoidRecent: policy "best-game" does not avoid rematches (brackets, expanding-window, fifo, greedy, lifo and weighted-pairing do)',
    );
    expect(policiesHonouringAvoidRecent()).toEqual([
      "brackets",
      "expanding-window",
      "fifo",
      "greedy",
      "lifo",
      "weighted-pairing",
    ]);
  });

  it("fills the defaults from one table", () => {
    const parsed = parseRoomOptions({ teamSize: 2, gameRoom: "g" });
    expect(parsed).toMatchObject({
      statsWindow: DEFAULTS.statsWindow,
      tickMs: DEFAULTS.tickMs,
      policy: DEFAULTS.policy,
    });
    expect(parseRoomOptions({ teamSize: 2, gameRoom: "g", roles: ["a", "b"] }).policy).toBe(DEFAULTS.rolePolicy);
  });
});
