import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import app from "../../example-server/app.config.js";
import type { DemoGameRoom, DemoGameState } from "../../example-server/DemoGameRoom.js";
import type { MatchmakerRoom } from "../../src/index.js";
import { joinQueue, staysPending, testPort, within, type QueuedClient } from "../helpers/sdk.js";

describe("MatchmakerRoom with the example server's queues", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, testPort(1));
  });
  afterAll(async () => {
    await server.shutdown();
  });
  beforeEach(async () => {
    await server.cleanup();
  });

  it("puts four 2v2 players in one fresh game room, two per team, each told its side", async () => {
    const ratings = [1500, 1600, 1400, 1700];
    const clients: QueuedClient[] = [];
    for (const rating of ratings) clients.push(await joinQueue(server, "squad", { rating }));
    const seats = await within(Promise.all(clients.map((c) => c.seat)), 5000, "four seats");

    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(new Set(seats.map((s) => s.matchId)).size).toBe(1);
    expect(seats.filter((s) => s.side === "A")).toHaveLength(2);
    expect(seats.filter((s) => s.side === "B")).toHaveLength(2);
    seats.forEach((s, i) => expect(s.sessionId).toBe(clients[i].queue.sessionId));

    const games = [];
    for (const seat of seats) games.push(await server.sdk.consumeSeatReservation<DemoGameState>(seat));
    const gameRoom = server.getRoomById<DemoGameRoom>(seats[0].roomId);
    await vi.waitFor(() => expect([...gameRoom.state.seats.values()].every((s) => s.arrived)).toBe(true));
    const sides = [...gameRoom.state.seats.values()].map((s) => [s.sessionId, s.side]);
    expect(Object.fromEntries(sides)).toEqual(Object.fromEntries(seats.map((s) => [s.sessionId, s.side])));
    // The best split of 1400/1500/1600/1700 is 1400+1700 against 1500+1600.
    const teamOf = (r: number) => seats[ratings.indexOf(r)].side;
    expect(teamOf(1400)).toBe(teamOf(1700));
    expect(teamOf(1500)).toBe(teamOf(1600));
    expect(gameRoom.state.imbalance).toBe(0);
    for (const g of games) await g.leave();
    for (const c of clients) await c.queue.leave();
  });

  it("tells each client its own ticket, keeps the waiting list out of the clients' state, and shows operators everything", async () => {
    const a = await joinQueue(server, "arena5", { rating: 1200 });
    const b = await joinQueue(server, "arena5", { rating: 1300, side: "B" });
    const queueRoom = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    await vi.waitFor(
      () => {
        // Each client's own ticket comes in its first status; the state holds the shared figures only.
        expect(a.statuses[0]).toMatchObject({ ticketId: a.queue.sessionId, waiting: 1 });
        expect(b.statuses[0]).toMatchObject({ ticketId: b.queue.sessionId, waiting: 2 });
        expect(b.statuses[0].serverTime! - b.statuses[0].waitingSince!).toBeGreaterThanOrEqual(0);
        // The shared figures refresh at most once per figuresIntervalMs (1 s by default).
        expect(a.queue.state.figures.waitingPlayers).toBe(2);
      },
      { timeout: 3000 },
    );
    expect(a.queue.state.waiting).toBeUndefined();
    expect(queueRoom.state.waiting.size).toBe(2);
    expect(queueRoom.state.waiting.get(b.queue.sessionId)!.side).toBe("B");

    // The monitor: the figures in the room's state, and the waiting tickets through its "call" API.
    await vi.waitFor(
      async () => {
        const res = await server.http.get(`/monitor/api/room?roomId=${a.queue.roomId}`);
        const monitorState = (res.data as { state: { figures: { waitingPlayers: number } } }).state;
        expect(monitorState.figures.waitingPlayers).toBe(2);
      },
      { timeout: 3000 },
    );
    const call = (method: string, args: unknown[]) =>
      server.http.get(
        `/monitor/api/room/call?roomId=${a.queue.roomId}&method=${method}&args=${encodeURIComponent(JSON.stringify(args))}`,
      );
    const sample = (await call("waitingSample", [10])).data as Array<{ id: string; waitedS: number }>;
    expect(sample.map((t) => t.id)).toEqual([a.queue.sessionId, b.queue.sessionId]); // longest waiting first
    expect(sample[0].waitedS).toBeGreaterThanOrEqual(0);
    expect(sample[0].waitedS).toBeLessThan(60); // seconds, not epoch milliseconds
    const found = (await call("lookupTicket", [b.queue.sessionId])).data as { side: string; rating: number };
    expect(found).toMatchObject({ side: "B", rating: 1300 });
    await a.queue.leave();
    await b.queue.leave();
  });

  it("refuses bad join options with the field named, while others keep matching", async () => {
    const first = await joinQueue(server, "duel", { rating: 1000 });
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ rating: "high" }, /rating: must be a number/],
      [{}, /rating: is required/],
      [{ rating: Number.MAX_VALUE }, /rating: must be at most 10000/],
      [{ rating: 1000, side: "C" }, /side: must be "A" or "B"/],
      [{ rating: 1000, admin: true }, /admin: unknown field/],
      [{ rating: 1000, padding: "x".repeat(10_000) }, /padding: unknown field/],
    ];
    for (const [options, message] of bad) {
      const error = await server.sdk.joinOrCreate("duel", options).then(
        () => undefined,
        (e: Error & { code?: number }) => e,
      );
      expect(error?.message).toMatch(message);
      expect(error?.code).toBe(525);
    }
    // A body over the server's limit is refused before it is read, saying so.
    const oversized = await server.sdk.joinOrCreate("duel", { rating: 1000, padding: "x".repeat(100_000) }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(oversized?.message).toMatch(/request body too large: at most 16384 bytes/);
    expect(oversized?.code).toBe(413);
    const second = await joinQueue(server, "duel", { rating: 1100 });
    const [s1, s2] = await within(Promise.all([first.seat, second.seat]), 5000, "duel seats");
    expect(s1.roomId).toBe(s2.roomId);
    expect(s1.side).not.toBe(s2.side);
    await first.queue.leave();
    await second.queue.leave();
  });

  it("removes a client that leaves, so it is never matched", async () => {
    const leaver = await joinQueue(server, "duel", { rating: 1000 });
    const queueRoom = server.getRoomById<MatchmakerRoom>(leaver.queue.roomId);
    await leaver.queue.leave();
    await vi.waitFor(() => expect(queueRoom.matchmaker.size).toBe(0));
    expect(queueRoom.state.waiting.size).toBe(0);

    const a = await joinQueue(server, "duel", { rating: 1000 });
    const b = await joinQueue(server, "duel", { rating: 1000 });
    const seats = await within(Promise.all([a.seat, b.seat]), 5000, "duel seats");
    expect(seats.map((s) => s.sessionId).sort()).toEqual([a.queue.sessionId, b.queue.sessionId].sort());
    expect(await staysPending(leaver.seat, 200)).toBe(true);
    await a.queue.leave();
    await b.queue.leave();
  });
});
