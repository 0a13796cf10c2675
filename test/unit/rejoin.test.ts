import { describe, expect, it } from "vitest";
import { backoffMs, enterQueue, type QueuePlace, rejoinsAfter } from "../../example-client/rejoin.js";

/** A join that fails with the given codes in turn, then answers "room"; records what it was sent. */
function scriptedJoin(codes: number[]) {
  const calls: Array<Record<string, unknown>> = [];
  const join = async (options: Record<string, unknown>) => {
    calls.push(options);
    const code = codes[calls.length - 1];
    if (code !== undefined) throw Object.assign(new Error(`failed with ${code}`), { code });
    return "room";
  };
  return { join, calls };
}

function recordedSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe("enterQueue (example-client/rejoin.ts)", () => {
  it("joins with the plain options while there is no token", async () => {
    const { join, calls } = scriptedJoin([]);
    expect(await enterQueue(join, { rating: 1500 }, {})).toBe("room");
    expect(calls).toEqual([{ rating: 1500 }]);
  });

  it("rejoins with the token and keeps it", async () => {
    const { join, calls } = scriptedJoin([]);
    const place: QueuePlace = { token: "t0k" };
    await enterQueue(join, { rating: 1500 }, place);
    expect(calls).toEqual([{ rating: 1500, resume: "t0k" }]);
    expect(place.token).toBe("t0k");
  });

  it("drops the token on 525 (the place is gone) and joins anew", async () => {
    const { join, calls } = scriptedJoin([525]);
    const { waits, sleep } = recordedSleep();
    const place: QueuePlace = { token: "t0k" };
    await enterQueue(join, { rating: 1500 }, place, { sleep });
    expect(calls).toEqual([{ rating: 1500, resume: "t0k" }, { rating: 1500 }]);
    expect(place.token).toBeUndefined();
    expect(waits).toEqual([250]);
  });

  it("retries 503 beyond the retry budget, with capped backoff", async () => {
    const { join, calls } = scriptedJoin(Array(8).fill(503));
    const { waits, sleep } = recordedSleep();
    await enterQueue(join, { rating: 1 }, { token: "t" }, { retries: 2, sleep });
    expect(calls).toHaveLength(9);
    expect(calls.every((c) => c.resume === "t")).toBe(true);
    expect(waits).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(backoffMs));
    expect(Math.max(...waits)).toBe(5000);
  });

  it("gives up on other failures after `retries` retries, with the last error", async () => {
    const { join, calls } = scriptedJoin([500, 500, 500, 404]);
    const { sleep } = recordedSleep();
    await expect(enterQueue(join, {}, {}, { retries: 3, sleep })).rejects.toMatchObject({ code: 404 });
    expect(calls).toHaveLength(4);
  });

  it("stops retrying once its signal is aborted", async () => {
    const { join, calls } = scriptedJoin(Array(100).fill(503));
    const done = new AbortController();
    const sleep = async () => {
      if (calls.length === 3) done.abort(new Error("cancelled"));
    };
    await expect(enterQueue(join, {}, {}, { signal: done.signal, sleep })).rejects.toThrow("cancelled");
    expect(calls).toHaveLength(3);
  });
});

describe("rejoinsAfter", () => {
  it("rejoins after a shutdown, a lost process or an error, not after a normal or consented close", () => {
    expect([1000, 4000].map(rejoinsAfter)).toEqual([false, false]);
    expect([1001, 1005, 1006, 4001, 4002, 4003].map(rejoinsAfter)).toEqual([true, true, true, true, true, true]);
  });
});
