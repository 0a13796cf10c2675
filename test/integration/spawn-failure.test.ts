import { defineRoom, matchMaker, Room } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineQueue, type MatchInfo, type MatchmakerRoom } from "../../src/index.js";
import { ManualClock, manualQueue } from "../helpers/manual-clock.js";
import { joinQueue, staysPending, testPort, within } from "../helpers/sdk.js";

/** A game room whose creation fails a configurable number of times. */
class FlakyGameRoom extends Room {
  static failuresLeft = 0;
  static created: MatchInfo[] = [];

  override onCreate(options: { match: MatchInfo }): void {
    if (FlakyGameRoom.failuresLeft > 0) {
      FlakyGameRoom.failuresLeft--;
      throw new Error("game server out of capacity");
    }
    FlakyGameRoom.created.push(options.match);
  }
}

/** A game room with fewer seats than a match needs: seat reservation fails after creation. */
class TinyGameRoom extends Room {
  static created = 0;
  override onCreate(): void {
    TinyGameRoom.created++;
    this.maxClients = 1;
  }
}

/** A game room whose creation waits until the test opens the gate. */
class SlowGameRoom extends Room {
  static gate: Promise<void> = Promise.resolve();
  override async onCreate(): Promise<void> {
    await SlowGameRoom.gate;
  }
}

