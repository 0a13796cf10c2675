/**
 * Issue 32, item 2 ("one account, one place"), probed against the example server's queues booted
 * in this process with real SDK clients. Prints one line per probe with its counts.
 *
 *   PORT=4438 npx tsx bench/probes/issue32-accounts.ts
 *
 * - `duel`: two sessions join with the same `playerId`: how many got in, how many were seated, and
 *   whether in one match;
 * - `squad`: four sessions of one `playerId` join at once: how many got in and were seated;
 * - `squad`: a party leader's `playerId` joins its own party with the code from a second session.
 *
 * To see the behaviour before a change, copy this file into a checkout of the older tree and run it there.
 */
import "../../example-server/node20.js";
import { boot } from "@colyseus/testing";
import config from "@colyseus/tools";
import type { Room } from "@colyseus/sdk";
import { rooms } from "../../example-server/app.config.js";

const port = Number(process.env.PORT ?? 4438);
const server = await boot(config({ rooms }), port);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seats = new Map<Room, { matchId: string; side: string }>();

/** The joined room, or the refusal as "code message". */
async function join(queue: string, options: Record<string, unknown>): Promise<Room | string> {
  try {
    const room = await server.sdk.joinOrCreate(queue, options);
    for (const type of ["status", "clients", "party", "resume", "match_found", "requeued", "removed"])
      room.onMessage(type, () => undefined);
    room.onMessage("seat", (seat: { matchId: string; side: string }) => seats.set(room, seat));
    return room;
  } catch (error) {
    return `${(error as { code?: number }).code} ${(error as Error).message}`;
  }
}
const joined = (all: Array<Room | string>) => all.filter((r): r is Room => typeof r !== "string");
const leave = async (all: Array<Room | string>) => {
  for (const r of joined(all)) await r.leave().catch(() => undefined);
};

// duel: two sessions of one playerId (a second join after the first waits).
const duel = [await join("duel", { rating: 1500, playerId: "probe-acct" })];
duel.push(await join("duel", { rating: 1500, playerId: "probe-acct" }));
await sleep(1500); // the queue's heartbeat is 500 ms
const duelSeats = joined(duel).flatMap((r) => seats.get(r) ?? []);
console.log(
  `duel: joined ${joined(duel).length}/2, seated ${duelSeats.length}, in one match ${duelSeats.length === 2 && duelSeats[0]!.matchId === duelSeats[1]!.matchId}` +
    `, sides ${duelSeats.map((s) => s.side).join("/") || "-"}; refused: ${duel.filter((r) => typeof r === "string").join(" | ") || "none"}`,
);
await leave(duel);

// squad: four sessions of one playerId at once.
const squad = await Promise.all([1, 2, 3, 4].map(() => join("squad", { rating: 1500, playerId: "probe-squad" })));
await sleep(1500);
const squadSeats = joined(squad).flatMap((r) => seats.get(r) ?? []);
console.log(
  `squad: joined ${joined(squad).length}/4, seated ${squadSeats.length}, matches ${new Set(squadSeats.map((s) => s.matchId)).size}`,
);
await leave(squad);

// squad: a playerId joins its own party.
const lead = (await join("squad", { rating: 1500, playerId: "probe-me", party: { size: 2 } })) as Room;
let party = { code: "", members: 0 };
lead.onMessage("party", (m: { code: string; members: number }) => (party = m));
for (let i = 0; i < 40 && !party.code; i++) await sleep(50);
const alt = await join("squad", { rating: 1500, playerId: "probe-me", partyCode: party.code });
await sleep(500);
console.log(
  `party: the leader's playerId from a second session ${typeof alt === "string" ? `refused: ${alt}` : "joined"}; party members ${party.members}`,
);
await leave([lead, alt]);
await server.shutdown();
process.exit(0);
