/**
 * Bot clients for the example server: each bot joins a queue with a random rating through the
 * client helper (`joinQueue` of colyseus-matchmaker/client, which takes the seat), alone or in a
 * party, accepts a ready check, checks that the game placed it where the seat message said (its
 * side in a game of two teams, its team index where the game records it), then leaves its game.
 * The queues' shapes (two teams, more teams, a free-for-all) come from the server's player page
 * list (`/play/queues.json`). Prints a summary per queue at the end. With Redis, a bot whose
 * queue's process stops or dies rejoins with its resume token and keeps its place (the helper
 * does it).
 *
 *   npm run client -- [--endpoint ws://localhost:2567] [--bots 200] [--queues duel,squad,arena5]
 *                     [--parties 0] [--timeout-ms 30000] [--stagger-ms 5] [--json]
 *
 * Exit code: 0 if every bot landed in a game, 1 if any was lost, 2 on bad options.
 */
import { parseArgs } from "node:util";
import { Client, type Room } from "@colyseus/sdk";
import cliProgress from "cli-progress";
import Table from "cli-table3";
import type { DemoGameState } from "../example-server/DemoGameRoom.js";
import { joinQueue, type ClientJoinOptions, type Matchmaking, type SeatMessage } from "../src/client/index.js";
import type { QueueDescription, QueueShape } from "../src/web/queues.js";

// No WebSocket polyfill here: the SDK falls back to the `ws` package when Node 20 has no
// global WebSocket (only the server's core reads `globalThis.WebSocket`; see node20.ts).

/** The queues bots join unless told otherwise (the example server's 1v1, 2v2 and 5v5). */
const DEFAULT_QUEUES = ["duel", "squad", "arena5"];

/** Ratings: normal around 1500, clamped to the queues' accepted range (the default 0..10000). */
const RATING = { mean: 1500, sd: 300, min: 0, max: 10_000 };
const MAX_BOTS = 10_000;
/** How long a polite `leave()` may take before the socket is simply closed. */
const LEAVE_GRACE_MS = 2000;

interface Options {
  endpoint: string;
  bots: number;
  queues: string[];
  /** The chance that a bot leads a party rather than joins alone. */
  parties: number;
  timeoutMs: number;
  staggerMs: number;
  json: boolean;
}

interface Bot {
  queue: string;
  shape: QueueShape;
  rating: number;
  /** The size of the bot's party (1: alone); its party's bots share one `Bot[]`. */
  partySize: number;
  /** When the queue first took the bot in (its first `joined`; ms since epoch). */
  joinedAt?: number;
  seat?: SeatMessage;
  /** How many times the bot got its place back after its queue's process stopped or died. */
  rejoins?: number;
  waitMs?: number;
  landed: boolean;
  error?: string;
}

/** One row of the summary. */
interface Figures {
  bots: number;
  matched: number;
  games: number;
  meanWaitMs: number | null;
  p95WaitMs: number | null;
  /** Over team games (null without any: a free-for-all has no teams to balance). */
  meanImbalance: number | null;
  /** Highest minus lowest rating among our bots in a game: every shape's measure, a free-for-all's only one. */
  meanSpread: number | null;
  /** Places given back after a queue's process stopped or died (with Redis; else 0). */
  rejoins: number;
  lost: number;
}

class UsageError extends Error {}

const USAGE = `usage: npm run client -- [options]
  --endpoint URL     server endpoint (default ws://localhost:2567)
  --bots N           number of bots, 1..${MAX_BOTS} (default 200)
  --queues LIST      comma-separated queues of the server (default: ${DEFAULT_QUEUES.join(",")})
  --parties P        chance, 0 to 1, that a bot leads a party of 2 up to the queue's
                     party limit (a team; a free-for-all's whole game), other bots join it (default 0)
  --timeout-ms MS    a bot that has not landed in a game by then is lost (default 30000)
  --stagger-ms MS    delay between two bots' joins (default 5)
  --json             print the summary as one JSON object instead of a table`;

