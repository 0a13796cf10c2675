/** A game room for QueueRoom-client tests: either queue (QueueRoom or the matchmaker) may create it; it only counts who arrives. */
import { Room, type Client } from "@colyseus/core";

/** A fresh room type taking `maxClients` players, and who joined each of its rooms (by room id). */
export function countingRoom(maxClients: number): { room: typeof Room; joined: Map<string, string[]> } {
  const joined = new Map<string, string[]>();
  class CountingRoom extends Room {
    override onCreate(): void {
      this.maxClients = maxClients;
      joined.set(this.roomId, []);
    }
    override onJoin(client: Client): void {
      joined.get(this.roomId)!.push(client.sessionId);
    }
  }
  // Declared as the base room type: an exported class expression would expose Room's private members.
  return { room: CountingRoom as unknown as typeof Room, joined };
}
