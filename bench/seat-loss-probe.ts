/**
 * Probe: kill the game rooms' process while matched players consume their seats, and count who
 * is stuck. Two example servers (`example-server/index.ts`) share Redis; PLAYERS (default 21)
 * SDK clients join the 1v1 `duel` queue through both, get their seats, and all consume them
 * while the process hosting the game rooms (the one without the queue) is killed with SIGKILL.
 * A client keeps its queue connection when its seat fails (as the README's client does) and
 * takes any later seat. After WAIT_MS (default 25 s, past Colyseus's 15 s reservation) it prints
 * how each player ended: entered at once, entered after being re-queued, or stuck (its seat
 * failed and the queue never said anything again).
 *
 * With MODE=unused instead: two players are matched, one enters and the other ignores its seat
 * while staying in the queue; after WAIT_MS a third player joins. It prints whether the idle
 * player was told anything and whether it got a new seat.
 *
 *   npx tsx bench/seat-loss-probe.ts                      # this checkout
 *   PROBE_ROOT=/path/to/other/checkout npx tsx bench/seat-loss-probe.ts   # e.g. before a change
 *
 * Needs Redis (REDIS_URL, default redis://127.0.0.1:6379; keys under its own prefix, removed at
 * the end). Ports: TEST_PORT_BASE (default 2570) + 63 and + 64. Bounded: every wait has a limit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, type Room } from "@colyseus/sdk";
import { Redis } from "ioredis";

const ROOT = process.env.PROBE_ROOT ?? fileURLToPath(new URL("..", import.meta.url));
const REDIS = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `mm-seat-loss-probe:${process.pid}:${Date.now()}:`;
const BASE = Number(process.env.TEST_PORT_BASE ?? 2570);
const PORTS = [BASE + 63, BASE + 64];
// Odd: one player is always left waiting, so the queue room (and its figures) outlive the run.
const PLAYERS = Number(process.env.PLAYERS ?? 21);
const WAIT_MS = Number(process.env.WAIT_MS ?? 25_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`timed out: ${what}`)))]);
}

function startServer(port: number): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", "example-server/index.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      REDIS_URL: `${REDIS}?keyPrefix=${encodeURIComponent(PREFIX)}`,
      PUBLIC_ADDRESS: `127.0.0.1:${port}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      out += c;
      if (out.includes("matchmaker example")) resolve();
    });
    child.stderr!.on("data", (c: Buffer) => (out += c));
    child.on("exit", (code) => reject(new Error(`server ${port} exited (${code}): ${out.slice(-1000)}`)));
  });
  ready.catch(() => undefined);
  return { child, ready: within(ready, 20_000, `server ${port}`) };
}

interface Player {
  sdk: Client;
  queue: Room;
  seats: Array<{ roomId: string; publicAddress?: string }>;
  requeued: string[];
  first?: "entered" | "failed";
  later: number;
}

const redis = new Redis(REDIS);
const servers = PORTS.map(startServer);
const players: Player[] = [];
try {
  await Promise.all(servers.map((s) => s.ready));
  for (let i = 0; i < 50 && Object.keys(await redis.hgetall(`${PREFIX}roomcount`)).length < 2; i++) await sleep(100);
  if (process.env.MODE === "unused") await unusedSeat();
  else await killedProcess();
} finally {
  for (const p of players) p.queue.connection.close();
  for (const s of servers) s.child.kill("SIGKILL");
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}
process.exit(0);

/** Join the duel queue; every seat is recorded, and a second or later seat is taken at once. */
async function join(port: number, rating: number): Promise<Player> {
  const sdk = new Client(`ws://127.0.0.1:${port}`);
  const queue = await sdk.joinOrCreate("duel", { rating });
  const p: Player = { sdk, queue, seats: [], requeued: [], later: 0 };
  queue.onMessage("seat", (seat) => {
    p.seats.push(seat);
    if (p.seats.length > 1)
      sdk.consumeSeatReservation(seat).then(
        () => void (p.later++, queue.leave().catch(() => undefined)),
        () => undefined,
      );
  });
  queue.onMessage("requeued", (m: { reason: string }) => p.requeued.push(m.reason));
  queue.onMessage("*", () => undefined);
  players.push(p);
  return p;
}

