/**
 * Trusted players (the queue option `players`) against the example server, with real SDK clients
 * and real `@colyseus/auth` tokens: the `ranked` queue refuses what the server sets, matches on the
 * server's ratings and hands the game room the server's accounts; party members are resolved the
 * same way; a resolver that fails, answers badly or hangs refuses the join and the queue goes on;
 * a subclass whose static `onAuth` returns data (Colyseus then skips the room's `onAuth`) is
 * resolved all the same.
 */
import { defineRoom, matchMaker, type AuthContext } from "@colyseus/core";
import { JWT } from "colyseus";
import { Client, type Room } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import app, { rooms } from "../../example-server/app.config.js";
import { accountRatings } from "../../example-server/accounts.js";
import {
  defineQueue,
  MatchmakerRoom,
  PlayerRefused,
  type MatchInfo,
  type PlayerRequest,
  type TrustedPlayer,
} from "../../src/index.js";
import type { PartyMessage, SeatMessage } from "../../src/client/index.js";
import { narrowRankedQueue, signedInAccount } from "../helpers/ranked.js";
import { testPort, within } from "../helpers/sdk.js";

const port = testPort(120);
const endpoint = `ws://127.0.0.1:${port}`;

/** What the `flaky` queue's resolver does next (set by each test). */
let flaky: (request: PlayerRequest) => TrustedPlayer | Promise<TrustedPlayer> = () => {
  throw new Error("not set");
};

/** A queue whose static onAuth verifies the token and returns its payload, as Colyseus's docs do it. */
class StaticAuthQueue extends MatchmakerRoom {
  static override async onAuth(token: string, options: unknown, context: AuthContext): Promise<true> {
    await MatchmakerRoom.onAuth(token, options, context);
    return (await JWT.verify(token)) as never; // data: Colyseus then skips the room's own onAuth
  }
}

interface Player {
  client: Client;
  accountId: string;
}

/** A new account (anonymous sign-in), rated `rating` by the server. */
const account = (rating: number): Promise<Player> => signedInAccount(endpoint, rating);

/** A client that sends no auth token (the SDK's in-memory storage would lend it the last sign-in's). */
function anonymous(): Client {
  const client = new Client(endpoint);
  client.auth.token = undefined as unknown as string;
  return client;
}

interface Joined {
  room: Room;
  seat: Promise<SeatMessage>;
  party: PartyMessage[];
}

async function join(client: Client, queue: string, options: Record<string, unknown> = {}): Promise<Joined> {
  const room = await client.joinOrCreate(queue, options);
  let resolve!: (seat: SeatMessage) => void;
  const seat = new Promise<SeatMessage>((r) => (resolve = r));
  const party: PartyMessage[] = [];
  room.onMessage("seat", resolve);
  room.onMessage("party", (m: PartyMessage) => party.push(m));
  room.onMessage("*", () => undefined);
  return { room, seat, party };
}

/** The refusal's code and message, or "accepted" (the room is then left). */
async function outcome(client: Client, queue: string, options: Record<string, unknown> = {}): Promise<string> {
  try {
    const joined = await join(client, queue, options);
    await joined.room.leave();
    return "accepted";
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return `${code}: ${message}`;
  }
}

/** A JWT for `payload` signed (HS256) with `secret`: what a forger without the server's secret can make. */
function signedWith(secret: string, payload: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part(payload)}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

const matchOf = (seat: SeatMessage) =>
  (matchMaker.getLocalRoomById(seat.roomId) as unknown as { match: MatchInfo }).match;

const playersOf = (match: MatchInfo) => match.teams.flatMap((t) => t.players);

/** `[playerId, rating]` of each player of `match`, sorted (compare with a sorted list of the expected ones). */
const accountsAndRatings = (match: MatchInfo) =>
  playersOf(match)
    .map((p) => [p.playerId, p.rating])
    .sort();

