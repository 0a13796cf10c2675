/**
 * A rating store in Redis, for servers that run on Redis: every call is one Lua script, so it
 * needs of the client only `eval` (an ioredis client has it; this module never imports ioredis).
 *
 * `settle` is optimistic: read the open match and its players' ratings, compute in this process,
 * then one script writes everything only if nothing it read has changed (a rating another process
 * changed meanwhile: read again, at most {@link SETTLE_ATTEMPTS} times). A script runs whole, and
 * this one checks everything before its first write, so a result is never half applied.
 *
 * Keys, all under the prefix: `season`; `open:<match>` and `settled:<match>`, which expire when
 * the match's time to report ends; per season a hash of ratings `ratings:<season>` and a sorted
 * set by rating `by-rating:<season>` (distribution by ZCOUNT); per player and season a history
 * list kept to its newest {@link HISTORY_KEPT} records. Match, season and player ids are bounded
 * where they come in (128, 64 and 128 characters), so key names are too.
 */
import { MatchmakerError } from "../core/errors.js";
import type { RatingBin, RatingStore, SettleOutcome } from "./store.js";
import type { OpenMatch, SettledMatch, StoredRating } from "./types.js";

/** What the store uses of a Redis client: `eval` as ioredis has it. */
export interface RedisEvalClient {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/** Options of {@link RedisRatingStore}. */
export interface RedisRatingStoreOptions {
  /** A connected client (ioredis's `Redis`), owned by the caller: `close()` leaves it open. */
  readonly client: RedisEvalClient;
  /**
   * Put before every key: stores with different prefixes never see each other's data. For Redis
   * Cluster, make it a hash tag (e.g. `"{ratings}:"`) so that every key of a store is on one slot.
   * @defaultValue "mm:ratings:"
   */
  readonly prefix?: string;
}

/** How many settled records a player's history keeps (a profile page reads at most 200). */
export const HISTORY_KEPT = 200;
/** How often `settle` reads again when another process changed a player's rating meanwhile. */
export const SETTLE_ATTEMPTS = 16;
/** How many ids one `ratings` script reads (Lua's `unpack` has a stack limit). */
const READ_CHUNK = 1000;

const GET = `return redis.call('GET', KEYS[1])`;
const SET = `return redis.call('SET', KEYS[1], ARGV[1])`;
const HMGET = `return redis.call('HMGET', KEYS[1], unpack(ARGV))`;
const LRANGE = `return redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)`;
const READ_MATCH = `return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}`;

/** KEYS: open, settled. ARGV: the open record, when it expires (ms). A settled match is not opened again. */
const OPEN = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`;

/**
 * KEYS: open, settled, ratings hash, by-rating set, then one history list per write.
 * ARGV: the open record as read, the settled record, when it expires (ms), the history length kept,
 * the number of players read n, n pairs (player, rating as read or ""), then per write a triple
 * (player, new rating, new mean). Every check comes before the first write.
 */
const COMMIT = `
local settled = redis.call('GET', KEYS[2])
if settled then return {'already', settled} end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'unknown'} end
local n = tonumber(ARGV[5])
for i = 0, n - 1 do
  local now = redis.call('HGET', KEYS[3], ARGV[6 + 2 * i]) or ''
  if now ~= ARGV[7 + 2 * i] then return {'conflict'} end
