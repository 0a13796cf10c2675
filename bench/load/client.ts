/**
 * The load harness's client process (`bench/load/run.ts` forks it): real `@colyseus/sdk`
 * clients against the server process, commanded over IPC. It only connects to 127.0.0.1.
 *
 * A ranked room's players (`joins: "ranked"`) each have a client of their own, signed in with their
 * account's token (accounts.ts); in an arrival stream an account whose game is over comes back as
 * a later arrival.
 *
 * Commands (one at a time):
 * - `arrival`: players arrive at a fixed rate for a fixed time; each joins, waits for its seat,
 *   takes it, and leaves; answers the latencies, counts and the server's CPU over the run;
 * - `fill`: `count` idle players join (at most `concurrency` joins in flight) and stay;
 * - `count`: how many messages (room messages and state patches) the idle players received;
 * - `close`: every player leaves; the process exits.
 */
import "../../example-server/node20.js";
import { Client, type Room } from "@colyseus/sdk";
import type { SeatMessage } from "../../src/client/index.js";
import { accountToken } from "./accounts.js";
import {
  joinOptions,
  loadRoom,
  serverStats,
  type ArrivalJob,
  type ArrivalResult,
  type FillJob,
  type FillResult,
  type LoadRoom,
} from "./protocol.js";

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function checkLocal(endpoint: string): void {
  const url = new URL(endpoint);
  if (url.hostname !== "127.0.0.1") throw new Error(`load client: only 127.0.0.1, not ${url.hostname}`);
}

/** A seeded generator (mulberry32) so runs see the same ratings. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A rating around 1500 (normal, sd 100, clamped to the queue's default scale). */
function rating(rand: () => number): number {
  const u = Math.max(1e-9, rand());
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  return Math.round(Math.min(2900, Math.max(100, 1500 + 100 * z)));
}

/** A client of its own for one account: the SDK sends its token with every join. */
function signedIn(endpoint: string, token: string): Client {
  const client = new Client(endpoint);
  client.auth.token = token;
  return client;
}

interface Player {
  joinStart: number;
  joined?: number;
  seated?: number;
  inGame?: number;
  failed?: boolean;
}

async function playQueue(client: Client, name: string, room: LoadRoom, p: Player, r: number): Promise<void> {
  const isQueueRoom = room.joins === "queueroom";
  const queue = await client.joinOrCreate(name, joinOptions(room, r));
  p.joined = now();
  await new Promise<void>((resolve, reject) => {
    queue.onMessage("*", () => undefined);
    queue.onMessage("seat", (seat: SeatMessage) => {
      p.seated = now();
      client.consumeSeatReservation(seat).then(async (game) => {
        p.inGame = now();
        // A ranked game ends itself: the player waits for it to close instead of leaving.
        const over = room.joins === "ranked" ? new Promise<void>((closed) => game.onLeave(() => closed())) : undefined;
        if (isQueueRoom) queue.send("confirm");
        else await queue.leave();
        if (over) await over;
        else {
          await sleep(50);
          await game.leave();
        }
        resolve();
      }, reject);
    });
  });
}

async function playBare(client: Client, name: string, room: LoadRoom, p: Player): Promise<void> {
  const lobby = await client.joinOrCreate(name);
  p.joined = now();
  p.seated = p.joined;
  const game = await client.joinOrCreate(room.game!);
  p.inGame = now();
  await lobby.leave();
  await sleep(50);
  await game.leave();
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p * sorted.length) / 100)) - 1];
}

