/**
 * One account, one place across processes (issue 32): two example-server processes on a
 * redis-server of this file's own (`testPort(139)`, in memory, started and killed by PID), the
 * example server's `duel` queue (greedy 1v1). A queue is one room on one process, so two clients of
 * one account reaching it through different processes cannot both hold a place; after kill -9 of
 * the queue's process, a resumed place and a fresh join of the same account do not both get one.
 * Counts of places (in the queue room's process and in Redis) and seats, no timings.
 */
import { describe, expect, it } from "vitest";
import { Player, until } from "../helpers/durable-cluster.js";
import { clusterPerTest, redisServerInstalled } from "../helpers/cluster-per-test.js";
import { testPort } from "../helpers/sdk.js";

const installed = redisServerInstalled("one-account Redis tests");

/** The error a join ends with (undefined: it joined). */
async function joinError(p: Player, port: number, extra: Record<string, unknown> = {}) {
  return p.join(port, extra).then(
    () => undefined,
    (error: unknown) => error as { code?: number; message: string },
  );
}

describe.skipIf(!installed)("one account, one place across two processes", () => {
  const ports = [testPort(137), testPort(138)] as const;
  const { redis, servers, players } = clusterPerTest(testPort(139), ports);
  /** Places stored in Redis for the duel queue. */
  const storedPlaces = () => Number(redis.cli("hlen", "mm:tickets:duel"));

  const player = (name: string, options: Record<string, unknown>) => {
    const p = new Player(name, options, "duel");
    players.push(p);
    return p;
  };

  it("two clients of one account through two processes: the second is refused naming playerId; one place, one seat", async () => {
    const first = player("first", { rating: 1500, playerId: "acct-x" });
    await first.join(ports[0]);
    await until(() => first.token !== undefined && storedPlaces() === 1, "the first place stored");
    const second = player("second", { rating: 1500, playerId: "acct-x" });
    const refused = await joinError(second, ports[1]);
    expect(refused?.code).toBe(525);
    expect(refused?.message).toBe('invalid join options: playerId: account "acct-x" is already in this queue');
    expect(second.room).toBeUndefined();
    expect(storedPlaces()).toBe(1);

    // Another account, through the second process: the match holds the account once.
    const other = player("other", { rating: 1500, playerId: "acct-y" });
    await other.join(ports[1]);
    await until(() => first.seat !== undefined && other.seat !== undefined, "both seats");
    expect(first.seat!.matchId).toBe(other.seat!.matchId);
    expect(second.seat).toBeUndefined();
  });

  it("kill -9 of the queue's process: the account joins afresh through the survivor; its old resume is then refused; one place, one seat", async () => {
    const old = player("old", { rating: 1500, playerId: "acct-z" });
    await old.join(ports[0]);
    await until(() => old.token !== undefined && storedPlaces() === 1, "the place stored");
    const queueRoom = old.room!.roomId;
    const host = (await servers[0]!.queueRooms("duel")).includes(queueRoom) ? servers[0]! : servers[1]!;
    const survivor = servers.find((s) => s !== host)!;
    const closed = old.whenClosed();
    await host.stop("SIGKILL");
    await closed;

    // The player opens a new session (a new tab) before the old one comes back with its token.
    const fresh = player("fresh", { rating: 1500, playerId: "acct-z" });
    await fresh.joinRetrying([survivor.port]);
    const refused = await joinError(old, survivor.port, { resume: old.token });
    expect(refused?.code).toBe(525);
    expect(refused?.message).toBe('invalid join options: playerId: account "acct-z" is already in this queue');
    // The old record (its room is dead) and the fresh one: only the fresh session waits.
    expect((await survivor.queueRooms("duel")).length).toBe(1);

    const other = player("other", { rating: 1500, playerId: "acct-w" });
    await other.join(survivor.port);
    await until(() => fresh.seat !== undefined && other.seat !== undefined, "both seats");
    expect(fresh.seat!.matchId).toBe(other.seat!.matchId);
    expect(old.seat).toBeUndefined();
  }, 60_000);
});
