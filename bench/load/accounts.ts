/**
 * The ranked rooms' accounts (server.ts's `queue_ranked*`, `fill_ranked`): the load client signs
 * each player's account id into a JWT with the run's secret, sends it as the SDK's auth token, and
 * the queue's `players.resolve` verifies it, as a game's sign-in would. The secret is one run's:
 * run.ts draws it and hands it to its server and client processes in {@link SECRET_ENV}.
 */
import { createSecretKey } from "node:crypto";
import { JWT } from "colyseus";

/** The environment variable carrying the run's signing secret. */
export const SECRET_ENV = "LOAD_TOKEN_SECRET";

/**
 * Sign and verify with the run's secret (throws without one: a ranked room could take no join). As a
 * key object: given a string, jsonwebtoken first tries to parse it as a public key at every verify
 * (0.75 ms against 0.02 ms here), which would bury the ratings' cost under the token's.
 */
function useRunSecret(): void {
  if (typeof JWT.settings.secret === "object") return;
  const secret = process.env[SECRET_ENV];
  if (!secret) throw new Error(`${SECRET_ENV} is not set: run the load harness through run.ts`);
  JWT.settings.secret = createSecretKey(Buffer.from(secret, "hex"));
}

/** A token naming `id`, as a sign-in would hand the client. */
export function accountToken(id: string): Promise<string> {
  useRunSecret();
  return JWT.sign({ id });
}

/** The account a token names; rejects a token not signed with the run's secret. */
export async function accountOf(token: string): Promise<string> {
  useRunSecret();
  const { id } = await JWT.verify<{ id?: unknown }>(token);
  if (typeof id !== "string" || id.length === 0 || id.length > 64) throw new Error("token names no account");
  return id;
}
