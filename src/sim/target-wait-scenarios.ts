/**
 * The queue option `targetWait` on traffic that changes tenfold, and against Colyseus's
 * `QueueRoom` on its own traffic: `npm run sim -- --target-wait-scenarios`.
 *
 * Scenarios (2v2, solos, ratings normal(1500, 300), Poisson arrivals, `density-window` holding a
 * mean wait of 3 s unless told otherwise):
 * - ramp: 1 ticket/s for 5 min, up to 10/s over 15 min, 10/s for 5 min, down to 1/s over 15 min, 1/s for 5 min;
 * - daily: a compressed day of 30 min, twice: the rate 10^((1 + sin(2πt / 30 min)) / 2), between 1 and 10/s;
 * - bursts: 1/s, with a burst of 10/s for 2 min every 10 min, five times.
 * The waits are judged in blocks of `blockPlayers` matched players (in the order of their games),
 * after the first `settlePlayers`: each block's mean wait against the target.
 *
 * Against QueueRoom: the model of `queue-room-model.ts` on its own traffic (2v2, 10 and 2
 * tickets/s) gives its mean wait and spread; `density-window` (and, for reference, the percentile
 * expanding window) then holds QueueRoom's mean wait as its target, and its spread is compared.
 */
import Table from "cli-table3";
import type { PolicyParams } from "../core/policy.js";
import { measure } from "./measures.js";
import { policiesWithQueueRoom } from "./queue-room-model.js";
import { simulate } from "./simulator.js";
import { profileRate, type RateProfile, type TrafficModel } from "./traffic.js";

/** One tenfold-changing traffic pattern. */
export interface WaitScenario {
  readonly name: string;
  readonly description: string;
  readonly profile: RateProfile;
  /** Seconds of arrivals. */
  readonly duration: number;
}

const minutes = (m: number) => m * 60;

export const TARGET_WAIT_SCENARIOS: readonly WaitScenario[] = [
  {
    name: "ramp",
    description: "1/s, up to 10/s over 15 min, down again over 15 min",
    profile: {
      points: [
        [0, 1],
        [minutes(5), 1],
        [minutes(20), 10],
        [minutes(25), 10],
        [minutes(40), 1],
      ],
    },
    duration: minutes(45),
  },
  {
    name: "daily",
    description: "a 30-min day, twice: 10^((1 + sin)/2) between 1/s and 10/s",
    profile: {
      points: Array.from({ length: 31 }, (_, i) => [minutes(i), 10 ** ((1 + Math.sin((2 * Math.PI * i) / 30)) / 2)]),
      period: minutes(30),
    },
    duration: minutes(60),
  },
  {
    name: "bursts",
    description: "1/s, bursts of 10/s for 2 min every 10 min",
    profile: {
      points: [
        [0, 1],
        [minutes(8), 1],
        [minutes(8) + 1, 10],
        [minutes(10), 10],
        [minutes(10) + 1, 1],
      ],
      period: minutes(10),
    },
    duration: minutes(50),
  },
];

export interface ScenarioOptions {
  readonly policy?: string;
  readonly params?: PolicyParams;
  readonly targetWaitMs?: number;
  readonly percentile?: number;
  /** The controller's gain (default: the option's default). */
  readonly gain?: number;
  readonly seed?: number;
  /** Players per judged block (default 400). */
  readonly blockPlayers?: number;
  /** Matched players before the first judged block (default 600). */
  readonly settlePlayers?: number;
}

export interface ScenarioBlock {
  /** Seconds: the first and last game of the block. */
  readonly from: number;
  readonly to: number;
  /** The arrival rate (tickets/s) at the block's middle. */
  readonly rate: number;
  readonly meanWait: number;
  /** The block's p-th percentile wait (with a percentile target). */
  readonly percentileWait?: number;
}

export interface ScenarioResult {
  readonly scenario: string;
  readonly targetWait: number;
  readonly percentile?: number;
  readonly settlePlayers: number;
  /** Seconds until the first judged block starts. */
  readonly settleSeconds: number;
  readonly blocks: readonly ScenarioBlock[];
  /** Largest |block's figure / target − 1| over the judged blocks. */
  readonly maxDeviation: number;
  readonly meanWait: number;
  readonly meanSpread: number;
  readonly players: number;
}

const traffic = (profile: RateProfile | undefined, rate: number): TrafficModel => ({
  arrivals: "poisson",
  rate,
  ...(profile ? { profile } : {}),
  parties: [{ value: 1, weight: 1 }],
  skill: { kind: "normal", mean: 1500, sd: 300 },
  sides: [{ value: undefined, weight: 1 }],
});