async function arrival(job: ArrivalJob): Promise<ArrivalResult> {
  checkLocal(job.endpoint);
  const client = new Client(job.endpoint);
  const rand = random(job.seed);
  const room = loadRoom(job.room);
  const total = Math.ceil((job.rate * job.durationS) / room.seats) * room.seats; // whole games
  const players: Player[] = [];
  const done: Promise<void>[] = [];
  // Accounts signed before the stream starts. A player whose game is over comes back as the next
  // arrival (with the rating its games gave it); an arrival takes a new account only when none is back.
  const tokens =
    room.joins === "ranked"
      ? await Promise.all(Array.from({ length: total }, (_, i) => accountToken(`a${job.seed}-${i}`)))
      : [];
  const returning: string[] = [];
  let fresh = 0;
  const before = await serverStats(job.endpoint, "?reset=1");
  const clientCpu0 = process.cpuUsage();
  const t0 = now();
  // Arrivals on a fixed schedule: player i starts at t0 + i / rate.
  while (players.length < total) {
    const due = Math.min(total, Math.floor(((now() - t0) * job.rate) / 1000) + 1);
    while (players.length < due) {
      const p: Player = { joinStart: now() };
      players.push(p);
      const r = rating(rand);
      const token = room.joins === "ranked" ? (returning.shift() ?? tokens[fresh++]) : undefined;
      const own = token !== undefined ? signedIn(job.endpoint, token) : client;
      const play = room.joins === "bare" ? playBare(client, job.room, room, p) : playQueue(own, job.room, room, p, r);
      done.push(
        play.then(
          () => {
            if (token !== undefined) returning.push(token);
          },
          () => {
            p.failed = true;
          },
        ),
      );
    }
    await sleep(2);
  }
  const streamEnd = now();
  // Drain: wait for every player to be seated and in its game, at most `drainS`.
  await Promise.race([Promise.all(done), sleep(job.drainS * 1000)]);
  const end = now();
  const clientCpu = process.cpuUsage(clientCpu0);
  const after = await serverStats(job.endpoint);
  const joined = players.filter((p) => p.joined !== undefined);
  const seated = players.filter((p) => p.seated !== undefined);
  const lastJoin = Math.max(...joined.map((p) => p.joined!));
  return {
    players: total,
    joined: joined.length,
    seated: seated.length,
    inGame: players.filter((p) => p.inGame !== undefined).length,
    failed: players.filter((p) => p.failed).length,
    lost: joined.length - seated.length,
    joinsPerS: joined.length / ((lastJoin - t0) / 1000),
    seatP50Ms: percentile(
      seated.map((p) => p.seated! - p.joinStart),
      50,
    ),
    seatP95Ms: percentile(
      seated.map((p) => p.seated! - p.joinStart),
      95,
    ),
    seatP99Ms: percentile(
      seated.map((p) => p.seated! - p.joinStart),
      99,
    ),
    gameP50Ms: percentile(
      players.filter((p) => p.inGame !== undefined).map((p) => p.inGame! - p.joinStart),
      50,
    ),
    gameP99Ms: percentile(
      players.filter((p) => p.inGame !== undefined).map((p) => p.inGame! - p.joinStart),
      99,
    ),
    cpuMs: after.cpuMs - before.cpuMs,
    systemMs: after.systemMs - before.systemMs,
    mainThreadMs: (after.threads.node ?? NaN) - (before.threads.node ?? NaN),
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    wallMs: end - t0,
    streamMs: streamEnd - t0,
    rss: after.rss,
    eventLoopP99Ms: after.eventLoopP99Ms,
  };
}

// ---- fill: idle players that stay ----

const idle: Room[] = [];
let received = 0;

async function fill(job: FillJob): Promise<FillResult> {
  checkLocal(job.endpoint);
  const client = new Client(job.endpoint);
  const rand = random(job.seed);
  const room = loadRoom(job.room);
  const deadline = now() + job.timeoutS * 1000;
  let next = 0;
  let failed = 0;
  let joined = 0;
  const t0 = now();
  const worker = async () => {
    while (next < job.count && now() < deadline) {
      const n = next++;
      const options = joinOptions(room, rating(rand));
      try {
        const own = room.joins === "ranked" ? signedIn(job.endpoint, await accountToken(`f${job.seed}-${n}`)) : client;
        const joinedRoom = await own.joinOrCreate(job.room, options);
        joinedRoom.onMessage("*", () => received++);
        joinedRoom.onStateChange(() => received++);
        idle.push(joinedRoom);
        joined++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(job.concurrency, job.count) }, worker));
  return { joined, failed, ms: now() - t0, timedOut: joined + failed < job.count };
}

type Command =
  { cmd: "arrival"; job: ArrivalJob } | { cmd: "fill"; job: FillJob } | { cmd: "count" } | { cmd: "close" };

process.on("message", (message: Command) => {
  const reply = (value: unknown) => process.send!({ cmd: message.cmd, value });
  const fail = (error: unknown) => process.send!({ cmd: message.cmd, error: String(error) });
  if (message.cmd === "arrival") arrival(message.job).then(reply, fail);
  else if (message.cmd === "fill") fill(message.job).then(reply, fail);
  else if (message.cmd === "count") reply({ received, clients: idle.length });
  else if (message.cmd === "close") {
    // Closing the sockets is enough; the server process is stopped next.
    for (const room of idle) room.connection.close();
    setTimeout(() => process.exit(0), 200);
  }
});
process.on("disconnect", () => process.exit(0));
process.send?.({ cmd: "ready" });
