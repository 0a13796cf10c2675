/**
 * A stand-in for your game: it records the teams the matchmaker gave it (two teams with sides, more
 * teams, or a free-for-all where each player is a team of one), the seats a short-handed game left
 * empty, and who arrived. It takes
 * players only through the seats the queue reserved (`static onAuth = queueSeatsOnly`: a client's
 * own joinById or create is refused, so the seat options `onJoin` receives are the queue's), tells
 * the queue who entered (`playerArrived`, one line in `onJoin`) and marks the seats the queue
 * reports as never taken (`onNoShow`). A real game room reads `options.match` the same way.
 */
import { Room, type Client } from "@colyseus/core";
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
  },
  "DemoGameState",
);
export type DemoGameState = SchemaType<typeof DemoGameState>;

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

  override onCreate(options: { match: MatchInfo }): void {
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
