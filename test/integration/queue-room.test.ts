import { defineRoom, QueueRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { playFromQueue } from "../../example-client/queue-room-client.js";
import { defineQueue } from "../../src/index.js";
import { countingRoom } from "../helpers/counting-room.js";
import { testPort, within } from "../helpers/sdk.js";

/** A game room either queue may create. */
const { room: AnyGame, joined } = countingRoom(2);

describe("a QueueRoom client against a MatchmakerRoom", () => {
  let server: ColyseusTestServer;
  const endpoint = () => `ws://localhost:${testPort(23)}`;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          colyseus_queue: defineRoom(QueueRoom, { matchRoomName: "any_game", maxPlayers: 2 }),
          matchmaker_queue: defineQueue({ teamSize: 1, gameRoom: "any_game", tickMs: 200 }),
          any_game: defineRoom(AnyGame),
        },
      }),
      testPort(23),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  for (const queueName of ["colyseus_queue", "matchmaker_queue"]) {
    it(`lands two players in one game room from ${queueName}, the client unchanged`, async () => {
      const outcomes = await within(
        Promise.all([playFromQueue(endpoint(), queueName, 1200), playFromQueue(endpoint(), queueName, 1210)]),
        10_000,
        `two games from ${queueName}`,
      );
      const [a, b] = outcomes;
      expect(a.game.roomId).toBe(b.game.roomId);
      await vi.waitFor(() =>
        expect(joined.get(a.game.roomId)?.sort()).toEqual([a.game.sessionId, b.game.sessionId].sort()),
      );
      // `clients` counts arrived, and after `confirm` the queue closed the connection normally.
      for (const o of outcomes) {
        expect(o.clients.length).toBeGreaterThan(0);
        expect(o.clients.every((n) => Number.isInteger(n) && n >= 1)).toBe(true);
        expect(await within(o.queueClosed, 3000, "the queue to let the client go")).toBe(1000);
      }
      for (const o of outcomes) await o.game.leave();
    });
  }
});
