import { describe, expect, it } from "vitest";
import { AddressLimitsByQueue, JoinRateLimiter, QueueAddressLimits } from "../../src/colyseus/address-limits.js";
import { toClientError } from "../../src/colyseus/client-error.js";
import { addressLimitsOf, parseRoomOptions } from "../../src/options/queue-options.js";

describe("JoinRateLimiter", () => {
  it("admits a burst at once, then joins at the refill rate; refused joins take nothing", () => {
    const limiter = new JoinRateLimiter({ perSecond: 2, burst: 3 });
    expect([0, 0, 0].map(() => limiter.take("a", 0))).toEqual([0, 0, 0]);
    expect(limiter.take("a", 0)).toBe(500); // one token in half a second
    expect(limiter.take("a", 100)).toBe(400);
    expect(limiter.take("a", 500)).toBe(0);
    expect(limiter.take("a", 500)).toBe(500);
    // Another key has its own bucket.
    expect(limiter.take("b", 500)).toBe(0);
    // A full bucket is as good as none: no entry is kept for it.
    expect(limiter.take("a", 10_000)).toBe(0);
    expect(limiter.take("a", 10_000)).toBe(0);
    expect(limiter.take("a", 10_000)).toBe(0);
    expect(limiter.take("a", 10_000)).toBeGreaterThan(0);
  });

  it("never admits more than burst + elapsed × perSecond, whatever the pattern", () => {
    const limiter = new JoinRateLimiter({ perSecond: 5, burst: 10 });
    let admitted = 0;
    for (let t = 0; t <= 4000; t += 7) if (limiter.take("a", t) === 0) admitted++;
    expect(admitted).toBeLessThanOrEqual(10 + 4 * 5);
    expect(admitted).toBeGreaterThanOrEqual(10 + 4 * 5 - 1);
  });

  it("a clock that steps back refills nothing", () => {
    const limiter = new JoinRateLimiter({ perSecond: 1, burst: 1 });
    expect(limiter.take("a", 5000)).toBe(0);
    expect(limiter.take("a", 1000)).toBe(1000);
  });

  it("remembers at most maxKeys, forgetting the least recently seen; a refused try counts as seen", () => {
    const limiter = new JoinRateLimiter({ perSecond: 0.001, burst: 1 }, 2);
    limiter.take("a", 0);
    limiter.take("b", 1);
    expect(limiter.take("a", 2)).toBeGreaterThan(0); // a: refused, now the most recent
    limiter.take("c", 3); // b is forgotten
    expect(limiter.size).toBe(2);
    expect(limiter.take("a", 4)).toBeGreaterThan(0);
    expect(limiter.take("b", 5)).toBe(0);
  });

  it("takes a new rate at once, keeping its buckets", () => {
    const limiter = new JoinRateLimiter({ perSecond: 1, burst: 1 });
    expect(limiter.take("a", 0)).toBe(0);
    limiter.configure({ perSecond: 1000, burst: 1 });
    expect(limiter.take("a", 0)).toBe(1);
    expect(limiter.take("a", 1)).toBe(0);
  });
});

describe("QueueAddressLimits", () => {
  it("refuses a join over the rate with a 429 saying when to retry, and counts it", () => {
    const limits = new QueueAddressLimits({ joinRate: { perSecond: 0.5, burst: 1 } });
    expect(limits.admitJoin("192.0.2.1", 0)).toBeUndefined();
    const refusal = limits.admitJoin("192.0.2.1", 10);
    expect(refusal?.code).toBe("rate_limited");
    expect(refusal?.message).toBe("too many joins from your address; try again in 2 s");
    expect(toClientError(refusal)).toMatchObject({ code: 429, message: refusal?.message });
    expect(limits.admitJoin("192.0.2.2", 10)).toBeUndefined();
    expect(limits.joinsLimited).toBe(1);
  });

  it("does not rate-limit joins from this machine's loopback, and warns once of a proxy there that is not trusted", () => {
    const limits = new QueueAddressLimits({ joinRate: { perSecond: 0.001, burst: 1 } });
    for (const address of ["127.0.0.1", "::1", "127.0.0.2"])
      for (let i = 0; i < 5; i++) expect(limits.admitJoin(address, i)).toBeUndefined();
    expect(limits.joinsLimited).toBe(0);
    // The headers are read only where the warning can still be given: a loopback join, before it was.
    let asked = 0;
    const forwarded = (value: boolean) => () => (asked++, value);
    expect(limits.proxyWarning("127.0.0.1", forwarded(false))).toBeUndefined();
    expect(limits.proxyWarning("192.0.2.1", forwarded(true))).toBeUndefined();
    expect(asked).toBe(1);
    expect(limits.proxyWarning("127.0.0.1", forwarded(true))).toMatch(
      /not in the queue's trustedProxies.*trustedProxies: \["127\.0\.0\.1"\]$/,
    );
    expect(limits.proxyWarning("127.0.0.1", forwarded(true))).toBeUndefined();
    expect(asked).toBe(2);
    // Party codes are counted for loopback too.
    for (let i = 0; i < 10; i++) limits.wrongPartyCode("127.0.0.1", i);
    expect(limits.partyCodeRefusal("127.0.0.1", 20)?.field).toBe("partyCode");
  });

  it("counts an IPv6 /64 as one address", () => {
    const limits = new QueueAddressLimits({ joinRate: { perSecond: 0.001, burst: 2 } });
    expect(limits.admitJoin("2001:db8:1:2::1", 0)).toBeUndefined();
    expect(limits.admitJoin("2001:db8:1:2::2", 0)).toBeUndefined();
    expect(limits.admitJoin("2001:db8:1:2:ffff::3", 0)?.code).toBe("rate_limited");
    expect(limits.admitJoin("2001:db8:1:3::1", 0)).toBeUndefined();
  });

  it("refuses party codes from an address after ten wrong ones, naming the field, and counts it", () => {
    const limits = new QueueAddressLimits({ joinRate: { perSecond: 10, burst: 50 } });
    for (let i = 0; i < 10; i++) {
      expect(limits.partyCodeRefusal("192.0.2.1", i)).toBeUndefined();
      limits.wrongPartyCode("192.0.2.1", i);
    }
    const refusal = limits.partyCodeRefusal("192.0.2.1", 1000);
    expect(refusal).toMatchObject({ code: "join_refused", field: "partyCode" });
    expect(refusal?.message).toBe("partyCode: too many wrong party codes; try again in 59 s");
    expect(limits.partyCodeRefusal("192.0.2.2", 1000)).toBeUndefined();
    expect(limits.partyCodesLimited).toBe(1);
  });
});

