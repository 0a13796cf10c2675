/**
 * A small cluster for the durable-queue tests and probes (test/integration/durable.test.ts,
 * bench/probes/issue17.ts): a redis-server of its own (started and stopped by PID, nothing
 * saved), example-server processes (test/helpers/scale-out-server.ts) started and killed by PID,
 * and SDK players that keep their resume token and rejoin with it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client, type Room as SdkRoom } from "@colyseus/sdk";
import type { HandoverMessage, ResumeMessage, SeatMessage, StatusMessage } from "../../src/client/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Whether `redis-server` and `redis-cli` are installed. */
export function redisInstalled(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    execFileSync("redis-cli", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A redis-server of our own on `port`: in memory only, so a restart starts it empty. */
export class OwnRedis {
  readonly url: string;
  private readonly dir: string;
  constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
    this.dir = `/tmp/mm-durable-redis-${port}`;
  }

  private get pidFile(): string {
    return `${this.dir}/redis.pid`;
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    execFileSync("redis-server", [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "yes",
      "--dir",
      this.dir,
      "--pidfile",
      this.pidFile,
      "--logfile",
      `${this.dir}/redis.log`,
    ]);
    for (let i = 0; i < 100 && !this.answers(); i++) await sleep(50);
    if (!this.answers()) throw new Error(`redis-server on ${this.port} does not answer`);
  }

  answers(): boolean {
    try {
      return (
        execFileSync("redis-cli", ["-p", String(this.port), "ping"], { stdio: "pipe" })
          .toString()
          .trim() === "PONG"
      );
    } catch {
      return false;
    }
  }

  /** Stop it by its PID (its data is lost: nothing is saved). */
  async stop(): Promise<void> {
    const pid = existsSync(this.pidFile) ? Number(readFileSync(this.pidFile, "utf8").trim()) : NaN;
    if (!Number.isInteger(pid)) return;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      return; // already gone
    }
    for (let i = 0; i < 100 && this.answers(); i++) await sleep(50);
  }

  cli(...args: string[]): string {
    return execFileSync("redis-cli", ["-p", String(this.port), ...args]).toString();
  }
}

