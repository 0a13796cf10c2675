/**
 * `MatchmakerRoom`: the Colyseus adapter around the engine. Clients join it to wait; it runs
 * the policy on every join and on its heartbeat (a timer), spawns a game room per match, reserves every seat
 * and sends each player a `seat` message. If anything fails, the players go back to the queue
 * at their original place. The engine itself never sees Colyseus.
 */
import {
  CloseCode,
  defineRoom,
  logger,
  matchMaker,
  Room,
  type AuthContext,
  type Client,
  type Delayed,
} from "@colyseus/core";
import { MatchmakerError } from "../core/errors.js";
import type { Matchmaker } from "../core/matchmaker.js";
import { meanRating, type Match, type Ticket } from "../core/types.js";
import type { WaitEstimator } from "../core/wait-estimate.js";
import { BackfillDesk, type BackfillReceipt } from "./backfill-desk.js";
import { registerQueue, unregisterQueue, type QueueMetrics } from "./metrics.js";
import {
  addressLimitsOf,
  penaltiesOf,
  spawnBackoffTimingOf,
  waitEstimatorOptionsOf,
  ROOM_OPTIONS_LABEL,
  type MatchmakerRoomOptions,
  type ResolvedRoomOptions,
} from "../options/queue-options.js";
import type { JoinOptions } from "../options/player-options.js";
import { checkJoinOptions, checkJoinOptionsShape, joinOptionsSchema, type JoinValidator } from "./join-options.js";
import { asClientError, JOIN_REFUSED, toClientError } from "./client-error.js";
import { disposeGameRoom, startGame, type SeatMessage } from "./director/game-room.js";
import { colyseusSeatWatch } from "./director/arrivals.js";
import { QueueSession, type RemovedMessage, type RequeueNotice, type StartResult } from "./session.js";
import { processAddressLimits, type QueueAddressLimits } from "./address-limits.js";
import { carriesForwardingHeaders, clientAddress } from "./client-address.js";
import { processSpawnBackoffs, type SpawnBackoff } from "./spawn-backoff.js";
import { WaitingRoster, type SampleTicket } from "./queue-view.js";
import { withRoster, MatchmakerState, queueFigures, showTotals } from "./state.js";
import { FiguresRefresh, StatusNotifier, type WaitingTicket } from "./status-notifier.js";
import { PacedTask, type PaceClock } from "./paced-task.js";
import { isSharedPresence, startDurability, type DurableQueue } from "./durable/durable-queue.js";
import { roomHost } from "./durable/room-host.js";
import { registerTrace, unregisterTrace } from "./traffic-trace.js";
import { checkResumingPlayer, PlayerResolver } from "./trusted-players.js";
import { rankedGameRoomRefusal, RankedRatings } from "./ranked.js";
import { processOffenceLedgers } from "./offences.js";
import { offenderOf, QueuePenalties } from "./penalties.js";
import { PromptCredits } from "./prompt-answers.js";
import { closeUnknownMessage } from "./unknown-message.js";
import { configureQueue, processQueueLives, QUEUE_ROOM, type QueueLife } from "./queue-life.js";

/**
 * A matchmaking queue. Configure it with `defineRoom(MatchmakerRoom, options)` (or
 * {@link defineQueue}); the configuration comes only from the server, never from clients.
 *
 * Client protocol:
 * - join with {@link JoinOptions} (`{ rating, side?, party?, partyCode? }`); bad options reject
 *   the join with code 525 and a message naming each bad field;
 * - a party leader (`party: { size }`) and its members receive `party` ({@link PartyMessage});
 *   the leader may send `start` (answers {@link StartResult});
 * - with a ready check, receive `match_found` ({@link MatchFoundMessage}) and send `accept` or
 *   `decline`; `requeued` ({@link RequeuedMessage}) when a match fell through and you kept your
 *   place, `removed` ({@link RemovedMessage}) when you are out (the server then closes the connection);
 * - receive `seat` ({@link SeatMessage}): pass it to `client.consumeSeatReservation()`;
 * - receive `status` ({@link StatusMessage}) on entering the queue, then only when something moved
 *   (estimate, window, the count's bucket), at most once per `statusIntervalMs`; derive the waited time;
 * - receive `clients` (a number: players waiting in the queue, or in the client's busiest zone),
 *   as Colyseus's `QueueRoom` sends it, with a status whose count moved; once matched, the match's
 *   human players (its group, in every shape);
 * - optionally send `confirm` after taking the seat (QueueRoom's flow): the queue lets you go.
 *
 * Server side: {@link MatchmakerRoom.getMetrics}, {@link MatchmakerRoom.requestBackfill} (a game
 * room calls it through `matchMaker.remoteRoomCall`, or the `requestBackfill` helper).
 *
 * The ticket lifecycle lives in {@link QueueSession}; this class wires it to Colyseus.
 */
