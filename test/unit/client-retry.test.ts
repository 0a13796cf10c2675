/**
 * The client helper's pure parts: what it does after a refused join (src/client/retry.ts), and the
 * waited time it derives from the queue's statuses (src/client/waited.ts).
 */
import { describe, expect, it } from "vitest";
import { backoffMs, retryAfter, statedWaitMs } from "../../src/client/retry.js";
import { WaitedTime } from "../../src/client/waited.js";
import { secondsToWait, TOO_MANY_REQUESTS } from "../../src/colyseus/client-error.js";
import { RETRY_LATER, retryLater } from "../../src/colyseus/durable/unavailable.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { toClientError } from "../../src/colyseus/client-error.js";

const refusal = (code: number | undefined, message = "refused") => Object.assign(new Error(message), { code });

describe("retryAfter: the next join after a refusal", () => {
  it("waits what the queue's own refusals say, without limit: 503 (retry later) and 429 (a limit, a cooldown)", () => {
    // The server's own messages, as its clients receive them.
    const moving = retryLater("queue_moving", 2500);
    expect(moving.code).toBe(RETRY_LATER);
    expect(retryAfter(moving, 0, false)).toEqual({ inMs: 3000, dropToken: false, counts: false });
    const rate = toClientError(
      new MatchmakerError("rate_limited", "too many joins from your address; try again in 4 s"),
    );
    expect((rate as { code: number }).code).toBe(TOO_MANY_REQUESTS);
    expect(retryAfter(rate, 7, true)).toEqual({ inMs: 4000, dropToken: false, counts: false });
    const cooldown = refusal(
      429,
      `cooldown: 2 broken matches within 10 min; you may join this queue again in ${secondsToWait(57_000)} s`,
    );
    expect(retryAfter(cooldown, 0, false)?.inMs).toBe(57_000);
    // Without a stated wait: the backoff.
    expect(retryAfter(refusal(503, "unavailable"), 3, false)).toEqual({
      inMs: backoffMs(3),
      dropToken: false,
      counts: false,
    });
  });

  it("drops a token whose place is gone (525) and joins anew at once; without a token 525 is final", () => {
    expect(retryAfter(refusal(525, "invalid join options: resume: ..."), 0, true)).toEqual({
      inMs: 0,
      dropToken: true,
      counts: false,
    });
    expect(retryAfter(refusal(525, "invalid join options: rating: must be at most 10000"), 0, false)).toBeUndefined();
  });

  it("gives up at once on a malformed request or a queue that does not exist", () => {
    for (const code of [400, 520, 521, 522]) expect(retryAfter(refusal(code), 0, false), String(code)).toBeUndefined();
  });

  it("retries the network, an expired reservation and server errors with backoff, counting them", () => {
    for (const code of [undefined, 500, 523, 524, 526])
      expect(retryAfter(refusal(code, "fetch failed"), 2, false), String(code)).toEqual({
        inMs: backoffMs(2),
        dropToken: false,
        counts: true,
      });
    expect(retryAfter("not even an Error", 0, false)).toEqual({ inMs: 250, dropToken: false, counts: true });
  });

  it("backs off from 250 ms, doubling, to at most 5 s; reads the stated wait only from '... in N s'", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(backoffMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    expect(statedWaitMs("queue unavailable (queue_moving): this queue is moving to another room; retry in 1 s")).toBe(
      1000,
    );
    expect(statedWaitMs("too many joins from your address; try again in 12 s")).toBe(12_000);
    expect(statedWaitMs("no such room")).toBeUndefined();
  });
});

describe("WaitedTime: the wait on the client's clock", () => {
  it("counts from the server's entry time, whatever the offset between the clocks", () => {
    const waited = new WaitedTime();
    expect(waited.at(1_000)).toBe(0);
    waited.joined(1_000);
    expect(waited.at(4_000)).toBe(3_000);
    // The server's clock runs an hour ahead; the ticket entered 10 s before this status was sent.
    const server = 3_600_000 + 50_000;
    waited.status(
      { waiting: 2, waitedMs: 10_000, estimatedWaitMs: null, waitingSince: server - 10_000, serverTime: server },
      5_000,
    );
    expect(waited.at(5_000)).toBe(10_000);
    expect(waited.at(12_500)).toBe(17_500);
    // A later join (a rejoin) does not reset it.
    waited.joined(12_500);
    expect(waited.at(12_500)).toBe(17_500);
  });

  it("falls back to the status's own waitedMs when it carries no server times", () => {
    const waited = new WaitedTime();
    waited.status({ waiting: 1, waitedMs: 4_000, estimatedWaitMs: 9_000 }, 100_000);
    expect(waited.at(101_000)).toBe(5_000);
  });
});
