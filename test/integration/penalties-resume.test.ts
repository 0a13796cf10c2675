/**
 * Penalties and the account of a resumed place (a durable queue on Redis presence, this file's own
 * key prefix). A player whose queue room was lost rejoins with its resume token and gets its stored
 * place back, its stored account with it, whatever its new join options say (they may leave the
 * `playerId` out). What it breaks from there counts against that account, as the session and the
 * engine know it, not against its network address. Without Redis the file skips, loudly, except
 * under CI=true, where that fails.
 */
import { Client, type Room } from "@colyseus/sdk";
import { afterAll, describe, expect, it, vi } from "vitest";
import { processOffenceLedgers } from "../../src/colyseus/offences.js";
import { defineQueue, type MatchmakerRoom } from "../../src/index.js";
import type { RemovedMessage, ResumeMessage } from "../../src/client/index.js";
import { exampleOnRedis } from "../helpers/example-on-redis.js";
import { redisForTests } from "../helpers/redis.js";
import { attemptJoin, localRoom, testPort, within } from "../helpers/sdk.js";

const REDIS_URL = "redis://127.0.0.1:6379";
const PREFIX = `t-clean-${process.pid}:`;
const QUEUE = "pen_resume";
const port = testPort(170);
const endpoint = `ws://127.0.0.1:${port}`;

const redis = await redisForTests(REDIS_URL, "penalties-resume Redis tests");

/** A join through a new client: the room, or the refusal as `"<code>: <message>"`. */
const attempt = (options: Record<string, unknown>) => attemptJoin(new Client(endpoint), QUEUE, options);
const queueRoom = () => localRoom<MatchmakerRoom>(QUEUE);

describe.skipIf(!redis)("penalties of a resumed place", () => {
  exampleOnRedis({
    port,
    // 1v1 with a ready check; the first broken match already costs a cooldown.
    rooms: {
      [QUEUE]: defineQueue({
        teamSize: 1,
        gameRoom: "demo_game",
        readyCheck: { timeoutMs: 30_000 },
        penalties: { offencesBeforeCooldown: 0 },
      }),
    },
    url: REDIS_URL,
    prefix: PREFIX,
    redis,
  });
  afterAll(() => processOffenceLedgers.forget(QUEUE));

  it("a resume that leaves its playerId out plays as its stored account: a match it declines cools that account down", async () => {
    const first = (await attempt({ rating: 1500, playerId: "acct-r" })) as Room;
    first.reconnection.maxRetries = 0;
    const token = await within(
      new Promise<string>((r) => first.onMessage("resume", (m: ResumeMessage) => r(m.token))),
      10_000,
      "the resume token",
    );
    // A graceful stop of the queue room: the player is told `handover` and disconnected; its place stays in Redis.
    await (await queueRoom())!.onBeforeShutdown();
    await vi.waitFor(async () => expect(await queueRoom()).toBeUndefined(), { timeout: 10_000 });

    const back = await attempt({ rating: 1500, resume: token });
    expect(typeof back).not.toBe("string");
    const resumed = back as Room;
    const room = (await queueRoom())!;
    await vi.waitFor(() => expect(room.matchmaker.get(resumed.sessionId)?.players[0]?.playerId).toBe("acct-r"));

    // A match with another account; the resumed player declines it.
    const removed = new Promise<RemovedMessage>((r) => resumed.onMessage("removed", r));
    resumed.onMessage("match_found", () => resumed.send("decline"));
    const other = (await attempt({ rating: 1500, playerId: "acct-o" })) as Room;
    const message = await within(removed, 10_000, "the decliner's removal");
    expect(message.reason).toBe("declined");
    expect(message.penalty?.cooldownMs).toBeGreaterThan(0);

    // The cooldown is the account's: a fresh join of it is refused; another account from the same address is not.
    expect(await attempt({ rating: 1500, playerId: "acct-r" })).toMatch(/^429: cooldown: 1 broken match within/);
    const ledger = processOffenceLedgers.of(QUEUE);
    expect(ledger.cooldownLeft("player:acct-r", Date.now())).toBeGreaterThan(0);
    const third = await attempt({ rating: 1500, playerId: "acct-t" });
    expect(typeof third).not.toBe("string");
    await (third as Room).leave();
    await other.leave();
  });
});
