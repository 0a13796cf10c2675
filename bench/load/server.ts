/**
 * The load harness's server process: one fresh process per scenario (`bench/load/run.ts`
 * starts it). It listens on 127.0.0.1 only and serves, besides the rooms, `GET /load/stats`:
 * this process's CPU (`process.cpuUsage()`), memory, and event-loop delay since the last
 * `?reset=1`, and with `?gc=1` the heap after a full collection (needs `--expose-gc`).
 *
 * Rooms (protocol.ts's `LOAD_ROOMS` says what the harness needs of each):
 * - `queue_greedy`, `queue_best`, `queue_window`: 2v2 `MatchmakerRoom`s (greedy, best-game,
 *   expanding-window) seating players in `game`;
 * - `queue_greedy_1s`: the greedy queue batching its joins for a second (`joinBatchMs` 1000), as
 *   QueueRoom regroups: the queue at QueueRoom's latency (not in the default set);
 * - `queue_ffa8`: a free-for-all of 8 (`maxPlayers: 8`, greedy) seating players in `game8`;
 * - `fill_queue`: a 5v5 `MatchmakerRoom`; the fill joins every player with `side: "A"`, so no
 *   game can form and the pool only grows;
 * - `fill_2v2`, `fill_ffa8`: the 2v2 and the free-for-all of 8 (greedy) held: their game room
 *   type fails to start and the spawn backoff waits ten minutes before the next attempt, so after
 *   the first games fail nobody is matched and the pool only grows (a free-for-all has no sides:
 *   nothing a solo joins with keeps eight of them from a game);
 * - `queueroom`, `queueroom_8`: Colyseus's `QueueRoom` for the same traffic (groups of 4 in
 *   `game`, of 8 in `game8`);
 * - `queueroom_20ms`, `queueroom_8_20ms`: the same `QueueRoom`s regrouping every 20 ms instead of
 *   every second, the queue's own `joinBatchMs`: QueueRoom at the queue's latency;
 * - `fill_queueroom_8`: a `QueueRoom` of 8 whose `compare` refuses every group, so nobody is
 *   grouped and the pool only grows (it still regroups everyone every second);
 * - `bare`, `bare_8`: a plain room without state (the floor: what Colyseus costs per
 *   connection); the arrival stream's players then join `game` or `game8`;
 * - `game`, `game8`: plain game rooms without state, four and eight seats; `failing_game`: a
 *   game room that never starts.
 * - `queue_ranked`: the greedy 2v2 ranked (issue 36): `players` takes the account from a token
 *   the load client signed (accounts.ts), `ratings` keeps them in SQLite in a temporary file; its
 *   `ranked_game` reports a result (team 0 won) once all four seats arrived, then closes.
 *   `queue_ranked_memory`: the same on a `MemoryRatingStore` (`ranked_game_memory`), the store's
 *   share apart; `fill_ranked`: the ranked 2v2 held as `fill_2v2` is (`failing_ranked_game`).
 */
import "../../example-server/node20.js";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineRoom, defineServer, Room, type Client } from "@colyseus/core";
import { QueueRoom } from "colyseus";
import {
  defineQueue,
  MemoryRatingStore,
  playerArrived,
  PlayerRefused,
  queueSeatsOnly,
  Ratings,
  SqliteRatingStore,
  type MatchInfo,
} from "../../src/index.js";
import { accountOf } from "./accounts.js";

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

/** Eight seats, for the free-for-all of 8 and QueueRoom's groups of 8. */
class LoadGameRoom8 extends LoadGameRoom {
  override maxClients = 8;
}

/** A game room that never starts: the held queues' game room type (see `fill_2v2`). */
class FailingGameRoom extends Room {
  override onCreate(): void {
    throw new Error("this load harness game room never starts (it holds its queue)");
  }
}

