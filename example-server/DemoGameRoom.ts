/**
 * A stand-in for your game: it records the teams the matchmaker gave it and who arrived. It tells
 * the queue who entered (`playerArrived`, one line in `onJoin`) and marks the seats the queue
 * reports as never taken (`onNoShow`). A real game room reads `options.match` the same way.
 */
import { Room, type Client } from "@colyseus/core";
import { schema, t, type SchemaType } from "@colyseus/schema";
import {
  playerArrived,
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
  override state = new DemoGameState();
  protected match!: MatchInfo;

  override onCreate(options: { match: MatchInfo }): void {
    const { match } = options;
    this.match = match;
    this.state.matchId = match.id;
    this.state.queue = match.queue;
    this.state.imbalance = match.quality.imbalance;
    for (const team of match.teams) {
      for (const p of team.players) {
        const seat = new Seat();
        seat.sessionId = p.sessionId;
        seat.side = team.side;
        seat.rating = p.rating;
        seat.waitMs = p.waitMs;
        this.state.seats.set(p.sessionId, seat);
      }
    }
    this.maxClients = this.state.seats.size;
  }

  override onJoin(client: Client, options: SeatOptions): void {
    let seat = this.state.seats.get(client.sessionId);
    if (!seat && options.backfill === true) {
      // A replacement the game asked for with requestBackfill: a new seat on that side.
      seat = new Seat();
      seat.sessionId = client.sessionId;
      seat.side = options.side;
      seat.rating = options.rating;
      this.state.seats.set(client.sessionId, seat);
    }
    if (!seat || seat.side !== options.side) throw new Error("this seat was not reserved for you");
    seat.arrived = true;
    void playerArrived(this.match, client.sessionId); // the queue stops waiting for this player
  }

  /** The queue: these seats expired unused (a real game might requestBackfill or end the match). */
  onNoShow(report: NoShowReport): void {
    for (const player of report.players) {
      const seat = this.state.seats.get(player.sessionId);
      if (seat) seat.noShow = true;
    }
  }
}
