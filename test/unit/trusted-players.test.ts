/**
 * Trusted players without sockets: which join options a queue with `players` refuses by name, how
 * the resolver's answer is checked, bounded and merged, the `players` option's own checks, and a
 * resume's account check.
 */
import { describe, expect, it } from "vitest";
import { refusal } from "../helpers/thrown.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { checkJoinOptions, joinOptionsSchema } from "../../src/colyseus/join-options.js";
import type { JoinOptions, PlayersOption } from "../../src/options/player-options.js";
import {
  checkResumingPlayer,
  PlayerRefused,
  PlayerResolver,
  refusedJoinOptions,
  type ResolvedPlayersOption,
} from "../../src/colyseus/trusted-players.js";
import { DEFAULTS } from "../../src/options/fields.js";
import { parseRoomOptions } from "../../src/options/index.js";
import { twoTeams } from "../../src/core/shape.js";

const range = { min: 0, max: 3000 };
const criteria = [{ name: "think", min: 0, max: 60, weight: 1 }];

function resolver(resolve: PlayersOption["resolve"], more: Partial<ResolvedPlayersOption> = {}, withCriteria = false) {
  const log: string[] = [];
  const option: ResolvedPlayersOption = {
    resolve,
    clientOptions: [...DEFAULTS.players.clientOptions],
    timeoutMs: 50,
    ...more,
  };
  const r = new PlayerResolver(option, { rating: range, ...(withCriteria ? { criteria } : {}) }, (m) => log.push(m));
  return { r, log };
}

const request = { token: "t", auth: undefined, queue: "ranked", sessionId: "s1", address: "203.0.113.7" };

describe("the join options a queue with players refuses", () => {
  it("by default: the server's fields by name, nothing the client chooses", () => {
    expect(refusedJoinOptions([...DEFAULTS.players.clientOptions], true)).toEqual({
      playerId: "this queue takes player ids from the server; do not send it",
      rating: "this queue takes ratings from the server; do not send it",
      uncertainty: "this queue takes rating uncertainties from the server; do not send it",
    });
    // Criteria are the client's by default; where clientOptions leaves them out, the server's.
    expect(refusedJoinOptions(["side"], true)).toMatchObject({
      criteria: "this queue takes criteria values from the server; do not send it",
      party: "this queue does not take it from clients",
      partyCode: "this queue does not take it from clients",
    });
    // A queue whose accounts are the server's and ratings the client's word.
    expect(Object.keys(refusedJoinOptions(["rating", "side"], false)).sort()).toEqual(
      ["latencies", "party", "partyCode", "playerId", "roles", "uncertainty", "zones"].sort(),
    );
  });

  it("the join schema refuses them by name (rank with rating), takes a join without them, and never takes the fast path", () => {
    const validator = joinOptionsSchema(
      range,
      undefined,
      twoTeams(2),
      undefined,
      undefined,
      undefined,
      refusedJoinOptions([...DEFAULTS.players.clientOptions], false),
    );
    const check = (o: unknown) => refusal(() => checkJoinOptions(validator, o));
    return Promise.all([
      expect(check({ rating: 1500 })).resolves.toBe(
        "join_refused: rating: this queue takes ratings from the server; do not send it",
      ),
      expect(check({ rank: 1500, side: "A" })).resolves.toBe(
        "join_refused: rank: this queue takes ratings from the server; do not send it",
      ),
      expect(check({ playerId: "x", uncertainty: 1 })).resolves.toBe(
        "join_refused: uncertainty: this queue takes rating uncertainties from the server; do not send it; playerId: this queue takes player ids from the server; do not send it",
      ),
      expect(check({})).resolves.toBe("accepted"),
      expect(check({ side: "B", party: { size: 2 } })).resolves.toBe("accepted"),
      expect(check({ side: "C" })).resolves.toBe('join_refused: side: must be "A" or "B"'),
    ]);
  });
});

