/**
 * One player's way through a queue, from the join to the game room, around an SDK `Client`: the
 * queue's protocol (docs/reference.md, *Messages*) spoken once, so no game copies it. Joins are
 * retried as the refusal says (retry.ts); a connection the queue's process lost is rejoined with
 * the resume token; the seat is taken and the queue let go (`confirm`) only once in the game.
 */
import { CloseCode, type Client, type Room } from "@colyseus/sdk";
import type { SchemaConstructor } from "@colyseus/sdk/serializer/SchemaSerializer";
import type { HandoverMessage, ResumedMessage } from "../colyseus/durable/durable-queue.js";
import type { ResumeMessage } from "../colyseus/durable/resume-token.js";
import type { SeatMessage } from "../colyseus/director/game-room.js";
import type { RemovedMessage, RequeuedMessage } from "../colyseus/director/tickets.js";
import type { ClientJoinOptions } from "../options/player-options.js";
import type { PartyMessage } from "../colyseus/parties.js";
import type { MatchFoundMessage } from "../colyseus/ready-check.js";
import type { StatusMessage } from "../colyseus/status.js";
import { Events, type Listener } from "./events.js";
import { retryAfter } from "./retry.js";
import { WaitedTime } from "./waited.js";

/**
 * Where the player is: `joining` (a join or a rejoin under way, retries included), `waiting` (in
 * the queue, or in a party that forms), `ready-check` (a match found, answer it), `taking-seat`
 * (matched: entering the game room), `in-game` (the game room is joined), `ended` (left, removed,
 * or refused for good: see {@link MatchmakingEnded}).
 */
export type MatchmakingState = "joining" | "waiting" | "ready-check" | "taking-seat" | "in-game" | "ended";

/** A join was refused for now and will be tried again (the `retrying` event). */
export interface JoinRetryNotice {
  /** The refusal's code (429: too many joins, or a cooldown; 503: the queue cannot take joins now); absent for a network failure. */
  readonly code?: number;
  /** The refusal's message, as the queue wrote it for the player (a cooldown says how long). */
  readonly message: string;
  /** The next attempt comes after this long (ms). */
  readonly inMs: number;
  /** The resume token's place is gone (matched, or past its grace): the next attempt joins anew. */
  readonly placeGone: boolean;
}

/** The connection to the queue closed without an end: the player rejoins (the `reconnecting` event). */
export interface ReconnectNotice {
  /** The close code: 4001 after a handover, 4003 once the SDK's own reconnection failed, 1006 a lost connection. */
  readonly code: number;
  /** The queue's word before it closed, when it was stopping or moving (its process shutting down). */
  readonly handover?: HandoverMessage;
}

/** What the player sees, by event name; listen with {@link Matchmaking.on}. */
export interface MatchmakingEvents {
  /** In a queue room: the first join (`rejoin: false`), or back after a lost connection. */
  joined: { readonly room: Room; readonly rejoin: boolean };
  /** The wait: how many wait, the estimate, the rating window. Sent only when something moved: show {@link Matchmaking.waitedMs} on your own clock. */
  status: StatusMessage;
  /** The party changed (its code at creation, members joining or leaving, queued, matched). */
  party: PartyMessage;
  /** A ready check: the match waits for every player's {@link Matchmaking.accept} within `timeoutMs`. */
  matchFound: MatchFoundMessage;
  /**
   * A seat in the match's game room: the helper is taking it (then {@link Matchmaking.game}
   * resolves). Its `team` is the player's team index (in a free-for-all, its own); its `side`
   * (A or B) is there only in a game of two teams. Kept as {@link Matchmaking.seat}.
   */
  matched: SeatMessage;
  /** The seat could not be used (the game room is gone, or too late): the queue puts the player back (`requeued` follows). */
  seatFailed: Error;
  /** The match fell through: waiting again, at the original place (with a `penalty`: at the back). */
  requeued: RequeuedMessage;
  /** The queue took the player out (declined, timed out, replaced, ...): the end; {@link Matchmaking.game} rejects. */
  removed: RemovedMessage;
  /** After a rejoin with the resume token: the player's place is back. */
  resumed: ResumedMessage;
  /** The queue's connection closed (its process stopped, moved or died): rejoining, with the resume token where there is one. */
  reconnecting: ReconnectNotice;
  /** A join was refused for now and will be tried again. */
  retrying: JoinRetryNotice;
}