describe("trusted players", () => {
  let server: ColyseusTestServer;
  const open: Room[] = [];

  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined); // the SDK's "closed unexpectedly" lines
    server = await boot(
      config({
        ...app,
        rooms: {
          ...rooms,
          // A ranked 2v2: parties, every member resolved from its own token.
          ranked_squad: narrowRankedQueue({ teamSize: 2, tickMs: 100 }),
          flaky: defineQueue({
            teamSize: 1,
            gameRoom: "demo_game",
            tickMs: 100,
            players: { resolve: (request) => flaky(request), timeoutMs: 300 },
          }),
          static_auth: defineRoom(StaticAuthQueue, {
            teamSize: 1,
            gameRoom: "demo_game",
            tickMs: 100,
            players: {
              resolve: ({ auth, token }: PlayerRequest) => {
                const id = (auth as { id?: unknown } | undefined)?.id;
                if (token !== undefined || typeof id !== "string") throw new PlayerRefused("no account from onAuth");
                return { playerId: id, rating: accountRatings.of(id).rating };
              },
            },
          }),
        },
      }),
      port,
    );
  });
  afterAll(async () => {
    await Promise.all(open.map((r) => r.leave().catch(() => undefined)));
    await server?.shutdown();
    vi.restoreAllMocks();
  });

  it("the ranked queue refuses a client-sent rating, rank, playerId or uncertainty by name, and takes a signed-in client that sends none", async () => {
    const { client } = await account(1500);
    const refusals = [];
    for (const options of [{ rating: 100 }, { rank: 100 }, { playerId: "someone-else" }, { uncertainty: 0 }])
      refusals.push(await outcome(client, "ranked", options));
    expect(refusals).toEqual([
      "525: invalid join options: rating: this queue takes ratings from the server; do not send it",
      "525: invalid join options: rank: this queue takes ratings from the server; do not send it",
      "525: invalid join options: playerId: this queue takes player ids from the server; do not send it",
      "525: invalid join options: uncertainty: this queue takes rating uncertainties from the server; do not send it",
    ]);
    expect(await outcome(client, "ranked")).toBe("accepted");
    // The casual queues keep the client's word (documented as untrusted).
    expect(await outcome(anonymous(), "duel", { rating: 100, playerId: "someone-else" })).toBe("accepted");
  });

  it("refuses a client without a token, with a garbled one, or with one signed by another secret; then takes a valid one", async () => {
    const { accountId } = await account(1500);
    const garbled = anonymous();
    garbled.auth.token = "not.a.jwt";
    const forged = anonymous();
    forged.auth.token = signedWith("not the server's secret", { id: accountId });
    expect([
      await outcome(anonymous(), "ranked"),
      await outcome(garbled, "ranked"),
      await outcome(forged, "ranked"),
    ]).toEqual([
      "525: player refused: sign in first: this queue takes your rating from your account",
      "525: player refused: the auth token is invalid or expired: sign in again",
      "525: player refused: the auth token is invalid or expired: sign in again",
    ]);
    expect(await outcome((await account(1500)).client, "ranked")).toBe("accepted");
  });

  it("matches on the server's ratings: far accounts keep waiting while close ones play, and the game room gets the server's ratings and accounts", async () => {
    const players = [await account(1000), await account(2500), await account(1500), await account(1520)];
    const joined = [];
    for (const p of players) joined.push(await join(p.client, "ranked"));
    open.push(...joined.map((j) => j.room));
    const [seat] = await within(Promise.all([joined[2]!.seat, joined[3]!.seat]), 10_000, "the close pair's seats");
    const match = matchOf(seat);
    expect(match.trustedPlayers).toBe(true);
    expect(accountsAndRatings(match)).toEqual(
      [
        [players[2]!.accountId, 1500],
        [players[3]!.accountId, 1520],
      ].sort(),
    );
    // The far pair is still waiting, unmatched (its window is 100 wide and grows 10 a second).
    const queue = matchMaker.getLocalRoomById(joined[0]!.room.roomId) as MatchmakerRoom;
    expect(queue.trustedPlayers).toBe(true);
    expect(queue.session.placeOf(joined[0]!.room.sessionId)).toBe("waiting");
    expect(queue.session.placeOf(joined[1]!.room.sessionId)).toBe("waiting");
    // A casual queue's game room is told its players are the clients' word.
    const a = await join(anonymous(), "duel", { rating: 1500 });
    const b = await join(anonymous(), "duel", { rating: 1500 });
    open.push(a.room, b.room);
    expect(matchOf(await within(a.seat, 10_000, "the duel seat")).trustedPlayers).toBe(false);
  });

  it("resolves a party's members the same way: a member's rating is refused by name, every member plays at its server rating", async () => {
    const [leader, member, solo1, solo2] = [
      await account(1500),
      await account(1540),
      await account(1490),
      await account(1530),
    ];
    const lead = await join(leader.client, "ranked_squad", { party: { size: 2 } });
    open.push(lead.room);
    await vi.waitFor(() => expect(lead.party.length).toBeGreaterThan(0), { timeout: 5000 });
    const code = lead.party[0]!.code;
    expect(await outcome(member.client, "ranked_squad", { partyCode: code, rating: 100 })).toBe(
      "525: invalid join options: rating: this queue takes ratings from the server; do not send it",
    );
    expect(await outcome(anonymous(), "ranked_squad", { partyCode: code })).toBe(
      "525: player refused: sign in first: this queue takes your rating from your account",
    );
    const friend = await join(member.client, "ranked_squad", { partyCode: code });
    const others = [await join(solo1.client, "ranked_squad"), await join(solo2.client, "ranked_squad")];
    open.push(friend.room, ...others.map((o) => o.room));
    const seats = await within(
      Promise.all([lead.seat, friend.seat, ...others.map((o) => o.seat)]),
      10_000,
      "the ranked 2v2's seats",
    );
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    const match = matchOf(seats[0]!);
    const byAccount = new Map(playersOf(match).map((p) => [p.playerId, p]));
    for (const [p, rating] of [
      [leader, 1500],
      [member, 1540],
      [solo1, 1490],
      [solo2, 1530],
    ] as const)
      expect(byAccount.get(p.accountId)?.rating).toBe(rating);
    // The party plays on one team.
    expect(seats[0]!.side).toBe(seats[1]!.side);
  });

  it("a resolver that throws, answers bad fields or hangs refuses the join with a clear message, and the queue keeps serving", async () => {
    const cases: Array<[string, typeof flaky]> = [
      [
        "throws",
        () => {
          throw new Error("database unreachable");
        },
      ],
      ["refuses", () => Promise.reject(new PlayerRefused("this account is suspended"))],
      ["rating out of range", () => ({ playerId: "p1", rating: 99_999 })],
      ["no playerId, an unknown field", () => ({ rating: 1500, id: "p1" }) as unknown as TrustedPlayer],
      ["not an object", () => null as unknown as TrustedPlayer],
      ["hangs", () => new Promise<never>(() => undefined)],
    ];
    const outcomes: Record<string, string> = {};
    for (const [name, resolver] of cases) {
      flaky = resolver;
      outcomes[name] = await outcome(anonymous(), "flaky");
    }
    expect(outcomes).toEqual({
      throws: "525: player refused: the server could not identify this player",
      refuses: "525: player refused: this account is suspended",
      "rating out of range":
        "525: player refused: the server's data for this player is invalid (rating: must be at most 10000)",
      "no playerId, an unknown field":
        "525: player refused: the server's data for this player is invalid (playerId: is required; id: unknown field)",
      "not an object":
        "525: player refused: the server's data for this player is invalid (must be an object { playerId, rating, … })",
      hangs: "525: player refused: identifying this player took too long (over 300 ms); try again",
    });
    // The queue goes on: two good players are matched, with what the resolver said.
    const requests: PlayerRequest[] = [];
    flaky = (request) => {
      requests.push(request);
      return { playerId: `account-of-${request.sessionId}`, rating: 1234 };
    };
    const a = await join(anonymous(), "flaky", { side: "A" });
    const b = await join(anonymous(), "flaky");
    open.push(a.room, b.room);
    const match = matchOf(await within(a.seat, 10_000, "the flaky queue's seat"));
    expect(accountsAndRatings(match)).toEqual(
      [
        [`account-of-${a.room.sessionId}`, 1234],
        [`account-of-${b.room.sessionId}`, 1234],
      ].sort(),
    );
    // What the resolver was given: the client's own options (no rating), its address as the limits see it.
    expect(requests[0]).toMatchObject({ queue: "flaky", sessionId: a.room.sessionId, options: { side: "A" } });
    expect(requests[0]!.token).toBeUndefined();
    expect(requests[0]!.options).not.toHaveProperty("rating");
    expect(requests[0]!.address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(requests[0]!.headers?.get("host")).toBe(`127.0.0.1:${port}`);
  });

  it("a subclass whose static onAuth returns data (Colyseus skips the room's onAuth) is still resolved, and still refuses a sent rating", async () => {
    const p = await account(1777);
    expect(await outcome(p.client, "static_auth", { rating: 100 })).toBe(
      "525: invalid join options: rating: this queue takes ratings from the server; do not send it",
    );
    const q = await account(1777);
    const a = await join(p.client, "static_auth");
    const b = await join(q.client, "static_auth");
    open.push(a.room, b.room);
    const match = matchOf(await within(a.seat, 10_000, "the static_auth seat"));
    expect(accountsAndRatings(match)).toEqual(
      [
        [p.accountId, 1777],
        [q.accountId, 1777],
      ].sort(),
    );
  });
});
