/**
 * `MatchmakerRoom`: the Colyseus adapter around the engine. Clients join it to wait; it runs
 * the policy on every join and on a timer, spawns a game room per match, reserves every seat
 * and sends each player a `seat` message. If anything fails, the players go back to the queue
 * at their original place. The engine itself never sees Colyseus.
 */
import { CloseCode, defineRoom, ErrorCode, logger, matchMaker, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import { MatchmakerError } from "../core/errors.js";
import type { ImbalanceSpec } from "../core/imbalance.js";
import { Matchmaker, type MatchmakerOptions } from "../core/matchmaker.js";
import type { Match, Ticket } from "../core/types.js";
import { ticketZones } from "../core/zones.js";
import "../policies/index.js";
import {
  joinOptionsSchema,
  parseJoinOptions,
  parseRoomOptions,
  type JoinOptions,
  type JoinValidator,
  type MatchmakerRoomOptions,
  type ResolvedRoomOptions,
} from "./options.js";
import { spawnGame, type SeatMessage } from "./seats.js";
import type { PartyMessage } from "./parties.js";
import type { MatchFoundMessage } from "./ready-check.js";
import { JoinRefused, QueueSession, type RemovedMessage, type RequeuedMessage, type StartResult } from "./session.js";
import { MatchmakerState, QueueFigures, WaitingEntry } from "./state.js";

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
 * - optionally send `confirm` after taking the seat (QueueRoom's flow): the queue lets you go.
 *
 * The ticket lifecycle lives in {@link QueueSession}; this class wires it to Colyseus.
 */
export class MatchmakerRoom extends Room<{ state: MatchmakerState }> {
  override state = new MatchmakerState();

  /** The engine; exposed for tests and custom subclasses. */
  matchmaker!: Matchmaker;
  /** Parties, ready checks, reconnections: the lifecycle of every ticket; exposed for tests. */
  session!: QueueSession;
  protected config!: ResolvedRoomOptions;
  private joinValidator!: JoinValidator;
  /** The pending early wake-up for the engine (a policy deadline before the next tick). */
  private wakeup?: { at: number; cancel: () => void };
  /** Reconnections being waited for (Colyseus's deferreds), to cancel when a dropped player is removed. */
  private readonly reconnections = new Map<string, ReturnType<Room["allowReconnection"]>>();

  override messages = {
    confirm: (client: Client) => {
      if (this.session.placeOf(client.sessionId) === "seated") client.leave();
    },
    start: (client: Client): StartResult => {
      const result = this.session.start(client.sessionId, this.now());
      this.runEngine();
      return result;
    },
    accept: (client: Client) => {
      this.session.accept(client.sessionId);
    },
    decline: (client: Client) => {
      this.session.decline(client.sessionId, this.now());
      this.runEngine();
    },
  };

  override onCreate(clientOptions: unknown): void {
    // `defineRoom` defaults are the queue's configuration; options of the creating client are
    // join options and must not configure the queue.
    const handlerOptions = matchMaker.getHandler(this.roomName)?.options;
    this.config = parseRoomOptions(handlerOptions ?? clientOptions);
    this.matchmaker = new Matchmaker({
      ...engineOptions(this.config, this.roomId),
      onPolicyError: (error) => logger.error(`[${this.roomName}] ${error.message}`),
    });
    this.joinValidator = joinOptionsSchema(
      { min: this.config.rating.min, max: this.config.rating.max },
      this.config.roles,
      this.config.teamSize,
      this.matchmaker.zones,
    );
    this.session = new QueueSession({
      matchmaker: this.matchmaker,
      ...(this.config.readyCheck ? { readyCheck: this.config.readyCheck } : {}),
      allowPartialParties: this.config.allowPartialParties,
      onError: (message) => logger.error(`[${this.roomName}] ${message}`),
      effects: {
        send: (id, type, payload) => this.clients.getById(id)?.send(type, payload),
        waiting: (ticket) => this.showWaiting(ticket),
        notWaiting: (ticketId) => this.state.waiting.delete(ticketId),
        spawn: (match) => void this.startMatch(match),
        remove: (id, message) => this.removePlayer(id, message),
      },
    });
    this.state.figures = new QueueFigures();
    this.state.figures.policy = this.matchmaker.policy.name;
    this.state.figures.teamSize = this.config.teamSize;
    this.clock.setInterval(() => this.runEngine(), this.config.tickMs);
  }

  override onAuth(_client: Client, options: unknown, _context: AuthContext): JoinOptions {
    const join = this.validateJoin(options);
    const problem = this.session.joinProblem(join);
    if (problem) throw new ServerError(ErrorCode.AUTH_FAILED, `invalid join options: ${problem}`);
    return join;
  }

  override onJoin(client: Client, options: unknown): void {
    const join = this.validateJoin(options);
    client.view = new StateView();
    try {
      this.session.join(
        {
          player: {
            id: client.sessionId,
            rating: join.rating,
            ...(join.uncertainty !== undefined ? { uncertainty: join.uncertainty } : {}),
            ...(join.roles ? { roles: join.roles } : {}),
          },
          ...(join.side ? { side: join.side } : {}),
          ...(join.zones ? { zones: join.zones } : {}),
          ...(join.party ? { party: join.party } : {}),
          ...(join.partyCode !== undefined ? { partyCode: join.partyCode } : {}),
        },
        this.now(),
      );
    } catch (error) {
      // The party filled up (or similar) between onAuth and here.
      if (error instanceof JoinRefused) throw new ServerError(ErrorCode.AUTH_FAILED, `invalid join options: ${error.message}`);
      throw error;
    }
    this.runEngine();
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
    this.session.leave(client.sessionId, this.now());
    this.runEngine();
  }

  /** The session removed a player (declined, timed out, did not return): tell it and let it go. */
  private removePlayer(sessionId: string, message: RemovedMessage): void {
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
    const parsed = parseJoinOptions(this.joinValidator, options);
    if (!parsed.ok) throw new ServerError(ErrorCode.AUTH_FAILED, `invalid join options: ${parsed.message}`);
    // A zone's rating band is the one rule the schema cannot see.
    if (this.matchmaker.zones) {
      const zones = ticketZones(
        { id: "join", players: [{ id: "join", rating: parsed.value.rating }], enqueuedAt: 0, ...(parsed.value.zones ? { zones: parsed.value.zones } : {}) },
        this.matchmaker.zones,
      );
      if (typeof zones === "string") throw new ServerError(ErrorCode.AUTH_FAILED, `invalid join options: ${zones}`);
    }
    return parsed.value;
  }

  /** Run the policy now; safe to call at any time (the timer and every join call it). */
  protected runEngine(): void {
    const now = this.now();
    this.session.tick(now);
    this.refreshFigures(now);
    this.scheduleWakeup(now);
  }

  /** The room's clock (ms). The engine never reads a clock itself; tests may replace this one. */
  protected now(): number {
    return Date.now();
  }

  /** Wake the engine at its own next deadline when that comes before the next timer tick. */
  private scheduleWakeup(now: number): void {
    const at = this.session.nextWakeup(now);
    if (at === undefined || at - now >= this.config.tickMs) return;
    if (this.wakeup && this.wakeup.at <= at) return;
    this.wakeup?.cancel();
    const timer = this.clock.setTimeout(() => {
      this.wakeup = undefined;
      this.runEngine();
    }, Math.max(0, at - now));
    this.wakeup = { at, cancel: () => timer.clear() };
  }

  private async startMatch(match: Match): Promise<void> {
    let seats: Map<string, SeatMessage>;
    try {
      seats = await spawnGame(
        this.config.gameRoom,
        match,
        this.roomName,
        this.config.gameRoomOptions,
        (id) => this.clients.getById(id)?.auth,
      );
    } catch (error) {
      this.state.figures.spawnFailures++;
      logger.error(`[${this.roomName}] could not start match ${match.id} in "${this.config.gameRoom}"; re-queueing its players:`, error);
      this.session.spawnFailed(match.id, this.now());
      this.refreshFigures(this.now());
      return;
    }
    // Someone left while the game was being created: a game one player short helps nobody, so
    // the game is dropped and everyone still here goes back to their place in the queue.
    if (this.session.spawned(match.id, seats, this.now()) === "abandoned") {
      const roomId = seats.values().next().value?.roomId;
      if (roomId) await matchMaker.remoteRoomCall(roomId, "disconnect").catch(() => undefined);
      this.state.figures.abandonedMatches++;
      this.refreshFigures(this.now());
    }
  }

  private showWaiting(ticket: Ticket): WaitingEntry {
    const entry = new WaitingEntry();
    entry.id = ticket.id;
    entry.rating = ticket.players.reduce((s, p) => s + p.rating, 0) / ticket.players.length;
    entry.partySize = ticket.players.length;
    entry.side = ticket.side ?? "";
    entry.zones.push(...(this.matchmaker.zonesOfTicket(ticket.id) ?? []));
    entry.waitingSince = ticket.enqueuedAt;
    this.state.waiting.set(ticket.id, entry);
    for (const p of ticket.players) this.clients.getById(p.id)?.view?.add(entry);
    return entry;
  }

  private refreshFigures(now: number): void {
    const s = this.matchmaker.stats(now);
    const f = this.state.figures;
    f.waitingPlayers = s.waitingPlayers;
    f.waitingTickets = s.waitingTickets;
    f.matchesFormed = s.matchesFormed;
    f.playersMatched = s.playersMatched;
    f.meanWaitMs = s.meanWaitMs;
    f.p95WaitMs = s.p95WaitMs;
    f.meanImbalance = s.meanImbalance;
    f.sideMixUnstable = s.sideMix.unstable;
    f.policyStatus = s.policyStatus ? JSON.stringify(s.policyStatus) : "";
  }
}

/** The engine's options for a queue's configuration. */
function engineOptions(config: ResolvedRoomOptions, matchIdPrefix: string): MatchmakerOptions {
  return {
    teamSize: config.teamSize,
    policy: config.policy,
    params: config.params,
    matchIdPrefix,
    statsWindow: config.statsWindow,
    ratingRange: { min: config.rating.min, max: config.rating.max },
    ...(config.imbalance ? { imbalance: config.imbalance as ImbalanceSpec } : {}),
    ...(config.maxWaitMs !== undefined ? { maxWaitMs: config.maxWaitMs, fillWithBots: config.fillWithBots } : {}),
    ...(config.roles ? { roles: config.roles } : {}),
    ...(config.zones ? { zones: config.zones } : {}),
  };
}

/**
 * `defineRoom(MatchmakerRoom, options)` with the options checked at once, so that a bad
 * configuration fails at server start with a message naming the field, not at first join.
 */
export function defineQueue(options: MatchmakerRoomOptions) {
  const parsed = parseRoomOptions(options);
  try {
    new Matchmaker(engineOptions(parsed, "check"));
  } catch (error) {
    if (error instanceof MatchmakerError) throw new MatchmakerError(error.code, `MatchmakerRoom options: ${error.message}`);
    throw error;
  }
  return defineRoom(MatchmakerRoom, options);
}
