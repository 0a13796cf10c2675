/**
 * Issue 36, the ranked queue as an attacker tries it, against a running example server (its
 * `ranked_1v1`, whose accounts come from tokens signed with JWT_SECRET, the example's development
 * secret when unset). Prints one line per probe.
 *
 *   PORT=4610 RATINGS_FILE=/tmp/probe-ratings.sqlite npx tsx example-server/index.ts &
 *   PORT=4610 npx tsx bench/probes/issue36-ranked.ts
 *
 * - one account in two tabs: the second is refused;
 * - a client that sends its own rating: refused by name;
 * - a client that creates the game room type itself: refused (seats only through the queue);
 * - a client that sends a `result` message to the queue: its connection is closed.
 */
import { createSecretKey } from "node:crypto";
import { Client } from "@colyseus/sdk";
import { JWT } from "colyseus";

const DEVELOPMENT_SECRET = "colyseus-matchmaker example: development only; set JWT_SECRET";
JWT.settings.secret = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? DEVELOPMENT_SECRET));
const url = `ws://127.0.0.1:${process.env.PORT ?? 2567}`;
const token = await JWT.sign({ id: `probe-${Date.now()}` });
const tab = () => {
  const client = new Client(url);
  client.auth.token = token;
  return client;
};
const refusal = (error: unknown) => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return `refused (${String(code)}): ${String(message)}`;
};

const first = await tab().joinOrCreate("ranked_1v1", {});
console.log(`tab 1: waiting in ranked_1v1 (${first.roomId})`);
await tab()
  .joinOrCreate("ranked_1v1", {})
  .then(() => console.log("tab 2, same account: JOINED (a second place for one account)"))
  .catch((error: unknown) => console.log(`tab 2, same account: ${refusal(error)}`));
await tab()
  .joinOrCreate("ranked_1v1", { rating: 3000 })
  .then(() => console.log("a client's own rating: ACCEPTED"))
  .catch((error: unknown) => console.log(`a client's own rating: ${refusal(error)}`));
await new Client(url)
  .create("demo_game", { match: { id: "forged", rated: true } })
  .then(() => console.log("a game room of its own: CREATED"))
  .catch((error: unknown) => console.log(`a game room of its own: ${refusal(error)}`));
first.send("result", { winner: 0 });
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(`a "result" message to the queue: the sender is ${first.connection.isOpen ? "STILL CONNECTED" : "closed"}`);
process.exit(0);
