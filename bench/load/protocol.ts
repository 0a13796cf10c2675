/** What the load harness's processes say to each other (see run.ts, client.ts, server.ts). */

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
  /** `queue_greedy`, `queue_best`, `queue_window`, `queue_greedy_1s`, `queueroom`, `queueroom_20ms` or `bare`. */
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
  /** `fill_queue` or `bare`. */
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