/** A matched player who never consumes its seat, still connected to the queue. */
async function unusedSeat(): Promise<void> {
  const idle = await join(PORTS[0]!, 1500);
  const good = await join(PORTS[1]!, 1500);
  for (let i = 0; i < 50 && (idle.seats.length === 0 || good.seats.length === 0); i++) await sleep(100);
  await good.sdk.consumeSeatReservation(good.seats[0] as never);
  await good.queue.leave();
  await sleep(WAIT_MS);
  const late = await join(PORTS[0]!, 1500);
  for (let i = 0; i < 50 && idle.seats.length < 2; i++) await sleep(100);
  console.log(`\nunused-seat probe: waited ${WAIT_MS} ms after the seat, then a third player joined`);
  console.log("| idle player | |\n|---|---|");
  console.log(`| told requeued | ${JSON.stringify(idle.requeued)} |`);
  console.log(`| seats received | ${idle.seats.length} |`);
  console.log(
    `| matched with the newcomer | ${late.seats.length > 0 && idle.seats[1]?.roomId === late.seats[0]?.roomId} |`,
  );
}

/** Kill the game rooms' process while every matched player consumes its seat. */
async function killedProcess(): Promise<void> {
  for (let i = 0; i < PLAYERS; i++) await join(PORTS[i % 2]!, 1500 + i);
  for (let i = 0; i < 150 && players.filter((p) => p.seats.length === 0).length > PLAYERS % 2; i++) await sleep(100);

  const queueRoomId = players[0]!.queue.roomId;
  const onPort = await Promise.all(
    PORTS.map(async (port) => {
      const body = (await (await fetch(`http://127.0.0.1:${port}/matchmaker/metrics`)).json()) as {
        queues: Array<{ roomId: string }>;
      };
      return body.queues.some((q) => q.roomId === queueRoomId);
    }),
  );
  const queueIndex = onPort.indexOf(true);
  const gamePort = PORTS[1 - queueIndex]!;
  const onGameProcess = players.filter((p) => p.seats[0]?.publicAddress === `127.0.0.1:${gamePort}`).length;

  // Everyone consumes; the game rooms' process dies meanwhile.
  const consumes = players.map((p) =>
    !p.seats[0]
      ? Promise.resolve()
      : within(p.sdk.consumeSeatReservation(p.seats[0] as never), 10_000, "consume").then(
          () => {
            p.first = "entered";
            return p.queue.leave().catch(() => undefined);
          },
          () => void (p.first = "failed"),
        ),
  );
  servers[1 - queueIndex]!.child.kill("SIGKILL");
  await Promise.all(consumes);
  await sleep(WAIT_MS);

  const failed = players.filter((p) => p.first === "failed");
  const row = (what: string, n: number) => console.log(`| ${what} | ${n} |`);
  console.log(
    `\nseat-loss probe: ${PLAYERS} players, ${onGameProcess} seats on the killed process, waited ${WAIT_MS} ms`,
  );
  console.log("| players | count |\n|---|---|");
  row("entered at once", players.filter((p) => p.first === "entered").length);
  row("seat failed", failed.length);
  row("…re-queued (told requeued)", failed.filter((p) => p.requeued.length > 0).length);
  row("…entered a later game", failed.filter((p) => p.later > 0).length);
  row(
    "…stuck (nothing after the failed seat)",
    failed.filter((p) => p.requeued.length === 0 && p.seats.length === 1).length,
  );
  console.log(`requeued reasons: ${JSON.stringify(failed.flatMap((p) => p.requeued))}`);
  const figures = (await (await fetch(`http://127.0.0.1:${PORTS[queueIndex]}/matchmaker/metrics`)).json()) as {
    queues: Array<Record<string, unknown>>;
  };
  const q = figures.queues.find((x) => x.roomId === queueRoomId) ?? {};
  console.log(
    `queue figures: ${JSON.stringify(Object.fromEntries(Object.entries(q).filter(([k]) => k.startsWith("seats") || k === "waitingPlayers")))}`,
  );
}