export class MatchmakerRoom extends Room<{ state: MatchmakerState }> {
  /** Lists the queue's definitions in the metrics from the server's start (see queue-life.ts). */
  static readonly [QUEUE_ROOM] = true;
  override state = withRoster(new MatchmakerState(), new WaitingRoster(() => this.matchmaker.waiting()));

  /** The engine; exposed for tests and custom subclasses. */
  matchmaker!: Matchmaker;
  /** Parties, ready checks, reconnections: the lifecycle of every ticket; exposed for tests. */
  session!: QueueSession;
  protected config!: ResolvedRoomOptions;
  private joinValidator!: JoinValidator;
  /** With the `players` option: every join's player comes from the server (see trusted-players.ts). */
  private players?: PlayerResolver;
  /** With the `ratings` option (a ranked queue): ratings read at join, each match opened before its seats. */
  private ranked?: RankedRatings;
  /** The pending early wake-up for the engine (a policy deadline before the next heartbeat). */
  private wakeup?: { at: number; cancel: () => void };
  /** Reconnections being waited for (Colyseus's deferreds), to cancel when a dropped player is removed. */
  private readonly reconnections = new Map<string, ReturnType<Room["allowReconnection"]>>();
  /** Recent waits by ticket class, for the estimated wait in `status`. */
  private estimator!: WaitEstimator;
  private status!: StatusNotifier;
  /** The shared figures refresh at most once per `figuresIntervalMs` (less often for a large audience). */
  private figuresThrottle!: FiguresRefresh;
  /**
   * What outlives this room: the engine, the estimator and the counts, kept for the queue's name
   * (see queue-life.ts). The room attaches to it in `onCreate` and detaches in `onDispose`.
   */
  private life!: QueueLife;
  /** The server closed this room on purpose (`disconnect`): its queue's life ends with it. */
  private ended = false;
  /** Joins and leaves run the policy through this: at most once per `joinBatchMs`. */
  private engineRuns!: PacedTask;
  private inEngineRun = false;
  private closed = false;
  /** Join options `onAuth` checked, for `onJoin` (the same client object), so they are checked once. */
  private readonly authorized = new WeakMap<Client, JoinOptions>();
  /** The room's clock for its timers (the engine's `now` and the room's `clock`). */
  private readonly paceClock: PaceClock = {
    now: () => this.now(),
    setTimeout: (fn, ms) => this.clock.setTimeout(fn, ms),
  };
  private lastSweep = 0;
  /** Joins and wrong party codes per client address, kept for the queue's name (they outlive this room). */
  private addressLimits!: QueueAddressLimits;
  private backfill!: BackfillDesk;
  /** This process's backoff for the game room type: while it fails, no game of that type is attempted. */
  private spawnBackoff!: SpawnBackoff;
  /** With Redis (shared presence): the queue's lease, stored places, resume tokens and handover; absent in memory. */
  private durable?: DurableQueue;
  /** Answers to `match_found` and `seat` do not count toward `maxMessagesPerSecond` (see prompt-answers.ts). */
  private readonly prompts = new PromptCredits();
  /** What breaking a match costs, by account (absent with `penalties: false`). */
  private penalties?: QueuePenalties;
  /**
   * The room's timer: every `tickMs` it runs the engine (the engine's own `tick(now)` is one pass
   * of the policy, which joins, leaves and wake-ups run too).
   */
  private heartbeat!: Delayed;

  override messages = {
    confirm: (client: Client) => {
      this.prompts.answered(client);
      // As QueueRoom does: a normal closure, so the client's onLeave sees code 1000.
      if (this.session.placeOf(client.sessionId) === "seated") client.leave(CloseCode.NORMAL_CLOSURE);
    },
    start: (client: Client): StartResult => {
      const result = this.session.start(client.sessionId, this.now());
      this.runEngine();
      return result;
    },
    accept: (client: Client) => {
      this.prompts.answered(client);
      this.session.accept(client.sessionId);
    },
    decline: (client: Client) => {
      this.prompts.answered(client);
      this.session.decline(client.sessionId, this.now());
      this.runEngine();
    },
    // Any other type: closed with a fixed reason (Colyseus's own quotes the type, and a long one crashed the process).
    _: closeUnknownMessage,
  };

