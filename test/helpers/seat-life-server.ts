/**
 * One process of the seat-life scale-out test (test/integration/seat-life-scale-out.test.ts),
 * run as a child process on Redis (REDIS_URL, PUBLIC_ADDRESS, PORT): a 1v1 queue whose game rooms
 * (the demo game, which reports arrivals) are always placed on another process than the one
 * creating them, so the test can kill the game rooms' process and keep the queue. The game rooms
 * reserve seats for SEAT_RESERVATION_S seconds. Prints "listening" once it accepts clients.
 */
import "../../example-server/node20.js";
import { defineRoom, matchMaker } from "@colyseus/core";
import config, { listen } from "@colyseus/tools";
import { DemoGameRoom } from "../../example-server/DemoGameRoom.js";
import { scaleOutOptions } from "../../example-server/scale-out.js";
import { defineQueue, matchmakerMetrics, type MatchInfo } from "../../src/index.js";

const port = Number(process.env.PORT);
const reservation = Number(process.env.SEAT_RESERVATION_S ?? 15);
if (!Number.isInteger(port) || !process.env.REDIS_URL)
  throw new Error("seat-life-server: PORT and REDIS_URL are required");

class SeatGameRoom extends DemoGameRoom {
  override onCreate(options: { match: MatchInfo }): void {
    this.seatReservationTimeout = reservation;
    super.onCreate(options);
  }
}

/** Game rooms on another process than this one (when there is one); other rooms on the least loaded. */
async function selectProcess(roomName: string): Promise<string> {
  const all = await matchMaker.stats.fetchAll();
  if (roomName === "seat_game") {
    const other = all.find((p) => p.processId !== matchMaker.processId);
    if (other) return other.processId;
  }
  return all.sort((a, b) => a.roomCount - b.roomCount)[0]?.processId ?? matchMaker.processId;
}

await listen(
  config({
    rooms: {
      seat_duel: defineQueue({ teamSize: 1, gameRoom: "seat_game", policy: "greedy", tickMs: 100 }),
      seat_game: defineRoom(SeatGameRoom),
    },
    options: { ...scaleOutOptions(port), selectProcessIdToCreateRoom: selectProcess },
    initializeExpress: (app) => {
      app.use("/matchmaker/metrics", matchmakerMetrics());
    },
    displayLogs: false,
  }),
  port,
);
console.log(`listening on ${port} as pid ${process.pid}`);
