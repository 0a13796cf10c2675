/**
 * Penalties across processes: with the queue on Redis presence, an account's offences and cooldown
 * are written there with a TTL, so a queue room on another process (its own ledger) refuses the
 * account too. Two `QueuePenalties` with their own ledgers and their own Redis connections stand for
 * two processes; the queue name is this run's own, and its keys are deleted afterwards.
 */
import { RedisPresence } from "@colyseus/redis-presence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OffenceLedger, PENALTY_DEFAULTS } from "../../src/colyseus/offences.js";
import { offenceKey, QueuePenalties } from "../../src/colyseus/penalties.js";
import { redisForTests } from "../helpers/redis.js";

const URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = await redisForTests(URL, "penalties-redis tests");

describe.skipIf(!redis)("penalties on Redis presence", () => {
  const queue = `t-grief-${process.pid}-${Date.now()}`;
  const presences: RedisPresence[] = [];
  const client = (sessionId: string) => ({ sessionId }) as never;

  beforeAll(() => {
    presences.push(new RedisPresence(URL), new RedisPresence(URL));
  });
  afterAll(async () => {
    const keys = await redis!.keys(`mm:offences:${queue}:*`);
    if (keys.length > 0) await redis!.del(...keys);
    for (const p of presences) p.shutdown();
    redis!.disconnect();
  });

  it("another process's queue room sees the offences and the cooldown; the record expires with its TTL", async () => {
    const [a, b] = presences.map((p) => new QueuePenalties(queue, PENALTY_DEFAULTS, new OffenceLedger(), p));
    const now = Date.now();
    // Process A: one offence, then the account rejoins there and breaks a second match.
    const s1 = client("s1");
    await a!.admit(s1, "player:griefer", () => now);
    a!.joined(s1);
    expect(a!.offence("s1", "declined", now)).toMatchObject({ offences: 1, cooldownMs: 0 });
    const key = offenceKey(queue, "player:griefer");
    await until(async () => (await redis!.get(key)) !== null);
    expect(await redis!.ttl(key)).toBeGreaterThan(PENALTY_DEFAULTS.windowMs / 1000 - 5);

    // Process B (the queue moved there): it knows the first offence, so the next one is the second.
    const s2 = client("s2");
    await b!.admit(s2, "player:griefer", () => now + 1000);
    b!.joined(s2);
    expect(b!.offence("s2", "declined", now + 1000)).toMatchObject({ offences: 2, cooldownMs: 60_000 });
    await until(async () => JSON.parse((await redis!.get(key)) ?? "{}").cooldownUntil === now + 61_000);

    // Back on process A, whose own ledger saw one offence only: the cooldown holds there too.
    await expect(a!.admit(client("s3"), "player:griefer", () => now + 2000)).rejects.toThrow(
      "cooldown: 2 broken matches within 10 min; you may join this queue again in 59 s",
    );
    // Another account, or the same account in another queue, is not held.
    await expect(a!.admit(client("s4"), "player:honest", () => now + 2000)).resolves.toBeUndefined();
    const other = new QueuePenalties(`${queue}-other`, PENALTY_DEFAULTS, new OffenceLedger(), presences[1]);
    await expect(other.admit(client("s5"), "player:griefer", () => now + 2000)).resolves.toBeUndefined();
  });
});

/** Poll `check` until it holds (at most 100 tries, 20 ms apart). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("condition never held");
}
