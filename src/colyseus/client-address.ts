/**
 * The address a per-client limit keys on. Colyseus's `context.ip` prefers `X-Real-IP`,
 * `X-Forwarded-For` and `X-Client-IP`, which any client can write: a limit keyed on it is bypassed
 * by a fresh header per try and turned against someone else by writing their address. Here the
 * address is the connection's own (the socket's peer), and forwarding headers are read only when
 * that peer is one of the proxies the operator named (`trustedProxies`).
 */
import type { AuthContext, Client } from "@colyseus/core";
import { AddressSet, forwardedClient, normalizeAddress } from "../server/ip-address.js";

/**
 * What a client's address is when its connection shows none (a transport without a socket, or a
 * socket already closed): all such clients share this one key, so the limits still hold for them.
 */
export const UNKNOWN_ADDRESS = "unknown";

/** The compiled trusted-proxy lists, by the configuration's array (built once per queue configuration). */
const compiled = new WeakMap<readonly string[], AddressSet>();

function trustedSet(trustedProxies: readonly string[]): AddressSet {
  let set = compiled.get(trustedProxies);
  if (!set) {
    set = new AddressSet(trustedProxies);
    compiled.set(trustedProxies, set);
  }
  return set;
}

/**
 * The connection's own peer address, canonical (see `normalizeAddress`), or undefined when the
 * transport shows none. The WebSocket transport's client holds the `ws` socket as `ref`, whose
 * `_socket` is the TCP socket; a transport that hands the room the HTTP request (`context.req`)
 * with a socket is read there.
 */
export function socketAddress(client: Client, context?: AuthContext): string | undefined {
  const ref = (client as { ref?: { _socket?: { remoteAddress?: unknown } } }).ref;
  const req = context?.req as { socket?: { remoteAddress?: unknown } } | undefined;
  const raw = ref?._socket?.remoteAddress ?? req?.socket?.remoteAddress;
  return typeof raw === "string" ? normalizeAddress(raw) : undefined;
}

/**
 * The address to key `client`'s limits on: its connection's peer address, unless that peer is one
 * of `trustedProxies` (addresses or CIDR blocks); then the client the proxy forwarded
 * (`X-Forwarded-For`'s right-most hop that is not a trusted proxy, else `X-Real-IP`), or the
 * proxy's own address when the headers name no valid one. IPv4-mapped IPv6 comes out as IPv4.
 * Never throws; {@link UNKNOWN_ADDRESS} when the connection shows no address.
 */
export function clientAddress(client: Client, context: AuthContext, trustedProxies?: readonly string[]): string {
  const peer = socketAddress(client, context);
  if (peer === undefined) return UNKNOWN_ADDRESS;
  if (!trustedProxies || trustedProxies.length === 0) return peer;
  const trusted = trustedSet(trustedProxies);
  if (!trusted.has(peer)) return peer;
  try {
    const headers = context.headers;
    const forwarded = forwardedClient(
      { "x-forwarded-for": headers?.get("x-forwarded-for"), "x-real-ip": headers?.get("x-real-ip") },
      trusted,
    );
    return forwarded ?? peer;
  } catch {
    return peer; // headers Colyseus could not build: the proxy's own address
  }
}

/**
 * Whether the join carries a header a proxy sets to name its client (`X-Forwarded-For`,
 * `X-Real-IP`, `Forwarded`): from a peer that is not a trusted proxy, a sign that a proxy the
 * operator did not name relays every client from its own address.
 */
export function carriesForwardingHeaders(context: AuthContext): boolean {
  try {
    const headers = context.headers;
    return headers.has("x-forwarded-for") || headers.has("x-real-ip") || headers.has("forwarded");
  } catch {
    return false;
  }
}
