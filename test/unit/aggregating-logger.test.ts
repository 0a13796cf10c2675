import { describe, expect, it } from "vitest";
import { aggregatingLogger, kindOf, siteOf, type LoggerLike } from "../../src/server/aggregating-logger.js";

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
    const decodeFailed = () => new Error("decode failed"); // one place in the code, as a real flood's
    logger.error(decodeFailed());
    t = 5000;
    logger.error(decodeFailed());
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

  it("blanks what a client can vary in a kind: quoted text, JSON views, numbers, hex, long tokens", () => {
    const kind = (text: string) => kindOf([text]);
    const read = 'Error: Data read, but end of buffer not reached "…"';
    // msgpackr quotes the decoded value: each of these is one kind.
    expect(kind('Error: Data read, but end of buffer not reached "probe-abcd"')).toBe(read);
    expect(kind('Error: Data read, but end of buffer not reached "a \\"quoted\\" b"')).toBe(read);
    expect(kind('Error: Data read, but end of buffer not reached "cut off at a hundred chara')).toBe(read);
    expect(kind("Error: Data read, but end of buffer not reached 'single'")).toBe(read);
    const json = "Error: Data read, but end of buffer not reached …";
    expect(kind('Error: Data read, but end of buffer not reached {"k":1,"zz":[2,3]}')).toBe(json);
    expect(kind("Error: Data read, but end of buffer not reached [1,2,3,4]")).toBe(json);
    expect(kind("Error: Unknown MessagePack token 193")).toBe("Error: Unknown MessagePack token #");
    expect(kind("Error: bad byte 0xC1 at 0x1F")).toBe("Error: bad byte # at #");
    expect(kind("Error: token QmFzZTY0LXNvbWV0aGluZy1sb25nLWVub3VnaA== refused")).toBe("Error: token … refused");
    // What is not variable stays: a bracketed prefix, the words.
    expect(kind("[duel] backfill failed:")).toBe("[duel] backfill failed:");
    // A first line of any length costs a bounded read.
    expect(kind(`Error: ${"x".repeat(1_000_000)}`).length).toBeLessThanOrEqual(200);
  });

  it("writes one stack per place in the code: 200 distinct messages from one site give one stack", () => {
    const { lines, base } = recorder();
    const logger = aggregatingLogger({ base, now: () => 0 });
    // As Colyseus logs them (debugAndPrintError passes e.stack): words a client chose, one throw site.
    const fromDecoder = (word: string) => new Error(`Unexpected ${word} in frame`);
    const words = Array.from({ length: 200 }, (_, i) => i.toString(26).replace(/\d/g, (d) => "qrstuvwxyz"[Number(d)]));
    expect(new Set(words.map((w) => kindOf([`Error: Unexpected ${w} in frame`]))).size).toBe(200); // the worst case: every kind new
    for (const word of words) logger.error(fromDecoder(word).stack);
    logger.close();
    const stacks = lines.filter((l) => /\n\s+at /.test(l.text));
    expect(stacks).toHaveLength(1);
    expect(stacks[0].text).toContain(`Unexpected ${words[0]} in frame`);
    // Past maxKinds (100) kinds, the rest fold into "other errors": 100 lines, then one count.
    expect(lines).toHaveLength(102);
    expect(lines[100].text).toBe(`Error: Unexpected ${words[100]} in frame`);
    expect(lines[101].text).toBe("(repeated 99 more times in 10 s) other errors");
    // Another place in the code still gets its stack, once.
    const { lines: more, base: base2 } = recorder();
    const second = aggregatingLogger({ base: base2, now: () => 0 });
    const fromHandler = () => new TypeError("x is not a function");
    const make = (what: string) => (what === "handler" ? fromHandler() : fromDecoder(what)); // one call chain each
    for (const what of ["a", "handler", "b"]) second.error(make(what).stack);
    // An Error object (anywhere in the call) likewise: its site was seen, so its first line only.
    second.error("[duel] backfill failed:", fromHandler());
    second.close();
    expect(more.map((l) => /\n\s+at /.test(l.text))).toEqual([true, true, false, false]);
    expect(more[3].text).toBe("[duel] backfill failed: TypeError: x is not a function");
  });

  it("tells sites apart by frames only, and writes no stack beyond its bounds", () => {
    expect(siteOf("just a message")).toBeUndefined();
    expect(siteOf("Error: a\n    at f (x.js:1:2)\n    at g (y.js:3:4)")).toBe("at f (x.js:1:2)\nat g (y.js:3:4)");
    expect(siteOf("Error: b\n    at f (x.js:1:2)\n    at g (y.js:3:4)")).toBe(
      siteOf("Error: a\n    at f (x.js:1:2)\n    at g (y.js:3:4)"),
    );
    // maxKinds 1: at most 10 sites ever get a stack, whatever the input.
    const { lines, base } = recorder();
    let t = 0;
    const logger = aggregatingLogger({ base, maxKinds: 1, windowMs: 10, now: () => t });
    for (let i = 0; i < 50; i++) {
      t += 20; // a new window each time: every call is written
      logger.error(`Error: e\n    at site${"i".repeat(i)} (z.js:1:1)`);
    }
    logger.close();
    expect(lines).toHaveLength(50);
    expect(lines.filter((l) => l.text.includes("\n")).length).toBe(10);
  });
});