describe("PlayerResolver", () => {
  it("merges the server's fields into the client's choices", async () => {
    const { r } = resolver(() => ({ playerId: "acct-1", rating: 1700, uncertainty: 80 }));
    expect(await r.resolve({ side: "A", zones: ["eu"] } as JoinOptions, request)).toEqual({
      side: "A",
      zones: ["eu"],
      playerId: "acct-1",
      rating: 1700,
      uncertainty: 80,
    });
  });

  it("hands the resolver the token, the auth data and the client's options, not the queue's own objects", async () => {
    let seen: unknown;
    const { r } = resolver((req) => {
      seen = { ...req, options: { ...req.options } };
      (req.options as { side?: string }).side = "B"; // a resolver cannot change the join it was given
      return { playerId: "a", rating: 1 };
    });
    const join = { side: "A" } as JoinOptions;
    const out = await r.resolve(join, { ...request, auth: { id: "a" } });
    expect(seen).toMatchObject({
      token: "t",
      auth: { id: "a" },
      queue: "ranked",
      sessionId: "s1",
      address: "203.0.113.7",
      options: { side: "A" },
    });
    expect("rating" in (seen as { options: object }).options).toBe(false);
    expect(out.side).toBe("A");
  });

  it("checks the answer against the queue: range, criteria, which side gives each field, unknown fields", async () => {
    const cases: Array<[unknown, Partial<ResolvedPlayersOption>, boolean, string]> = [
      [{ playerId: "a", rating: 3001 }, {}, false, "rating: must be at most 3000"],
      [{ playerId: "", rating: 1 }, {}, false, "playerId: must not be empty"],
      [{ playerId: "a".repeat(129), rating: 1 }, {}, false, "playerId: must be at most 128 characters"],
      [
        { playerId: "a", rating: Number.POSITIVE_INFINITY },
        {},
        false,
        "rating: must be a finite number; rating: must be at most 3000",
      ],
      [{ playerId: "a" }, {}, false, "rating: is required"],
      [{ playerId: "a", rating: 1, uncertainty: -1 }, {}, false, "uncertainty: must not be negative"],
      [{ playerId: "a", rating: 1, admin: true }, {}, false, "admin: unknown field"],
      [{ playerId: 7, rating: 1 }, {}, false, "playerId: must be a string"],
      ["acct-1", {}, false, "must be an object { playerId, rating, … }"],
      // rating named in clientOptions: the client gives it, the server must not.
      [
        { playerId: "a", rating: 1 },
        { clientOptions: ["rating"] },
        false,
        "rating: is the client's in this queue (players.clientOptions names rating)",
      ],
      // criteria left out of clientOptions: the server gives every one, within range.
      [{ playerId: "a", rating: 1 }, { clientOptions: ["side"] }, true, "criteria: is required"],
      [
        { playerId: "a", rating: 1, criteria: { think: 61 } },
        { clientOptions: ["side"] },
        true,
        "criteria.think: must be at most 60",
      ],
      [
        { playerId: "a", rating: 1, criteria: { think: 1 } },
        {},
        true,
        "criteria: is the client's in this queue (players.clientOptions names criteria)",
      ],
      [{ playerId: "a", rating: 1, criteria: { think: 1 } }, {}, false, "criteria: this queue has no criteria"],
    ];
    for (const [answer, more, withCriteria, problem] of cases) {
      const { r, log } = resolver(() => answer as never, more, withCriteria);
      expect(await refusal(() => r.resolve({} as JoinOptions, request))).toBe(
        `player_refused: the server's data for this player is invalid (${problem})`,
      );
      expect(log).toEqual([`[ranked] players.resolve answered fields the queue refuses: ${problem}`]);
    }
    // Criteria from the server, the rating from the client.
    const { r } = resolver(() => ({ playerId: "a", criteria: { think: 30 } }), { clientOptions: ["rating"] }, true);
    expect(await r.resolve({ rating: 1200 } as JoinOptions, request)).toEqual({
      rating: 1200,
      playerId: "a",
      criteria: { think: 30 },
    });
  });

  it("refusals pass through; a failure, a synchronous throw or no answer in time is refused with a short reason and logged", async () => {
    const run = async (resolve: PlayersOption["resolve"]) => {
      const { r, log } = resolver(resolve);
      return [await refusal(() => r.resolve({} as JoinOptions, request)), log.join("\n")];
    };
    expect(await run(() => Promise.reject(new PlayerRefused("sign in first")))).toEqual([
      "player_refused: sign in first",
      "",
    ]);
    expect(
      await run(() => {
        throw new MatchmakerError("join_refused", "roles: not unlocked", "roles");
      }),
    ).toEqual(["join_refused: roles: not unlocked", ""]);
    expect(
      await run(() => {
        throw new Error("connect ECONNREFUSED 10.0.0.5:5432");
      }),
    ).toEqual([
      "player_refused: the server could not identify this player",
      "[ranked] players.resolve failed: connect ECONNREFUSED 10.0.0.5:5432",
    ]);
    expect(await run(() => Promise.reject("a string"))).toEqual([
      "player_refused: the server could not identify this player",
      "[ranked] players.resolve failed: a string",
    ]);
    expect(await run(() => new Promise(() => undefined))).toEqual([
      "player_refused: identifying this player took too long (over 50 ms); try again",
      "[ranked] players.resolve gave no answer within 50 ms: join refused",
    ]);
    // An answer after the time is ignored, and a rejection after the time goes nowhere.
    let late!: (v: unknown) => void;
    const { r } = resolver(() => new Promise((_, reject) => (late = reject)) as never);
    expect(await refusal(() => r.resolve({} as JoinOptions, request))).toMatch(/took too long/);
    late(new Error("too late"));
  });
});

