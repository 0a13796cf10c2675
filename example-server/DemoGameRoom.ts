/**
 * A stand-in for your game: it records the teams the matchmaker gave it (two teams with sides, more
 * teams, or a free-for-all where each player is a team of one), the seats a short-handed game left
 * empty, and who arrived. It takes
 * players only through the seats the queue reserved (`static onAuth = queueSeatsOnly`: a client's
 * own joinById or create is refused, so the seat options `onJoin` receives are the queue's), tells
 * the queue who entered (`playerArrived`, one line in `onJoin`) and marks the seats the queue
 * reports as never taken (`onNoShow`). A real game room reads `options.match` the same way.
 *
 * A rated match (`options.match.rated`, from a ranked queue) is played to a result: once every seat
 * is taken, the game plays for `playMs` (a room option, default 5 s), then draws its winner with a
 * coin weighted by the ratings (demo-result.ts: each team's chance is shown in the state from the
 * start), reports it to the ratings the queue was given, sends each player its own change as the
 * `"rating"` message (`RatingChangeMessage`) and closes. A report that fails or hangs (past the room
 * option `reportTimeoutMs`, default 10 s) is logged, and the game ends all the same. A rated game
 * with a seat never taken is not played to a result. An unrated game stays open until its players
 * leave, as before.
 */
import { defineRoom, Room, type Client, type Delayed } from "@colyseus/core";
import { schema, t, type SchemaType } from "@colyseus/schema";
import {
  closeUnknownMessage,
  playerArrived,
  queueSeatsOnly,
  type MatchInfo,
  type NoShowListener,
  type NoShowReport,
  type SeatOptions,
} from "../src/index.js";
import { RATING_CHANGE_MESSAGE } from "../src/client/index.js";
import { ratings } from "./ranked-ratings.js";
import { coinOf, drawWinner, ratingMessages } from "./demo-result.js";

/** How long a rated game plays once every seat is taken, unless the room's `playMs` option says otherwise. */
const DEFAULT_PLAY_MS = 5000;
/** How long the game waits for the ratings to take its result before it ends without, unless `reportTimeoutMs` says otherwise. */
const DEFAULT_REPORT_TIMEOUT_MS = 10_000;

export const Seat = schema(
  {
    sessionId: t.string(),
    /** The player's team index (`MatchInfo.teams`): in a free-for-all, its own. */
    team: t.uint8().default(0),
    /** "A" or "B" in a game of two teams; "" in other shapes, which have no sides. */
    side: t.string().default(""),
    rating: t.number(),
    waitMs: t.number(),
    arrived: t.boolean().default(false),
    /** The queue reported that this seat's reservation expired unused. */
    noShow: t.boolean().default(false),
  },
  "Seat",
);
export type Seat = SchemaType<typeof Seat>;

export const DemoGameState = schema(
  {
    matchId: t.string(),
    queue: t.string(),
    /** The game's shape in words: "2 teams of 2", "4 teams of 2", "a free-for-all of 3". */
    shape: t.string(),
    imbalance: t.number().default(0),
    /** Highest minus lowest human rating: a free-for-all's measure of a game. */
    spread: t.number().default(0),
    seats: t.map(Seat),
    /** Seats of the full game left empty: it started short-handed, without bots. */
    emptySeats: t.uint8().default(0),
    /** A rated match: played to a result, which moves the players' ratings. */
    rated: t.boolean().default(false),
    /** A rated match: each team's chance to win by the ratings at the start (the coin's weights). */
    winChances: t.array("float64"),
    /** The winning team's index once drawn; -1 before. */
    winner: t.int8().default(-1),
  },
  "DemoGameState",
);
export type DemoGameState = SchemaType<typeof DemoGameState>;

/** The demo game's settings, given where the server defines the room (`defineDemoGame`). */
export interface DemoGameSettings {
  /** How long a rated game plays once every seat is taken (ms). @defaultValue 5000 */
  readonly playMs?: number;
  /** How long the game waits for its result to be taken before it ends without (ms). @defaultValue 10000 */
  readonly reportTimeoutMs?: number;
}

/** The demo game room's definition for a server's `rooms`, with its settings. */
export function defineDemoGame(settings: DemoGameSettings = {}) {
  // Colyseus merges these defaults over the options each room is created with (the queue's `match`).
  return defineRoom(DemoGameRoom, settings as DemoGameSettings & { match: MatchInfo });
}

export class DemoGameRoom extends Room<{ state: DemoGameState }> implements NoShowListener {
  // Players enter only through the queue's seats: a client's own joinById or create is refused.
  static override onAuth = queueSeatsOnly;
  override state = new DemoGameState();
  // A real game adds its own message types here; any other type closes its sender, never the process.
  override messages = { _: closeUnknownMessage };
  protected match!: MatchInfo;
  /**
   * The match's seats not taken yet, by sessionId. Kept out of the state, which every player in
   * the game sees: a reserved seat is taken by whoever connects with its sessionId first.
   */
  private readonly expected = new Map<string, Seat>();
  private playMs = DEFAULT_PLAY_MS;
  private reportTimeoutMs = DEFAULT_REPORT_TIMEOUT_MS;
  private play: Delayed | undefined;
  /** A rated match: each team's chance to win, read from the ratings at the start. */
  private chances: Promise<number[]> | undefined;