/** Why a player's matchmaking ended without a game room. */
export type MatchmakingEndReason =
  /** {@link Matchmaking.leave} was called. */
  | "left"
  /** The queue took the player out (`removed`; see {@link MatchmakingEnded.removed}). */
  | "removed"
  /** A join refused for good (bad options, no such queue, a refused player), or failing past the retries. */
  | "refused"
  /** The queue closed the connection without a reason to rejoin. */
  | "closed";

/** The rejection of {@link Matchmaking.game} when there will be no game room. */
export class MatchmakingEnded extends Error {
  override readonly name = "MatchmakingEnded";
  constructor(
    message: string,
    readonly reason: MatchmakingEndReason,
    /** The refusal's code (`refused`), or the close code (`closed`). */
    readonly code?: number,
    /** The queue's `removed` message (`removed`). */
    readonly removed?: RemovedMessage,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Settings of {@link joinQueue}. */
export interface MatchmakingSettings<GameState = unknown> {
  /** Join failures that count (the network, server errors) tolerated before giving up; default 5. The queue's own "retry later" refusals (429, 503) never count. */
  readonly retries?: number;
  /** A resume token kept from an earlier visit (e.g. before a page reload): the first join asks for that place back. */
  readonly resume?: string;
  /** The game room's state schema, as `client.consumeSeatReservation` takes it. */
  readonly gameSchema?: SchemaConstructor<GameState>;
  /** Times the SDK tries to reconnect to the same queue room before the helper rejoins the queue (default 3; a dead process does not come back). */
  readonly reconnectionRetries?: number;
}

const DEFAULT_RETRIES = 5;
const DEFAULT_RECONNECTION_RETRIES = 3;

/**
 * One player's matchmaking in one queue: made by {@link joinQueue}. Listen with {@link on}, answer
 * a ready check with {@link accept} or {@link decline}, await {@link game}, or {@link leave}.
 */
export class Matchmaking<GameState = unknown> {
  /**
   * The game room, once the player is in it (the queue is then let go); {@link seat} says where
   * the player sits in it. Rejects with {@link MatchmakingEnded} when there will be none: the
   * player left, was removed, or the join was refused for good.
   */
  readonly game: Promise<Room<unknown, GameState>>;

  private readonly events = new Events<MatchmakingEvents>();
  private readonly waited = new WaitedTime();
  private current: Room | undefined;
  private phase: MatchmakingState = "joining";
  private token: string | undefined;
  private handover: HandoverMessage | undefined;
  /** The queue's connection closed while the seat was being taken: rejoin if the seat fails. */
  private lostWhileSeating = false;
  private everJoined = false;
  private cancelWait: (() => void) | undefined;
  private lastSeat: SeatMessage | undefined;
  private resolveGame!: (room: Room<unknown, GameState>) => void;
  private rejectGame!: (error: MatchmakingEnded) => void;

  /** Starts joining at once, as `new WebSocket` connects; {@link joinQueue} is the documented way in. */
  constructor(
    private readonly client: Client,
    /** The queue's room name. */
    readonly queue: string,
    private readonly options: ClientJoinOptions,
    private readonly settings: MatchmakingSettings<GameState> = {},
  ) {
    this.token = settings.resume;
    this.game = new Promise((resolve, reject) => {
      this.resolveGame = resolve;
      this.rejectGame = reject;
    });
    // A game that never awaits the promise (it left) gets no unhandled rejection for it.
    this.game.catch(() => undefined);
    void this.enter();
  }

  /** Where the player is now. */
  get state(): MatchmakingState {
    return this.phase;
  }

  /** The connection to the queue room, while there is one. */
  get room(): Room | undefined {
    return this.current;
  }

  /** The resume token the queue gave (with Redis), to keep across a page reload and pass back in `settings.resume`. */
  get resumeToken(): string | undefined {
    return this.token;
  }

  /**
   * The last seat the queue sent (`matched`), undefined before: the match, the player's team
   * index (`team`: 0 for side A and 1 for side B in a game of two teams; in a free-for-all, the
   * player's own), its `side` only in a game of two teams, its role and zone where the queue has
   * them. The game room's `onJoin` receives the same.
   */
  get seat(): SeatMessage | undefined {
    return this.lastSeat;
  }

  /** Call `listener` on every `event`; returns the function that stops it. */
  on<K extends keyof MatchmakingEvents>(event: K, listener: Listener<MatchmakingEvents[K]>): () => void {
    return this.events.on(event, listener);
  }

  /** How long the player has waited so far (ms), derived on this client's clock from the queue's last status. */
  waitedMs(now: number = Date.now()): number {
    return this.waited.at(now);
  }

  /** Accept the ready check (after `matchFound`). */
  accept(): void {
    if (this.phase === "ready-check") this.current?.send("accept");
  }

  /** Decline the ready check: the queue removes the player (an offence, see the queue's `penalties`). */
  decline(): void {
    if (this.phase === "ready-check") this.current?.send("decline");
  }

  /**
   * The party's leader puts the party in the queue: a held party, or an incomplete one where the
   * queue allows it. Resolves with the queue's answer.
   */
  async startParty(): Promise<{ ok: boolean; error?: string }> {
    if (!this.current) return { ok: false, error: "not connected to the queue" };
    return (await this.current.request("start")) as { ok: boolean; error?: string };
  }

  /**
   * Leave the queue (or stop joining it): {@link game} rejects with reason `left`. Resolves once
   * the queue's connection, if there was one, is closed (a join still under way is left as soon
   * as it lands). Once in the game it does nothing: the game room is the game's to leave.
   */
  async leave(): Promise<void> {
    if (this.phase === "ended" || this.phase === "in-game") return;
    const room = this.current;
    this.end(new MatchmakingEnded("left the queue", "left"));
    if (room?.connection?.isOpen) await room.leave();
  }

  /** Join (or rejoin), retrying as each refusal says, until in a queue room or ended. */
  private async enter(): Promise<void> {
    const retries = this.settings.retries ?? DEFAULT_RETRIES;
    for (let failures = 0, counted = 0; ; failures++) {
      if (this.ended) return;
      const withToken = this.token !== undefined;
      let room: Room;
      try {
        room = await this.client.joinOrCreate(
          this.queue,
          withToken ? { ...this.options, resume: this.token } : this.options,
        );
      } catch (error) {
        if (this.ended) return;
        const retry = retryAfter(error, failures, withToken);
        const code = (error as { code?: number }).code;
        const message = error instanceof Error ? error.message : String(error);
        if (!retry || (retry.counts && counted >= retries))
          return this.end(new MatchmakingEnded(message, "refused", code, undefined, { cause: error }));
        if (retry.counts) counted++;
        if (retry.dropToken) this.token = undefined;
        this.events.emit("retrying", {
          ...(code !== undefined ? { code } : {}),
          message,
          inMs: retry.inMs,
          placeGone: retry.dropToken,
        });
        await this.pause(retry.inMs);
        continue;
      }
      if (this.ended) {
        void room.leave(); // left while this join was under way
        return;
      }
      this.listen(room);
      return;
    }
  }

  /** Follow one queue room connection (in the same tick as its join: the seat may be the next message). */
  private listen(room: Room): void {
    this.current = room;
    this.handover = undefined;
    room.reconnection.maxRetries = this.settings.reconnectionRetries ?? DEFAULT_RECONNECTION_RETRIES;
    room.onMessage("status", (status: StatusMessage) => {
      this.waited.status(status, Date.now());
      this.events.emit("status", status);
    });
    room.onMessage("clients", () => undefined); // Colyseus QueueRoom's count: the status says more
    room.onMessage("party", (party: PartyMessage) => this.events.emit("party", party));
    room.onMessage("match_found", (found: MatchFoundMessage) => {
      this.phase = "ready-check";
      this.events.emit("matchFound", found);
    });
    room.onMessage("seat", (seat: SeatMessage) => void this.takeSeat(room, seat));
    room.onMessage("requeued", (back: RequeuedMessage) => {
      if (this.phase !== "in-game") this.phase = "waiting";
      this.events.emit("requeued", back);
    });
    room.onMessage("removed", (removed: RemovedMessage) => {
      this.events.emit("removed", removed);
      const why = removed.penalty?.text ?? `removed from the queue (${removed.reason})`;
      this.end(new MatchmakingEnded(why, "removed", undefined, removed));
    });
    room.onMessage("resume", (resume: ResumeMessage) => (this.token = resume.token));
    room.onMessage("resumed", (resumed: ResumedMessage) => this.events.emit("resumed", resumed));
    room.onMessage("handover", (handover: HandoverMessage) => (this.handover = handover));
    room.onLeave((code) => this.closed(room, code));

    this.phase = "waiting";
    this.waited.joined(Date.now());
    const rejoin = this.everJoined;
    this.everJoined = true;
    this.events.emit("joined", { room, rejoin });
  }

  /** Enter the game room of `seat`; once in, let the queue go (`confirm`: it closes with 1000). */
  private async takeSeat(room: Room, seat: SeatMessage): Promise<void> {
    if (this.phase === "taking-seat" || this.phase === "in-game" || this.phase === "ended") return;
    this.phase = "taking-seat";
    this.lastSeat = seat;
    this.events.emit("matched", seat);
    let game: Room<unknown, GameState>;
    try {
      game = await this.client.consumeSeatReservation<GameState>(seat, this.settings.gameSchema);
    } catch (error) {
      if (this.phase !== "taking-seat") return;
      this.phase = "waiting";
      this.events.emit("seatFailed", error instanceof Error ? error : new Error(String(error)));
      if (this.lostWhileSeating) void this.rejoin(); // nobody is left to say "requeued": rejoin
      return;
    }
    if (this.phase !== "taking-seat") {
      void game.leave(); // left the queue while the seat was being taken
      return;
    }
    this.phase = "in-game";
    if (room.connection?.isOpen) room.send("confirm");
    this.resolveGame(game);
  }

  /** A queue connection closed: the end, nothing (seated), or a rejoin. */
  private closed(room: Room, code: number): void {
    if (room !== this.current) return;
    this.current = undefined;
    if (this.phase === "ended" || this.phase === "in-game") return;
    if (this.phase === "taking-seat") {
      this.lostWhileSeating = true;
      return;
    }
    // A normal close (the queue let a seated player go) or a consented one (left, or removed) ends it.
    if (code === CloseCode.NORMAL_CLOSURE || code === CloseCode.CONSENTED)
      return this.end(new MatchmakingEnded(`the queue closed the connection (${code})`, "closed", code));
    const handover = this.handover;
    this.events.emit("reconnecting", { code, ...(handover ? { handover } : {}) });
    void this.rejoin(handover?.retryInMs ?? 0);
  }

  private async rejoin(afterMs = 0): Promise<void> {
    this.lostWhileSeating = false;
    this.phase = "joining";
    await this.pause(afterMs);
    await this.enter();
  }

  /** Wait `ms`, or less if the player leaves meanwhile. */
  private pause(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.cancelWait = done;
    });
  }

