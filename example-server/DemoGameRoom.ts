/**
 * A stand-in for your game: it records the teams the matchmaker gave it and who arrived.
 * A real game room reads `options.match` the same way.
 */
import { Room, type Client } from "@colyseus/core";
import { schema, t, type SchemaType } from "@colyseus/schema";
import type { MatchInfo, SeatOptions } from "../src/index.js";

export const Seat = schema(
  {
    sessionId: t.string(),
    side: t.string(),
    rating: t.number(),
    waitMs: t.number(),
    arrived: t.boolean().default(false),
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

export class DemoGameRoom extends Room<{ state: DemoGameState }> {
  override state = new DemoGameState();

  override onCreate(options: { match: MatchInfo }): void {
    const { match } = options;
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
    const seat = this.state.seats.get(client.sessionId);
    if (!seat || seat.side !== options.side) throw new Error("this seat was not reserved for you");
    seat.arrived = true;
  }
}
