/**
 * Issue 32, item 1 ("who the player is comes from the server"), probed against the example server
 * booted in this process with real SDK clients. Prints one line per probe with its counts.
 *
 *   PORT=4225 npx tsx bench/probes/issue32-identity.ts
 *
 * - casual `duel`: two clients declare rating 9999 and others' playerIds: accepted (documented
 *   untrusted) and what the game room sees;
 * - `ranked`: a signed-in client that sends `rating`, `rank`, `playerId` or `uncertainty`; no token;
 *   a token signed with another secret; a signed-in client that sends nothing (accepted);
 * - `ranked`, matching: four accounts whose server ratings are 1000, 2500, 1500 and 1520 join; the
 *   two close ones are matched while the two far ones still wait; the game room's MatchInfo carries
 *   the server's ratings and account ids.
 */
import "../../example-server/node20.js";
import { matchMaker } from "@colyseus/core";
import { Client, type Room } from "@colyseus/sdk";
import { boot } from "@colyseus/testing";
import { createHmac } from "node:crypto";
import app from "../../example-server/app.config.js";
import type { MatchInfo } from "../../src/index.js";
import type { SeatMessage } from "../../src/client/index.js";

const port = Number(process.env.PORT ?? 4225);
const endpoint = `ws://127.0.0.1:${port}`;
const server = await boot(app, port);

/** The join's outcome: "accepted", or the refusal's code and message. */
async function attempt(client: Client, queue: string, options: Record<string, unknown>): Promise<string> {
  try {
    const room = await client.joinOrCreate(queue, options);
    room.onMessage("*", () => undefined);
    await room.leave();
    return "accepted";
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return `refused ${code}: ${message}`;
  }
}

async function signedIn(): Promise<{ client: Client; id?: string }> {
  const client = new Client(endpoint);
  try {
    const { user } = await client.auth.signInAnonymously<{ id?: string }>();
    return { client, ...(user.id !== undefined ? { id: user.id } : {}) };
  } catch (error) {
    console.log(`sign-in: failed (${(error as Error).message})`);
    return { client };
  }
}

/** A client that sends no auth token (the SDK's Node storage would lend it the last sign-in's). */
function withoutToken(): Client {
  const client = new Client(endpoint);
  client.auth.token = undefined as unknown as string;
  return client;
}

/** A JWT for `payload` signed (HS256) with `secret`: what a forger without the server's secret can make. */
function signedWith(secret: string, payload: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part(payload)}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

function gameOf(seat: SeatMessage): MatchInfo | undefined {
  return (matchMaker.getLocalRoomById(seat.roomId) as unknown as { match?: MatchInfo } | undefined)?.match;
}

try {
  // Casual: the client's word.
  const casual = withoutToken();
  const a = await casual.joinOrCreate("duel", { rating: 9999, playerId: "someone-else" });
  const seat = new Promise<SeatMessage>((r) => a.onMessage("seat", r));
  a.onMessage("*", () => undefined);
  // Another declared account: one account is in one place (a second "someone-else" would be refused).
  const b = await withoutToken().joinOrCreate("duel", { rating: 9999, playerId: "someone-else-2" });
  b.onMessage("*", () => undefined);
  const match = gameOf(await seat);
  const seen = match?.teams.flatMap((t) => t.players.map((p) => `${p.rating}/${p.playerId ?? "-"}`)) ?? [];
  console.log(
    `duel (casual), two clients declaring rating 9999 and playerIds "someone-else", "someone-else-2": accepted 2, game room sees ${seen.join(", ")}, trustedPlayers ${String(match?.trustedPlayers)}`,
  );
  await Promise.all([a.leave(), b.leave()]);

  // Ranked: refusals by name, tokens.
  const one = await signedIn();
  for (const options of [{ rating: 9999 }, { rank: 9999 }, { playerId: "someone-else" }, { uncertainty: 0 }, {}])
    console.log(`ranked, signed in, ${JSON.stringify(options)}: ${await attempt(one.client, "ranked", options)}`);
  console.log(`ranked, no token, {}: ${await attempt(withoutToken(), "ranked", {})}`);
  const forger = withoutToken();
  forger.auth.token = signedWith("not the server's secret", { id: one.id ?? "x" });
  console.log(`ranked, token signed with another secret: ${await attempt(forger, "ranked", {})}`);

  // Ranked: matching on the server's ratings.
  let store: { set(id: string, r: { rating: number; uncertainty: number }): void } | undefined;
  try {
    // accountRatings since issue 36 (ratings was the name before).
    const accounts = (await import("../../example-server/accounts.js")) as unknown as Record<string, typeof store>;
    store = accounts.accountRatings ?? accounts.ratings;
  } catch {
    store = undefined;
  }
  if (!store) {
    console.log("ranked matching: no rating store in this example server");
  } else {
    const accounts = [1000, 2500, 1500, 1520];
    const rooms: Array<{ room: Room; seat?: SeatMessage; id: string; rating: number }> = [];
    for (const rating of accounts) {
      const { client, id } = await signedIn();
      store.set(id!, { rating, uncertainty: 50 });
      const room = await client.joinOrCreate("ranked", {});
      const entry: (typeof rooms)[number] = { room, id: id!, rating };
      room.onMessage("seat", (s: SeatMessage) => (entry.seat = s));
      room.onMessage("*", () => undefined);
      rooms.push(entry);
    }
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !rooms.some((r) => r.seat)) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const seated = rooms.filter((r) => r.seat);
    const info = seated[0]?.seat && gameOf(seated[0].seat);
    const players = info?.teams.flatMap((t) => t.players) ?? [];
    const fromStore = players.every((p) => rooms.find((r) => r.id === p.playerId)?.rating === p.rating);
    console.log(
      `ranked, accounts rated ${accounts.join(", ")} by the server: seated ${seated.map((r) => r.rating).join(", ") || "none"}; still waiting ${rooms
        .filter((r) => !r.seat)
        .map((r) => r.rating)
        .join(", ")}; ` +
        `game room sees ratings ${players.map((p) => p.rating).join(", ")}, account ids from the tokens ${String(fromStore && players.length > 0)}, trustedPlayers ${String(info?.trustedPlayers)}`,
    );
    await Promise.all(rooms.map((r) => r.room.leave()));
  }
} finally {
  await server.shutdown();
}
