/**
 * A queue's life is its name's, not one room instance's. Colyseus disposes a room when its last
 * client leaves (`autoDispose`), so a queue room comes and goes with every burst of players; what
 * must not reset with it lives here, one {@link QueueLife} per queue name in this process, which
 * the room instances attach to in `onCreate` and detach from in `onDispose`:
 * - the engine itself (an empty engine between rooms): its cumulative counters (matches, players),
 *   its recent-wait and imbalance windows, the rematch history (`avoidRecent`), the side mix and
 *   what the policy learned (a target wait's controller, an arrival rate);
 * - the wait estimator (the estimates players are told);
 * - the counts the room keeps itself ({@link QueueTotals}: declines, spawn failures, abandoned
 *   matches, backfill, seat outcomes).
 * The per-address limits and the offence ledger already live per queue name in their own modules
 * (address-limits.ts, offences.ts); the seat watch stays with the room, which does not dispose
 * while seats are open (see `MatchmakerRoom`).
 *
 * Bounded: one life per queue name defined with `MatchmakerRoom` (the server's room names, not
 * room ids). A queue defined again with other options (another options object) starts a new life;
 * a room the server closes on purpose (`disconnect()`: the monitor, `matchMaker.disconnectAll`, a
 * shutdown) ends its life, so the next room of that name starts its figures afresh. A second room
 * of a name whose room is still live in this process (a client's explicit `create`) gets a life
 * of its own, not shared.
 */
import { generateId, logger, matchMaker } from "@colyseus/core";
import { MatchmakerError } from "../core/errors.js";
import { Matchmaker } from "../core/matchmaker.js";
import { WaitEstimator } from "../core/wait-estimate.js";
import {
  addressLimitsOf,
  engineOptionsOf,
  parseRoomOptions,
  penaltiesOf,
  ROOM_OPTIONS_LABEL,
  waitEstimatorOptionsOf,
  type ResolvedRoomOptions,
} from "../options/queue-options.js";
import { engineSettings, type MatchmakerOptions } from "../options/matchmaker.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { processAddressLimits } from "./address-limits.js";
import { LastHour, type HourTotals } from "./last-hour.js";
import { figuresToMetrics, listIdleQueues, type QueueMetrics } from "./metrics.js";
import { processOffenceLedgers } from "./offences.js";
import {
  newQueueTotals,
  queueFigures,
  type QueueFigures,
  showEngineStats,
  showOffenceCounts,
  showTotals,
  showWaitingBreakdown,
  type QueueTotals,
} from "./state.js";
import type { WaitingBreakdown } from "./status.js";
import { recordTraffic, type TrafficRecorder } from "./traffic-trace.js";

/** Marks a queue room class (`MatchmakerRoom` and its subclasses), so its definitions are listed from the start. */
export const QUEUE_ROOM = Symbol.for("colyseus-matchmaker.queue-room");

/**
 * A queue's configuration checked in full, with its engine: the options' fields and rules (see
 * `src/options/`), then what only the engine can check (the policy's name and parameters, the
 * imbalance). Every error starts with "MatchmakerRoom options:" once. The engine gets the checked
 * options and the room's policies: the default registry, where `defaultPolicies.register` adds a
 * game's own.
 */
export function configureQueue(
  options: unknown,
  matchIdPrefix: string,
  hooks: Pick<MatchmakerOptions, "onPolicyError"> = {},
): { config: ResolvedRoomOptions; matchmaker: Matchmaker } {
  const config = parseRoomOptions(options);
  try {
    const settings = engineSettings({ ...engineOptionsOf(config, matchIdPrefix), ...hooks }, defaultPolicies);
    return { config, matchmaker: new Matchmaker(settings, defaultPolicies) };
  } catch (error) {
    if (error instanceof MatchmakerError)
      throw new MatchmakerError(error.code, `${ROOM_OPTIONS_LABEL}: ${error.message}`, error.field);
    throw error;
  }
}

