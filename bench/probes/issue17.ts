/**
 * Issue 17's probes, rerun against the example server's processes and measured: a durable queue
 * across a crash, a Redis restart and a deploy. Each scenario runs RUNS times (default 5) on two
 * fresh server processes (test/helpers/scale-out-server.ts) sharing a redis-server of its own
 * (port 16402, in memory), and prints one Markdown table per scenario and a summary.
 *
 *   npx tsx bench/probes/issue17.ts            # RUNS=5 N=20 PORT=10886 (and 10887)
 *
 * - kill -9: N players wait in the `dq` queue (4 in a ready check, a party of 2, the rest solo in
 *   bands of two); the queue's process is killed; every player rejoins with its token through
 *   the survivor as soon as its connection closes. Measured: kill → first and last player back
 *   at its place; places kept (same enqueue time) and matched afterwards.
 * - Redis restart: N players wait (no ready check); redis-server is killed and started empty. Measured: a join
 *   during the outage (time to its refusal, code); Redis up → first newcomer in a queue room;
 *   queue rooms afterwards; whether the players kept their room; everyone matched.
 * - SIGTERM: as kill -9 with a graceful stop (handover).
 */
import { OwnRedis, Player, ServerProcess, until } from "../../test/helpers/durable-cluster.js";

const RUNS = Number(process.env.RUNS ?? 5);
const N = Math.max(8, Number(process.env.N ?? 20));
const BASE = Number(process.env.PORT ?? 10886);
const redis = new OwnRedis(16402);
const servers = [new ServerProcess(BASE, redis.url), new ServerProcess(BASE + 1, redis.url)];
const ports = servers.map((s) => s.port);

interface Group {
  all: Player[];
  ready: Player[];
  bands: number[];
}

/** N players: four in a ready check, a party of two, solos in bands of two (20 rating points apart within, 500 between). */
function group(withReadyCheck: boolean): Group {
  const ready = withReadyCheck ? [1, 2, 3, 4].map((i) => new Player(`r${i}`, { rating: 9000 })) : [];
  for (const p of ready) p.accept = false;
  const lead = new Player("lead", { rating: 500, party: { size: 2 } });
  const member = new Player("member", { rating: 505 });
  const solos: Player[] = [];
  const bands = [500];
  for (let i = 0; ready.length + 2 + solos.length < N; i++) {
    const rating = 1000 + 400 * i;
    bands.push(rating);
    solos.push(new Player(`s${i}a`, { rating }), new Player(`s${i}b`, { rating: rating + 5 }));
  }
  return { all: [...ready, lead, member, ...solos], ready, bands };
}

async function fill(g: Group): Promise<string> {
  const lead = g.all.find((p) => p.name === "lead")!;
  for (const [i, p] of g.all.entries()) {
    if (p.name === "member") {
      await until(() => lead.partyCode !== undefined, "the party code");
      p.options.partyCode = lead.partyCode;
    }
    await p.join(ports[i % 2]!);
  }
  await until(() => g.all.every((p) => p.token !== undefined), "tokens");
  await until(() => g.ready.every((p) => p.matchFound === 1), "the ready check");
  await until(
    () => g.all.filter((p) => !g.ready.includes(p)).every((p) => p.firstWaitingSince !== undefined),
    "status",
  );
  await until(() => Number(redis.cli("hlen", "mm:tickets:dq")) === g.all.length, "every place stored");
  return g.all[0]!.room!.roomId;
}

async function hostOf(roomId: string): Promise<ServerProcess> {
  for (const s of servers) if ((await s.queueRooms("dq")).includes(roomId)) return s;
  throw new Error(`no process hosts ${roomId}`);
}

async function company(bands: number[], through: readonly number[]): Promise<Player[]> {
  const newcomers = bands.flatMap((rating, i) => [
    new Player(`n${i}a`, { rating: rating + 2 }),
    new Player(`n${i}b`, { rating: rating + 3 }),
  ]);
  await Promise.all(newcomers.map((n) => n.joinRetrying(through)));
  return newcomers;
}

async function fresh(): Promise<void> {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  if (!redis.answers()) await redis.start();
  redis.cli("flushall");
  await Promise.all(servers.map((s) => s.start()));
}

async function cleanup(players: Player[]): Promise<void> {
  await Promise.all(players.map((p) => p.leave()));
}

type Row = Record<string, string | number>;

