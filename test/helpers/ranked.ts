/**
 * Ranked play on the example server's accounts (example-server/accounts.ts), for tests: an account
 * signed in anonymously with `@colyseus/auth` and rated by the example's store, and a ranked queue
 * whose players and ratings come from them.
 */
import { Client } from "@colyseus/sdk";
import { accountPlayers, accountRatings } from "../../example-server/accounts.js";
import { defineQueue } from "../../src/index.js";

/** A new account on the server at `endpoint` (anonymous sign-in; the client keeps its token), rated `rating`. */
export async function signedInAccount(
  endpoint: string,
  rating: number,
): Promise<{ client: Client; accountId: string }> {
  const client = new Client(endpoint);
  const { user } = await client.auth.signInAnonymously<{ id: string }>();
  accountRatings.set(user.id, { rating, uncertainty: 40 });
  return { client, accountId: user.id };
}

/**
 * A ranked queue of `teamSize` (players from the example's accounts, ratings 0 to 5000) that
 * matches within 100 rating points and never widens: a player with nobody that close waits.
 */
export function narrowRankedQueue(options: { teamSize: number; tickMs?: number }) {
  return defineQueue({
    gameRoom: "demo_game",
    policy: "expanding-window",
    params: { unit: "rating", initial: 100, growthPerSecond: 0, max: 100 },
    rating: { min: 0, max: 5000 },
    players: accountPlayers,
    ...options,
  });
}
