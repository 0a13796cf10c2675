import { defineRoom, Room } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { collectMetrics, defineQueue, MatchmakerRoom } from "../../src/index.js";
import type { StatusMessage } from "../../src/client/index.js";
import { joinQueue, staysPending, testPort, within } from "../helpers/sdk.js";

class Game extends Room {}

describe("several queues in one server", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // Same team size, different policies and options.
          open_duel: defineQueue({ teamSize: 1, gameRoom: "game", policy: "greedy", tickMs: 100 }),
          banded_duel: defineQueue({
            teamSize: 1,
            gameRoom: "game",
            policy: "multi-queue",
            params: { r: 2 },
            rating: { min: 0, max: 3000 },
            tickMs: 100,
            statusIntervalMs: 100, // a status may follow every change within the test's patience
          }),
          // A queue configured without defineQueue, so only onCreate can check it.
          broken: defineRoom(MatchmakerRoom, { teamSize: 2, gameRoom: "game", policy: "no-such-policy" } as never),
          broken_size: defineRoom(MatchmakerRoom, { teamSize: 0, gameRoom: "game", tickMs: 5 } as never),
          // With a ready check: a player who declines is counted in the figures.
          checked_duel: defineQueue({
            teamSize: 1,
            gameRoom: "game",
            tickMs: 60_000,
            readyCheck: { timeoutMs: 10_000 },
          }),
          game: defineRoom(Game),
        },
      }),
      testPort(22),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("each queue matches only its own players, by its own policy", async () => {
    // 500 and 2500 fall in different bands of banded_duel: they never play there. In open_duel they do.
    const banded = [
      await joinQueue(server, "banded_duel", { rating: 500 }),
      await joinQueue(server, "banded_duel", { rating: 2500 }),
    ];
    const statuses: StatusMessage[] = [];
    banded[0].queue.onMessage("status", (s: StatusMessage) => statuses.push(s));
    const open = [
      await joinQueue(server, "open_duel", { rating: 500 }),
      await joinQueue(server, "open_duel", { rating: 2500 }),
    ];
    const [s1, s2] = await within(Promise.all(open.map((o) => o.seat)), 3000, "open_duel seats");
    expect(s1.roomId).toBe(s2.roomId);
    for (const b of banded) expect(await staysPending(b.seat, 300)).toBe(true);
    await vi.waitFor(() => expect(statuses.at(-1)).toMatchObject({ waiting: 2, window: { min: 0, max: 1500 } }));

    // Each queue's figures are its own.
    const figures = Object.fromEntries(collectMetrics().map((m) => [m.queue, m]));
    expect(figures.open_duel).toMatchObject({ policy: "greedy", matchesFormed: 1, waitingPlayers: 0 });
    expect(figures.banded_duel).toMatchObject({ policy: "multi-queue", matchesFormed: 0, waitingPlayers: 2 });

    // A rating valid in one queue's range is refused by the other's.
    const refused = await server.sdk.joinOrCreate("banded_duel", { rating: 5000 }).catch((e: Error) => e);
    expect((refused as Error).message).toMatch(/rating: must be at most 3000/);

    // A player in banded_duel's lower band finally plays the one waiting there.
    const partner = await joinQueue(server, "banded_duel", { rating: 600 });
    const [p1, p2] = await within(Promise.all([banded[0].seat, partner.seat]), 3000, "banded seats");
    expect(p1.roomId).toBe(p2.roomId);
    expect(await staysPending(banded[1].seat, 200)).toBe(true);
    for (const c of [...open, ...banded, partner]) await c.queue.leave();
  });

  it("refuses to create a queue whose options are bad, naming the field, and keeps the others running", async () => {
    const error = (await server.sdk.joinOrCreate("broken", { rating: 1000 }).catch((e: Error) => e)) as Error & {
      code?: number;
    };
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(
      /^MatchmakerRoom options: unknown policy "no-such-policy"; registered policies: .*greedy/,
    );
    expect(error.code).toBe(523);
    const sizeError = (await server.sdk.joinOrCreate("broken_size", { rating: 1000 }).catch((e: Error) => e)) as Error;
    expect(sizeError.message).toBe("MatchmakerRoom options: teamSize: must be at least 1; tickMs: must be at least 10");
    const a = await joinQueue(server, "open_duel", { rating: 1000 });
    const b = await joinQueue(server, "open_duel", { rating: 1000 });
    await within(Promise.all([a.seat, b.seat]), 3000, "open_duel seats");
    for (const c of [a, b]) await c.queue.leave();
  });

  it("counts a ready-check decline in the queue's figures", async () => {
    const a = await joinQueue(server, "checked_duel", { rating: 1000 });
    const b = await joinQueue(server, "checked_duel", { rating: 1000 });
    const found = new Promise((resolve) => b.queue.onMessage("match_found", resolve));
    a.queue.onMessage("match_found", () => undefined);
    a.queue.onMessage("requeued", () => undefined);
    b.queue.onMessage("removed", () => undefined);
    await within(found, 3000, "match_found");
    const queueRoom = server.getRoomById<MatchmakerRoom>(a.queue.roomId);
    expect(queueRoom.getMetrics().declines).toBe(0);
    b.queue.send("decline");
    await vi.waitFor(() => expect(queueRoom.getMetrics()).toMatchObject({ declines: 1, waitingPlayers: 1 }));
    await a.queue.leave();
  });
});