/** One scenario: the run, and each block's mean wait (or percentile) against the target. */
export function runScenario(scenario: WaitScenario, options: ScenarioOptions = {}): ScenarioResult {
  const target = options.targetWaitMs ?? 3000;
  const blockPlayers = options.blockPlayers ?? 400;
  const settlePlayers = options.settlePlayers ?? 600;
  const trace = simulate({
    policy: options.policy ?? "density-window",
    params: options.params ?? {},
    teamSize: 2,
    traffic: traffic(scenario.profile, 1),
    durationMs: scenario.duration * 1000,
    seed: options.seed ?? 1,
    targetWait: {
      waitMs: target,
      ...(options.gain !== undefined ? { gain: options.gain } : {}),
      ...(options.percentile !== undefined ? { percentile: options.percentile } : {}),
    },
  });
  // Every matched player in the order of their games: (time of the game, wait).
  const waits: Array<[number, number]> = [];
  for (const m of trace.matches)
    for (const t of m.tickets) for (const _ of t.players) waits.push([m.createdAt, m.createdAt - t.enqueuedAt]);
  const blocks: ScenarioBlock[] = [];
  let maxDeviation = 0;
  for (let start = settlePlayers; start + blockPlayers <= waits.length; start += blockPlayers) {
    const block = waits.slice(start, start + blockPlayers);
    const from = block[0][0] / 1000;
    const to = block[block.length - 1][0] / 1000;
    const meanWait = block.reduce((s, [, w]) => s + w, 0) / block.length / 1000;
    let figure = meanWait;
    let percentileWait: number | undefined;
    if (options.percentile !== undefined) {
      const sorted = block.map(([, w]) => w).sort((a, b) => a - b);
      percentileWait =
        sorted[Math.min(sorted.length - 1, Math.ceil((options.percentile / 100) * sorted.length) - 1)] / 1000;
      figure = percentileWait;
    }
    maxDeviation = Math.max(maxDeviation, Math.abs(figure / (target / 1000) - 1));
    blocks.push({
      from,
      to,
      rate: profileRate(scenario.profile, (from + to) / 2),
      meanWait,
      ...(percentileWait !== undefined ? { percentileWait } : {}),
    });
  }
  const measures = measure(trace, { teamSize: 2, warmup: 0, ratingScale: { min: 600, max: 2400 } });
  return {
    scenario: scenario.name,
    targetWait: target / 1000,
    ...(options.percentile !== undefined ? { percentile: options.percentile } : {}),
    settlePlayers,
    settleSeconds: waits[settlePlayers]?.[0] !== undefined ? waits[settlePlayers][0] / 1000 : NaN,
    blocks,
    maxDeviation,
    meanWait: measures.meanWait,
    meanSpread: measures.meanSpread,
    players: waits.length,
  };
}

/** One row against QueueRoom: its wait and spread, and a policy's spread holding that wait. */
export interface QueueRoomRow {
  readonly rate: number;
  readonly policy: string;
  readonly params: PolicyParams;
  readonly queueRoomWait: number;
  readonly queueRoomSpread: number;
  readonly meanWait: number;
  readonly meanSpread: number;
  /** meanSpread / queueRoomSpread. */
  readonly spreadRatio: number;
}

/** The policies put against QueueRoom at its own wait. */
export const QUEUE_ROOM_CONTENDERS: ReadonlyArray<{ readonly policy: string; readonly params: PolicyParams }> = [
  { policy: "density-window", params: {} },
  { policy: "expanding-window", params: { unit: "percentile", initial: 0.08, growthPerSecond: 0.3 } },
];

/** QueueRoom on its traffic (2v2, `rate` tickets/s), then each contender holding QueueRoom's mean wait. */
export function againstQueueRoom(rate: number, tickets = 20_000, seed = 1): QueueRoomRow[] {
  const policies = policiesWithQueueRoom();
  const run = (policy: string, params: PolicyParams, targetWaitMs?: number) =>
    measure(
      simulate({
        policy,
        params,
        policies,
        teamSize: 2,
        traffic: traffic(undefined, rate),
        tickets,
        seed,
        ...(targetWaitMs !== undefined ? { targetWait: { waitMs: targetWaitMs } } : {}),
      }),
      { teamSize: 2, warmup: Math.floor(tickets / 10), ratingScale: { min: 600, max: 2400 } },
    );
  const queueRoom = run("queue-room", {});
  return QUEUE_ROOM_CONTENDERS.map(({ policy, params }) => {
    const m = run(policy, params, Math.round(queueRoom.meanWait * 1000));
    return {
      rate,
      policy,
      params,
      queueRoomWait: queueRoom.meanWait,
      queueRoomSpread: queueRoom.meanSpread,
      meanWait: m.meanWait,
      meanSpread: m.meanSpread,
      spreadRatio: m.meanSpread / queueRoom.meanSpread,
    };
  });
}

/** Both tables as text. */
export function scenariosText(results: readonly ScenarioResult[], rows: readonly QueueRoomRow[]): string {
  const style = { head: [], border: [] };
  const held = new Table({
    head: [
      "scenario",
      "target",
      "settle (players / s)",
      "judged blocks",
      "max deviation",
      "mean wait s",
      "mean spread",
    ],
    style,
  });
  for (const r of results)
    held.push([
      r.scenario,
      `${r.percentile !== undefined ? `p${r.percentile}` : "mean"} ${r.targetWait} s`,
      `${r.settlePlayers} / ${r.settleSeconds.toFixed(0)}`,
      String(r.blocks.length),
      `${(100 * r.maxDeviation).toFixed(1)}%`,
      r.meanWait.toFixed(2),
      r.meanSpread.toFixed(1),
    ]);
  const versus = new Table({
    head: [
      "rate /s",
      "QueueRoom wait s",
      "QueueRoom spread",
      "policy (target = QueueRoom's wait)",
      "wait s",
      "spread",
      "spread / QueueRoom's",
    ],
    style,
  });
  for (const r of rows)
    versus.push([
      String(r.rate),
      r.queueRoomWait.toFixed(3),
      r.queueRoomSpread.toFixed(1),
      `${r.policy}${Object.keys(r.params).length ? ` ${JSON.stringify(r.params)}` : ""}`,
      r.meanWait.toFixed(3),
      r.meanSpread.toFixed(1),
      r.spreadRatio.toFixed(3),
    ]);
  return [
    "Target wait on traffic that changes tenfold (2v2, normal(1500, 300), density-window): each block's figure against the target",
    held.toString(),
    "Against QueueRoom on its own traffic (2v2, normal(1500, 300)), holding QueueRoom's mean wait",
    versus.toString(),
  ].join("\n");
}
