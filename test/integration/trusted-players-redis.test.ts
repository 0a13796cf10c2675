/**
 * Trusted players on a durable queue (Redis presence, this file's own key prefix): a rejoin with a
 * resume token is resolved like any join. The place goes back to the account that left it, never
 * to another account holding its token, and a rejoin still may not send what the server sets.
 * Without Redis the file skips, loudly, except under CI=true, where that fails.
 */
import { Client, type Room } from "@colyseus/sdk";
import { describe, expect, it, vi } from "vitest";
import type { MatchmakerRoom } from "../../src/index.js";
import type { ResumedMessage, ResumeMessage } from "../../src/client/index.js";
import { exampleOnRedis } from "../helpers/example-on-redis.js";
import { redisForTests } from "../helpers/redis.js";
import { narrowRankedQueue, signedInAccount } from "../helpers/ranked.js";
import { attemptJoin, localRoom, testPort } from "../helpers/sdk.js";

const REDIS_URL = "redis://127.0.0.1:6379";
const PREFIX = `t-identity-${process.pid}:`;
const QUEUE = "tp_durable";
const port = testPort(121);
const endpoint = `ws://127.0.0.1:${port}`;

const redis = await redisForTests(REDIS_URL, "trusted-player Redis tests");

const account = (rating: number) => signedInAccount(endpoint, rating);
const attempt = (client: Client, options: Record<string, unknown>) => attemptJoin(client, QUEUE, options);
const queueRoom = () => localRoom<MatchmakerRoom>(QUEUE);

describe.skipIf(!redis)("trusted players on Redis", () => {
  exampleOnRedis({
    port,
    // 1v1 within 100 rating points that never widen: a lone player waits.
    rooms: { [QUEUE]: narrowRankedQueue({ teamSize: 1 }) },
    url: REDIS_URL,
    prefix: PREFIX,
    redis,
  });

  it("a resume token brings the place back to its own account only, and a rejoin may not send a rating", async () => {
    const owner = await account(1500);
    const first = await owner.client.joinOrCreate(QUEUE, {});
    first.reconnection.maxRetries = 0;
    const token = new Promise<string>((r) => first.onMessage("resume", (m: ResumeMessage) => r(m.token)));
    first.onMessage("*", () => undefined);
    const resumeToken = await token;
    const before = await queueRoom();
    const enqueuedAt = before!.matchmaker.get(first.sessionId)!.enqueuedAt;

    // A graceful stop of the queue room: every player is told `handover` and disconnected; the places stay in Redis.
    await before!.onBeforeShutdown();
    await vi.waitFor(async () => expect(await queueRoom()).toBeUndefined(), { timeout: 10_000 });

    // Another account with the token, and the owner sending a rating: refused by name.
    const thief = await account(1500);
    expect(await attempt(thief.client, { resume: resumeToken })).toBe(
      "525: invalid join options: resume: this place belongs to another player",
    );
    expect(await attempt(owner.client, { resume: resumeToken, rating: 100 })).toBe(
      "525: invalid join options: rating: this queue takes ratings from the server; do not send it",
    );

    // The owner gets its place back: its original enqueue time, its account, the server's rating.
    const back = await attempt(owner.client, { resume: resumeToken });
    expect(typeof back).not.toBe("string");
    const room = back as Room;
    const resumed = new Promise<ResumedMessage>((r) => room.onMessage("resumed", r));
    expect((await resumed).enqueuedAt).toBe(enqueuedAt);
    const after = await queueRoom();
    await vi.waitFor(() => expect(after!.matchmaker.get(room.sessionId)).toBeDefined());
    const ticket = after!.matchmaker.get(room.sessionId)!;
    expect(ticket.enqueuedAt).toBe(enqueuedAt);
    expect(ticket.players.map((p) => [p.playerId, p.rating])).toEqual([[owner.accountId, 1500]]);
    expect(after!.trustedPlayers).toBe(true);
    await room.leave();
  });
});
