/**
 * Issue 16's probes, rerun: the attacks and the unlucky player of "Nothing lost after the seat,
 * and safe defaults" against the example server (started here as its own process, with operator
 * credentials, on its own port), plus a server whose game room always fails. Prints a markdown
 * table: each probe, what the issue measured before, and what it gives now.
 *
 *   npx tsx bench/probes/issue16.ts            (PROBE_PORT, default 2690; the failing server uses PROBE_PORT + 1)
 *
 * Every loop is bounded in count and time, and only 127.0.0.1 is contacted. The seat-lifecycle
 * probes (unused seats, a killed game process) are not here. Takes about a minute.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Client, type Room as SdkRoom } from "@colyseus/sdk";
import { WebSocket } from "ws";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PORT = Number(process.env.PROBE_PORT ?? 2690);
const FAILING_PORT = PORT + 1;
const USER = "probe-operator";
const PASSWORD = randomBytes(12).toString("hex");
const MiB = 1024 * 1024;

/** A server under probe: its own process, its output counted. */
class ServerProcess {
  private readonly child: ChildProcess;
  private text = "";
  bytes = 0;

  constructor(script: string, port: number, env: Record<string, string> = {}) {
    // `node --import tsx` (not `npx tsx`): the process's pid is the server's, for its memory.
    this.child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      stream.on("data", (chunk: Buffer) => {
        this.bytes += chunk.length;
        if (this.text.length < 4 * MiB) this.text += chunk.toString("utf8");
      });
    }
  }

  /** Resolves once the server says it listens (or fails after 30 s). */
  async ready(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!this.text.includes("Listening on")) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`server did not start:\n${this.text}`);
      await sleep(100);
    }
  }

  /** Output since `mark` (a {@link textLength} taken earlier; the text is kept up to 4 MiB). */
  outputSince(mark: number): string {
    return this.text.slice(mark);
  }

  get textLength(): number {
    return this.text.length;
  }

  /** Resident memory (bytes), from /proc. */
  rss(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGTERM");
    const killer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killer);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Resolve with `promise`'s value, or with `fallback` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => fallback)]);
}

/** A queue client that registers every message type the queue sends (so the SDK stays quiet). */
async function joinQueue(client: Client, queue: string, options: Record<string, unknown>) {
  const room = await client.joinOrCreate(queue, options);
  const received: Record<string, unknown[]> = {};
  let seated!: (at: number) => void;
  const seat = new Promise<number>((resolve) => (seated = resolve));
  for (const type of ["status", "clients", "party", "match_found", "requeued", "removed", "seat"]) {
    room.onMessage(type, (payload: unknown) => {
      (received[type] ??= []).push(payload);
      if (type === "seat") seated(performance.now());
    });
  }
  return { room, received, seat };
}

const http = (port: number) => `http://127.0.0.1:${port}`;

interface Row {
  readonly probe: string;
  readonly before: string;
  readonly after: string;
}

// ---------------------------------------------------------------------------------------------

