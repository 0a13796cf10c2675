/**
 * `colyseus-matchmaker/web`'s handlers, called as Express calls a mounted handler: the page at
 * the mount point (redirected to its trailing slash), its files beside it (made from the
 * sources here, as under `npm start`), its JSON routes, and everything else passed on.
 */
import { matchMaker } from "@colyseus/core";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Match } from "../../src/core/types.js";
import { MatchmakerRoom } from "../../src/index.js";
import { MemoryRatingStore } from "../../src/ratings/memory-store.js";
import { Ratings } from "../../src/ratings/ratings.js";
import { loadAsset } from "../../src/web/assets.js";
import { dashboardPage, playPage, type PageHandler } from "../../src/web/index.js";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
  passed: boolean;
}

/** One request through a handler as Express calls a handler mounted at `mount`: req.url is below the mount. */
function call(handler: PageHandler, originalUrl: string, mount: string, method = "GET"): Promise<Answer> {
  return new Promise((resolve) => {
    const answer: Answer = { status: 200, headers: {}, body: undefined, passed: false };
    const below = originalUrl.slice(mount.length);
    const req = { method, url: below.startsWith("/") ? below : `/${below}`, originalUrl } as unknown as IncomingMessage;
    const res = {
      set statusCode(code: number) {
        answer.status = code;
      },
      setHeader(name: string, value: string) {
        answer.headers[name.toLowerCase()] = value;
      },
      end(body?: string) {
        answer.body = body;
        resolve(answer);
      },
    } as unknown as ServerResponse;
    handler(req, res, () => {
      answer.passed = true;
      resolve(answer);
    });
  });
}
const play = (handler: PageHandler, url: string, method?: string) => call(handler, url, "/play", method);

/** Queues of other shapes than two teams of a fixed size. */
const OTHER_SHAPES = {
  web_ffa3: { maxPlayers: 3 },
  web_ffa2to4: { maxPlayers: 4, minPlayers: 2, shortHandedAfterMs: 10_000 },
  web_teams4x2: { teamSize: 2, teams: 4 },
  web_teams3x3_short: { teamSize: 3, teams: 3, minTeamSize: 2, shortHandedAfterMs: 5000 },
  web_3v3_short: { teamSize: 3, minTeamSize: 1, shortHandedAfterMs: 5000 },
};

/** A 1v1 queue's shape, as the pages describe it. */
const DUEL = {
  kind: "two-teams",
  teams: 2,
  teamSize: 1,
  players: 2,
  minPlayers: 2,
  shortHandedAfterMs: null,
  maxParty: 1,
  sides: true,
  text: "1v1",
};