describe("the players option", () => {
  const base = { teamSize: 1, gameRoom: "g" };
  const problem = (players: unknown) => refusal(() => parseRoomOptions({ ...base, players }));

  it("fills its defaults", () => {
    const resolve = () => ({ playerId: "a", rating: 1 });
    expect(parseRoomOptions({ ...base, players: { resolve } }).players).toEqual({
      resolve,
      clientOptions: ["side", "zones", "roles", "latencies", "criteria", "party", "partyCode"],
      timeoutMs: 5000,
    });
  });

  it("names what is wrong", async () => {
    expect(await problem({})).toBe("invalid_config: MatchmakerRoom options: players.resolve: is required");
    expect(await problem({ resolve: "f" })).toBe(
      "invalid_config: MatchmakerRoom options: players.resolve: must be a function from the join request to the player's fields",
    );
    expect(await problem({ resolve: () => 1, clientOptions: ["playerId"] })).toBe(
      "invalid_config: MatchmakerRoom options: players.clientOptions.0: must be one of rating, uncertainty, criteria, side, zones, roles, latencies, party, partyCode (playerId always comes from players.resolve)",
    );
    expect(await problem({ resolve: () => 1, clientOptions: ["side", "side"] })).toBe(
      "invalid_config: MatchmakerRoom options: players.clientOptions: must not name an option twice",
    );
    expect(await problem({ resolve: () => 1, timeoutMs: 5 })).toBe(
      "invalid_config: MatchmakerRoom options: players.timeoutMs: must be at least 10",
    );
    expect(await problem({ resolve: () => 1, extra: 1 })).toBe(
      "invalid_config: MatchmakerRoom options: players.extra: unknown field",
    );
  });
});

describe("a resume in a queue with players", () => {
  it("is the account's that left the place, no one else's", () => {
    expect(() => checkResumingPlayer("acct-1", { rating: 1, playerId: "acct-1" })).not.toThrow();
    for (const stored of ["acct-2", undefined])
      expect(() => checkResumingPlayer(stored, { rating: 1, playerId: "acct-1" })).toThrow(
        new MatchmakerError("join_refused", "resume: this place belongs to another player", "resume"),
      );
  });
});
