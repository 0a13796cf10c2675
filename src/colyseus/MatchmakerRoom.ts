/**
 * `MatchmakerRoom`: the Colyseus adapter around the engine. Clients join it to wait; it runs
 * the policy on every join and on a timer, spawns a game room per match, reserves every seat
 * and sends each player a `seat` message. If anything fails, the players go back to the queue
 * at their original place. The engine itself never sees Colyseus.
 */
import { defineRoom, ErrorCode, logger, matchMaker, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import { MatchmakerError } from "../core/errors.js";
import type { ImbalanceSpec } from "../core/imbalance.js";
import { Matchmaker, type MatchmakerOptions } from "../core/matchmaker.js";
import type { Match, Ticket } from "../core/types.js";
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
import { MatchmakerState, QueueFigures, WaitingEntry } from "./state.js";

/**
 * A matchmaking queue. Configure it with `defineRoom(MatchmakerRoom, options)` (or
 * {@link defineQueue}); the configuration comes only from the server, never from clients.
 *
 * Client protocol:
 * - join with {@link JoinOptions} (`{ rating, side? }`); bad options reject the join with
 *   code 525 and a message naming each bad field;
 * - receive `seat` ({@link SeatMessage}): pass it to `client.consumeSeatReservation()`;
 * - optionally send `confirm` after taking the seat (QueueRoom's flow): the queue lets you go.
 */
export class MatchmakerRoom extends Room<{ state: MatchmakerState }> {
  override state = new MatchmakerState();

  /** The engine; exposed for tests and custom subclasses. */
  matchmaker!: Matchmaker;
  protected config!: ResolvedRoomOptions;
  private joinValidator!: JoinValidator;
  /** The pending early wake-up for the engine (a policy deadline before the next tick). */
  private wakeup?: { at: number; cancel: () => void };
  /** Session ids of players who were sent a seat and may `confirm`. */
  private readonly seated = new Set<string>();

  override messages = {
    confirm: (client: Client) => {
      if (this.seated.has(client.sessionId)) client.leave();
    },
  };

  override onCreate(clientOptions: unknown): void {
    // `defineRoom` defaults are the queue's configuration; options of the creating client are
    // join options and must not configure the queue.
    const handlerOptions = matchMaker.getHandler(this.roomName)?.options;
    this.config = parseRoomOptions(handlerOptions ?? clientOptions);
    this.joinValidator = joinOptionsSchema({ min: this.config.rating.min, max: this.config.rating.max }, this.config.roles);
    this.matchmaker = new Matchmaker({
      ...engineOptions(this.config, this.roomId),
      onPolicyError: (error) => logger.error(`[${this.roomName}] ${error.message}`),
    });
    this.state.figures = new QueueFigures();
    this.state.figures.policy = this.matchmaker.policy.name;
    this.state.figures.teamSize = this.config.teamSize;
    this.clock.setInterval(() => this.runEngine(), this.config.tickMs);
  }

  override onAuth(_client: Client, options: unknown, _context: AuthContext): JoinOptions {
    return this.validateJoin(options);
  }

  override onJoin(client: Client, options: unknown): void {
    const join = this.validateJoin(options);
    const now = this.now();
    const ticket: Ticket = {
      id: client.sessionId,
      players: [
        {
          id: client.sessionId,
          rating: join.rating,
          ...(join.uncertainty !== undefined ? { uncertainty: join.uncertainty } : {}),
          ...(join.roles ? { roles: join.roles } : {}),
          ...(join.playerId !== undefined ? { identity: join.playerId } : {}),
        },
      ],
      enqueuedAt: now,
      ...(join.side ? { side: join.side } : {}),
    };
    this.matchmaker.enqueue(ticket, now);
    const entry = this.showWaiting(ticket);
    client.view = new StateView();
    client.view.add(entry);
    this.runEngine();
  }

  override onLeave(client: Client): void {
    this.seated.delete(client.sessionId);
    if (this.matchmaker.cancel(client.sessionId, this.now())) {
      this.state.waiting.delete(client.sessionId);
      this.refreshFigures(this.now());
    }
  }

  /**
   * Check untrusted join options. Subclasses that override `onAuth` should call this.
   * Throws a `ServerError` (code 525) whose message names every bad field.
   */
  protected validateJoin(options: unknown): JoinOptions {
    const parsed = parseJoinOptions(this.joinValidator, options);
    if (!parsed.ok) throw new ServerError(ErrorCode.AUTH_FAILED, `invalid join options: ${parsed.message}`);
    return parsed.value;
  }

  /** Run the policy now; safe to call at any time (the timer and every join call it). */
  protected runEngine(): void {
    const now = this.now();
    let matches: Match[] = [];
    try {
      matches = this.matchmaker.tick(now);
    } catch (error) {
      logger.error(`[${this.roomName}] matchmaker tick failed:`, error);
    }
    for (const match of matches) {
      for (const t of match.tickets) this.state.waiting.delete(t.id);
      void this.startMatch(match);
    }
    this.refreshFigures(now);
    this.scheduleWakeup(now);
  }

  /** The room's clock (ms). The engine never reads a clock itself; tests may replace this one. */
  protected now(): number {
    return Date.now();
  }

  /** Wake the engine at its own next deadline when that comes before the next timer tick. */
  private scheduleWakeup(now: number): void {
    const at = this.matchmaker.nextWakeup(now);
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
      this.requeue(match);
      return;
    }
    // Someone left while the game was being created: a game one player short helps nobody, so
    // the game is dropped and everyone still here goes back to their place in the queue.
    if ([...seats.keys()].some((id) => !this.clients.getById(id))) {
      const roomId = seats.values().next().value?.roomId;
      if (roomId) await matchMaker.remoteRoomCall(roomId, "disconnect").catch(() => undefined);
      this.state.figures.abandonedMatches++;
      this.requeue(match);
      return;
    }
    for (const [sessionId, seat] of seats) {
      this.seated.add(sessionId);
      this.clients.getById(sessionId)!.send("seat", seat);
    }
  }

  /** Put a failed match's tickets back at their original place; players who left stay gone. */
  private requeue(match: Match): void {
    const now = this.now();
    const stillHere = match.tickets.filter((t) => t.players.every((p) => this.clients.getById(p.id)));
    const refused = this.matchmaker.requeue(stillHere, now);
    for (const t of stillHere) if (!refused.includes(t)) this.showWaiting(t);
    for (const t of refused) logger.error(`[${this.roomName}] could not re-queue ticket ${t.id}`);
    this.refreshFigures(now);
  }

  private showWaiting(ticket: Ticket): WaitingEntry {
    const entry = new WaitingEntry();
    entry.id = ticket.id;
    entry.rating = ticket.players.reduce((s, p) => s + p.rating, 0) / ticket.players.length;
    entry.partySize = ticket.players.length;
    entry.side = ticket.side ?? "";
    entry.zones.push(...(ticket.zones ?? []));
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
    ...(config.avoidRecent !== undefined ? { avoidRecent: config.avoidRecent } : {}),
    ...(config.avoidRecentFallbackMs !== undefined ? { avoidRecentFallbackMs: config.avoidRecentFallbackMs } : {}),
    ...(config.avoidRecentMs !== undefined ? { avoidRecentMs: config.avoidRecentMs } : {}),
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