  override onCreate(clientOptions: unknown): void | Promise<void> {
    // `defineRoom` defaults are the queue's configuration; options of the creating client are
    // join options and must not configure the queue.
    const definition = matchMaker.getHandler(this.roomName)?.options ?? clientOptions;
    const isLive = (roomId: string) => matchMaker.getLocalRoomById(roomId) !== undefined;
    this.life = asClientError(() => processQueueLives.attach(this.roomName, definition, this.roomId, isLive));
    ({ config: this.config, matchmaker: this.matchmaker, estimator: this.estimator } = this.life);
    this.maxMessagesPerSecond = this.config.maxMessagesPerSecond;
    if (this.life.trace) registerTrace(this.roomName, this.roomId, this.life.trace);
    if (this.config.ratings) {
      const refusal = rankedGameRoomRefusal(this.config.gameRoom);
      if (refusal)
        throw toClientError(new MatchmakerError("invalid_config", `${ROOM_OPTIONS_LABEL}: ${refusal}`, "ratings"));
      this.ranked = new RankedRatings(this.config.ratings, this.roomName, this.config.rating, (m) => logger.error(m));
    }
    if (this.config.players) {
      const queue = {
        rating: this.config.rating,
        ...(this.matchmaker.criteria ? { criteria: this.matchmaker.criteria } : {}),
        ...(this.ranked ? { ranked: this.ranked } : {}),
      };
      this.players = new PlayerResolver(this.config.players, queue, (message) => logger.warn(message));
    }
    this.joinValidator = joinOptionsSchema(
      { min: this.config.rating.min, max: this.config.rating.max },
      this.config.roles,
      this.config.shape,
      this.matchmaker.zones,
      this.matchmaker.latencyZones,
      this.matchmaker.criteria,
      this.players?.refused,
    );
    const penalties = penaltiesOf(this.config);
    if (penalties) {
      const ledger = processOffenceLedgers.of(this.roomName);
      const shared = isSharedPresence(this.presence) ? this.presence : undefined;
      this.penalties = new QueuePenalties(this.roomName, penalties, ledger, shared, (message) =>
        logger.error(`[${this.roomName}] ${message}`),
      );
    }
    this.session = new QueueSession({
      matchmaker: this.matchmaker,
      ...(this.penalties ? { offences: this.penalties } : {}),
      ...(this.config.readyCheck ? { readyCheck: this.config.readyCheck } : {}),
      allowPartialParties: this.config.allowPartialParties,
      duplicateAccount: this.config.duplicateAccount,
      onError: (message) => logger.error(`[${this.roomName}] ${message}`),
      effects: {
        send: (id, type, payload) => {
          if (type === "seat") this.durable?.gone(id);
          if (type === "match_found" || type === "seat") this.prompts.sent(id);
          this.clients.getById(id)?.send(type, payload);
        },
        waiting: (ticket) => {
          this.showWaiting(ticket);
          this.durable?.waiting(ticket);
        },
        notWaiting: (ticketId) => {
          this.state.waiting.delete(ticketId);
          this.status.notWaiting(ticketId);
        },
        spawn: (match) => void this.startMatch(match),
        remove: (id, message) => {
          this.durable?.gone(id);
          this.removePlayer(id, message);
        },
        seatOutcome: (outcome, n) => {
          this.life.totals.seats[outcome] += n;
          this.holdWhileSeatsOpen();
          this.figuresThrottle.request();
        },
      },
      // Every seat is followed until its player enters the game room (`playerArrived`).
      seatWatch: colyseusSeatWatch(this.config.gameRoom, this.paceClock),
    });
    this.state.figures = queueFigures(this.matchmaker.policy.name, this.config.shape);
    const estimate = waitEstimatorOptionsOf(this.config);
    this.status = new StatusNotifier({
      estimator: this.estimator,
      acceptanceWindow: (id, now) => this.matchmaker.acceptanceWindow(id, now),
      send: (id, type, payload) => {
        const client = this.clients.getById(id);
        client?.send(type, payload);
        return client !== undefined;
      },
      zonesOf: (ticket) => this.matchmaker.zonesOfTicket(ticket.id) ?? ticket.zones,
      // A window moving by a rating band is news; less is not.
      windowStep: estimate.bandWidth,
      timeDrivenWindows: [...this.matchmaker.zonePolicies.values()].some((p) => p.acceptanceWindow !== undefined),
      minIntervalMs: this.config.statusIntervalMs,
    });
    this.figuresThrottle = new FiguresRefresh(
      this.config.figuresIntervalMs,
      FIGURE_FRAMES_PER_SECOND,
      () => this.clients.length,
      () => this.refreshFigures(this.now()),
      this.paceClock,
    );
    // The room's clock ticks with its patches (every 50 ms): a batch of joins waits on a timer of its own.
    this.engineRuns = new PacedTask(
      () => this.config.joinBatchMs,
      () => this.runEngine(),
      {
        now: () => this.now(),
        setTimeout: (fn, ms) => this.preciseTimeout(fn, ms),
      },
    );
    this.backfill = this.createBackfillDesk();
    this.spawnBackoff = processSpawnBackoffs.of(this.config.gameRoom);
    this.addressLimits = processAddressLimits.of(this.roomName, addressLimitsOf(this.config));
    registerQueue(this);
    this.refreshFigures(this.now()); // the queue's totals so far, from the first patch
    this.lastSweep = this.now();
    this.heartbeat = this.clock.setInterval(() => this.onHeartbeat(), this.config.tickMs);
    if (isSharedPresence(this.presence)) return this.startDurable();
  }