/** Parse and check the command line; throws `UsageError` with a message naming the bad option. */
function parseOptions(argv: string[]): Options & { help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        endpoint: { type: "string", default: "ws://localhost:2567" },
        bots: { type: "string", default: "200" },
        queues: { type: "string", default: DEFAULT_QUEUES.join(",") },
        parties: { type: "string", default: "0" },
        "timeout-ms": { type: "string", default: "30000" },
        "stagger-ms": { type: "string", default: "5" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  let url: URL;
  try {
    url = new URL(values.endpoint);
  } catch {
    throw new UsageError(`--endpoint: "${values.endpoint}" is not a URL`);
  }
  if (!["ws:", "wss:", "http:", "https:"].includes(url.protocol)) {
    throw new UsageError(`--endpoint: expected a ws://, wss://, http:// or https:// URL, got "${values.endpoint}"`);
  }

  // Whether the server has these queues, and of what shape, is asked of the server (playableQueues).
  const queues = values.queues.split(",").map((q) => q.trim());
  if (queues.some((q) => q === "")) throw new UsageError(`--queues: "${values.queues}" has an empty name`);
  if (new Set(queues).size !== queues.length) throw new UsageError(`--queues: "${values.queues}" names a queue twice`);
  const parties = Number(values.parties);
  if (values.parties.trim() === "" || !(parties >= 0 && parties <= 1))
    throw new UsageError(`--parties: expected a number from 0 to 1, got "${values.parties}"`);

  return {
    endpoint: values.endpoint,
    bots: integer("--bots", values.bots, 1, MAX_BOTS),
    queues,
    parties,
    timeoutMs: integer("--timeout-ms", values["timeout-ms"], 1, 3_600_000),
    staggerMs: integer("--stagger-ms", values["stagger-ms"], 0, 60_000),
    json: values.json,
    help: values.help,
  };
}

function integer(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (text.trim() === "" || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${name}: expected an integer from ${min} to ${max}, got "${text}"`);
  }
  return n;
}

/**
 * Split `total` bots over queues so that every bot can be matched: each queue gets a multiple
 * of its game size (its shape's players). Picks the valid total nearest `total` (the lower one on a
 * tie, never 0), then the most even split. Exhaustive, which is cheap for at most 3 queues.
 */
function splitBots(total: number, gameSizes: number[]): number[] {
  let best: { counts: number[]; key: number[] } | undefined;
  const consider = (counts: number[]) => {
    const sum = counts.reduce((a, b) => a + b, 0);
    if (sum === 0) return;
    const even = sum / counts.length;
    const key = [Math.abs(sum - total), sum > total ? 1 : 0, counts.reduce((a, c) => a + (c - even) ** 2, 0)];
    if (!best || compare(key, best.key) < 0) best = { counts, key };
  };
  const visit = (i: number, counts: number[], sum: number) => {
    const size = gameSizes[i];
    if (i === gameSizes.length - 1) {
      // The last queue takes what is left, rounded down or up to whole games.
      const rest = Math.max(0, total - sum) / size;
      for (const games of new Set([Math.floor(rest), Math.ceil(rest)])) consider([...counts, games * size]);
      return;
    }
    for (let c = 0; sum + c <= total + size; c += size) visit(i + 1, [...counts, c], sum + c);
  };
  visit(0, [], 0);
  return best!.counts;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** A rating drawn from the normal distribution (Box–Muller), rounded and clamped. */
function randomRating(): number {
  const r =
    RATING.mean + RATING.sd * Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  return Math.min(RATING.max, Math.max(RATING.min, Math.round(r)));
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Leave a room politely, but never wait more than `LEAVE_GRACE_MS`: `leave()` only resolves
 * when the server closes the socket, so a dead server would otherwise keep us here forever.
 */
async function closeRoom(room: Room): Promise<void> {
  if (!room.connection?.isOpen) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([room.leave(), new Promise<void>((resolve) => (timer = setTimeout(resolve, LEAVE_GRACE_MS)))]);
  clearTimeout(timer);
  if (room.connection?.isOpen) room.connection.close();
}

/**
 * What one bot has open (its queue, its game room), so a timed-out bot can close it, even a game
 * that opens later, and a party member still waiting for its leader's code never joins.
 */
class BotRooms {
  private readonly games: Room[] = [];
  private queue: Matchmaking<DemoGameState> | undefined;
  private cancelled = false;

  /** The bot's queue, once it joins; undefined when the bot was given up on first. */
  join(start: () => Matchmaking<DemoGameState>): Matchmaking<DemoGameState> {
    if (this.cancelled) throw new Error("cancelled");
    return (this.queue = start());
  }

  track<R extends Room>(game: R): R {
    this.games.push(game);
    if (this.cancelled) {
      void closeRoom(game);
      throw new Error("cancelled");
    }
    return game;
  }

  async closeAll(): Promise<void> {
    this.cancelled = true;
    // Leaving stops the helper's joins and rejoins; a game room it enters after that, it leaves itself.
    const queueRoom = this.queue?.room;
    if (this.queue) await Promise.race([this.queue.leave(), sleep(LEAVE_GRACE_MS)]);
    if (queueRoom?.connection?.isOpen) queueRoom.connection.close();
    await Promise.all(this.games.map(closeRoom));
  }
}

/** Resolve with the room's state once `ready` holds (it may already hold, or need patches). */
function stateWhen<S>(room: Room<unknown, S>, ready: (state: S | undefined) => boolean): Promise<S> {
  if (ready(room.state)) return Promise.resolve(room.state);
  return new Promise((resolve) => {
    const listener = (state: S) => {
      if (!ready(state)) return;
      room.onStateChange.remove(listener);
      resolve(state);
    };
    room.onStateChange(listener);
  });
}

/**
 * The seat as the game recorded it against the seat message: the side ("" in a game without
 * sides) and, where the demo game records it, the team index. A problem in words, or undefined.
 */
function misplaced(recorded: { side: string; team?: unknown }, seat: SeatMessage): string | undefined {
  if (recorded.side !== (seat.side ?? ""))
    return `game seated the bot on side "${recorded.side}", its seat message said "${seat.side ?? ""}"`;
  if (typeof recorded.team === "number" && recorded.team !== seat.team)
    return `game seated the bot in team ${recorded.team}, its seat message said ${seat.team}`;
  return undefined;
}

/**
 * Everything one bot does once its queue is joined (`joinQueue`: retries, rejoins with the resume
 * token, the seat taken): accept a ready check, wait for its game room, then check its seat there.
 */
async function land(
  bot: Bot,
  queue: Matchmaking<DemoGameState>,
  rooms: BotRooms,
  imbalance: Map<string, number>,
): Promise<void> {
  queue.on("joined", () => (bot.joinedAt ??= Date.now()));
  queue.on("resumed", () => (bot.rejoins = (bot.rejoins ?? 0) + 1)); // with Redis: the place kept
  queue.on("matchFound", () => queue.accept());
  queue.on("matched", (seat) => {
    bot.seat = seat;
    bot.waitMs = Date.now() - bot.joinedAt!;
  });

  const game = rooms.track(await queue.game);
  const state = await stateWhen(game, (s) => s?.seats?.get(game.sessionId) !== undefined);
  const problem = misplaced(state.seats.get(game.sessionId)!, bot.seat!);
  if (problem) throw new Error(problem);
  imbalance.set(game.roomId, state.imbalance);
}

/**
 * Run one bot to the end: landed, or lost after `timeoutMs` (counted from now, its wait for its
 * join options included: a party member's code comes from its leader); its rooms are closed
 * either way. `onQueue` sees the bot's queue as it joins.
 */
async function runBot(
  bot: Bot,
  client: Client,
  timeoutMs: number,
  imbalance: Map<string, number>,
  options: Promise<ClientJoinOptions>,
  onQueue: (queue: Matchmaking<DemoGameState>) => void = () => undefined,
): Promise<void> {
  const rooms = new BotRooms();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(bot.seat ? `seated but not in the game within ${timeoutMs} ms` : `no seat within ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
  });
  const work = (async () => {
    const joinOptions = await options;
    const queue = rooms.join(() => joinQueue<DemoGameState>(client, bot.queue, joinOptions));
    onQueue(queue);
    await land(bot, queue, rooms, imbalance);
  })();
  work.catch(() => undefined); // after a timeout its late failure is of no interest
  try {
    await Promise.race([work, deadline]);
    bot.landed = true;
  } catch (error) {
    // fetch's "fetch failed" says nothing; its cause (e.g. ECONNREFUSED) does.
    const cause = (error as { cause?: unknown }).cause;
    const message = error instanceof Error ? error.message : String(error);
    bot.error = cause instanceof Error && cause.message !== message ? `${message}: ${cause.message}` : message;
  } finally {
    clearTimeout(timer);
    await rooms.closeAll();
  }
}

