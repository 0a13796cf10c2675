/**
 * The example's accounts and ratings, for its ranked queue: anonymous sign-in with
 * `@colyseus/auth` (each sign-in is a new account, named in a signed JWT), a small in-memory rating
 * store keyed by account id, and the queue option `players` that reads the account from the token
 * and its rating from the store. A real game keeps accounts and ratings in its database and updates
 * the ratings after each game; the queue only reads them.
 */
import { randomUUID } from "node:crypto";
import { JWT } from "colyseus";
import { PlayerRefused, type PlayersOption } from "../src/index.js";

/** Signs tokens where JWT_SECRET is not set: anyone who reads this file can forge them. Development only. */
const DEVELOPMENT_SECRET = "colyseus-matchmaker example: development only; set JWT_SECRET";

/**
 * The secret that signs and verifies auth tokens: JWT_SECRET. Without it the example says loudly
 * that it uses a development secret, and refuses to start with NODE_ENV=production.
 */
export function jwtSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  if (env.NODE_ENV === "production")
    throw new Error("JWT_SECRET is required in production: a token signed with the default secret can be forged");
  console.warn(
    "*** JWT_SECRET is not set: auth tokens are signed with the example's development secret, which anyone can " +
      "forge them with. Set JWT_SECRET for anything but development. ***",
  );
  return DEVELOPMENT_SECRET;
}

/** An account's rating in the `ranked` queue's fixed table (the learned ratings are ranked-ratings.ts's). */
export interface AccountRating {
  readonly rating: number;
  readonly uncertainty: number;
}

/**
 * Ratings by account id, in memory: a new account starts at 1500 with an uncertainty of 350
 * (Glicko's new player). Bounded: past `maxAccounts` the account seen least recently is forgotten
 * (and starts again at 1500 if it comes back), so anonymous sign-ins cannot grow it without end.
 */
export class AccountRatings {
  private readonly ratings = new Map<string, AccountRating>();
  constructor(
    private readonly maxAccounts = 100_000,
    private readonly initial: AccountRating = { rating: 1500, uncertainty: 350 },
  ) {}

  /** The account's rating (a new account's is the initial one). */
  of(accountId: string): AccountRating {
    const stored = this.ratings.get(accountId) ?? this.initial;
    this.set(accountId, stored);
    return stored;
  }

  /** Set an account's rating (a game's result; the tests' accounts). */
  set(accountId: string, rating: AccountRating): void {
    this.ratings.delete(accountId); // re-inserted last: the most recently seen
    this.ratings.set(accountId, rating);
    if (this.ratings.size > this.maxAccounts) this.ratings.delete(this.ratings.keys().next().value!);
  }
}

/** The `ranked` queue's ratings, set by the server (the tests set them); `ranked_1v1` and `ranked_2v2` learn theirs. */
export const accountRatings = new AccountRatings();

/**
 * `@colyseus/auth`'s settings for the server option `auth`: an anonymous sign-in makes a new account
 * whose token carries only its id. (By default it would copy the client's sign-in options into the
 * token, where a client could write its own rating.)
 */
export const authSettings = {
  onRegisterAnonymously: async () => ({ id: randomUUID(), anonymous: true }),
};

/** The account a client's auth token (signed by this server) names; refused with a reason without a valid one. */
async function accountOf(token: string | undefined): Promise<string> {
  if (!token) throw new PlayerRefused("sign in first: this queue takes your rating from your account");
  let payload: { id?: unknown };
  try {
    payload = await JWT.verify<{ id?: unknown }>(token);
  } catch {
    throw new PlayerRefused("the auth token is invalid or expired: sign in again");
  }
  if (typeof payload.id !== "string") throw new PlayerRefused("the auth token names no account: sign in again");
  return payload.id;
}

/**
 * The ranked queue's players: the account from the client's auth token, its rating from the
 * store. A client without a valid token is refused with a reason.
 */
export const accountPlayers: PlayersOption = {
  resolve: async ({ token }) => {
    const playerId = await accountOf(token);
    const { rating, uncertainty } = accountRatings.of(playerId);
    return { playerId, rating, uncertainty };
  },
};

/**
 * The players of the queues with ratings learned from results (`ranked_1v1`, `ranked_2v2`): only
 * the account, from the client's auth token; the queue's `Ratings` gives the rating.
 */
export const rankedPlayers: PlayersOption = {
  resolve: async ({ token }) => ({ playerId: await accountOf(token) }),
};
