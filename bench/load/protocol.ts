/** What the load harness's processes say to each other (see run.ts, client.ts, server.ts). */

/** What the harness knows of a room it drives (server.ts registers each under its name). */
export interface LoadRoom {
  /** Players per game: the arrival stream arrives in whole games. */
  readonly seats: number;
  /**
   * How a player joins: the queue's `{ rating }`, QueueRoom's `{ rank }`, a bare room's nothing, or
   * a ranked queue's signed account token (accounts.ts) and nothing else: there the server reads the
   * rating, and the game room ends the game itself (the player waits for it to close).
   */
  readonly joins: "queue" | "queueroom" | "bare" | "ranked";
  /** The game room a bare room's player joins next (the floor's second join). */
  readonly game?: string;
  /** Fill only: every player on side A, so that no game can form. */
  readonly sideA?: boolean;
  /** The QueueRoom of the same game size, and the one regrouping every 20 ms (ratios in the arrival table). */
  readonly peer?: string;
  readonly peer20ms?: string;
  /** Its row's name in the fill table. */
  readonly label?: string;
  /** The room this one adds to: the tables' notes give the CPU ratio to it, run by run. */
  readonly base?: string;
}

const TWO_V_TWO = { seats: 4, peer: "queueroom", peer20ms: "queueroom_20ms" } as const;
const EIGHT = { seats: 8, peer: "queueroom_8", peer20ms: "queueroom_8_20ms" } as const;

/** Every room of the load server, by name. */
export const LOAD_ROOMS: Readonly<Record<string, LoadRoom>> = {
  queue_greedy: { ...TWO_V_TWO, joins: "queue" },
  queue_best: { ...TWO_V_TWO, joins: "queue" },
  queue_window: { ...TWO_V_TWO, joins: "queue" },
  queue_greedy_1s: { ...TWO_V_TWO, joins: "queue" },
  queue_ffa8: { ...EIGHT, joins: "queue" },
  queueroom: { ...TWO_V_TWO, joins: "queueroom" },
  queueroom_20ms: { ...TWO_V_TWO, joins: "queueroom" },
  queueroom_8: { ...EIGHT, joins: "queueroom" },
  queueroom_8_20ms: { ...EIGHT, joins: "queueroom" },
  bare: { ...TWO_V_TWO, joins: "bare", game: "game", label: "bare room" },
  bare_8: { ...EIGHT, joins: "bare", game: "game8" },
  fill_queue: { seats: 10, joins: "queue", sideA: true, label: "queue (5v5, all side A)" },
  fill_2v2: { seats: 4, joins: "queue", label: "queue 2v2 (held)" },
  fill_ffa8: { seats: 8, joins: "queue", label: "queue free-for-all of 8 (held)" },
  fill_queueroom_8: { seats: 8, joins: "queueroom", label: "QueueRoom of 8 (no group forms)" },
  queue_ranked: { ...TWO_V_TWO, joins: "ranked", base: "queue_greedy" },
  queue_ranked_memory: { ...TWO_V_TWO, joins: "ranked", base: "queue_greedy" },
  fill_ranked: { seats: 4, joins: "ranked", label: "ranked queue 2v2, SQLite (held)", base: "fill_2v2" },
};

/** The room called `name`; throws naming the rooms there are. */
export function loadRoom(name: string): LoadRoom {
  const room = LOAD_ROOMS[name];
  if (!room) throw new Error(`unknown load room ${name} (rooms: ${Object.keys(LOAD_ROOMS).join(", ")})`);
  return room;
}

/** A player's join options for `room` with this rating. */
export function joinOptions(room: LoadRoom, rating: number): Record<string, unknown> {
  if (room.joins === "bare" || room.joins === "ranked") return {};
  if (room.joins === "queueroom") return { rank: rating };
  return room.sideA ? { rating, side: "A" } : { rating };
}

/** `GET /load/stats` on the server process. */
export interface ServerStats {
  readonly pid: number;
  /** User + system CPU of the server process since it started (ms). */
  readonly cpuMs: number;
  /** The user and system (kernel) parts of `cpuMs`. */
  readonly userMs: number;
  readonly systemMs: number;
  /** CPU (ms) by thread name (Linux only; threads of one name summed): the event loop is `node`. */
  readonly threads: Readonly<Record<string, number>>;
  readonly rss: number;
  readonly heapUsed: number;
  /** Event-loop delay since the last reset (ms). */
  readonly eventLoopP99Ms: number;
  readonly eventLoopMaxMs: number;
}

/**
 * Read the server's stats (`endpoint`'s port on 127.0.0.1). A saturated server (or client) may
 * drop one request: retry a few times, a second apart, then give up.
 */
export async function serverStats(endpoint: string, query = ""): Promise<ServerStats> {
  const url = new URL(endpoint);
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${url.port}/load/stats${query}`);
      return (await response.json()) as ServerStats;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Players arriving at a fixed rate, each taking its seat. */
export interface ArrivalJob {
  readonly endpoint: string;
  /** A room of {@link LOAD_ROOMS}: a queue, a QueueRoom or a bare room. */
  readonly room: string;
  readonly rate: number;
  readonly durationS: number;
  /** After the last arrival, how long to wait for the last seats (the bound for "lost"). */
  readonly drainS: number;
  readonly seed: number;
}

export interface ArrivalResult {
  readonly players: number;
  readonly joined: number;
  readonly seated: number;
  readonly inGame: number;
  readonly failed: number;
  /** Joined, never seated within the bound. */
  readonly lost: number;
  readonly joinsPerS: number;
  readonly seatP50Ms: number;
  readonly seatP95Ms: number;
  readonly seatP99Ms: number;
  readonly gameP50Ms: number;
  readonly gameP99Ms: number;
  /** Server CPU from the first arrival to the end of the drain. */
  readonly cpuMs: number;
  /** Its kernel part, and the event loop thread's (the rest is the garbage collector's and libuv's threads). */
  readonly systemMs: number;
  readonly mainThreadMs: number;
  /** The client process's own CPU over the same span (the SDK clients driving the load). */
  readonly clientCpuMs: number;
  readonly wallMs: number;
  readonly streamMs: number;
  readonly rss: number;
  readonly eventLoopP99Ms: number;
}

/** Idle players joining one room and staying. */
export interface FillJob {
  readonly endpoint: string;
  /** A room of {@link LOAD_ROOMS} (`fill_*` or a bare room). */
  readonly room: string;
  readonly count: number;
  readonly concurrency: number;
  readonly timeoutS: number;
  readonly seed: number;
}

export interface FillResult {
  readonly joined: number;
  readonly failed: number;
  readonly ms: number;
  readonly timedOut: boolean;
}