/**
 * Run a party (or a lone bot): the leader opens the party with its size, the others join with
 * the code the leader is sent. Once all are in, a party split over games or teams is lost.
 */
async function runParty(party: Bot[], client: Client, timeoutMs: number, imbalance: Map<string, number>) {
  const [leader, ...members] = party as [Bot, ...Bot[]];
  if (members.length === 0)
    return runBot(leader, client, timeoutMs, imbalance, Promise.resolve({ rating: leader.rating }));
  let codeOf!: (code: string) => void;
  let noCode!: (error: Error) => void;
  const code = new Promise<string>((resolve, reject) => ((codeOf = resolve), (noCode = reject)));
  const leaderOptions = Promise.resolve({ rating: leader.rating, party: { size: party.length } });
  await Promise.all([
    // A leader done without a code (refused, lost) leaves its members nothing to join.
    runBot(leader, client, timeoutMs, imbalance, leaderOptions, (queue) =>
      queue.on("party", (message) => codeOf(message.code)),
    ).then(() => noCode(new Error(`its party's leader opened no party (${leader.error ?? "no code"})`))),
    ...members.map((bot) =>
      runBot(
        bot,
        client,
        timeoutMs,
        imbalance,
        code.then((partyCode) => ({ rating: bot.rating, partyCode })),
      ),
    ),
  ]);
  const together = (seat: SeatMessage) => `${seat.matchId}/${leader.shape.kind === "free-for-all" ? "" : seat.team}`;
  if (party.every((b) => b.landed) && new Set(party.map((b) => together(b.seat!))).size > 1) {
    for (const b of party) {
      b.landed = false;
      b.error = "its party was split over games or teams";
    }
  }
}