/** What only a live room knows: the seats it watches, the replacements it seeks, the players waiting. */
export interface RoomFigures {
  readonly backfillPending: number;
  readonly seatsOpen: number;
  readonly waiting: WaitingBreakdown;
}

const NOBODY_WAITING: WaitingBreakdown = { players: 0, tickets: 0, byPartySize: {}, bySide: {}, byZone: {} };

/** One queue name's state in this process; see the module comment. */
export class QueueLife {
  readonly config: ResolvedRoomOptions;
  /** The queue's engine: it holds tickets only while a room is attached. */
  readonly matchmaker: Matchmaker;
  /** Recent waits by ticket class, for the estimated wait in `status`. */
  readonly estimator: WaitEstimator;
  readonly totals: QueueTotals = newQueueTotals();
  /** With the option `trafficTrace`: the engine's traffic, recorded across rooms. */
  readonly trace?: TrafficRecorder;
  /** The room instance attached now (undefined between rooms). */
  roomId: string | undefined;
  /** Figures of this queue while no room is attached (never synchronized to anyone). */
  private idleFigures?: QueueFigures;
  private readonly lastHour = new LastHour(Date.now());
  /** The totals' growth over the last hour, as of the last `show`. */
  private hour: HourTotals = { matches: 0, playersSeated: 0, noShows: 0, requeued: 0 };

  constructor(
    readonly name: string,
    /** The options the queue was defined with (their identity tells a redefinition). */
    readonly definition: unknown,
  ) {
    // Match ids must be unique across rooms and processes (game rooms and the seat watch key on
    // them): a fresh prefix per life, as the room id was per room.
    const prefix = generateId();
    ({ config: this.config, matchmaker: this.matchmaker } = configureQueue(definition, prefix, {
      onPolicyError: (error) => logger.error(`[${name}] ${error.message}`),
    }));
    this.estimator = new WaitEstimator(waitEstimatorOptionsOf(this.config));
    if (this.config.trafficTrace) {
      const engine = engineOptionsOf(this.config, prefix);
      this.trace = recordTraffic(this.matchmaker, engine, this.config.trafficTrace.events, name);
    }
  }

  /**
   * Write the queue's figures as of `now` into `figures`: the engine's, the totals, the limits'
   * and the offence ledger's counts, and with `room` what the live room knows (else nothing open,
   * nobody waiting).
   */
  show(figures: QueueFigures, now: number, room?: RoomFigures): void {
    showEngineStats(figures, this.matchmaker.stats(now));
    figures.backfillPending = room?.backfillPending ?? 0;
    figures.seatsOpen = room?.seatsOpen ?? 0;
    showTotals(figures, this.totals);
    if (penaltiesOf(this.config)) showOffenceCounts(figures, processOffenceLedgers.of(this.name).counts);
    showWaitingBreakdown(figures, room?.waiting ?? NOBODY_WAITING);
    const limits = processAddressLimits.of(this.name, addressLimitsOf(this.config));
    figures.joinsRateLimited = limits.joinsLimited;
    figures.partyCodesLimited = limits.partyCodesLimited;
    // Every refresh is a look for the last hour: the figures refresh whenever they move.
    const seats = this.totals.seats;
    this.hour = this.lastHour.observe(
      {
        matches: figures.matchesFormed,
        playersSeated: figures.playersMatched,
        noShows: seats.expired_requeued + seats.expired_removed,
        requeued: seats.expired_requeued + seats.lost_requeued,
      },
      now,
    );
  }

  /** This queue's figures while no room of it lives in this process: its totals, nobody waiting. */
  idleMetrics(now: number): QueueMetrics {
    this.idleFigures ??= queueFigures(this.matchmaker.policy.name, this.config.shape);
    this.show(this.idleFigures, now);
    return this.metrics(this.idleFigures, null, now);
  }

