/**
 * A queue's per-address limits: joins per address (a token bucket: `burst` at once, then
 * `perSecond`) and wrong party codes per address ({@link CodeGuessLimiter}). They key on the
 * address `clientAddress` gives (the connection's own, unless it is a trusted proxy), an IPv6
 * address by its /64 (see `limitKey`). Joins from this machine's loopback are not rate-limited:
 * they are the operator's own tools (bots, load tests), or a proxy on the same host not named in
 * `trustedProxies`, whose clients all share its address (limiting them as one would let any one
 * of them lock out all the others; the queue warns once instead, see {@link proxyWarning}).
 *
 * They live as long as the queue's name, not its room: Colyseus disposes an empty queue room, and
 * limits kept in the room instance started over then (a guesser only had to let the room empty).
 * So they are process-level state, one entry per queue name, each bounded in the addresses it
 * remembers. Per process: a queue is one room on one process, so its joins pass through one
 * process's limits; a queue that moves to another process starts over there.
 *
 * No clock here: time is passed in (ms), so the unit tests run on a manual clock.
 */
import { MatchmakerError } from "../core/errors.js";
import { isLoopback, limitKey } from "../server/ip-address.js";
import { secondsToWait } from "./client-error.js";
import { CodeGuessLimiter } from "./code-guesses.js";

/** Joins one address may make: `burst` at once, refilled at `perSecond`. */
export interface JoinRate {
  readonly perSecond: number;
  readonly burst: number;
}

/** Addresses a queue's join limiter remembers at once; the least recently seen is forgotten first. */
export const MAX_JOIN_ADDRESSES = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per key, bounded in keys. */
export class JoinRateLimiter {
  /** Insertion order is recency: the first entry is the least recently seen. */
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private rate: JoinRate,
    private readonly maxKeys = MAX_JOIN_ADDRESSES,
  ) {}

  /** Change the rate (a queue defined again with other options); the buckets are kept. */
  configure(rate: JoinRate): void {
    this.rate = rate;
  }

  /** Keys remembered now (a key whose bucket is full needs no entry). */
  get size(): number {
    return this.buckets.size;
  }

  /** Take one join for `key` at `now`: 0 when it is admitted, else the ms until one would be. */
  take(key: string, now: number): number {
    const { perSecond, burst } = this.rate;
    const bucket = this.buckets.get(key);
    let tokens = burst;
    if (bucket) {
      tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * perSecond);
      this.buckets.delete(key); // re-inserted below: the most recently seen
    }
    let waitMs = 0;
    if (tokens >= 1) tokens -= 1;
    else waitMs = Math.max(1, Math.ceil(((1 - tokens) / perSecond) * 1000));
    if (tokens < burst) {
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      this.buckets.set(key, { tokens, at: now });
    }
    return waitMs;
  }
}

/** The settings of one queue's limits (from its options; see `addressLimitsOf`). */
export interface AddressLimitSettings {
  readonly joinRate: JoinRate;
}

/** One queue's per-address limits and how often they refused, since this process started. */
export class QueueAddressLimits {
  readonly joins: JoinRateLimiter;
  readonly codeGuesses = new CodeGuessLimiter();
  /** Joins refused by the join rate limit. */
  joinsLimited = 0;
  /** Party-code joins refused because their address tried too many wrong codes. */
  partyCodesLimited = 0;
  private warnedOfProxy = false;

  constructor(settings: AddressLimitSettings) {
    this.joins = new JoinRateLimiter(settings.joinRate);
  }

  /**
   * Count a join from `address` at `now`; returns the refusal when the address is over its join
   * rate (`rate_limited`, saying when to retry), or undefined when the join may go on.
   */
  admitJoin(address: string, now: number): MatchmakerError | undefined {
    if (isLoopback(address)) return undefined;
    const waitMs = this.joins.take(limitKey(address), now);
    if (waitMs === 0) return undefined;
    this.joinsLimited++;
    return new MatchmakerError(
      "rate_limited",
      `too many joins from your address; try again in ${secondsToWait(waitMs)} s`,
    );
  }

  /** The refusal of a party code from `address` (it tried too many wrong ones in its window), or undefined. */
  partyCodeRefusal(address: string, now: number): MatchmakerError | undefined {
    const waitMs = this.codeGuesses.blockedFor(limitKey(address), now);
    if (waitMs <= 0) return undefined;
    this.partyCodesLimited++;
    const message = `partyCode: too many wrong party codes; try again in ${secondsToWait(waitMs)} s`;
    return new MatchmakerError("join_refused", message, "partyCode");
  }

  /**
   * The warning to log, once per queue, when joins come from this machine's loopback carrying
   * forwarding headers (`forwarded()`): a proxy on the same host that is not a trusted proxy, so every
   * client it relays shares one address. Undefined otherwise, and after the first time.
   * `forwarded` is asked only for a loopback join before the warning was given: reading a join's
   * headers builds them, which no other join needs.
   */
  proxyWarning(address: string, forwarded: () => boolean): string | undefined {
    if (this.warnedOfProxy || !isLoopback(address) || !forwarded()) return undefined;
    this.warnedOfProxy = true;
    return (
      `joins arrive from ${address} with forwarding headers: a proxy on this host that is not in the queue's ` +
      `trustedProxies, so its clients share one address (no join rate limit; party-code guesses counted together). ` +
      `Name it: trustedProxies: ["${address}"]`
    );
  }

  /** Count a wrong party code from `address`. */
  wrongPartyCode(address: string, now: number): void {
    this.codeGuesses.wrong(limitKey(address), now);
  }
}

/** The per-address limits of every queue of one process, by queue name. */
export class AddressLimitsByQueue {
  private readonly byQueue = new Map<string, QueueAddressLimits>();

  /** The limits of `queue` (created on first use; later calls apply `settings` and keep the counts). */
  of(queue: string, settings: AddressLimitSettings): QueueAddressLimits {
    let limits = this.byQueue.get(queue);
    if (!limits) {
      limits = new QueueAddressLimits(settings);
      this.byQueue.set(queue, limits);
    } else {
      limits.joins.configure(settings.joinRate);
    }
    return limits;
  }
}

/** This process's per-address limits: every room of a queue name shares them, one room after another. */
export const processAddressLimits = new AddressLimitsByQueue();