  /** Scaled out: claim the queue's lease and keep its places in presence (see `durable/`). */
  private async startDurable(): Promise<void> {
    const parts = { session: this.session, now: () => this.now(), runEngine: () => this.runEngine() };
    this.durable = await startDurability(roomHost(this, parts));
  }

  /** A graceful stop: scaled out, the players are handed over with their places; in memory, as Colyseus does. */
  override onBeforeShutdown(): void {
    if (this.durable) void this.durable.handover("shutdown");
    else super.onBeforeShutdown();
  }

  /**
   * Closed by the server on purpose (the monitor, `matchMaker.disconnectAll`, a shutdown): in
   * memory, the queue's life ends here. Scaled out, a close is a handover (the queue moves on, and
   * may come back to this process): its life goes on.
   */
  override disconnect(closeCode?: number): Promise<unknown> {
    this.ended = this.durable === undefined;
    return super.disconnect(closeCode);
  }

  override onDispose(): void {
    this.closed = true;
    this.session?.dispose();
    this.durable?.stop();
    if (this.life) processQueueLives.detach(this.life, this.roomId, this.now(), this.ended);
    unregisterQueue(this);
    unregisterTrace(this.roomId);
    this.heartbeat?.clear();
    this.figuresThrottle?.cancel();
    this.engineRuns?.cancel();
  }

  /**
   * Runs on the matchmaking request, before Colyseus reserves a seat: join options nested too deep
   * or too large are refused at once (525, naming the field and the limit), where Colyseus would
   * fail to copy them and retry for seconds; a key named after an `Object.prototype` member
   * (`hasOwnProperty`, `__proto__`, ...) at any depth is refused as malformed (400, naming it)
   * before Colyseus merges the options into a new queue room's. Returns true, so that `onAuth`
   * still checks every field. A subclass with its own static `onAuth` should call this one first.
   */
  static override async onAuth(_token: string, options: unknown, _context: AuthContext): Promise<true> {
    asClientError(() => checkJoinOptionsShape(options));
    return true;
  }

  override onAuth(client: Client, options: unknown, context: AuthContext): JoinOptions | Promise<JoinOptions> {
    const address = this.admitAddress(client, context);
    if (this.players) return this.admitAccount(client, address, this.admitPlayer(client, options, address, context));
    if (!this.durable) {
      const join = this.authorizeJoin(options, address);
      this.authorized.set(client, join);
      return this.admitAccount(client, address, join);
    }
    const check = (rest: unknown) => this.authorizeJoin(rest, address);
    const join = this.durable.authorize(client.sessionId, options, check, (rest) => this.validateJoin(rest));
    return this.admitAccount(client, address, join);
  }

  /**
   * A join whose account (its `playerId`, a resume's the stored place's; else its address) is
   * cooling down after breaking matches is refused (429, saying when to retry; see penalties.ts).
   */
  private admitAccount(
    client: Client,
    address: string,
    join: JoinOptions | Promise<JoinOptions>,
  ): JoinOptions | Promise<JoinOptions> {
    if (!this.penalties) return join;
    const refused = (error: unknown) => {
      this.durable?.forgetAuthorization(client.sessionId); // a resume refused keeps its place stored
      return toClientError(error);
    };
    // A resume plays as its stored place's player (its account), whatever its new options say.
    const playerIdOf = (j: JoinOptions) => {
      const stored = this.durable?.resumingPlayer(client.sessionId);
      return stored ? stored.playerId : j.playerId;
    };
    const offender = (j: JoinOptions) => offenderOf(playerIdOf(j), address);
    return this.penalties.admitJoin(client, join, offender, () => this.now(), refused);
  }

  /**
   * The connection's own address (a trusted proxy's client), never a header a client wrote; a
   * client over the join rate limit is refused (429).
   */
  private admitAddress(client: Client, context: AuthContext): string {
    const address = clientAddress(client, context, this.config.trustedProxies);
    const warning = this.addressLimits.proxyWarning(address, () => carriesForwardingHeaders(context));
    if (warning) logger.warn(`[${this.roomName}] ${warning}`);
    const limited = this.addressLimits.admitJoin(address, this.now());
    if (limited) throw toClientError(limited);
    return address;
  }

  private authorizeJoin(options: unknown, address: string): JoinOptions {
    const join = this.validateJoin(options);
    if (join.partyCode !== undefined) {
      const limited = this.addressLimits.partyCodeRefusal(address, this.now());
      if (limited) throw toClientError(limited);
    }
    const refusal = this.session.joinRefusal(join);
    if (refusal) {
      if (join.partyCode !== undefined && this.session.isUnknownPartyCode(join.partyCode))
        this.addressLimits.wrongPartyCode(address, this.now());
      throw toClientError(refusal);
    }
    return join;
  }

