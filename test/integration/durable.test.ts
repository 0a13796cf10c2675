/**
 * A durable queue across processes (issue 17): two example-server processes on a redis-server of
 * this file's own (on `testPort(82)`, so that suites run side by side with their own
 * `TEST_PORT_BASE` do not share it; in memory, started and killed by PID). Every test counts
 * players, rooms and enqueue times; the times themselves are measured by bench/probes/issue17.ts.
 *
 * The `dq` queue (test/helpers/scale-out-server.ts) plays 2v2 within 20 rating points, so the
 * players below, spread over rating bands, wait until the test sends each band company; a found
 * match waits 30 s for every accept, so a test can leave tickets sitting in a ready check.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Player, type ServerProcess, until } from "../helpers/durable-cluster.js";
import { clusterPerTest, redisServerInstalled } from "../helpers/cluster-per-test.js";
import { testPort } from "../helpers/sdk.js";

const installed = redisServerInstalled("durable-queue tests");

/** The waiting players: a party of two, solos in bands of two, and (optionally) four solos sitting in a ready check. */
function waitingPlayers(withReadyCheck = true): { all: Player[]; ready: Player[]; bands: number[] } {
  const ready = withReadyCheck ? ["r1", "r2", "r3", "r4"].map((name) => new Player(name, { rating: 4000 })) : [];
  for (const p of ready) p.accept = false;
  const leader = new Player("lead", { rating: 1000, party: { size: 2 } });
  const member = new Player("member", { rating: 1005 }); // joins with the leader's code
  const bands = [1500, 2000, 2500];
  const solos = bands.flatMap((rating, i) => [
    new Player(`s${i}a`, { rating }),
    new Player(`s${i}b`, { rating: rating + 5 }),
  ]);
  return { all: [...ready, leader, member, ...solos], ready, bands: [1000, ...bands] };
}