  private get ended(): boolean {
    return this.phase === "ended";
  }

  private end(error: MatchmakingEnded): void {
    if (this.phase === "ended") return;
    this.phase = "ended";
    this.cancelWait?.();
    this.rejectGame(error);
  }
}

/**
 * Join `queue` through `client` with the player's join `options` (`rating`, `side`, `zones`,
 * `party`, `partyCode`, ...: docs/reference.md, *Join options*), and follow the player to its game
 * room: one call for the whole protocol. The join is retried as the queue's refusal says (429 and
 * 503 after the wait they name; the network with backoff; bad options never); a connection lost
 * with the queue's process is rejoined with the resume token (the place is kept, with Redis); the
 * seat is taken and the queue let go once in the game.
 *
 * ```ts
 * const queue = joinQueue(client, "queue_2v2", { rating: 1500 });
 * queue.on("status", (status) => show(status.waiting, queue.waitedMs(), status.estimatedWaitMs));
 * queue.on("matchFound", () => queue.accept());
 * const game = await queue.game;
 * ```
 */
export function joinQueue<GameState = unknown>(
  client: Client,
  queue: string,
  options: ClientJoinOptions,
  settings: MatchmakingSettings<GameState> = {},
): Matchmaking<GameState> {
  return new Matchmaking<GameState>(client, queue, options, settings);
}
