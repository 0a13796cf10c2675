import { describe, expect, it } from "vitest";
import { aggregatingLogger, kindOf, type LoggerLike } from "../../src/server/aggregating-logger.js";

function recorder() {
  const lines: Array<{ level: string; text: string }> = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, text: args.map(String).join(" ") });
  const base: LoggerLike = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { lines, base };
}

describe("aggregatingLogger", () => {
  it("folds 10,000 errors of one kind into one full line and one count per window", () => {
    const { lines, base } = recorder();
    let t = 0;
    const logger = aggregatingLogger({ base, windowMs: 10_000, now: () => t });
    for (let i = 0; i < 10_000; i++) {
      t = i; // 10 s of errors, one per ms
      logger.error(`RangeError: Offset ${i} is outside the bounds\n    at unpack (msgpackr.js:${i})`);
    }
    t = 10_000;
    logger.flush();
    expect(lines).toHaveLength(2);
    expect(lines[0].text).toContain("at unpack"); // the first one with its stack
    expect(lines[1].text).toBe("(repeated 9999 more times in 10 s) RangeError: Offset # is outside the bounds");
    logger.close();
  });

  it("writes a kind's stack once, then its first line in later windows", () => {
    const { lines, base } = recorder();
    let t = 0;
    const logger = aggregatingLogger({ base, windowMs: 1000, now: () => t });
    const error = new Error("decode failed");
    logger.error(error);
    t = 5000;
    logger.error(new Error("decode failed"));
    expect(lines).toHaveLength(2);
    expect(lines[0].text).toContain("decode failed");
    expect(lines[1].text).toBe("Error: decode failed");
    logger.close();
  });

  it("keeps at most maxKinds kinds apart and counts the rest together", () => {
    const { lines, base } = recorder();
    const logger = aggregatingLogger({ base, maxKinds: 3, now: () => 0 });
    for (const word of ["a", "b", "c", "d", "e", "f"]) logger.warn(`kind ${word}`);
    logger.close();
    expect(lines.map((l) => l.text)).toEqual([
      "kind a",
      "kind b",
      "kind c",
      "kind d", // the first beyond the limit, written as it is; the later ones only counted
      "(repeated 2 more times in 10 s) other errors",
    ]);
  });

  it("passes info and debug through and tells kinds by their first line without numbers", () => {
    const { lines, base } = recorder();
    const logger = aggregatingLogger({ base });
    logger.info("listening on 2567");
    logger.debug("x");
    expect(lines.map((l) => l.level)).toEqual(["info", "debug"]);
    expect(kindOf(["queue (roomId: abc123), couldn't decode message: 17"])).toBe(
      "queue (roomId: …), couldn't decode message: #",
    );
    logger.close();
  });
});