/** Anonymous operator routes, with credentials configured (as on a deployed server). */
async function probeOperatorRoutes(client: Client): Promise<Row[]> {
  const waiting = await joinQueue(client, "duel", { rating: 1500 });
  const roomId = waiting.room.roomId;
  const statusOf = async (path: string) => (await fetch(http(PORT) + path)).status;
  const room = await statusOf(`/monitor/api/room?roomId=${roomId}`);
  const call = await statusOf(`/monitor/api/room/call?roomId=${roomId}&method=disconnect`);
  const metrics = await statusOf("/matchmaker/metrics");
  const authorized = await fetch(`${http(PORT)}/matchmaker/metrics`, {
    headers: { Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}` },
  });
  const queues = ((await authorized.json()) as { queues: Array<{ queue: string; waitingPlayers: number }> }).queues;
  const stillWaiting = queues.find((q) => q.queue === "duel")?.waitingPlayers ?? 0;
  await waiting.room.leave();
  return [
    {
      probe: "anonymous `GET /monitor/api/room?roomId=…`",
      before: "200: every waiting player's rating and session id",
      after: `${room}`,
    },
    {
      probe: "anonymous `GET /monitor/api/room/call?…&method=disconnect`",
      before: "disconnected the whole queue",
      after: `${call}; the player still waits (${stillWaiting} waiting)`,
    },
    { probe: "anonymous `GET /matchmaker/metrics`", before: "200 (open)", after: `${metrics}` },
  ];
}

/** POST `total` bytes (announced), stopping at the answer: status, bytes sent by then, ms. */
function postLarge(path: string, total: number): Promise<{ status: number; sent: number; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let sent = 0;
    let status = 0;
    const done = () => resolve({ status, sent, ms: Math.round(performance.now() - started) });
    const req = request(`${http(PORT)}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(total) },
    });
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on("end", () => {
        req.destroy();
        done();
      });
    });
    req.on("error", () => done()); // the server closed the connection after answering
    const chunk = Buffer.alloc(64 * 1024, 32);
    // Like a patient client: the first 64 KiB, then a moment for an answer from the headers (a
    // server that closes after answering would otherwise reset a socket still being written to).
    req.write(chunk);
    sent = chunk.length;
    const pump = () => {
      while (sent < total && status === 0 && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (sent >= total) req.end();
    };
    setTimeout(pump, 200);
  });
}

async function probeLargeBody(server: ServerProcess): Promise<Row> {
  const before = server.rss();
  const results = [];
  for (let i = 0; i < 3; i++) results.push(await postLarge("/matchmake/joinOrCreate/duel", 64 * MiB));
  await sleep(500);
  const growth = (server.rss() - before) / MiB;
  const sentKiB = Math.max(...results.map((r) => r.sent)) / 1024;
  return {
    probe: "64 MiB body on `/matchmake/joinOrCreate/duel` (3 times)",
    before: "read in full and accepted; server memory 123 → 512 MiB",
    after: `${results.map((r) => r.status).join(", ")} within ${Math.max(...results.map((r) => r.ms))} ms, after at most ${sentKiB.toFixed(0)} KiB sent; server RSS ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MiB`,
  };
}

/** Honest 2v2 players arriving in waves of four: each one's join-to-seat time (ms). */
async function honestWaves(client: Client, waves: number, everyMs: number): Promise<number[]> {
  const times: number[] = [];
  const rooms: SdkRoom[] = [];
  const joins: Promise<void>[] = [];
  for (let w = 0; w < waves; w++) {
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      joins.push(
        joinQueue(client, "squad", { rating: 1500 + i }).then(async (p) => {
          rooms.push(p.room);
          const seatedAt = await within(p.seat, 10_000, NaN);
          times.push(seatedAt - started);
        }),
      );
    }
    await sleep(everyMs);
  }
  await Promise.all(joins);
  await Promise.all(rooms.map((r) => r.leave().catch(() => undefined)));
  return times;
}

async function probeFlood(client: Client): Promise<Row> {
  await honestWaves(client, 2, 250); // warm up: the first games load the game room's code
  const calm = await honestWaves(client, 20, 250);
  // The flooder leads an incomplete party in the same queue: never matched, every `start`/`decline`
  // would run an engine pass.
  const flooder = await joinQueue(client, "squad", { rating: 1500, party: { size: 2 } });
  let closedAt = 0;
  let closeCode = 0;
  const started = performance.now();
  flooder.room.onLeave((code) => {
    closeCode = code;
    closedAt = performance.now() - started;
  });
  let sent = 0;
  const types = ["decline", "start", "accept"];
  const flood = (async () => {
    // 10,000 messages a second for 5 s: 100 every 10 ms, until the server closes the connection.
    while (performance.now() - started < 5000 && flooder.room.connection.isOpen) {
      for (let i = 0; i < 100 && flooder.room.connection.isOpen; i++) flooder.room.send(types[sent++ % 3]);
      await sleep(10);
    }
  })();
  const flooded = await honestWaves(client, 20, 250);
  await flood;
  if (flooder.room.connection.isOpen) await flooder.room.leave();
  const p99 = (xs: number[]) => `${percentile(xs, 50).toFixed(0)}/${percentile(xs, 99).toFixed(0)} ms`;
  const lost = flooded.filter((t) => Number.isNaN(t)).length;
  return {
    probe: "one client sends 10,000 msgs/s for 5 s (`decline`, `start`, `accept`)",
    before: "never throttled; others' join-to-seat p99 20 → 800 ms",
    after:
      (closedAt > 0
        ? `disconnected (code ${closeCode}) after ${sent} messages, ${closedAt.toFixed(0)} ms`
        : `not disconnected (${sent} sent)`) +
      `; others' join-to-seat p50/p99 ${p99(calm)} calm, ${p99(flooded)} during the flood (${flooded.length} players, ${lost} unseated)`,
  };
}