describe("a game room that fails to start", () => {
  let server: ColyseusTestServer;
  // "duel" and "slow_duel" run on controlled clocks, so the waits they report are exact.
  const clock = new ManualClock();
  const slowClock = new ManualClock();

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          duel: manualQueue({ teamSize: 1, gameRoom: "flaky", tickMs: 100, spawnRetryMs: 100 }, clock),
          slow_duel: manualQueue({ teamSize: 1, gameRoom: "flaky", tickMs: 60_000, spawnRetryMs: 1000 }, slowClock),
          tiny_duel: defineQueue({ teamSize: 1, gameRoom: "tiny", tickMs: 60_000 }),
          flaky: defineRoom(FlakyGameRoom),
          tiny: defineRoom(TinyGameRoom),
          slow_start_duel: defineQueue({ teamSize: 1, gameRoom: "slow", tickMs: 60_000 }),
          slow: defineRoom(SlowGameRoom),
        },
      }),
      testPort(2),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("puts every player back with the original wait, then matches them once creation succeeds", async () => {
    FlakyGameRoom.failuresLeft = 2;
    const a = await joinQueue(server, "duel", { rating: 1000 });
    const queue = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    const enqueuedAt = queue.matchmaker.get(a.queue.sessionId)!.enqueuedAt;
    expect(enqueuedAt).toBe(clock.now);
    clock.advance(7000, 100);
    const b = await joinQueue(server, "duel", { rating: 1200 });

    // The first attempt (on b's join) fails; the players come back and wait 100 ms (spawnRetryMs);
    // that attempt fails too, and the next one comes 200 ms later and succeeds.
    await vi.waitFor(() => expect(queue.state.figures.spawnFailures).toBe(1));
    clock.advance(100);
    await vi.waitFor(() => expect(queue.state.figures.spawnFailures).toBe(2));
    clock.advance(100);
    expect(await staysPending(a.seat, 50)).toBe(true); // backing off: no attempt yet
    expect(queue.matchmaker.size).toBe(2);
    clock.advance(100);
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 5000, "seats after the failures");
    expect(queue.state.figures.spawnFailures).toBe(2);
    expect(FlakyGameRoom.created).toHaveLength(1);
    expect(seatA.roomId).toBe(seatB.roomId);

    // Each player's wait in the match counts from the first join, not from a re-queue: a waited
    // 7 s before b came and both waited out the two failed attempts (100 + 200 ms).
    const match = FlakyGameRoom.created[0];
    const players = match.teams.flatMap((t) => t.players);
    const waitOf = (id: string) => players.find((p) => p.sessionId === id)!.waitMs;
    expect(waitOf(a.queue.sessionId)).toBe(7300);
    expect(waitOf(b.queue.sessionId)).toBe(300);
    expect(queue.matchmaker.stats(clock.now).ticketsRequeued).toBe(4);
    expect(queue.state.waiting.size).toBe(0);
    await a.queue.leave();
    await b.queue.leave();
  });

  it("shows re-queued players with their first timestamp, ahead of a newcomer", async () => {
    FlakyGameRoom.failuresLeft = 1;
    FlakyGameRoom.created = [];
    // This queue runs on joins and on its controlled clock, so the re-queued state stays visible.
    const a = await joinQueue(server, "slow_duel", { rating: 1000 });
    const queue = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    const sinceA = queue.state.waiting.get(a.queue.sessionId)!.waitingSince;
    slowClock.advance(10);
    const b = await joinQueue(server, "slow_duel", { rating: 1000 });
    await vi.waitFor(() => expect(queue.state.figures.spawnFailures).toBe(1));
    await vi.waitFor(() => expect(queue.state.waiting.size).toBe(2));
    expect(queue.state.waiting.get(a.queue.sessionId)!.waitingSince).toBe(sinceA);
    expect(queue.matchmaker.get(a.queue.sessionId)!.enqueuedAt).toBe(sinceA);
    // Each client is told its own ticket again, with its first timestamp.
    await vi.waitFor(() =>
      expect(a.statuses.at(-1)).toMatchObject({ ticketId: a.queue.sessionId, waitingSince: sinceA }),
    );

    // A newcomer joins while the queue waits out the failure; the next attempt seats a and b.
    const c = await joinQueue(server, "slow_duel", { rating: 1000 });
    expect(queue.matchmaker.size).toBe(3);
    slowClock.advance(1000);
    const [seatA, seatB] = await within(Promise.all([a.seat, b.seat]), 5000, "seats after the wait");
    expect(seatA.roomId).toBe(seatB.roomId);
    expect([...queue.state.waiting.keys()]).toEqual([c.queue.sessionId]);
    for (const x of [a, b, c]) await x.queue.leave();
  });

  it("disposes a game room whose seats cannot all be reserved, and keeps both players waiting", async () => {
    const a = await joinQueue(server, "tiny_duel", { rating: 1000 });
    const queue = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    const b = await joinQueue(server, "tiny_duel", { rating: 1000 });
    await vi.waitFor(() => expect(queue.state.figures.spawnFailures).toBe(1));
    await vi.waitFor(() => expect(queue.matchmaker.size).toBe(2));
    expect(TinyGameRoom.created).toBe(1);
    await vi.waitFor(async () => {
      expect(await matchMaker.query({ name: "tiny" })).toHaveLength(0);
    });
    for (const x of [a, b]) await x.queue.leave();
  });

  it("drops a game when a player leaves while it is created, and re-queues the others at their place", async () => {
    let open!: () => void;
    SlowGameRoom.gate = new Promise<void>((resolve) => (open = resolve));
    const stays = await joinQueue(server, "slow_start_duel", { rating: 1000 });
    const queue = server.getRoomById<MatchmakerRoom>(stays.queue.roomId);
    const since = queue.matchmaker.get(stays.queue.sessionId)!.enqueuedAt;
    const leaves = await joinQueue(server, "slow_start_duel", { rating: 1000 });
    await vi.waitFor(() => expect(queue.matchmaker.size).toBe(0)); // matched, game room being created
    await leaves.queue.leave();
    open();
    await vi.waitFor(() => expect(queue.state.figures.abandonedMatches).toBe(1));
    expect(queue.matchmaker.get(stays.queue.sessionId)?.enqueuedAt).toBe(since);
    expect(queue.state.waiting.get(stays.queue.sessionId)?.waitingSince).toBe(since);
    await vi.waitFor(async () => expect(await matchMaker.query({ name: "slow" })).toHaveLength(0));
    expect(await staysPending(stays.seat, 100)).toBe(true);

    // The next player is matched with the one who stayed.
    const next = await joinQueue(server, "slow_start_duel", { rating: 1000 });
    const [s1, s2] = await within(Promise.all([stays.seat, next.seat]), 5000, "seats for the next game");
    expect(s1.roomId).toBe(s2.roomId);
    for (const x of [stays, next]) await x.queue.leave();
  });
});