  /**
   * A queue with `players`: the client's own options checked (and, with Redis, its resume token),
   * then its player resolved by the server and the rules that need the rating run.
   * `context` is absent where Colyseus skipped this room's `onAuth` (see `onJoin`).
   */
  private async admitPlayer(
    client: Client,
    options: unknown,
    address: string,
    context: AuthContext | undefined,
  ): Promise<JoinOptions> {
    const check = (rest: unknown) => this.authorizeJoin(rest, address);
    const own = this.durable
      ? await this.durable.authorize(client.sessionId, options, check, (rest) => this.validateJoin(rest))
      : check(options);
    try {
      const join = await this.players!.resolve(own, {
        token: context?.token,
        auth: client.auth,
        queue: this.roomName,
        sessionId: client.sessionId,
        address,
        ...(context ? { headers: context.headers } : {}),
      });
      this.checkRatingRules(join);
      // The account is known now: one already in the queue is refused before a seat is reserved.
      const held = this.session.accountRefusal(join.playerId, client.sessionId);
      if (held) throw held;
      const resuming = this.durable?.resumingPlayer(client.sessionId);
      if (resuming) checkResumingPlayer(resuming.playerId, join);
      this.authorized.set(client, join);
      return join;
    } catch (error) {
      this.durable?.forgetAuthorization(client.sessionId);
      throw toClientError(error);
    }
  }

  /** Whether this queue's players (`playerId`, rating) come from the server (the `players` option), not the client's word. */
  get trustedPlayers(): boolean {
    return this.players !== undefined;
  }

  override onJoin(client: Client, options: unknown): void | Promise<void> {
    // A subclass's static onAuth returned data, so Colyseus skipped this room's onAuth: resolve here.
    if (this.players && !this.authorized.has(client)) {
      const address = this.admitAddress(client, { ip: undefined, headers: new Headers() });
      const join = this.admitAccount(client, address, this.admitPlayer(client, options, address, undefined));
      return Promise.resolve(join).then(() => this.onJoin(client, options));
    }
    if (this.durable) this.durable.join(client.sessionId, () => this.joinSession(client, options));
    else this.joinSession(client, options);
    this.penalties?.joined(client);
    this.engineRuns.request();
  }

  private joinSession(client: Client, options: unknown): void {
    const join = this.authorized.get(client) ?? this.validateJoin(options);
    this.authorized.delete(client);
    // The party may have filled up (or similar) between onAuth and here.
    asClientError(() =>
      this.session.join(
        {
          player: {
            sessionId: client.sessionId,
            rating: join.rating,
            ...(join.uncertainty !== undefined ? { uncertainty: join.uncertainty } : {}),
            ...(join.roles ? { roles: join.roles } : {}),
            ...(join.playerId !== undefined ? { playerId: join.playerId } : {}),
            ...(join.latencies ? { latencies: join.latencies } : {}),
            ...(join.criteria ? { criteria: join.criteria } : {}),
          },
          ...(join.side ? { side: join.side } : {}),
          ...(join.zones ? { zones: join.zones } : {}),
          ...(join.party ? { party: join.party } : {}),
          ...(join.partyCode !== undefined ? { partyCode: join.partyCode } : {}),
        },
        this.now(),
      ),
    );
  }

  /**
   * An unexpected disconnect: with `reconnectGraceMs`, a player who has no seat yet keeps its
   * place (and its place in a match) while Colyseus waits for it to reconnect; otherwise, or if
   * it does not return, `onLeave` follows.
   */
  override onDrop(client: Client): void {
    const grace = this.config.reconnectGraceMs;
    if (grace <= 0 || !this.session.drop(client.sessionId)) return;
    const reconnection = this.allowReconnection(client, grace / 1000);
    this.reconnections.set(client.sessionId, reconnection);
    reconnection.then(
      () => this.reconnections.delete(client.sessionId),
      () => this.reconnections.delete(client.sessionId),
    );
  }

  override onReconnect(client: Client): void {
    this.session.reconnect(client.sessionId, this.now());
    this.runEngine();
  }

  override onLeave(client: Client): void {
    this.status.forget(client.sessionId);
    const place = this.session.placeOf(client.sessionId);
    this.session.leave(client.sessionId, this.now());
    this.penalties?.left(client.sessionId);
    this.prompts.forget(client.sessionId);
    this.durable?.gone(client.sessionId);
    // A player leaving after its seat changes nothing the policy sees.
    if (place !== undefined && place !== "seated") this.engineRuns.request();
  }

  /** The session removed a player (declined, timed out, did not return, left seats unused): tell it and let it go. */
  private removePlayer(sessionId: string, message: RemovedMessage): void {
    // Declined, timed out, or did not return in time (not an error, nor a new session of its account;
    // a seat left unused counts in the seat outcomes).
    if (message.reason !== "error" && message.reason !== "replaced" && message.reason !== "seat_expired")
      this.countDecline();
    const client = this.clients.getById(sessionId);
    if (client) {
      client.send("removed", message);
      client.leave(CloseCode.CONSENTED);
    } else {
      this.reconnections.get(sessionId)?.reject(new Error(`removed: ${message.reason}`));
    }
  }

