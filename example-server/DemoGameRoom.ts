/**
 * A stand-in for your game: it records the teams the matchmaker gave it and who arrived. It takes
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
    side: t.string(),
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
    imbalance: t.number().default(0),
    seats: t.map(Seat),
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
    this.state.imbalance = match.quality.imbalance ?? 0;
    let seats = 0;
    for (const team of match.teams) {
      for (const p of team.players) {
        const seat = new Seat();
        seat.sessionId = p.sessionId;
        seat.side = team.side ?? "";
        seat.rating = p.rating;
        seat.waitMs = p.waitMs;
        // A bot's seat has no reservation to take: it is shown at once.
        if (p.bot) this.state.seats.set(p.sessionId, seat);
        else this.expected.set(p.sessionId, seat);
        seats++;
      }
    }
    this.maxClients = seats;
  }

  override onJoin(client: Client, options: SeatOptions): void {
    let seat = this.expected.get(client.sessionId);
    if (!seat && options.backfill === true) {
      // A replacement the game asked for with requestBackfill: a new seat on that side. These are
      // the queue's seat options (queueSeatsOnly above): no client can send its own.
      seat = new Seat();
      seat.sessionId = client.sessionId;
      seat.side = options.side ?? "";
      seat.rating = options.rating;
    }
    if (!seat || seat.side !== (options.side ?? "")) throw new Error("this seat was not reserved for you");
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
