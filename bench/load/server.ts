/**
 * The load harness's server process: one fresh process per scenario (`bench/load/run.ts`
 * starts it). It listens on 127.0.0.1 only and serves, besides the rooms, `GET /load/stats`:
 * this process's CPU (`process.cpuUsage()`), memory, and event-loop delay since the last
 * `?reset=1`, and with `?gc=1` the heap after a full collection (needs `--expose-gc`).
 *
 * Rooms:
 * - `queue_greedy`, `queue_best`, `queue_window`: 2v2 `MatchmakerRoom`s (greedy, best-game,
 *   expanding-window) seating players in `game`;
 * - `queue_greedy_1s`: the greedy queue batching its joins for a second (`joinBatchMs` 1000), as
 *   QueueRoom regroups: the queue at QueueRoom's latency (not in the default set);
 * - `fill_queue`: a 5v5 `MatchmakerRoom`; the fill joins every player with `side: "A"`, so no
 *   game can form and the pool only grows;
 * - `queueroom`: Colyseus's `QueueRoom` for the same 2v2 traffic (groups of 4, `game`);
 * - `queueroom_20ms`: the same `QueueRoom` regrouping every 20 ms instead of every second, the
 *   queue's own `joinBatchMs`: QueueRoom at the queue's latency;
 * - `bare`: a plain room without state (the floor: what Colyseus costs per connection);
 * - `game`: a plain game room without state, four seats.
 */
import "../../example-server/node20.js";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { readdirSync, readFileSync } from "node:fs";
import { defineRoom, defineServer, Room, type Client } from "@colyseus/core";
import { QueueRoom } from "colyseus";
import { defineQueue, playerArrived, type MatchInfo } from "../../src/index.js";

/** A game room with no state: the queue's seats end here (it tells the queue who arrived, as a game should). */
class LoadGameRoom extends Room {
  override maxClients = 4;
  private match?: MatchInfo;
  override onCreate(options: { match?: MatchInfo }): void {
    this.match = options.match;
  }
  override onJoin(client: Client): void {
    void playerArrived(this.match, client.sessionId);
  }
}

/** QueueRoom regrouping as often as the queue batches its joins (`joinBatchMs` 20): the peer at equal latency. */
class QueueRoom20ms extends QueueRoom {
  override cycleTickInterval = 20;
}

/** A room with no state and no limit: what a connection costs Colyseus itself. */
class BareRoom extends Room {
  override maxClients = Number.POSITIVE_INFINITY;
  override onJoin(_client: Client): void {}
}

const port = Number(process.env.LOAD_PORT ?? 7000);
if (!(port >= 7000 && port <= 7099)) throw new Error("LOAD_PORT must be in 7000-7099");

const queue = (policy: string, joinBatchMs?: number) =>
  defineQueue({ teamSize: 2, gameRoom: "game", policy, ...(joinBatchMs !== undefined ? { joinBatchMs } : {}) });

const server = defineServer({
  rooms: {
    queue_greedy: queue("greedy"),
    queue_best: queue("best-game"),
    queue_window: queue("expanding-window"),
    queue_greedy_1s: queue("greedy", 1000),
    fill_queue: defineQueue({ teamSize: 5, gameRoom: "game", policy: "greedy" }),
    queueroom: defineRoom(QueueRoom, { maxPlayers: 4, matchRoomName: "game" }),
    queueroom_20ms: defineRoom(QueueRoom20ms, { maxPlayers: 4, matchRoomName: "game" }),
    bare: defineRoom(BareRoom),
    game: defineRoom(LoadGameRoom),
  },
  express: (app) => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    app.get("/load/stats", (req, res) => {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (req.query.gc === "1" && gc) {
        gc();
        gc();
      }
      const cpu = process.cpuUsage();
      const threads: Record<string, number> = {};
      try {
        for (const tid of readdirSync("/proc/self/task")) {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
          const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
          const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
          threads[name] = (threads[name] ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / 100;
        }
      } catch {
        // not Linux: no per-thread figures
      }
      const mem = process.memoryUsage();
      const body = {
        pid: process.pid,
        cpuMs: (cpu.user + cpu.system) / 1000,
        userMs: cpu.user / 1000,
        systemMs: cpu.system / 1000,
        threads,
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        eventLoopP99Ms: delay.count > 0 ? delay.percentile(99) / 1e6 : 0,
        eventLoopMaxMs: delay.count > 0 ? delay.max / 1e6 : 0,
      };
      if (req.query.reset === "1") delay.reset();
      res.json(body);
    });
  },
});

await server.listen(port, "127.0.0.1");
process.send?.({ ready: port });
// The harness stops this process; never outlive it.
process.on("disconnect", () => process.exit(0));