/** kill -9 or SIGTERM of the queue's process. */
async function processLoss(signal: "SIGKILL" | "SIGTERM"): Promise<Row> {
  await fresh();
  const g = group(true);
  const room = await fill(g);
  const host = await hostOf(room);
  const survivor = servers.find((s) => s !== host)!;
  const back: number[] = [];
  const start = performance.now();
  const rejoined = g.all.map(async (p) => {
    await p.whenClosed();
    if (g.ready.includes(p)) p.accept = true;
    const attempts = await p.resume([survivor.port], 60_000);
    back.push(performance.now() - start);
    return attempts;
  });
  await host.stop(signal);
  const attempts = await Promise.all(rejoined);
  const rooms = new Set(g.all.map((p) => p.room!.roomId)).size;
  const newcomers = await company(g.bands, [survivor.port]);
  await until(() => [...g.all, ...newcomers].every((p) => p.seat !== undefined), "every seat", 30_000);
  const kept = g.all.filter((p) => p.lastWaitingSince === p.firstWaitingSince).length;
  await cleanup([...g.all, ...newcomers]);
  return {
    "first back (ms)": Math.round(Math.min(...back)),
    "all back (ms)": Math.round(Math.max(...back)),
    "attempts (max)": Math.max(...attempts),
    "queue rooms after": rooms,
    "places kept": `${kept}/${g.all.length}`,
    matched: `${g.all.filter((p) => p.seat).length}/${g.all.length}`,
  };
}

async function redisRestart(): Promise<Row> {
  await fresh();
  const g = group(false);
  for (const p of g.all) p.followHandover = ports;
  const room = await fill(g);
  await redis.stop();
  const outage = new Player("outage", { rating: 9999 });
  const t0 = performance.now();
  const refusal = await outage.join(ports[0]!).then(
    () => ({ code: 0 }),
    (e: { code?: number }) => e,
  );
  const refusedMs = performance.now() - t0;
  await redis.start();
  const up = performance.now();
  const first = new Player("first", { rating: g.bands[1]! + 1 });
  await first.joinRetrying(ports, 30_000);
  const firstInMs = performance.now() - up;
  const keptRoom = first.room!.roomId === room;
  await first.leave();
  const newcomers = await company(g.bands, ports);
  await until(() => [...g.all, ...newcomers].every((p) => p.seat !== undefined), "every seat", 30_000);
  const hosted = (await Promise.all(servers.map((s) => s.queueRooms("dq")))).flat().length;
  const kept = g.all.filter((p) => p.lastWaitingSince === p.firstWaitingSince).length;
  await cleanup([...g.all, ...newcomers]);
  return {
    "outage join refused (ms)": Math.round(refusedMs),
    code: refusal.code ?? "?",
    "Redis up → first join (ms)": Math.round(firstInMs),
    "players kept their room": keptRoom ? "yes" : "no (handed over)",
    "queue rooms after": hosted,
    "places kept": `${kept}/${g.all.length}`,
    matched: `${g.all.filter((p) => p.seat).length}/${g.all.length}`,
  };
}

function table(title: string, rows: Row[]): string {
  const keys = Object.keys(rows[0]!);
  const lines = [`### ${title}`, "", `| run | ${keys.join(" | ")} |`, `|---|${keys.map(() => "---").join("|")}|`];
  rows.forEach((r, i) => lines.push(`| ${i + 1} | ${keys.map((k) => r[k]).join(" | ")} |`));
  const numeric = keys.filter((k) => rows.every((r) => typeof r[k] === "number"));
  if (numeric.length > 0) {
    const median = (k: string) => {
      const v = rows.map((r) => r[k] as number).sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)];
    };
    lines.push(`| median | ${keys.map((k) => (numeric.includes(k) ? median(k) : "")).join(" | ")} |`);
  }
  return lines.join("\n");
}

await redis.stop();
await redis.start();
const results: string[] = [];
try {
  for (const [title, run] of [
    [`kill -9 of the queue's process, ${N} waiting`, () => processLoss("SIGKILL")],
    [`Redis killed and restarted empty, ${N} waiting`, () => redisRestart()],
    [`SIGTERM of the queue's process (handover), ${N} waiting`, () => processLoss("SIGTERM")],
  ] as const) {
    const rows: Row[] = [];
    for (let i = 0; i < RUNS; i++) {
      rows.push(await run());
      console.error(`${title}: run ${i + 1}/${RUNS}`, JSON.stringify(rows.at(-1)));
    }
    results.push(table(title, rows));
  }
} finally {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await redis.stop();
}
console.log(results.join("\n\n"));
process.exit(0);