/**
 * Party sizes for `games` full games of `shape`: each team (in a free-for-all, each game) is cut
 * into parties and lone bots, a bot leading a party with chance `share`, of 2 up to the party
 * limit and what is left of its team or game. Cut this way, the parties fit whole games.
 */
function partyPlan(games: number, shape: QueueShape, share: number): number[] {
  const freeForAll = shape.kind === "free-for-all";
  const units = freeForAll ? games : games * shape.teams;
  const unitSize = freeForAll ? shape.players : shape.teamSize;
  const sizes: number[] = [];
  for (let unit = 0; unit < units; unit++) {
    for (let left = unitSize; left > 0;) {
      const most = Math.min(left, shape.maxParty);
      const size = most >= 2 && Math.random() < share ? 2 + Math.floor(Math.random() * (most - 1)) : 1;
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** 95th percentile, nearest-rank method. */
function p95(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1];
}

/**
 * One game's quality as our bots saw it: the rating spread of our bots in it and, in a team game,
 * its imbalance: the one its room reported, else the largest difference between two teams'
 * rating sums of our bots (in two teams, |side A − side B|).
 */
function gameQuality(seated: Bot[], reported: number | undefined): { imbalance: number | null; spread: number } {
  const ratings = seated.map((b) => b.rating);
  const spread = Math.max(...ratings) - Math.min(...ratings);
  if (seated[0]!.shape.kind === "free-for-all") return { imbalance: null, spread };
  const sums = Array.from({ length: seated[0]!.shape.teams }, () => 0);
  for (const b of seated) sums[b.seat!.team]! += b.rating;
  return { imbalance: reported ?? Math.max(...sums) - Math.min(...sums), spread };
}

/** The figures of a group of bots; a game's quality as {@link gameQuality} has it. */
function figures(bots: Bot[], reported: Map<string, number>): Figures {
  const seated = bots.filter((b) => b.seat);
  const games = new Map<string, Bot[]>(); // roomId -> our bots in it
  for (const b of seated) games.set(b.seat!.roomId, [...(games.get(b.seat!.roomId) ?? []), b]);
  const qualities = [...games].map(([roomId, inGame]) => gameQuality(inGame, reported.get(roomId)));
  const waits = seated.map((b) => b.waitMs!);
  return {
    bots: bots.length,
    matched: seated.length,
    games: games.size,
    meanWaitMs: mean(waits),
    p95WaitMs: p95(waits),
    meanImbalance: mean(qualities.flatMap((q) => (q.imbalance === null ? [] : [q.imbalance]))),
    meanSpread: mean(qualities.map((q) => q.spread)),
    rejoins: bots.reduce((n, b) => n + (b.rejoins ?? 0), 0),
    lost: bots.filter((b) => !b.landed).length,
  };
}

function summaryTable(rows: Array<[string, Figures]>): string {
  const show = (n: number | null) => (n === null ? "-" : n.toFixed(0));
  const table = new Table({
    head: [
      "queue",
      "bots",
      "matched",
      "games",
      "mean wait ms",
      "p95 wait ms",
      "mean imbalance",
      "mean spread",
      "rejoins",
      "lost",
    ],
    colAligns: ["left", "right", "right", "right", "right", "right", "right", "right", "right", "right"],
    style: { head: [], border: [] }, // no colour codes off a terminal
  });
  for (const [name, f] of rows)
    table.push([
      name,
      f.bots,
      f.matched,
      f.games,
      show(f.meanWaitMs),
      show(f.p95WaitMs),
      show(f.meanImbalance),
      show(f.meanSpread),
      f.rejoins,
      f.lost,
    ]);
  return table.toString();
}

function round1(n: number | null): number | null {
  return n === null ? null : Math.round(n * 10) / 10;
}

/**
 * Whether a server answers at the endpoint (any HTTP answer will do); if not, what to do about it.
 * Without this, every bot fails alike with the SDK's bare "fetch failed".
 */
async function serverProblem(endpoint: string): Promise<string | undefined> {
  const http = httpUrl(endpoint, "");
  try {
    await fetch(http, { signal: AbortSignal.timeout(5000) });
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    return (
      `no server answers at ${endpoint} (${http.href}: ${why}).\n` +
      `Start the example server first, in another terminal: npm start (it listens on port 2567; ` +
      `PORT=8000 npm start for another port),\nor point the bots at your server: ` +
      `npm run client -- --endpoint ws://HOST:PORT`
    );
  }
}

/** The server's HTTP address for `path`, from the bots' endpoint. */
function httpUrl(endpoint: string, path: string): URL {
  const http = new URL(path, endpoint);
  http.protocol = http.protocol === "wss:" || http.protocol === "https:" ? "https:" : "http:";
  return http;
}

/** Why bots cannot play a queue the server offers, or undefined when they can. */
function unplayable(queue: QueueDescription): string | undefined {
  if (queue.roles) return "a role queue (bots pick no roles)";
  if (queue.trustedPlayers) return "its players come from the server's accounts (bots do not sign in)";
  if (queue.latency) return "it asks for latencies to its regions (bots send none)";
  return undefined;
}

/**
 * The shape of each queue in `names`, from the server's player page list (`/play/queues.json`,
 * `playPage()`): a problem in words when the server has no such list, no such queue or one bots
 * cannot play (`usage`: the bots' options are at fault).
 */
async function queueShapes(
  endpoint: string,
  names: readonly string[],
): Promise<Map<string, QueueShape> | { problem: string; usage: boolean }> {
  const url = httpUrl(endpoint, "/play/queues.json");
  let queues: QueueDescription[];
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    queues = ((await response.json()) as { queues: QueueDescription[] }).queues;
  } catch (error) {
    const why = (error as Error).message;
    return {
      problem: `the server does not list its queues at ${url.href} (${why}); the bots read each queue's shape there (mount playPage() at /play)`,
      usage: false,
    };
  }
  const shapes = new Map<string, QueueShape>();
  for (const name of names) {
    const queue = queues.find((q) => q.name === name);
    const why = queue ? unplayable(queue) : undefined;
    if (!queue || why)
      return {
        problem: queue
          ? `--queues: bots cannot play "${name}": ${why}`
          : `--queues: unknown queue "${name}" (this server's: ${queues.map((q) => q.name).join(", ")})`,
        usage: true,
      };
    shapes.set(name, queue.shape);
  }
  return shapes;
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }

  const problem = await serverProblem(options.endpoint);
  if (problem) {
    console.error(`error: ${problem}`);
    return 1;
  }

  const shapes = await queueShapes(options.endpoint, options.queues);
  if (!(shapes instanceof Map)) {
    console.error(`error: ${shapes.problem}${shapes.usage ? `\n\n${USAGE}` : ""}`);
    return shapes.usage ? 2 : 1;
  }
  const gameSize = (q: string) => shapes.get(q)!.players;
  const counts = splitBots(options.bots, options.queues.map(gameSize));
  const total = counts.reduce((a, b) => a + b, 0);
  const plan = options.queues.map((q, i) => `${q} ${counts[i]}`).join(", ");
  if (total !== options.bots) {
    console.error(
      `note: ${options.bots} bot(s) cannot all be matched (each queue needs a multiple of its game's players: ${options.queues.map((q) => `${q} ${gameSize(q)}`).join(", ")}); running ${total} instead: ${plan}`,
    );
  } else {
    console.error(`running ${total} bots against ${options.endpoint}: ${plan}`);
  }

  // Parties cut to fit whole games; the queues interleaved so that arrivals look like a mixed crowd.
  const parties: Bot[][] = shuffle(
    options.queues.flatMap((queue, i) => {
      const shape = shapes.get(queue)!;
      return partyPlan(counts[i]! / shape.players, shape, options.parties).map((size) =>
        Array.from({ length: size }, () => ({ queue, shape, rating: randomRating(), partySize: size, landed: false })),
      );
    }),
  );
  const bots = parties.flat();
  const client = new Client(options.endpoint);
  const imbalance = new Map<string, number>();

  const bar = new cliProgress.SingleBar(
    {
      format: "bots |{bar}| {value}/{total} done | {landed} landed | {lost} lost | {duration}s",
      noTTYOutput: true,
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let landed = 0;
  let lost = 0;
  bar.start(bots.length, 0, { landed, lost });

  const runs: Promise<void>[] = [];
  for (const party of parties) {
    runs.push(
      runParty(party, client, options.timeoutMs, imbalance).then(() => {
        for (const bot of party) {
          if (bot.landed) landed++;
          else lost++;
        }
        bar.increment(party.length, { landed, lost });
      }),
    );
    if (options.staggerMs > 0) await sleep(options.staggerMs);
  }
  await Promise.all(runs);
  bar.stop();

  const rows: Array<[string, Figures]> = options.queues.map((q) => [
    q,
    figures(
      bots.filter((b) => b.queue === q),
      imbalance,
    ),
  ]);
  rows.push(["total", figures(bots, imbalance)]);

  // Say why bots were lost, grouped, so a dead server does not print 200 identical lines.
  const reasons = new Map<string, number>();
  for (const b of bots) if (b.error) reasons.set(b.error, (reasons.get(b.error) ?? 0) + 1);
  for (const [reason, n] of reasons) console.error(`lost ${n} bot(s): ${reason}`);

  if (options.json) {
    const json = (f: Figures) => ({
      ...f,
      meanWaitMs: round1(f.meanWaitMs),
      p95WaitMs: round1(f.p95WaitMs),
      meanImbalance: round1(f.meanImbalance),
      meanSpread: round1(f.meanSpread),
    });
    const queues = Object.fromEntries(rows.slice(0, -1).map(([q, f]) => [q, json(f)]));
    console.log(
      JSON.stringify({ endpoint: options.endpoint, requestedBots: options.bots, queues, total: json(rows.at(-1)![1]) }),
    );
  } else {
    console.log(summaryTable(rows));
  }
  return lost === 0 ? 0 : 1;
}

process.exitCode = await main();
// Every connection is closed by now, so Node exits by itself; if some handle still lingers,
// do not hang (the timer is unref'd, so it never delays a clean exit).
setTimeout(() => {
  console.error("note: a connection was still open after the summary; exiting anyway");
  process.exit();
}, 3000).unref();