describe("playPage()", () => {
  beforeAll(() => {
    matchMaker.defineRoomType("web_duel", MatchmakerRoom, { teamSize: 1, gameRoom: "g", zones: ["eu", "na"] });
    matchMaker.defineRoomType("web_regions", MatchmakerRoom, {
      teamSize: 1,
      gameRoom: "g",
      zones: ["eu", "us"],
      maxLatencyMs: 80,
      maxLatencyGrowthPerSecond: 5,
    });
    matchMaker.defineRoomType("web_squad", MatchmakerRoom, {
      teamSize: 2,
      gameRoom: "g",
      policy: "expanding-window",
      readyCheck: { timeoutMs: 15_000 },
      rating: { min: 100, max: 3000 },
    });
    for (const [name, options] of Object.entries(OTHER_SHAPES))
      matchMaker.defineRoomType(name, MatchmakerRoom, { ...options, gameRoom: "g" });
    // Its options make no shape (teams without teamSize): it forms no games, and is not offered.
    matchMaker.defineRoomType("web_broken", MatchmakerRoom, { teams: 3, gameRoom: "g" });
  });
  afterAll(() => {
    for (const name of ["web_duel", "web_squad", "web_regions", "web_broken", ...Object.keys(OTHER_SHAPES)])
      matchMaker.removeRoomType(name);
  });

  it("redirects the mount point to its trailing slash, keeping the query", async () => {
    const page = playPage();
    expect(await play(page, "/play")).toMatchObject({ status: 301, headers: { location: "/play/" } });
    expect(await play(page, "/play?queue=web_duel")).toMatchObject({
      status: 301,
      headers: { location: "/play/?queue=web_duel" },
    });
  });

  it("serves the page, and its script bundled from the sources when no build made one", async () => {
    const page = playPage();
    const html = await play(page, "/play/?queue=web_duel");
    expect(html).toMatchObject({ status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
    expect(html.body).toContain('<script type="module" src="play.js"></script>');
    const script = await play(page, "/play/play.js");
    expect(script).toMatchObject({ status: 200, headers: { "content-type": "text/javascript; charset=utf-8" } });
    expect(script.body).toContain("queues.json");
    expect(script.body).not.toMatch(/^import /m); // one bundle: the SDK is inside
    // HEAD: the headers, no body.
    expect(await play(page, "/play/play.js", "HEAD")).toMatchObject({ status: 200, body: undefined });
  }, 60_000);

  it("describes the queue rooms this process defines, or those it is told to offer, in that order", async () => {
    const all = JSON.parse((await play(playPage(), "/play/queues.json")).body!) as {
      queues: Array<{ name: string }>;
    };
    expect(all.queues.map((q) => q.name)).toEqual(expect.arrayContaining(["web_duel", "web_squad", "web_regions"]));
    const chosen = JSON.parse(
      (await play(playPage({ queues: ["web_squad", "nonexistent", "web_duel", "web_regions"] }), "/play/queues.json"))
        .body!,
    ) as { queues: unknown[] };
    expect(chosen.queues).toEqual([
      {
        name: "web_squad",
        shape: {
          kind: "two-teams",
          teams: 2,
          teamSize: 2,
          players: 4,
          minPlayers: 4,
          shortHandedAfterMs: null,
          maxParty: 2,
          sides: true,
          text: "2v2",
        },
        policy: "expanding-window",
        zones: [],
        latency: null,
        readyCheckMs: 15_000,
        rating: { min: 100, max: 3000 },
        roles: false,
        trustedPlayers: false,
        ranked: false,
      },
      {
        name: "web_duel",
        shape: DUEL,
        policy: "greedy",
        zones: ["eu", "na"],
        latency: null,
        readyCheckMs: null,
        rating: { min: 0, max: 10_000 },
        roles: false,
        trustedPlayers: false,
        ranked: false,
      },
      {
        name: "web_regions",
        shape: DUEL,
        policy: "greedy",
        zones: ["eu", "us"],
        // The growth without a cap: widening without limit.
        latency: { maxMs: 80, growthPerSecond: 5, capMs: null },
        readyCheckMs: null,
        rating: { min: 0, max: 10_000 },
        roles: false,
        trustedPlayers: false,
        ranked: false,
      },
    ]);
  });

  it("describes each queue's shape: teams or a free-for-all, its players, minimum, wait and party limit", async () => {
    const { queues } = JSON.parse(
      (await play(playPage({ queues: [...Object.keys(OTHER_SHAPES), "web_broken"] }), "/play/queues.json")).body!,
    ) as { queues: Array<{ name: string; shape: unknown }> };
    expect(Object.fromEntries(queues.map((q) => [q.name, q.shape]))).toEqual({
      web_ffa3: {
        kind: "free-for-all",
        teams: 3,
        teamSize: 1,
        players: 3,
        minPlayers: 3,
        shortHandedAfterMs: null,
        maxParty: 3,
        sides: false,
        text: "free-for-all of 3",
      },
      web_ffa2to4: {
        kind: "free-for-all",
        teams: 4,
        teamSize: 1,
        players: 4,
        minPlayers: 2,
        shortHandedAfterMs: 10_000,
        maxParty: 4,
        sides: false,
        text: "2 to 4 players",
      },
      web_teams4x2: {
        kind: "teams",
        teams: 4,
        teamSize: 2,
        players: 8,
        minPlayers: 8,
        shortHandedAfterMs: null,
        maxParty: 2,
        sides: false,
        text: "4 teams of 2",
      },
      web_teams3x3_short: {
        kind: "teams",
        teams: 3,
        teamSize: 3,
        players: 9,
        minPlayers: 6,
        shortHandedAfterMs: 5000,
        maxParty: 3,
        sides: false,
        text: "3 teams of 2 to 3",
      },
      web_3v3_short: {
        kind: "two-teams",
        teams: 2,
        teamSize: 3,
        players: 6,
        minPlayers: 2,
        shortHandedAfterMs: 5000,
        maxParty: 3,
        sides: true,
        text: "1v1 to 3v3",
      },
    });
  });

  it("never redirects to another site", async () => {
    // Mounted bare (no Express): req.url is the whole path.
    const bare = await call(playPage(), "//elsewhere.example", "");
    expect(bare.headers.location).toBeUndefined();
    expect(bare.passed).toBe(true);
  });

  it("passes on what is not its own: other paths, other methods, paths out of its directory", async () => {
    const page = playPage();
    for (const [path, method] of [
      ["/main.ts", "GET"],
      ["/../../package.json", "GET"],
      ["/%2e%2e/package.json", "GET"],
      ["//elsewhere.example/play.js", "GET"],
      ["/play.js", "POST"],
      ["/queues.json", "DELETE"],
    ] as const) {
      expect(await play(page, `/play${path}`, method), `${method} ${path}`).toMatchObject({ passed: true });
    }
  });
});

describe("dashboardPage()", () => {
  it("serves its page, script and uPlot's stylesheet", async () => {
    const page = dashboardPage();
    const html = await call(page, "/dashboard/", "/dashboard");
    expect(html.body).toContain('<meta name="matchmaker-metrics" content="../matchmaker/metrics" />');
    const css = await call(page, "/dashboard/uplot.css", "/dashboard");
    expect(css).toMatchObject({ status: 200, headers: { "content-type": "text/css; charset=utf-8" } });
    expect(css.body).toContain(".uplot");
    const script = await call(page, "/dashboard/dashboard.js", "/dashboard");
    expect(script.body).toContain("matchmaker-metrics");
  }, 60_000);

  it("describes every queue's shape for the panels at queues.json", async () => {
    matchMaker.defineRoomType("web_dash_ffa", MatchmakerRoom, { maxPlayers: 5, gameRoom: "g" });
    try {
      const { queues } = JSON.parse((await call(dashboardPage(), "/dashboard/queues.json", "/dashboard")).body!) as {
        queues: Array<{ name: string; shape: { text: string } }>;
      };
      expect(queues.find((q) => q.name === "web_dash_ffa")?.shape.text).toBe("free-for-all of 5");
    } finally {
      matchMaker.removeRoomType("web_dash_ffa");
    }
  });

  describe("a ranked queue's rating distribution at ratings.json", () => {
    const ratings = new Ratings({ store: new MemoryRatingStore() });
    /** A 1v1 of two accounts, opened by the queue and won by the first. */
    async function playRated(id: string, winner: string, loser: string): Promise<void> {
      const seat = (playerId: string) => ({ sessionId: `s-${playerId}`, playerId, rating: 1500, ticketId: playerId });
      const match = { id, teams: [{ players: [seat(winner)] }, { players: [seat(loser)] }] } as unknown as Match;
      await ratings.openMatch(match, "web_ranked");
      await ratings.reportResult(id, { winner: 0 });
    }
    const distribution = (query: string) => call(dashboardPage(), `/dashboard/ratings.json${query}`, "/dashboard");

    beforeAll(async () => {
      const players = { resolve: () => ({ playerId: "p" }), clientOptions: [] };
      matchMaker.defineRoomType("web_ranked", MatchmakerRoom, { teamSize: 1, gameRoom: "g", players, ratings });
      matchMaker.defineRoomType("web_casual", MatchmakerRoom, { teamSize: 1, gameRoom: "g" });
      await playRated("m-1", "winner", "loser");
    });
    afterAll(() => {
      matchMaker.removeRoomType("web_ranked");
      matchMaker.removeRoomType("web_casual");
    });

    it("says which queues are ranked at queues.json", async () => {
      const { queues } = JSON.parse((await call(dashboardPage(), "/dashboard/queues.json", "/dashboard")).body!) as {
        queues: Array<{ name: string; ranked: boolean }>;
      };
      expect(queues.find((q) => q.name === "web_ranked")?.ranked).toBe(true);
      expect(queues.find((q) => q.name === "web_casual")?.ranked).toBe(false);
    });

    it("answers the current season's players by rating, in the bands asked for", async () => {
      const answer = await distribution("?queue=web_ranked&width=100");
      expect(answer).toMatchObject({ status: 200, headers: { "content-type": "application/json; charset=utf-8" } });
      const body = JSON.parse(answer.body!) as {
        queue: string;
        season: string;
        width: number;
        players: number;
        bins: Array<{ from: number; count: number }>;
      };
      expect(body).toMatchObject({ queue: "web_ranked", season: "1", width: 100, players: 2 });
      // Equal newcomers at 1500: the winner above, the loser below, each in its own band.
      const winner = (await ratings.rating("winner")).rating;
      const loser = (await ratings.rating("loser")).rating;
      expect(body.bins).toEqual([
        { from: Math.floor(loser / 100) * 100, count: 1 },
        { from: Math.floor(winner / 100) * 100, count: 1 },
      ]);
      // Without a width: bands of 50.
      expect(JSON.parse((await distribution("?queue=web_ranked")).body!)).toMatchObject({ width: 50, players: 2 });
    });

    it("answers 500 with the reason when the ratings cannot be read", async () => {
      const down = Object.assign(new MemoryRatingStore(), {
        distribution: () => Promise.reject(new Error("the store is down")),
      });
      const players = { resolve: () => ({ playerId: "p" }), clientOptions: [] };
      const ratings = new Ratings({ store: down });
      matchMaker.defineRoomType("web_ranked_down", MatchmakerRoom, { teamSize: 1, gameRoom: "g", players, ratings });
      try {
        const answer = await distribution("?queue=web_ranked_down");
        expect(answer.status).toBe(500);
        expect(JSON.parse(answer.body!)).toEqual({ error: "the store is down" });
      } finally {
        matchMaker.removeRoomType("web_ranked_down");
      }
    });

    it.each([
      ["", "queue"],
      ["?queue=web_casual", "queue"],
      ["?queue=nonexistent", "queue"],
      ["?queue=__proto__", "queue"],
      ["?queue=web_ranked&width=5", "width"],
      ["?queue=web_ranked&width=2000", "width"],
      ["?queue=web_ranked&width=abc", "width"],
    ])("refuses %j with a 400 naming the field", async (query, field) => {
      const answer = await distribution(query);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body!)).toMatchObject({ field });
    });
  });

  it("tells the page where the metrics are mounted, escaped", async () => {
    const html = await call(dashboardPage({ metrics: '/ops/"metrics"<x>' }), "/ops/dashboard/", "/ops/dashboard");
    expect(html.body).toContain('<meta name="matchmaker-metrics" content="/ops/&quot;metrics&quot;&lt;x&gt;" />');
  });
});

describe("loadAsset()", () => {
  it("fails, and keeps no failure, when a file neither exists nor can be made", async () => {
    await expect(loadAsset("play", "index.html", "/nonexistent/")).rejects.toThrow(/ENOENT/);
    await expect(loadAsset("play", "index.html", "/nonexistent/")).rejects.toThrow(/ENOENT/);
    await expect(loadAsset("play", "nothing.js")).rejects.toThrow(/no file nothing\.js/);
  });
});