describe.skipIf(!installed)("a durable queue across two processes", () => {
  const ports = [testPort(80), testPort(81)] as const;
  const { redis, servers, players } = clusterPerTest(testPort(82), ports);
  afterEach(() => {
    for (const child of readmeClients.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  });

  /** Join everyone (alternating endpoints; the party member with the leader's code); resolves once all wait. */
  async function fill(group: ReturnType<typeof waitingPlayers>): Promise<string> {
    players.push(...group.all);
    for (const [i, p] of group.all.entries()) {
      if (p.name === "member") {
        const leader = group.all.find((q) => q.name === "lead")!;
        await until(() => leader.partyCode !== undefined, "the party code");
        p.options.partyCode = leader.partyCode;
      }
      await p.join(ports[i % 2]);
    }
    await until(() => group.all.every((p) => p.token !== undefined), "every resume token");
    await until(() => group.ready.every((p) => p.matchFound === 1), "the ready check");
    await until(
      () => group.all.filter((p) => !group.ready.includes(p)).every((p) => p.firstWaitingSince !== undefined),
      "every waiting status",
    );
    const rooms = new Set(group.all.map((p) => p.room!.roomId));
    expect(rooms.size).toBe(1);
    // Places are written in batches (every 200 ms): a crash loses at most the last batch.
    await until(() => Number(redis.cli("hlen", "mm:tickets:dq")) === group.all.length, "every place stored");
    return [...rooms][0]!;
  }

  /** The server process hosting the queue room. */
  async function hostOf(roomId: string): Promise<ServerProcess> {
    const hosting = [];
    for (const s of servers) if ((await s.queueRooms("dq")).includes(roomId)) hosting.push(s);
    expect(hosting).toHaveLength(1);
    return hosting[0]!;
  }

  /** Company for every band (two newcomers each); returns them. */
  async function company(bands: number[], through: readonly number[]): Promise<Player[]> {
    const newcomers = bands.flatMap((rating, i) => [
      new Player(`n${i}a`, { rating: rating + 2 }),
      new Player(`n${i}b`, { rating: rating + 3 }),
    ]);
    players.push(...newcomers);
    for (const n of newcomers) await n.joinRetrying(through);
    return newcomers;
  }

  it("kill -9 of the queue's process: every waiting player (a party, a ready check) rejoins through the survivor and is matched with its original enqueue time", async () => {
    const group = waitingPlayers();
    const queueRoom = await fill(group);
    const host = await hostOf(queueRoom);
    const survivor = servers.find((s) => s !== host)!;
    const closed = group.all.map((p) => p.whenClosed());

    await host.stop("SIGKILL");
    await Promise.all(closed);
    expect(group.all.every((p) => p.closeCodes.at(-1) === 1006)).toBe(true);

    // Everyone rejoins with its token through the surviving process (the README client does so by itself).
    for (const p of group.ready) p.accept = true;
    await Promise.all(group.all.map((p) => p.resume([survivor.port])));
    const rooms = new Set(group.all.map((p) => p.room!.roomId));
    expect(rooms.size).toBe(1);
    expect(await survivor.queueRooms("dq")).toEqual([...rooms]);

    const newcomers = await company(group.bands, [survivor.port]);
    // A bound for a loaded machine (the whole suite runs beside it), not what it usually takes.
    await until(() => [...group.all, ...newcomers].every((p) => p.seat !== undefined), "every seat", 40_000);
    for (const p of group.all) expect(p.lastWaitingSince, p.name).toBe(p.firstWaitingSince);
    const [lead, member] = ["lead", "member"].map((n) => group.all.find((p) => p.name === n)!);
    expect(member!.seat!.matchId).toBe(lead!.seat!.matchId);
    expect(member!.seat!.team).toBe(lead!.seat!.team);
    // The four from the ready check met again: one match.
    expect(new Set(group.ready.map((p) => p.seat!.matchId)).size).toBe(1);
  }, 90_000); // its bounds, not its usual 8-15 s: the whole suite may run beside it

  it("Redis restarted empty while players wait: one queue room afterwards, and every waiting player meets newcomers from both processes; joins during the outage fail fast with the retryable error", async () => {
    const group = waitingPlayers(false);
    for (const p of group.all) p.followHandover = ports;
    const queueRoom = await fill(group);
    await redis.stop();

    const outageJoin = new Player("outage", { rating: 9000 });
    const refusal = await outageJoin.join(ports[0]).then(
      () => undefined,
      (error: unknown) => error as { code: number; message: string },
    );
    expect(refusal?.code).toBe(503);
    expect(refusal?.message).toBe(
      "queue unavailable (redis_unreachable): the matchmaker cannot reach its Redis; retry in 2 s",
    );

    await redis.start(); // empty
    const waiting = group.all;
    const newcomers = await company(group.bands, ports);
    await until(() => [...waiting, ...newcomers].every((p) => p.seat !== undefined), "every seat");
    // One queue room: the one they waited in (it re-asserted its lease and listing), or, if a
    // newcomer's room claimed the lease first, that one, which they were handed over to.
    const hosted = (await Promise.all(servers.map((s) => s.queueRooms("dq")))).flat();
    expect(hosted).toHaveLength(1);
    expect(new Set([...waiting, ...newcomers].map((p) => p.seat!.matchId)).size).toBe(group.bands.length);
    void queueRoom;
    for (const p of waiting) expect(p.lastWaitingSince, p.name).toBe(p.firstWaitingSince);
  });

  it("SIGTERM of the queue's process: every player is told `handover`, rejoins through the survivor and is matched later with its wait intact", async () => {
    const group = waitingPlayers();
    const queueRoom = await fill(group);
    const host = await hostOf(queueRoom);
    const survivor = servers.find((s) => s !== host)!;
    const closed = group.all.map((p) => p.whenClosed());

    await host.stop("SIGTERM");
    await Promise.all(closed);
    for (const p of group.all) {
      expect(p.handover, p.name).toEqual({ reason: "shutdown", retryInMs: 500 });
      expect(p.closeCodes.at(-1)).toBe(4001);
    }

    for (const p of group.ready) p.accept = true;
    await Promise.all(group.all.map((p) => p.resume([survivor.port])));
    expect(new Set(group.all.map((p) => p.room!.roomId)).size).toBe(1);
    const newcomers = await company(group.bands, [survivor.port]);
    await until(() => [...group.all, ...newcomers].every((p) => p.seat !== undefined), "every seat");
    for (const p of group.all) expect(p.lastWaitingSince, p.name).toBe(p.firstWaitingSince);
  });

  it("the README client rejoins by itself after kill -9 of the queue's process, keeps its place and plays", async () => {
    // A room elsewhere first, so that the README's queue room lands on the other process
    // (least-loaded placement), and the clients connect through the process that survives.
    const holder = new Player("holder", { rating: 9000 });
    players.push(holder);
    await holder.join(ports[0]);
    const endpoint = (await servers[0]!.queueRooms("dq")).length > 0 ? servers[0]! : servers[1]!;
    // Colyseus places a new room on the process with the fewest rooms, as published in presence
    // (about once a second): wait until the holder's room is counted there, so that the README's
    // queue room lands on the other process whatever the machine's load.
    await until(
      () =>
        redis
          .cli("hvals", "roomcount")
          .split("\n")
          .some((v) => Number(v.split(",")[0]) >= 1),
      "the holder's room counted in presence",
    );
    const clients = [1500, 1510, 1520].map((rating) => readmeClient(endpoint.port, rating));
    await until(() => clients.every((c) => /waiting; waited/.test(c.output)), "three README clients waiting");
    const host = servers.find((s) => s !== endpoint)!;
    expect(await host.queueRooms("queue_2v2")).toHaveLength(1);
    expect(await endpoint.queueRooms("queue_2v2")).toHaveLength(0);
    await until(() => Number(redis.cli("hlen", "mm:tickets:queue_2v2")) === 3, "three places stored");

    await host.stop("SIGKILL");
    await until(
      () => clients.every((c) => c.output.includes("back in the queue at my place")),
      "three rejoins",
      30_000,
    );
    clients.push(readmeClient(endpoint.port, 1530));
    await until(() => clients.every((c) => /in game \S+ as \S+/.test(c.output)), "four players in a game", 30_000);
    expect(new Set(clients.map((c) => /in game (\S+)/.exec(c.output)![1])).size).toBe(1);
  }, 90_000); // its bounds, not its usual 8-15 s: the whole suite may run beside it
});

const CLIENT = fileURLToPath(new URL("../../example-client/minimal.ts", import.meta.url));
/** README client processes of the running test, killed by PID after it. */
const readmeClients: ChildProcess[] = [];

/** One README client process (example-client/minimal.ts), its output collected. */
function readmeClient(port: number, rating: number): { child: ChildProcess; output: string } {
  const child = spawn(process.execPath, ["--import", "tsx", CLIENT], {
    env: { ...process.env, ENDPOINT: `ws://127.0.0.1:${port}`, RATING: String(rating) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  readmeClients.push(child);
  const run = { child, output: "" };
  child.stdout!.on("data", (chunk: Buffer) => (run.output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (run.output += chunk));
  return run;
}