/** One example-server process (test/helpers/scale-out-server.ts) on `port`. */
export class ServerProcess {
  child?: ChildProcess;
  output = "";
  constructor(
    readonly port: number,
    private readonly redisUrl: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Start it; resolves once it accepts clients. */
  async start(timeoutMs = 20_000): Promise<void> {
    this.output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/scale-out-server.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        REDIS_URL: this.redisUrl,
        PUBLIC_ADDRESS: `127.0.0.1:${this.port}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server on ${this.port} did not listen:\n${this.output}`)),
        timeoutMs,
      );
      child.stdout!.on("data", (chunk: Buffer) => {
        this.output += chunk;
        if (this.output.includes(`listening on ${this.port}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr!.on("data", (chunk: Buffer) => (this.output = (this.output + chunk).slice(-20_000)));
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`server on ${this.port} exited with ${code}:\n${this.output.slice(-2000)}`));
      });
    });
  }

  /** Send `signal` to its PID; resolves when it has exited (SIGKILL after `timeoutMs`). */
  async stop(signal: NodeJS.Signals = "SIGKILL", timeoutMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** The queue rooms this process hosts (its /matchmaker/metrics lists its own). */
  async queueRooms(queue: string): Promise<string[]> {
    const response = await fetch(`http://127.0.0.1:${this.port}/matchmaker/metrics`);
    const body = (await response.json()) as { queues: Array<{ queue: string; roomId: string | null }> };
    // A queue with no room here is listed too, with `roomId: null`.
    return body.queues.flatMap((q) => (q.queue === queue && q.roomId !== null ? [q.roomId] : []));
  }
}

/** Whether a join error is worth retrying: the retryable 503, or no server at that address. */
function retryable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  if (e?.code === 503) return true;
  const text = `${String(e?.message)} ${String(e?.cause?.code)}`;
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|not available|timed out|already full/.test(text);
}

/** A player (of the `dq` queue unless told) that keeps its resume token and rejoins with it. */
export class Player {
  token?: string;
  room?: SdkRoom;
  /** `waitingSince` of the first status (its original enqueue time, server clock) and of the latest. */
  firstWaitingSince?: number;
  lastWaitingSince?: number;
  seat?: SeatMessage;
  partyCode?: string;
  matchFound = 0;
  handover?: HandoverMessage;
  closeCodes: number[] = [];
  /** Accept ready checks (off: the player sits in its ready check). */
  accept = true;
  /** Told `handover`: rejoin with the token through these endpoints at once (as the README client does). */
  followHandover?: readonly number[];
  private closed?: () => void;

  constructor(
    readonly name: string,
    readonly options: Record<string, unknown>,
    readonly queue = "dq",
  ) {}

  async join(port: number, extra: Record<string, unknown> = {}): Promise<void> {
    const sdk = new Client(`ws://127.0.0.1:${port}`);
    const room = await sdk.joinOrCreate(this.queue, { ...this.options, ...extra });
    room.reconnection.enabled = false; // a dead process: rejoin with the token, not the SDK's reconnection
    this.room = room;
    room.onMessage("resume", (m: ResumeMessage) => (this.token = m.token));
    room.onMessage("status", (s: StatusMessage) => {
      if (s.waitingSince === undefined) return;
      this.firstWaitingSince ??= s.waitingSince;
      this.lastWaitingSince = s.waitingSince;
    });
    room.onMessage("party", (m: { code: string }) => (this.partyCode = m.code));
    room.onMessage("match_found", () => {
      this.matchFound++;
      if (this.accept) room.send("accept");
    });
    room.onMessage("seat", (seat: SeatMessage) => (this.seat = seat));
    room.onMessage("handover", (m: HandoverMessage) => (this.handover = m));
    room.onMessage("*", () => undefined);
    room.onLeave((code) => {
      this.closeCodes.push(code);
      this.closed?.();
      if (this.handover && this.followHandover && this.room === room && !this.seat)
        void this.resume(this.followHandover).catch(() => undefined);
    });
  }

  /** Resolves when the connection to the queue closes. */
  whenClosed(): Promise<void> {
    return new Promise((resolve) => (this.closed = resolve));
  }

  /** Send `accept` now (for a player that held its ready check). */
  acceptNow(): void {
    this.accept = true;
    this.room?.send("accept");
  }

  /** Rejoin with the resume token through `ports` (in turn), retrying what is retryable until `deadlineMs`. */
  async resume(ports: readonly number[], deadlineMs = 30_000): Promise<number> {
    if (!this.token) throw new Error(`${this.name} has no resume token`);
    const start = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        await this.join(ports[attempt % ports.length]!, { resume: this.token });
        return attempt + 1;
      } catch (error) {
        if (!retryable(error) || Date.now() - start > deadlineMs) throw error;
        await sleep(Math.min(1000, 100 * 2 ** Math.min(attempt, 4)));
      }
    }
  }

  /** Join (new) through `ports` in turn, retrying what is retryable until `deadlineMs`. */
  async joinRetrying(ports: readonly number[], deadlineMs = 30_000): Promise<void> {
    const start = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        await this.join(ports[attempt % ports.length]!);
        return;
      } catch (error) {
        if (!retryable(error) || Date.now() - start > deadlineMs) throw error;
        await sleep(Math.min(1000, 100 * 2 ** Math.min(attempt, 4)));
      }
    }
  }

  async leave(): Promise<void> {
    const room = this.room;
    if (!room || !room.connection?.isOpen) return;
    await Promise.race([room.leave().catch(() => undefined), sleep(1000)]);
  }
}

/** Wait until `check` holds, polling; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
