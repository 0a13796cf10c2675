/**
 * IP addresses as limits key on them: one canonical text per address (IPv4-mapped IPv6 as IPv4,
 * IPv6 lower-case and compressed), the operator's trusted proxies as addresses or CIDR blocks, and
 * the client behind a trusted proxy read from the forwarding headers it sets. Only Node's `net`:
 * the queue options check proxy entries with this module, and nothing here knows Colyseus.
 */
import { BlockList, SocketAddress, isIP } from "node:net";

/** The most characters of a forwarding header read (its right-most part: the hops nearest to us). */
export const MAX_FORWARDED_CHARS = 2048;
/** The most hops of `X-Forwarded-For` walked from the right before giving up on finding the client. */
export const MAX_FORWARDED_HOPS = 32;

/**
 * The canonical text of an address, or undefined when `text` is not one: `::ffff:192.0.2.1` and
 * `192.0.2.1` are `192.0.2.1`; `2001:DB8::0:1` is `2001:db8::1`; a zone (`fe80::1%eth0`) is dropped.
 * A port as proxies sometimes append it (`192.0.2.1:443`, `[2001:db8::1]:443`) is dropped too.
 */
export function normalizeAddress(text: string): string | undefined {
  if (text.length > 64) return undefined;
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(address)) address = address.slice(0, address.indexOf(":"));
  const family = isIP(address);
  if (family === 4) return new SocketAddress({ address, family: "ipv4" }).address;
  if (family !== 6) return undefined;
  const canonical = new SocketAddress({ address, family: "ipv6" }).address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical);
  return mapped ? mapped[1]! : canonical;
}

/** An address or CIDR block as the operator names a trusted proxy (`10.0.0.5`, `10.0.0.0/8`, `fd00::/8`). */
export interface AddressBlock {
  readonly address: string;
  readonly family: "ipv4" | "ipv6";
  /** The prefix length; absent for a single address. */
  readonly prefix?: number;
}

/** `entry` as an {@link AddressBlock}, or undefined when it is neither an address nor a CIDR block. */
export function parseAddressBlock(entry: string): AddressBlock | undefined {
  const slash = entry.indexOf("/");
  const address = normalizeAddress(slash < 0 ? entry : entry.slice(0, slash));
  if (address === undefined || (slash >= 0 && entry.includes("["))) return undefined;
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  if (slash < 0) return { address, family };
  const prefixText = entry.slice(slash + 1);
  const max = family === "ipv4" ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return { address, family, prefix: Number(prefixText) };
}

/** A set of addresses and CIDR blocks (IPv4 blocks also match the same addresses written IPv4-mapped). */
export class AddressSet {
  private readonly list = new BlockList();
  readonly size: number;

  /** Throws a `RangeError` naming the first entry that is neither an address nor a CIDR block. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const block = parseAddressBlock(entry);
      if (!block) throw new RangeError(`not an IP address or CIDR block: ${JSON.stringify(entry)}`);
      if (block.prefix === undefined) this.list.addAddress(block.address, block.family);
      else this.list.addSubnet(block.address, block.prefix, block.family);
    }
    this.size = entries.length;
  }

  /** Whether `address` (canonical, see {@link normalizeAddress}) is in the set. */
  has(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.size > 0 && this.list.check(address, family === 4 ? "ipv4" : "ipv6");
  }
}

/** The forwarding headers {@link forwardedClient} reads, as a proxy in front of the server sets them. */
export interface ForwardingHeaders {
  readonly "x-forwarded-for"?: string | null;
  readonly "x-real-ip"?: string | null;
}

/**
 * The client a trusted proxy forwarded, or undefined when the headers name none that can be taken
 * (then the caller keeps the proxy's own address). `X-Forwarded-For` first: walking from the right
 * (each proxy appends the address it saw), the first hop that is not itself a trusted proxy; a hop
 * that is not an address ends the walk with nothing, since everything left of it is unverified.
 * Only without `X-Forwarded-For`, `X-Real-IP` (one address). Bounded: the right-most
 * {@link MAX_FORWARDED_CHARS} characters, at most {@link MAX_FORWARDED_HOPS} hops.
 */
export function forwardedClient(headers: ForwardingHeaders, trusted: AddressSet): string | undefined {
  const forwardedFor = headers["x-forwarded-for"];
  if (forwardedFor) {
    const hops = forwardedFor.slice(-MAX_FORWARDED_CHARS).split(",");
    // A cut header's first piece may be part of a hop: never read it as one.
    const first = forwardedFor.length > MAX_FORWARDED_CHARS ? 1 : 0;
    let nearest: string | undefined;
    for (let i = hops.length - 1, walked = 0; i >= first && walked < MAX_FORWARDED_HOPS; i--, walked++) {
      const hop = normalizeAddress(hops[i]!);
      if (hop === undefined) return undefined;
      if (!trusted.has(hop)) return hop;
      nearest = hop;
    }
    // Every hop read is a trusted proxy: the request started at the left-most of them.
    return nearest;
  }
  const realIp = headers["x-real-ip"];
  return realIp ? normalizeAddress(realIp) : undefined;
}

/** Whether `address` (canonical) is this machine's loopback (`127.0.0.0/8`, `::1`). */
export function isLoopback(address: string): boolean {
  return address === "::1" || (isIP(address) === 4 && address.startsWith("127."));
}

/**
 * The key a per-address limit counts under: an IPv4 address as it is; an IPv6 address by its /64
 * prefix (`2001:db8:1:2::/64`), since one host commonly holds a whole /64 and could otherwise take
 * a fresh address per try.
 */
export function limitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