  override onCreate(options: DemoGameSettings & { match: MatchInfo }): void {
    const { match } = options;
    this.match = match;
    this.state.matchId = match.id;
    this.state.queue = match.queue;
    this.state.shape =
      match.shape.kind === "teams"
        ? `${match.shape.teams} teams of ${match.shape.teamSize}`
        : `a free-for-all of ${match.shape.players}`;
    this.state.imbalance = match.quality.imbalance ?? 0;
    this.state.spread = match.quality.spread;
    this.state.emptySeats = match.emptySeats ?? 0;
    let seats = 0;
    for (const [index, team] of match.teams.entries()) {
      for (const p of team.players) {
        const seat = new Seat();
        seat.sessionId = p.sessionId;
        seat.team = index;
        seat.side = team.side ?? "";
        seat.rating = p.rating;
        seat.waitMs = p.waitMs;
        // A bot's seat has no reservation to take: it is shown at once.
        if (p.bot) this.state.seats.set(p.sessionId, seat);
        else this.expected.set(p.sessionId, seat);
        seats++;
      }
    }
    // Room for the empty seats too: the game may fill them with requestBackfill.
    this.maxClients = seats + this.state.emptySeats;
    if (match.rated) {
      this.state.rated = true;
      this.playMs = orDefault(options.playMs, DEFAULT_PLAY_MS);
      this.reportTimeoutMs = orDefault(options.reportTimeoutMs, DEFAULT_REPORT_TIMEOUT_MS);
      this.chances = this.winChances();
    }
  }

  /** Each team's chance to win by the players' ratings now (even chances if they cannot be read), shown in the state. */
  private async winChances(): Promise<number[]> {
    const teams = this.match.teams.map((team) => team.players.flatMap((p) => (p.playerId ? [p.playerId] : [])));
    let chances: number[];
    try {
      const now = await ratings.ratingsOf(teams.flat());
      const rating = (id: string) => ({ mu: now.get(id)!.rating, sigma: now.get(id)!.uncertainty });
      chances = ratings.system.predictWin(teams.map((ids) => ids.map(rating)));
    } catch (error) {
      console.error(`[demo_game] match ${this.match.id}: ratings unreadable (${String(error)}): even chances`);
      chances = teams.map(() => 1 / teams.length);
    }
    this.state.winChances.push(...chances);
    return chances;
  }

  /** A rated game plays once every seat is taken; with a seat never taken, it is not played to a result. */
  private startPlayWhenFull(): void {
    if (!this.state.rated || this.play || this.expected.size > 0 || this.state.seats.size === 0) return;
    let noShow = false;
    this.state.seats.forEach((seat) => (noShow ||= seat.noShow));
    if (!noShow) this.play = this.clock.setTimeout(() => void this.finish(), this.playMs);
  }

  /** The play time is over: draw the winner, report it, tell each player its change, and close, whatever failed. */
  private async finish(): Promise<void> {
    try {
      const winner = drawWinner(await this.chances!, coinOf(this.match.id));
      this.state.winner = winner;
      const report = await withinMs(ratings.reportResult(this.match, { winner }), this.reportTimeoutMs);
      if (report.status === "unknown")
        console.error(`[demo_game] match ${this.match.id}: the ratings do not know this match: no rating changed`);
      else
        for (const [sessionId, message] of ratingMessages(this.match, report.changes, winner))
          this.clients.getById(sessionId)?.send(RATING_CHANGE_MESSAGE, message);
    } catch (error) {
      console.error(`[demo_game] match ${this.match.id}: the result could not be reported (${String(error)})`);
    } finally {
      this.broadcastPatch(); // the winner, before the room closes
      await this.disconnect();
    }
  }

  override onJoin(client: Client, options: SeatOptions): void {
    let seat = this.expected.get(client.sessionId);
    if (!seat && options.backfill === true) {
      // A replacement the game asked for with requestBackfill: a new seat on that team (an empty
      // seat's, in a short-handed game). These are the queue's seat options (queueSeatsOnly above):
      // no client can send its own.
      seat = new Seat();
      seat.sessionId = client.sessionId;
      seat.team = options.team;
      seat.side = options.side ?? "";
      seat.rating = options.rating;
      if (options.team >= this.match.teams.length && this.state.emptySeats > 0) this.state.emptySeats--;
    }
    if (!seat || seat.team !== options.team || seat.side !== (options.side ?? ""))
      throw new Error("this seat was not reserved for you");
    this.expected.delete(client.sessionId);
    seat.arrived = true;
    this.state.seats.set(client.sessionId, seat);
    void playerArrived(this.match, client.sessionId); // the queue stops waiting for this player
    this.startPlayWhenFull();
  }

  /** The queue: these seats expired unused (a real game might requestBackfill or end the match). */
  onNoShow(report: NoShowReport): void {
    for (const player of report.players) {
      const seat = this.expected.get(player.sessionId);
      if (!seat) continue;
      // The reservation has expired: its sessionId opens nothing any more, and may be shown.
      this.expected.delete(player.sessionId);
      seat.noShow = true;
      this.state.seats.set(player.sessionId, seat);
    }
  }
}

/** A setting of milliseconds: the value given, if it is one, else the default. */
const orDefault = (ms: number | undefined, fallback: number) =>
  typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : fallback;

/** `promise`, or a rejection after `ms`: a store that hangs does not keep the game open. */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