end
local w = 6 + 2 * n
local keep = tonumber(ARGV[4])
for j = 0, (#ARGV - w + 1) / 3 - 1 do
  local player, rating, mu = ARGV[w + 3 * j], ARGV[w + 1 + 3 * j], ARGV[w + 2 + 3 * j]
  redis.call('HSET', KEYS[3], player, rating)
  redis.call('ZADD', KEYS[4], mu, player)
  redis.call('LPUSH', KEYS[5 + j], ARGV[2])
  redis.call('LTRIM', KEYS[5 + j], 0, keep - 1)
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('PEXPIREAT', KEYS[2], ARGV[3])
redis.call('DEL', KEYS[1])
return {'applied'}`;

/**
 * KEYS: by-rating set. ARGV: width. Bins as [index, count, ...], index = floor(mean / width):
 * a ZCOUNT per bin when there are no more bins than players, else one pass over the players.
 */
const DISTRIBUTION = `
local n = redis.call('ZCARD', KEYS[1])
if n == 0 then return {} end
local width = tonumber(ARGV[1])
local first = math.floor(tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) / width)
local last = math.floor(tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]) / width)
local out = {}
if last - first < n then
  for b = first, last do
    local count = redis.call('ZCOUNT', KEYS[1], string.format('%.17g', b * width), '(' .. string.format('%.17g', (b + 1) * width))
    if count > 0 then out[#out + 1] = tostring(b); out[#out + 1] = count end
  end
  return out
end
local scores = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local bin, count = nil, 0
for i = 2, #scores, 2 do
  local b = math.floor(tonumber(scores[i]) / width)
  if b ~= bin then
    if bin then out[#out + 1] = tostring(bin); out[#out + 1] = count end
    bin, count = b, 0
  end
  count = count + 1
end
out[#out + 1] = tostring(bin); out[#out + 1] = count
return out`;

/** The open record: the match and when its time to report ends. */
interface OpenRecord {
  readonly match: OpenMatch;
  readonly expiresAt: number;
}

/**
 * Ratings in Redis, shared by every server process on it: `settle` is atomic and applies a match
 * once however many processes report it at once. Give it the client the server already has
 * (`new RedisRatingStore({ client: redis, prefix: "mygame:ratings:" })`). Ratings last as long as
 * Redis keeps its data: run Redis with persistence (AOF) for ratings to outlive a Redis restart.
 */
export class RedisRatingStore implements RatingStore {
  private readonly client: RedisEvalClient;
  private readonly prefix: string;

  constructor(
    options: RedisRatingStoreOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (typeof options?.client?.eval !== "function")
      throw new MatchmakerError("invalid_config", "ratings store: client must be a Redis client (ioredis)", "client");
    this.client = options.client;
    this.prefix = options.prefix ?? "mm:ratings:";
    if (typeof this.prefix !== "string" || this.prefix.length > 128)
      throw new MatchmakerError("invalid_config", "ratings store: prefix must be at most 128 characters", "prefix");
  }

  async currentSeason(): Promise<string | undefined> {
    return ((await this.client.eval(GET, 1, this.key("season"))) as string | null) ?? undefined;
  }

  async startSeason(season: string): Promise<void> {
    await this.client.eval(SET, 1, this.key("season"), season);
  }

  async ratings(season: string, playerIds: readonly string[]): Promise<Map<string, StoredRating>> {
    const found = new Map<string, StoredRating>();
    for (const [id, raw] of await this.readRatings(season, playerIds))
      if (raw !== "") found.set(id, JSON.parse(raw) as StoredRating);
    return found;
  }

  async openMatch(match: OpenMatch, expiresAt: number): Promise<void> {
    const record: OpenRecord = { match, expiresAt };
    await this.client.eval(
      OPEN,
      2,
      this.key(`open:${match.matchId}`),
      this.key(`settled:${match.matchId}`),
      JSON.stringify(record),
      Math.floor(expiresAt),
    );
  }

  async settle(
    matchId: string,
    compute: (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch,
  ): Promise<SettleOutcome> {
    const openKey = this.key(`open:${matchId}`);
    const settledKey = this.key(`settled:${matchId}`);
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      const [settled, open] = (await this.client.eval(READ_MATCH, 2, settledKey, openKey)) as Array<string | null>;
      if (settled) return { status: "already", match: JSON.parse(settled) as SettledMatch };
      if (!open) return { status: "unknown" };
      const { match, expiresAt } = JSON.parse(open) as OpenRecord;
      if (expiresAt <= this.now()) return { status: "unknown" };
      const players = match.teams.flatMap((team) => team.flatMap((seat) => seat.playerId ?? []));
      const read = await this.readRatings(match.season, players);
      const current = new Map<string, StoredRating>();
      for (const [id, raw] of read) if (raw !== "") current.set(id, JSON.parse(raw) as StoredRating);
      const record = compute(match, current);
      const writes = record.changes.flatMap((change) => {
        const rating: StoredRating = {
          ...change.after,
          games: (current.get(change.playerId)?.games ?? 0) + 1,
          updatedAt: record.settledAt,
        };
        return [change.playerId, JSON.stringify(rating), String(change.after.mu)];
      });
      const reply = (await this.client.eval(
        COMMIT,
        4 + record.changes.length,
        openKey,
        settledKey,
        this.key(`ratings:${match.season}`),
        this.key(`by-rating:${match.season}`),
        ...record.changes.map((change) => this.historyKey(match.season, change.playerId)),
        open,
        JSON.stringify(record),
        Math.floor(expiresAt),
        HISTORY_KEPT,
        read.size,
        ...[...read].flat(),
        ...writes,
      )) as [string, string?];
      if (reply[0] === "applied") return { status: "applied", match: record };
      if (reply[0] === "already") return { status: "already", match: JSON.parse(reply[1]!) as SettledMatch };
      if (reply[0] === "unknown") return { status: "unknown" };
      // "conflict": another process changed one of these ratings since they were read; let the
      // processes that collided spread out before reading again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
    }
    throw new Error(`RedisRatingStore: match ${matchId} not settled after ${SETTLE_ATTEMPTS} attempts (contention)`);
  }

  async history(season: string, playerId: string, limit: number): Promise<SettledMatch[]> {
    const raw = (await this.client.eval(LRANGE, 1, this.historyKey(season, playerId), limit)) as string[];
    return raw.map((entry) => JSON.parse(entry) as SettledMatch);
  }

  async distribution(season: string, width: number): Promise<RatingBin[]> {
    const flat = (await this.client.eval(DISTRIBUTION, 1, this.key(`by-rating:${season}`), width)) as Array<
      string | number
    >;
    const bins: RatingBin[] = [];
    for (let i = 0; i < flat.length; i += 2) bins.push({ from: Number(flat[i]) * width, count: Number(flat[i + 1]) });
    return bins;
  }

  /** Each player's rating as stored ("" when absent), in `playerIds` order, without repeats. */
  private async readRatings(season: string, playerIds: readonly string[]): Promise<Map<string, string>> {
    const ids = [...new Set(playerIds)];
    const read = new Map<string, string>();
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK);
      const values = (await this.client.eval(HMGET, 1, this.key(`ratings:${season}`), ...chunk)) as Array<
        string | null
      >;
      chunk.forEach((id, k) => read.set(id, values[k] ?? ""));
    }
    return read;
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** The season's length first, so that no season and player pair shares a key with another. */
  private historyKey(season: string, playerId: string): string {
    return this.key(`history:${season.length}:${season}:${playerId}`);
  }
}
