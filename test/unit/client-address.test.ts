import type { AuthContext, Client } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import {
  carriesForwardingHeaders,
  clientAddress,
  socketAddress,
  UNKNOWN_ADDRESS,
} from "../../src/colyseus/client-address.js";
import {
  AddressSet,
  forwardedClient,
  isLoopback,
  limitKey,
  MAX_FORWARDED_CHARS,
  normalizeAddress,
  parseAddressBlock,
} from "../../src/server/ip-address.js";

/** A client as the WebSocket transport makes it: `ref` is the `ws` socket, `_socket` its TCP socket. */
const wsClient = (remoteAddress: unknown) =>
  ({ sessionId: "s", ref: { _socket: { remoteAddress } } }) as unknown as Client;
/** An auth context as Colyseus builds it: `ip` already read from the headers (which is what must not be trusted). */
const contextWith = (headers: Record<string, string>): AuthContext => ({
  ip: headers["x-real-ip"] ?? headers["x-forwarded-for"] ?? "203.0.113.250",
  headers: new Headers(headers),
});

describe("normalizeAddress", () => {
  it("gives one text per address: IPv4-mapped as IPv4, IPv6 compressed in lower case, zones and ports dropped", () => {
    expect(normalizeAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeAddress("::FFFF:7f00:1")).toBe("127.0.0.1");
    expect(normalizeAddress(" 192.0.2.1 ")).toBe("192.0.2.1");
    expect(normalizeAddress("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("192.0.2.1:443")).toBe("192.0.2.1");
    expect(normalizeAddress("[2001:db8::1]:443")).toBe("2001:db8::1");
  });

  it("refuses what is not an address", () => {
    for (const text of ["", "unknown", "999.1.1.1", "01.2.3.4", "1.2.3", "::g", "1.2.3.4, 5.6.7.8", "x".repeat(100)])
      expect(normalizeAddress(text), text).toBeUndefined();
  });
});

describe("parseAddressBlock and AddressSet", () => {
  it("reads addresses and CIDR blocks, and refuses anything else", () => {
    expect(parseAddressBlock("10.0.0.5")).toEqual({ address: "10.0.0.5", family: "ipv4" });
    expect(parseAddressBlock("10.0.0.0/8")).toEqual({ address: "10.0.0.0", family: "ipv4", prefix: 8 });
    expect(parseAddressBlock("fd00::/8")).toEqual({ address: "fd00::", family: "ipv6", prefix: 8 });
    for (const bad of ["10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/x", "proxy.local", "10.0.0.0/8/8", ""])
      expect(parseAddressBlock(bad), bad).toBeUndefined();
    expect(() => new AddressSet(["10.0.0.5", "nope"])).toThrow(/not an IP address or CIDR block: "nope"/);
  });

  it("matches single addresses and blocks, IPv4 ones also when written IPv4-mapped", () => {
    const set = new AddressSet(["10.0.0.5", "172.16.0.0/12", "2001:db8::/32"]);
    expect(set.has("10.0.0.5")).toBe(true);
    expect(set.has("10.0.0.6")).toBe(false);
    expect(set.has("172.31.255.1")).toBe(true);
    expect(set.has("172.32.0.1")).toBe(false);
    expect(set.has("::ffff:172.16.0.9")).toBe(true);
    expect(set.has("2001:db8:ffff::1")).toBe(true);
    expect(set.has("2001:db9::1")).toBe(false);
    expect(set.has("unknown")).toBe(false);
    expect(new AddressSet([]).has("10.0.0.5")).toBe(false);
  });
});

describe("forwardedClient", () => {
  const proxies = new AddressSet(["10.0.0.5", "10.0.1.0/24"]);

  it("takes X-Forwarded-For's right-most hop that is not a trusted proxy, whatever the client wrote to its left", () => {
    expect(forwardedClient({ "x-forwarded-for": "198.51.100.7" }, proxies)).toBe("198.51.100.7");
    // The client wrote "1.1.1.1"; the proxy appended the address it saw.
    expect(forwardedClient({ "x-forwarded-for": "1.1.1.1, 198.51.100.7" }, proxies)).toBe("198.51.100.7");
    // Two trusted proxies in a row: both skipped.
    expect(forwardedClient({ "x-forwarded-for": "1.1.1.1, 198.51.100.7, 10.0.1.9" }, proxies)).toBe("198.51.100.7");
    expect(forwardedClient({ "x-forwarded-for": "::ffff:198.51.100.7" }, proxies)).toBe("198.51.100.7");
    // X-Forwarded-For wins over X-Real-IP (a client could have sent either through a proxy that sets the other).
    expect(forwardedClient({ "x-forwarded-for": "198.51.100.7", "x-real-ip": "1.1.1.1" }, proxies)).toBe(
      "198.51.100.7",
    );
  });

  it("names nobody when the hop it would take is not an address, or the header is empty", () => {
    expect(forwardedClient({ "x-forwarded-for": "198.51.100.7, garbage" }, proxies)).toBeUndefined();
    expect(forwardedClient({ "x-forwarded-for": "198.51.100.7, garbage, 10.0.0.5" }, proxies)).toBeUndefined();
    expect(forwardedClient({ "x-forwarded-for": "" }, proxies)).toBeUndefined();
    expect(forwardedClient({}, proxies)).toBeUndefined();
  });

  it("falls back to X-Real-IP only without X-Forwarded-For, one valid address", () => {
    expect(forwardedClient({ "x-real-ip": "198.51.100.8" }, proxies)).toBe("198.51.100.8");
    expect(forwardedClient({ "x-real-ip": "198.51.100.8, 1.1.1.1" }, proxies)).toBeUndefined();
    expect(forwardedClient({ "x-real-ip": "nope" }, proxies)).toBeUndefined();
  });

  it("when every hop is a trusted proxy, names the left-most", () => {
    expect(forwardedClient({ "x-forwarded-for": "10.0.1.3, 10.0.0.5" }, proxies)).toBe("10.0.1.3");
  });

  it("reads a bounded right-most part of a huge header, never a cut hop", () => {
    const padding = Array.from({ length: 5000 }, (_, i) => `1.2.${i >> 8}.${i & 255}`).join(", ");
    expect(padding.length).toBeGreaterThan(MAX_FORWARDED_CHARS);
    expect(forwardedClient({ "x-forwarded-for": `${padding}, 198.51.100.7` }, proxies)).toBe("198.51.100.7");
    // 200 trusted hops: the walk stops after its bound with the left-most hop it read, a trusted one.
    const trustedHops = Array.from({ length: 200 }, () => "10.0.0.5").join(",");
    expect(forwardedClient({ "x-forwarded-for": `198.51.100.7,${trustedHops}` }, proxies)).toBe("10.0.0.5");
  });
});

describe("isLoopback", () => {
  it("is 127.0.0.0/8 and ::1 only", () => {
    for (const a of ["127.0.0.1", "127.0.0.2", "127.255.255.254", "::1"]) expect(isLoopback(a), a).toBe(true);
    for (const a of ["128.0.0.1", "192.0.2.1", "::2", "fd00::1", "unknown", "127.example"])
      expect(isLoopback(a), a).toBe(false);
  });
});

describe("limitKey", () => {
  it("keeps IPv4 and unknown addresses, and keys IPv6 by its /64", () => {
    expect(limitKey("192.0.2.1")).toBe("192.0.2.1");
    expect(limitKey(UNKNOWN_ADDRESS)).toBe(UNKNOWN_ADDRESS);
    expect(limitKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
    expect(limitKey("2001:db8:1:2:ffff::1")).toBe(limitKey("2001:db8:1:2::2"));
    expect(limitKey("2001:db8:1:3::1")).not.toBe(limitKey("2001:db8:1:2::1"));
  });
});

describe("clientAddress", () => {
  it("is the socket's address whatever the forwarding headers say, without trusted proxies", () => {
    const headerSets: Array<Record<string, string>> = [
      {},
      { "x-real-ip": "198.51.100.7" },
      { "x-forwarded-for": "198.51.100.7" },
      { "x-client-ip": "198.51.100.7" },
    ];
    for (const headers of headerSets) {
      expect(clientAddress(wsClient("::ffff:127.0.0.1"), contextWith(headers))).toBe("127.0.0.1");
      expect(clientAddress(wsClient("::1"), contextWith(headers), [])).toBe("::1");
    }
  });

  it("reads the headers only when the socket's address is a trusted proxy", () => {
    const trusted = ["127.0.0.1"];
    const viaProxy = contextWith({ "x-forwarded-for": "1.1.1.1, 198.51.100.7" });
    expect(clientAddress(wsClient("::ffff:127.0.0.1"), viaProxy, trusted)).toBe("198.51.100.7");
    expect(clientAddress(wsClient("192.0.2.9"), viaProxy, trusted)).toBe("192.0.2.9");
    expect(clientAddress(wsClient("127.0.0.1"), contextWith({ "x-real-ip": "198.51.100.8" }), trusted)).toBe(
      "198.51.100.8",
    );
    // A trusted proxy whose headers name nobody valid: the proxy's own address.
    expect(clientAddress(wsClient("127.0.0.1"), contextWith({ "x-forwarded-for": "oops" }), trusted)).toBe("127.0.0.1");
    expect(clientAddress(wsClient("127.0.0.1"), contextWith({}), ["10.0.0.0/8", "127.0.0.0/8"])).toBe("127.0.0.1");
  });

  it("is robust when the connection shows no address", () => {
    const noRef = { sessionId: "s" } as unknown as Client;
    expect(socketAddress(noRef)).toBeUndefined();
    expect(clientAddress(noRef, contextWith({ "x-real-ip": "198.51.100.7" }))).toBe(UNKNOWN_ADDRESS);
    // A closed socket's remoteAddress is undefined.
    expect(clientAddress(wsClient(undefined), contextWith({}), ["127.0.0.1"])).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(wsClient(42), contextWith({}))).toBe(UNKNOWN_ADDRESS);
    // A transport that hands the room the HTTP request with its socket.
    const req = { socket: { remoteAddress: "::ffff:192.0.2.4" } };
    expect(clientAddress(noRef, { ...contextWith({}), req })).toBe("192.0.2.4");
    // Headers Colyseus could not build: the trusted proxy's own address, no throw.
    const broken = {
      ip: undefined,
      get headers(): Headers {
        throw new TypeError("bad header");
      },
    } as AuthContext;
    expect(clientAddress(wsClient("127.0.0.1"), broken, ["127.0.0.1"])).toBe("127.0.0.1");
    expect(carriesForwardingHeaders(broken)).toBe(false);
  });

  it("tells a join that carries a proxy's client-naming headers", () => {
    expect(carriesForwardingHeaders(contextWith({}))).toBe(false);
    expect(carriesForwardingHeaders(contextWith({ "x-forwarded-for": "198.51.100.7" }))).toBe(true);
    expect(carriesForwardingHeaders(contextWith({ "x-real-ip": "198.51.100.7" }))).toBe(true);
    expect(carriesForwardingHeaders(contextWith({ forwarded: "for=198.51.100.7" }))).toBe(true);
  });
});