  /** `figures` (just shown) as the metrics of room `roomId` (null: none), with the longest wait and the last hour. */
  metrics(figures: QueueFigures, roomId: string | null, now: number): QueueMetrics {
    const oldestWaitMs = this.matchmaker.stats(now).oldestWaitMs;
    return figuresToMetrics(this.name, roomId, figures, { oldestWaitMs, lastHour: this.hour });
  }

  /**
   * The room left: anything still in the engine (a room disposed with players in it, e.g. handed
   * over at shutdown) is cancelled, so the next room starts with an empty queue.
   */
  emptyEngine(now: number): number {
    const left = [...this.matchmaker.waiting()].map((t) => t.id);
    for (const id of left) this.matchmaker.cancel(id, now);
    return left.length;
  }
}

/** The lives of this process's queues, by queue name. */
export class QueueLives {
  private readonly byName = new Map<string, QueueLife>();

  /**
   * The life room `roomId` of queue `name` (defined with `definition`) attaches to: the name's,
   * unless another room of that name is live in this process (then one of its own, not kept).
   */
  attach(name: string, definition: unknown, roomId: string, isLive: (roomId: string) => boolean): QueueLife {
    let life = this.byName.get(name);
    if (life && life.definition !== definition) life = undefined; // defined again: a new life
    if (life?.roomId !== undefined && life.roomId !== roomId && isLive(life.roomId)) {
      const own = new QueueLife(name, definition);
      own.roomId = roomId;
      return own;
    }
    if (!life) {
      life = new QueueLife(name, definition);
      this.byName.set(name, life);
    }
    life.roomId = roomId;
    return life;
  }

  /**
   * Room `roomId` is disposed. With `ended` (the server closed it on purpose) the name's life ends
   * with it: the next room of that name starts afresh.
   */
  detach(life: QueueLife, roomId: string, now: number, ended: boolean): void {
    if (life.roomId !== roomId) return;
    life.roomId = undefined;
    const left = life.emptyEngine(now);
    if (left > 0) logger.debug(`[${life.name}] ${left} ticket(s) left the engine with room ${roomId}`);
    if (ended && this.byName.get(life.name) === life) this.byName.delete(life.name);
  }

  /** The life of a queue name for its figures (created if none yet), or undefined if its options do not parse. */
  of(name: string, definition: unknown): QueueLife | undefined {
    const life = this.byName.get(name);
    if (life && life.definition === definition) return life;
    try {
      const fresh = new QueueLife(name, definition);
      this.byName.set(name, fresh);
      return fresh;
    } catch (error) {
      logger.warn(`[${name}] queue not listed in the metrics: ${error instanceof Error ? error.message : error}`);
      return undefined;
    }
  }

  /** Queue names with a life in this process. */
  get size(): number {
    return this.byName.size;
  }
}

/** This process's queue lives: every room of a queue name attaches to the same one, one room after another. */
export const processQueueLives = new QueueLives();

/** Every queue defined in this process (a room name whose class is a `MatchmakerRoom`), with its options. */
export function definedQueues(): Array<{ name: string; options: unknown }> {
  const handlers = matchMaker.getAllHandlers();
  return Object.entries(handlers)
    .filter(([, handler]) => (handler.klass as unknown as Record<symbol, unknown>)[QUEUE_ROOM] === true)
    .map(([name, handler]) => ({ name, options: handler.options }));
}

/**
 * The figures of every defined queue with no room live in this process: listed from the server's
 * start, waiting or not, with their totals (see `collectMetrics`).
 */
function idleQueues(now: number, live: ReadonlySet<string>): QueueMetrics[] {
  const idle: QueueMetrics[] = [];
  for (const { name, options } of definedQueues()) {
    if (live.has(name)) continue;
    const life = processQueueLives.of(name, options);
    if (life && life.roomId === undefined) idle.push(life.idleMetrics(now));
  }
  return idle;
}

listIdleQueues((live) => idleQueues(Date.now(), live));
