/**
 * A game room type that fails N times, then works: the queues that spawn it back off (attempts
 * at growing gaps, none meanwhile, not one per tick), nobody is lost, every match is made once it
 * works, and each player of a delayed match hears it once. Two queues share the room type: the
 * second one forms no match while the first one's attempts fail. Real SDK clients, a manual clock.
 */
import { defineRoom, logger, Room } from "@colyseus/core";
import type { Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MatchInfo, MatchmakerRoom } from "../../src/index.js";
import type { RequeuedMessage, SeatMessage } from "../../src/client/index.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { listen, type Inbox } from "../helpers/queue-client.js";
import { testPort, within } from "../helpers/sdk.js";

const clock = new ManualClock();

/** Fails its first `failuresLeft` creations; records when (on the manual clock) each attempt came. */
class FailsThenWorks extends Room {
  static failuresLeft = 0;
  static attemptsAt: number[] = [];
  static created: MatchInfo[] = [];

  override onCreate(options: { match: MatchInfo }): void {
    FailsThenWorks.attemptsAt.push(clock.now);
    if (FailsThenWorks.failuresLeft > 0) {
      FailsThenWorks.failuresLeft--;
      throw new Error("game servers out of capacity");
    }
    FailsThenWorks.created.push(options.match);
  }
}

/** Fails its first `failuresLeft` creations (for the ready-check queue: its own room type, its own backoff). */
class FailsOnceReady extends Room {
  static failuresLeft = 0;
  override onCreate(): void {
    if (FailsOnceReady.failuresLeft > 0) {
      FailsOnceReady.failuresLeft--;
      throw new Error("game servers out of capacity");
    }
  }
}

interface Queued {
  room: SdkRoom;
  inbox: Inbox;
}