  /**
   * Check untrusted join options. Subclasses that override `onAuth` should call this.
   * Throws a `ServerError` (code 525) whose message names every bad field.
   */
  protected validateJoin(options: unknown): JoinOptions {
    return asClientError(() => {
      const join = checkJoinOptions(this.joinValidator, options);
      // With `players` the rating is the server's: its rules run once it is resolved.
      if (!this.players) this.checkRatingRules(join);
      return join;
    });
  }

  /** The rules the schema cannot see, which need the rating: a zone's rating band, the zones a player reaches. */
  private checkRatingRules(join: JoinOptions): void {
    this.matchmaker.checkZoneBand(join.rating, join.zones, JOIN_REFUSED);
    this.matchmaker.checkLatencyReach(join.rating, join.latencies, join.zones, JOIN_REFUSED);
  }

  /**
   * Run the policy now; safe to call at any time (the heartbeat calls it, joins and leaves through
   * `engineRuns`). Players who entered since the last run hear their first status after it.
   */
  protected runEngine(): void {
    this.engineRuns.ran();
    this.inEngineRun = true;
    try {
      this.runPolicy(this.now());
    } finally {
      this.inEngineRun = false;
      this.status.flushEntering(this.now());
    }
  }

  private runPolicy(now: number): void {
    try {
      this.backfill.serve(); // replacements for running games come before new games
    } catch (error) {
      logger.error(`[${this.roomName}] backfill failed:`, error);
    }
    if (this.spawnBackoff.blocked(now)) {
      // The game room type is failing: no match is formed until its wait is over (the players keep
      // waiting at their places); a ready check that times out meanwhile still does.
      const deadline = this.session.pending.nextDeadline();
      if (deadline !== undefined && deadline <= now) this.matchesFormed(this.session.tick(now), now);
      this.figuresThrottle.request();
      this.scheduleWakeup(now, this.spawnBackoff.retryAt, this.session.pending.nextDeadline());
      return;
    }
    this.matchesFormed(this.session.tick(now), now);
    this.figuresThrottle.request();
    this.scheduleWakeup(now);
  }

  /** The room's timer: run the engine, then tell waiting players what moved since the last beat. */
  private onHeartbeat(): void {
    this.runEngine();
    const now = this.now();
    this.status.sweep(now, Math.max(0, now - this.lastSweep));
    this.lastSweep = now;
  }

  /** The room's clock (ms). The engine never reads a clock itself; tests may replace this one. */
  protected now(): number {
    return Date.now();
  }

  /**
   * A timer that fires on time (the room's `clock` fires only when the room patches, every 50 ms).
   * Its callback's errors are logged, never thrown. Tests with their own clock override it.
   */
  protected preciseTimeout(fn: () => void, ms: number): { clear(): void } {
    const timer = setTimeout(() => {
      try {
        fn();
      } catch (error) {
        logger.error(`[${this.roomName}] timer failed:`, error);
      }
    }, ms);
    return { clear: () => clearTimeout(timer) };
  }

  /** Wake the engine at its own next deadline (or the earliest of `deadlines`) when that comes before the next heartbeat. */
  private scheduleWakeup(now: number, ...deadlines: Array<number | undefined>): void {
    const given = deadlines.filter((d) => d !== undefined && d > now) as number[];
    const at =
      deadlines.length > 0 ? (given.length > 0 ? Math.min(...given) : undefined) : this.session.nextWakeup(now);
    if (at === undefined || at - now >= this.config.tickMs) return;
    if (this.wakeup && this.wakeup.at <= at) return;
    this.wakeup?.cancel();
    const timer = this.clock.setTimeout(
      () => {
        this.wakeup = undefined;
        this.runEngine();
      },
      Math.max(0, at - now),
    );
    this.wakeup = { at, cancel: () => timer.clear() };
  }