describe("AddressLimitsByQueue", () => {
  it("gives a queue name the same limits every time (they outlive its room), applying the latest rate", () => {
    const byQueue = new AddressLimitsByQueue();
    const first = byQueue.of("duel", { joinRate: { perSecond: 0.001, burst: 1 } });
    expect(first.admitJoin("192.0.2.1", 0)).toBeUndefined();
    expect(first.admitJoin("192.0.2.1", 0)).toBeDefined();
    // The room is disposed and a new one created for the same queue: the address is still over its rate.
    const again = byQueue.of("duel", { joinRate: { perSecond: 0.001, burst: 1 } });
    expect(again).toBe(first);
    expect(again.admitJoin("192.0.2.1", 1)).toBeDefined();
    expect(again.joinsLimited).toBe(2);
    // Another queue has its own.
    expect(byQueue.of("squad", { joinRate: { perSecond: 0.001, burst: 1 } }).admitJoin("192.0.2.1", 1)).toBeUndefined();
  });
});

describe("queue options trustedProxies and joinRateLimit", () => {
  const queue = { teamSize: 1, gameRoom: "g" };

  it("default to no trusted proxy and 50 joins at once, then 10 a second", () => {
    const config = parseRoomOptions(queue);
    expect(config.trustedProxies).toBeUndefined();
    expect(addressLimitsOf(config)).toEqual({ joinRate: { perSecond: 10, burst: 50 } });
    expect(addressLimitsOf(parseRoomOptions({ ...queue, joinRateLimit: { perSecond: 0.5 } }))).toEqual({
      joinRate: { perSecond: 0.5, burst: 50 },
    });
    expect(parseRoomOptions({ ...queue, trustedProxies: ["10.0.0.5", "fd00::/8"] }).trustedProxies).toEqual([
      "10.0.0.5",
      "fd00::/8",
    ]);
  });

  it("refuses bad values at start-up, naming the field and the entry", () => {
    expect(() => parseRoomOptions({ ...queue, trustedProxies: ["10.0.0.5", "proxy.local"] })).toThrow(
      'MatchmakerRoom options: trustedProxies.1: must be an IP address or a CIDR block, e.g. "10.0.0.5" or "10.0.0.0/8"',
    );
    expect(() => parseRoomOptions({ ...queue, trustedProxies: "10.0.0.5" })).toThrow(
      "trustedProxies: must be a list of the proxies' addresses",
    );
    expect(() => parseRoomOptions({ ...queue, trustedProxies: Array(257).fill("10.0.0.5") })).toThrow(
      "trustedProxies: must list at most 256 entries",
    );
    expect(() => parseRoomOptions({ ...queue, joinRateLimit: { perSecond: 0 } })).toThrow(
      "joinRateLimit.perSecond: must be at least 0.001",
    );
    expect(() => parseRoomOptions({ ...queue, joinRateLimit: { burst: 0.5 } })).toThrow(
      "joinRateLimit.burst: must be an integer",
    );
    expect(() => parseRoomOptions({ ...queue, joinRateLimit: { perMinute: 5 } })).toThrow(
      "joinRateLimit.perMinute: unknown field",
    );
  });
});