/** Reserve a seat over HTTP, open a raw socket to it, send `frames` malformed frames; resolves on close. */
async function garbageSender(frames: number): Promise<void> {
  const res = await fetch(`${http(PORT)}/matchmake/joinOrCreate/arena5`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rating: 1500 }),
  });
  const seat = (await res.json()) as { roomId: string; processId: string; sessionId: string };
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/${seat.processId}/${seat.roomId}?sessionId=${seat.sessionId}`);
  await within(
    new Promise<void>((resolve) => {
      ws.on("error", () => resolve());
      ws.on("close", () => resolve());
      // ROOM_DATA (13), message type "x" (msgpack fixstr), then a byte msgpack never uses.
      ws.on("open", () => {
        for (let i = 0; i < frames; i++) ws.send(Buffer.from([13, 0xa1, 0x78, 0xc1, 0xc1, 0xc1]));
      });
    }),
    10_000,
    undefined,
  );
  ws.terminate();
}

async function probeMalformedFrames(server: ServerProcess): Promise<Row> {
  const bytesBefore = server.bytes;
  const started = performance.now();
  // 9,440 frames: 236 connections of 40 frames each, 8 connections at a time.
  for (let i = 0; i < 236; i += 8) await Promise.all(Array.from({ length: 8 }, () => garbageSender(40)));
  const seconds = (performance.now() - started) / 1000;
  // The folded repeats are written when the logger's 10 s window ends.
  await sleep(11_000);
  const logged = server.bytes - bytesBefore;
  return {
    probe: "9,440 malformed frames (236 sockets × 40)",
    before: "7.9 MB of log in 6 s (a stack trace per frame)",
    after: `${(logged / 1024).toFixed(1)} KiB of log (sent in ${seconds.toFixed(1)} s, including the folded-repeats line)`,
  };
}

async function probeWrongPartyCodes(client: Client): Promise<Row> {
  // A party waits in the queue (the target a guesser is after); its leader keeps the queue room up.
  const leader = await joinQueue(client, "squad", { rating: 1500, party: { size: 2 } });
  let answered = 0;
  let limited = 0;
  let firstLimit = "";
  for (let i = 0; i < 300; i++) {
    const code = randomBytes(16).toString("base64url");
    try {
      const p = await client.joinOrCreate("squad", { rating: 1500, partyCode: code });
      await p.leave();
    } catch (error) {
      const message = (error as Error).message;
      if (/no such party/.test(message)) answered++;
      else if (/too many wrong party codes/.test(message)) {
        limited++;
        firstLimit ||= message;
      }
    }
  }
  await leader.room.leave();
  return {
    probe: "300 wrong party codes in a row from one address (a party waiting)",
    before: "all 300 answered (150/s), no limit",
    after: `${answered} answered "no such party", then ${limited} refused: "${firstLimit}"`,
  };
}

async function probeNonFinite(client: Client): Promise<Row> {
  const messages: string[] = [];
  for (const rating of [Number.NaN, Number.POSITIVE_INFINITY]) {
    try {
      const p = await client.joinOrCreate("duel", { rating });
      await p.leave();
      messages.push("accepted");
    } catch (error) {
      messages.push((error as Error).message);
    }
  }
  const same = messages[0] === messages[1];
  return {
    probe: "join with `rating: NaN` / `Infinity`",
    before: 'arrive as null, refused as "must be a number"',
    after: same ? `both: "${messages[0]}"` : messages.map((m) => `"${m}"`).join(" / "),
  };
}

async function probeDeepNesting(): Promise<Row> {
  const depth = 5000;
  const started = performance.now();
  const res = await fetch(`${http(PORT)}/matchmake/joinOrCreate/duel`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: `{"rating":1000,"extra":${"[".repeat(depth)}${"]".repeat(depth)}}`,
  });
  const body = (await res.json()) as { error?: string };
  return {
    probe: "5,000-deep nesting in an unknown join option",
    before: '"already full" after 8–16 s',
    after: `${res.status} in ${(performance.now() - started).toFixed(0)} ms: "${body.error}"`,
  };
}

async function probeFailingGameRoom(logger: "example" | "console"): Promise<Row> {
  const server = new ServerProcess("bench/probes/failing-game-server.ts", FAILING_PORT, {
    PROBE_LOGGER: logger,
  });
  try {
    await server.ready();
    const client = new Client(`ws://127.0.0.1:${FAILING_PORT}`);
    const attempts = async () => {
      const metrics = (await (await fetch(`${http(FAILING_PORT)}/matchmaker/metrics`)).json()) as {
        queues: Array<{ spawnFailures: number }>;
      };
      return metrics.queues.reduce((n, q) => n + q.spawnFailures, 0);
    };
    const mark = server.textLength;
    const a = await joinQueue(client, "duel", { rating: 1500 });
    const b = await joinQueue(client, "duel", { rating: 1500 });
    await sleep(2000); // the first attempt comes with b's join
    const inTwo = await attempts();
    // Past the example logger's 10 s window, so that its folded-repeats line is in the count.
    await sleep(9000);
    const inEleven = await attempts();
    const log = server.outputSince(mark);
    const lines = log.split("\n").filter((l) => l.trim() !== "");
    const stackLines = lines.filter((l) => /^\s+at /.test(l)).length;
    const ours = lines.filter((l) => l.includes("failed to start (failure")).length;
    const perPlayer = [a, b].map((p) => (p.received.requeued ?? []).length);
    const notice = JSON.stringify((a.received.requeued ?? [])[0] ?? null);
    for (const p of [a, b]) await p.room.leave();
    return {
      probe: `a game room that always fails to start (1v1 queue, 100 ms heartbeat; ${logger === "example" ? "the example's folding logger" : "plain console logger"})`,
      before: "21 attempts in 2 s, two stack traces per attempt, a `requeued` to every player at every attempt",
      after: `${inTwo} attempts in 2 s, ${inEleven} in 11 s; ${lines.length} log lines in 11 s (${ours} from the queue, ${stackLines} stack frames); \`requeued\` per player in 11 s: ${perPlayer.join(" and ")}, ${notice}`,
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------

const server = new ServerProcess("example-server/index.ts", PORT, {
  MATCHMAKER_OPERATOR_USER: USER,
  MATCHMAKER_OPERATOR_PASSWORD: PASSWORD,
});
const rows: Row[] = [];
try {
  await server.ready();
  const client = new Client(`ws://127.0.0.1:${PORT}`);
  const step = async (name: string, run: () => Promise<Row | Row[]>) => {
    process.stderr.write(`probe: ${name}…\n`);
    const result = await run();
    rows.push(...(Array.isArray(result) ? result : [result]));
  };
  await step("operator routes", () => probeOperatorRoutes(client));
  await step("64 MiB body", () => probeLargeBody(server));
  await step("flood", () => probeFlood(client));
  await step("malformed frames", () => probeMalformedFrames(server));
  await step("wrong party codes", () => probeWrongPartyCodes(client));
  await step("NaN and Infinity", () => probeNonFinite(client));
  await step("deep nesting", () => probeDeepNesting());
  await step("failing game room", () => probeFailingGameRoom("example"));
  await step("failing game room, console logger", () => probeFailingGameRoom("console"));
} finally {
  await server.stop();
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
console.log("| probe | before (issue 16) | after |");
console.log("|---|---|---|");
for (const r of rows) console.log(`| ${cell(r.probe)} | ${cell(r.before)} | ${cell(r.after)} |`);
process.exit(0);