  private async startMatch(match: Match): Promise<void> {
    const attempt = this.spawnBackoff.begin(this.now());
    if (!attempt) {
      // Its game room type is failing (another queue's attempt, or a ready check that completed
      // meanwhile): the match waits with the others, its players told once.
      this.session.spawnFailed(match.id, this.now(), this.delayNotice());
      return;
    }
    let seats: Map<string, SeatMessage>;
    try {
      // A ranked match is opened before any seat is sent: its result counts only then. A store that
      // fails is treated as a game room that failed to start (the players keep their places).
      const ratingKey = await this.ranked?.open(match);
      seats = await startGame(
        this.config.gameRoom,
        match,
        this.roomName,
        this.config.gameRoomOptions,
        (id) => this.clients.getById(id)?.auth,
        { queueRoomId: this.roomId, trustedPlayers: this.trustedPlayers, ...(ratingKey ? { ratingKey } : {}) },
      );
    } catch (error) {
      this.life.totals.spawnFailures++;
      showTotals(this.state.figures, this.life.totals);
      const now = this.now();
      const failure = this.spawnBackoff.failed(attempt, error, now, spawnBackoffTimingOf(this.config));
      // One line per failure; its stack only the first time in a streak.
      logger.error(`[${this.roomName}] match ${match.id} re-queued: ${failure.logText}`);
      this.session.spawnFailed(match.id, now, this.delayNotice(failure.retryInMs));
      this.runEngine(); // holds matching and wakes up when the wait is over
      return;
    }
    const streakEnded = this.spawnBackoff.succeeded();
    // Someone left while the game was being created: a game one player short helps nobody, so
    // the game is dropped and everyone still here goes back to their place in the queue.
    const gameRoomId = seats.values().next().value?.roomId;
    if (this.session.spawned(match.id, seats, this.now()) === "abandoned") {
      if (gameRoomId) await disposeGameRoom(gameRoomId);
      this.life.totals.abandonedMatches++;
      showTotals(this.state.figures, this.life.totals);
    } else if (gameRoomId) {
      this.backfill.trackMatch(match, gameRoomId);
    }
    this.holdWhileSeatsOpen();
    // Normal pace again: the players who waited out the failures are matched now, not at the next beat.
    if (streakEnded) this.runEngine();
  }

  /** A delayed match's players hear it once per streak of failures: `requeued`, reason `spawn_failed`, with `retryInMs`. */
  private delayNotice(retryInMs = this.spawnBackoff.waitLeft(this.now())): RequeueNotice {
    return (playerId, notice) => (this.spawnBackoff.firstNotice(playerId) ? { ...notice, retryInMs } : undefined);
  }

  private showWaiting(ticket: Ticket): void {
    const entry: WaitingTicket = {
      id: ticket.id,
      rating: meanRating(ticket),
      partySize: ticket.players.length,
      side: ticket.side ?? "",
      zones: [...(this.matchmaker.zonesOfTicket(ticket.id) ?? [])],
      waitingSince: ticket.enqueuedAt,
    };
    this.state.waiting.set(entry);
    // Its first status follows the next run of the policy, which may match it at once. Outside a
    // run (a join, a re-queue), the run is asked for once the current call is over, unless one
    // (the join's own) has flushed it by then.
    this.status.entering(ticket);
    if (!this.inEngineRun)
      queueMicrotask(() => {
        if (this.status.holding && !this.closed) this.engineRuns.request();
      });
  }

  private refreshFigures(now: number): void {
    this.life.show(this.state.figures, now, {
      backfillPending: this.backfill.pending,
      seatsOpen: this.session.seatWatch?.open ?? 0,
      waiting: this.status.breakdown(),
    });
  }

  /**
   * A seat outlives the players' stay in the queue: while seats are open the room stays (Colyseus
   * would dispose it with its last client), so arrivals reach it and no-shows are reported and
   * counted; once none is open, it may go as usual.
   */
  private holdWhileSeatsOpen(): void {
    const mayGo = (this.session.seatWatch?.open ?? 0) === 0;
    if (this.autoDispose !== mayGo && !this.closed) this.autoDispose = mayGo;
  }
  /**
   * The `limit` longest-waiting tickets, longest first, waited time in seconds. Operators reach it
   * through the monitor (\`/monitor/api/room/call?roomId=…&method=waitingSample\`) or a {@link QueueViewRoom}.
   */
  waitingSample(limit = 20): SampleTicket[] {
    return this.state.waiting.sample(Math.max(0, Math.min(1000, Math.floor(limit))), this.now());
  }

  /** One waiting ticket by id (a solo player's session id, a party's leader's), waited time in seconds; null if not waiting. */
  lookupTicket(ticketId: string): SampleTicket | null {
    return this.state.waiting.lookup(String(ticketId), this.now()) ?? null;
  }

  /** The waiting tickets (server side; never synchronized to players). For {@link QueueViewRoom}. */
  get roster(): WaitingRoster {
    return this.state.waiting;
  }

  /** The figures an operator view shows, as of now (the engine's stats are O(1) to read). */
  operatorFigures(now: number) {
    const s = this.matchmaker.stats(now);
    return {
      waitingPlayers: s.waitingPlayers,
      waitingTickets: s.waitingTickets,
      meanWaitMs: s.meanWaitMs,
      p50WaitMs: s.p50WaitMs,
      p95WaitMs: s.p95WaitMs,
      p99WaitMs: s.p99WaitMs,
      oldestWaitMs: s.oldestWaitMs,
    };
  }

