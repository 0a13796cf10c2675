/** A game room for integration tests that records what the queue told it and who took which seat. */
import { Room, type Client } from "@colyseus/core";
import { playerArrived, type MatchInfo, type SeatOptions } from "../../src/index.js";

export interface GameRecord {
  /** Every match a room of this type was created for, in order. */
  readonly matches: MatchInfo[];
  /** Every client that took a reserved seat, with the seat options it arrived with. */
  readonly joined: Array<{ sessionId: string; seat: SeatOptions }>;
}

/** A fresh recording room type and its record (one per test file, so records never mix). */
export function recordingRoom(): { room: typeof Room; record: GameRecord } {
  const record: GameRecord = { matches: [], joined: [] };
  class RecordingGameRoom extends Room {
    match?: MatchInfo;
    override onCreate(options: { match: MatchInfo }): void {
      record.matches.push(options.match);
      this.match = options.match;
      // Every seat of the match, whatever its shape (two teams, more, a free-for-all).
      this.maxClients = options.match.teams.reduce((seats, team) => seats + team.players.length, 0);
    }
    override onJoin(client: Client, seat: SeatOptions): void {
      record.joined.push({ sessionId: client.sessionId, seat });
      playerArrived(this.match, client.sessionId);
    }
  }
  // Declared as the base room type: an exported class expression would expose Room's private members.
  return { room: RecordingGameRoom as unknown as typeof Room, record };
}