/** A ranked game over as soon as it starts: it reports that team 0 won once every seat arrived, then closes. */
function rankedGameRoom(ratings: Ratings) {
  return class RankedGameRoom extends Room {
    static override onAuth = queueSeatsOnly; // a ranked queue's game room takes only its seats
    override maxClients = 4;
    private match!: MatchInfo;
    private arrived = 0;
    override onCreate(options: { match: MatchInfo }): void {
      this.match = options.match;
    }
    override async onJoin(client: Client): Promise<void> {
      void playerArrived(this.match, client.sessionId);
      if (++this.arrived < this.match.teams.reduce((n, team) => n + team.players.length, 0)) return;
      await ratings.reportResult(this.match, { winner: 0 });
      await this.disconnect();
    }
  };
}

/** The held ranked queue's game room: never starts, and takes only the queue's seats (a ranked queue needs both). */
class FailingRankedGameRoom extends FailingGameRoom {
  static override onAuth = queueSeatsOnly;
}

/** A QueueRoom that groups nobody: no client is ever high priority (its `compare` refuses every group). */
class StuckQueueRoom extends QueueRoom {
  override maxWaitingCyclesForPriority: number | undefined = undefined;
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
/** Held: the first games fail to start, and the next attempt waits ten minutes (longer than any fill). */
const held = { gameRoom: "failing_game", policy: "greedy", spawnRetryMs: 600_000, spawnRetryMaxMs: 600_000 };

// The ranked rooms' ratings: SQLite in a file of this process's own (removed at exit), or memory.
const ratingsDir = mkdtempSync(join(tmpdir(), "load-ratings-"));
process.on("exit", () => rmSync(ratingsDir, { recursive: true, force: true }));
const sqliteRatings = new Ratings({ store: new SqliteRatingStore({ path: join(ratingsDir, "ratings.sqlite") }) });
const memoryRatings = new Ratings({ store: new MemoryRatingStore() });
/** A ranked 2v2: the account from the client's signed token, the rating from `ratings`. */
const ranked = (ratings: Ratings, gameRoom: string, hold = false) =>
  defineQueue({
    teamSize: 2,
    ...(hold ? { ...held, gameRoom } : { gameRoom, policy: "greedy" }),
    ratings,
    players: {
      resolve: async ({ token }) => {
        const id = token ? await accountOf(token).catch(() => undefined) : undefined;
        if (!id) throw new PlayerRefused("sign in first");
        return { playerId: id };
      },
    },
  });

const server = defineServer({
  rooms: {
    queue_greedy: queue("greedy"),
    queue_best: queue("best-game"),
    queue_window: queue("expanding-window"),
    queue_greedy_1s: queue("greedy", 1000),
    queue_ffa8: defineQueue({ maxPlayers: 8, gameRoom: "game8", policy: "greedy" }),
    fill_queue: defineQueue({ teamSize: 5, gameRoom: "game", policy: "greedy" }),
    fill_2v2: defineQueue({ teamSize: 2, ...held }),
    fill_ffa8: defineQueue({ maxPlayers: 8, ...held }),
    queueroom: defineRoom(QueueRoom, { maxPlayers: 4, matchRoomName: "game" }),
    queueroom_20ms: defineRoom(QueueRoom20ms, { maxPlayers: 4, matchRoomName: "game" }),
    queueroom_8: defineRoom(QueueRoom, { maxPlayers: 8, matchRoomName: "game8" }),
    queueroom_8_20ms: defineRoom(QueueRoom20ms, { maxPlayers: 8, matchRoomName: "game8" }),
    fill_queueroom_8: defineRoom(StuckQueueRoom, { maxPlayers: 8, matchRoomName: "game8", compare: () => false }),
    bare: defineRoom(BareRoom),
    bare_8: defineRoom(BareRoom),
    game: defineRoom(LoadGameRoom),
    game8: defineRoom(LoadGameRoom8),
    failing_game: defineRoom(FailingGameRoom),
    queue_ranked: ranked(sqliteRatings, "ranked_game"),
    queue_ranked_memory: ranked(memoryRatings, "ranked_game_memory"),
    fill_ranked: ranked(sqliteRatings, "failing_ranked_game", true),
    ranked_game: defineRoom(rankedGameRoom(sqliteRatings)),
    ranked_game_memory: defineRoom(rankedGameRoom(memoryRatings)),
    failing_ranked_game: defineRoom(FailingRankedGameRoom),
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