  /**
   * Server-side API for game rooms: ask for `count` replacements on `team` (its index in
   * `MatchInfo.teams`: 0 for side A and 1 for side B in a two-team game; in a free-for-all, a
   * player's own team of one seat, or an empty seat of a game that started short-handed, from
   * `teams.length` on) of a running match this queue formed. The best waiting tickets that fit (closest to the
   * team's mean rating, whole parties filling the seats exactly, sides honoured) get seats in
   * that game room, ahead of new matches; a request not filled at once is retried on every tick
   * until filled or cancelled. A game room in any process calls it with
   * `matchMaker.remoteRoomCall(match.queueRoomId, "requestBackfill", [match.id, team, count])`
   * or the `requestBackfill(match, team, count)` helper. Throws `MatchmakerError("invalid_request")` naming a bad argument.
   */
  requestBackfill(matchId: string, team: number, count: number): BackfillReceipt {
    if (this.config.roles)
      throw new MatchmakerError("invalid_request", "requestBackfill: role queues do not support backfill");
    const receipt = this.backfill.request(matchId, team, count);
    this.runEngine();
    return receipt;
  }

  /**
   * Server-side API for game rooms: `sessionId` took its seat in match `matchId` (a match's seat or
   * a replacement seat). A game room calls it from `onJoin` with the `playerArrived(match, sessionId)`
   * helper (a `matchMaker.remoteRoomCall`, so from any process). Untrusted arguments: answers false,
   * never throws, for anything but a seat this queue sent and still waits for.
   */
  playerArrived(matchId: unknown, sessionId: unknown): boolean {
    try {
      return this.session.arrived(matchId, sessionId);
    } catch (error) {
      logger.error(`[${this.roomName}] playerArrived failed:`, error);
      return false;
    }
  }

  /** Stop seeking replacements for a match (one team, or all); returns the seats no longer sought. */
  cancelBackfill(matchId: string, team?: number): number {
    const dropped = this.backfill.cancel(matchId, team);
    this.figuresThrottle.request();
    return dropped;
  }

  /**
   * Count a player removed at the ready check (declined, timed out, or did not return in time);
   * shown in `figures.declines` and the metrics. The room counts every such removal itself.
   */
  countDecline(): void {
    this.life.totals.declines++;
    showTotals(this.state.figures, this.life.totals);
  }

  /** This queue's figures as plain JSON (what the monitor shows in `figures`, and `/matchmaker/metrics` serves). */
  getMetrics(): QueueMetrics {
    // Operators asked: refresh now (the bounded-rate refresh serves the players' state).
    const now = this.now();
    this.refreshFigures(now);
    return this.life.metrics(this.state.figures, this.roomId, now);
  }

  /** Matches just formed: their waits feed the estimate; players never told `clients` are told their group's size. */
  private matchesFormed(matches: readonly Match[], now: number): void {
    for (const match of matches) {
      for (const t of match.tickets) this.estimator.record(t, now - t.enqueuedAt, match.zone);
      this.status.estimatesMoved();
      this.status.matched(match.tickets.flatMap((t) => t.players.map((p) => p.sessionId)));
    }
  }

  /** The backfill desk, reaching into the queue through narrow callbacks. */
  private createBackfillDesk(): BackfillDesk {
    return new BackfillDesk({
      queue: this.roomName,
      waiting: () => this.matchmaker.waiting(),
      zonesOf: (ticket) => this.matchmaker.zonesOfTicket(ticket.id) ?? ticket.zones,
      withdraw: (ticket) => this.session.takeForBackfill(ticket.id, this.now()) !== undefined,
      restore: (tickets) => {
        for (const t of tickets) this.session.backfillFailed(t, this.now());
        this.figuresThrottle.request();
      },
      auth: (id) => this.clients.getById(id)?.auth,
      blocked: this.config.blocked,
      seatTicket: (ticket, seats) => {
        const seated = this.session.backfillSeated(ticket, seats);
        this.holdWhileSeatsOpen();
        if (seated.length > 0) {
          this.estimator.record(ticket, this.now() - ticket.enqueuedAt);
          this.status.estimatesMoved();
        }
        return seated;
      },
      count: (what, n) => {
        const totals = this.life.totals;
        if (what === "requested") totals.backfillRequested += n;
        else if (what === "filled") totals.backfillFilled += n;
        else totals.backfillFailures += n;
        showTotals(this.state.figures, totals);
        this.state.figures.backfillPending = this.backfill.pending;
      },
    });
  }
}

/**
 * A change of the shared figures is one frame to every client: with more than this many clients,
 * the figures refresh less often than `figuresIntervalMs`, so they never cost more frames per second.
 */
const FIGURE_FRAMES_PER_SECOND = 1000;

/**
 * `defineRoom(MatchmakerRoom, options)` with the options checked at once, so that a bad
 * configuration fails at server start with a message naming the field, not at first join.
 */
export function defineQueue(options: MatchmakerRoomOptions) {
  configureQueue(options, "check");
  return defineRoom(MatchmakerRoom, options);
}