describe("a game room type that fails, then works", () => {
  let server: ColyseusTestServer;
  const queueOptions = {
    teamSize: 1,
    gameRoom: "fails_then_works",
    tickMs: 50,
    spawnRetryMs: 100,
    spawnRetryMaxMs: 400,
  };

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          first_duel: manualQueue(queueOptions, clock),
          second_duel: manualQueue(queueOptions, clock),
          fails_then_works: defineRoom(FailsThenWorks),
          ready_duel: manualQueue(
            {
              teamSize: 1,
              gameRoom: "fails_once_ready",
              tickMs: 50,
              spawnRetryMs: 100,
              readyCheck: { timeoutMs: 5000 },
            },
            clock,
          ),
          fails_once_ready: defineRoom(FailsOnceReady),
        },
      }),
      testPort(65),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  async function join(queue: string): Promise<Queued> {
    const room = await server.sdk.joinOrCreate(queue, { rating: 1000 });
    return { room, inbox: listen(room) };
  }

  /** Every attempt so far has failed or succeeded: nobody's game room is being created (that is asynchronous; the clock is not). */
  async function settled(queues: MatchmakerRoom[]): Promise<void> {
    await vi.waitFor(() => {
      const creating = queues.flatMap((q) => [...q.session.players()]).filter((p) => p.place === "spawning");
      expect(creating).toEqual([]);
    });
  }

  it("backs off, loses nobody, makes every match, and tells each player once", async () => {
    const N = 4;
    FailsThenWorks.failuresLeft = N;
    const errors = vi.spyOn(logger, "error");
    const start = clock.now;

    const a1 = await join("first_duel");
    const a2 = await join("first_duel");
    const first = server.getRoomById<MatchmakerRoom>(a1.room.roomId);
    await settled([first]);
    expect(first.state.figures.spawnFailures).toBe(1);

    // The room type now fails: the second queue forms no match, its players simply wait.
    const b1 = await join("second_duel");
    const b2 = await join("second_duel");
    const second = server.getRoomById<MatchmakerRoom>(b1.room.roomId);
    expect(second.matchmaker.size).toBe(2);
    expect(first.matchmaker.size).toBe(2);
    expect(FailsThenWorks.attemptsAt).toHaveLength(1);

    // 1.5 s of heartbeats every 50 ms: 30 ticks, where a retry on every tick would attempt 30 times.
    for (let i = 0; i < 30; i++) {
      clock.advance(50);
      await settled([first, second]);
    }

    // N failures at growing gaps (100, 200, 400, then the 400 ms cap), then one success for the
    // first queue's match and, at normal pace again, one for the second's.
    const gaps = FailsThenWorks.attemptsAt.slice(1).map((t, i) => t - FailsThenWorks.attemptsAt[i]);
    expect(gaps.slice(0, N)).toEqual([100, 200, 400, 400]);
    expect(FailsThenWorks.attemptsAt).toHaveLength(N + 2);
    expect(first.state.figures.spawnFailures).toBe(N);
    expect(second.state.figures.spawnFailures).toBe(0);
    expect(FailsThenWorks.created).toHaveLength(2);

    // Nobody lost: every player has its seat, each pair in its own game, nobody waits.
    const seats = await within(
      Promise.all([a1, a2, b1, b2].map((p) => p.inbox.nth("seat") as Promise<SeatMessage>)),
      5000,
      "every seat",
    );
    expect(seats[0].roomId).toBe(seats[1].roomId);
    expect(seats[2].roomId).toBe(seats[3].roomId);
    expect(seats[0].roomId).not.toBe(seats[2].roomId);
    expect(first.matchmaker.size + second.matchmaker.size).toBe(0);
    // The first pair's wait counts from their joins, through every failure: 100+200+400+400 ms.
    const firstMatch = FailsThenWorks.created[0];
    expect(firstMatch.teams.flatMap((t) => t.players.map((p) => p.waitMs))).toEqual([1100, 1100]);
    expect(FailsThenWorks.attemptsAt[N] - start).toBe(1100);

    // Each player of the failing match heard once that it is delayed; the others never did.
    for (const p of [a1, a2]) {
      expect(p.inbox.all("requeued") as RequeuedMessage[]).toEqual([
        { matchId: expect.any(String), reason: "spawn_failed", retryInMs: 100 },
      ]);
    }
    for (const p of [b1, b2]) expect(p.inbox.all("requeued")).toEqual([]);

    // One log line per failure, naming the error; the stack only with the first.
    const lines = errors.mock.calls
      .map((args) => args.map(String).join(" "))
      .filter((l) => l.includes("fails_then_works"));
    expect(lines).toHaveLength(N);
    for (const line of lines) expect(line).toContain("game servers out of capacity");
    expect(lines.filter((l) => l.includes("\n    at "))).toHaveLength(1);
    expect(lines[0]).toContain("\n    at ");
    errors.mockRestore();

    for (const p of [a1, a2, b1, b2]) await p.room.leave();
  });

  it("with a ready check: the players accept again after the wait, and are seated", async () => {
    FailsOnceReady.failuresLeft = 1;
    const a = await join("ready_duel");
    const b = await join("ready_duel");
    const queue = server.getRoomById<MatchmakerRoom>(a.room.roomId);
    for (const p of [a, b]) {
      await within(p.inbox.nth("match_found"), 5000, "the first match_found");
      p.room.send("accept");
    }
    await vi.waitFor(() => expect(queue.state.figures.spawnFailures).toBe(1));
    await settled([queue]);
    expect(queue.matchmaker.size).toBe(2); // back at their places, not matched while the queue waits
    clock.advance(50);
    expect(queue.matchmaker.size).toBe(2); // still waiting out the failure: no new match yet
    clock.advance(50); // the wait is over: a new match, a new ready check
    for (const p of [a, b]) {
      await within(p.inbox.nth("match_found", 2), 5000, "the second match_found");
      p.room.send("accept");
    }
    const [seatA, seatB] = await within(
      Promise.all([a, b].map((p) => p.inbox.nth("seat") as Promise<SeatMessage>)),
      5000,
      "both seats",
    );
    expect(seatA.roomId).toBe(seatB.roomId);
    for (const p of [a, b]) {
      expect(p.inbox.all("requeued")).toEqual([
        { matchId: expect.any(String), reason: "spawn_failed", retryInMs: 100 },
      ]);
      expect(p.inbox.all("match_found")).toHaveLength(2);
    }
    for (const p of [a, b]) await p.room.leave();
  });
});
