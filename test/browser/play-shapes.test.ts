/// <reference lib="dom" />
/**
 * The player page with other shapes of game, in Chromium (puppeteer-core, as play.test.ts): the
 * queue list says each queue's shape and offers a side only in a game of two teams; three tabs on
 * the example server's 3-player free-for-all land in one game, each told its team index and no
 * side; three tabs in a queue of three teams of two that starts short-handed land in a game of
 * three teams of one, listed by team, with the three empty seats shown. Screenshots are kept in
 * test-artifacts/browser/. Skipped without Chromium, except under CI=true (play.test.ts says so).
 */
import { defineRoom, matchMaker, Room, type Client } from "@colyseus/core";
import { schema, t, type SchemaType } from "@colyseus/schema";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app, { rooms } from "../../example-server/app.config.js";
import { defineQueue, playerArrived, queueSeatsOnly, type MatchInfo, type SeatOptions } from "../../src/index.js";
import { artifacts, haveChromium, inCI, launchChromium } from "../helpers/browser.js";
import { testPort } from "../helpers/sdk.js";

const PORT = testPort(230);

const TableSeat = schema(
  { side: t.string(), team: t.number(), rating: t.number(), arrived: t.boolean().default(false) },
  "TableSeat",
);
const TableState = schema({ matchId: t.string(), seats: t.map(TableSeat), emptySeats: t.number() }, "TableState");
type TableState = SchemaType<typeof TableState>;

/**
 * A game that records what the page reads beyond the demo game's seats: each seat's team index
 * and the seats a short-handed game left empty (`MatchInfo.emptySeats`).
 */
class TableRoom extends Room<{ state: TableState }> {
  static override onAuth = queueSeatsOnly;
  override state = new TableState();
  private match!: MatchInfo;

  override onCreate(options: { match: MatchInfo }): void {
    this.match = options.match;
    this.state.matchId = options.match.id;
    this.state.emptySeats = options.match.emptySeats ?? 0;
  }

  override onJoin(client: Client, seat: SeatOptions): void {
    this.state.seats.set(
      client.sessionId,
      new TableSeat().assign({ side: seat.side ?? "", team: seat.team, rating: seat.rating, arrived: true }),
    );
    void playerArrived(this.match, client.sessionId);
  }
}

describe.skipIf(!haveChromium && !inCI)("the player page with other shapes of game, in Chromium", () => {
  let server: ColyseusTestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await boot(
      config({
        ...app,
        rooms: {
          ...rooms,
          // Three teams of two, or after 200 ms of waiting three teams of one.
          trio_teams: defineQueue({
            teamSize: 2,
            teams: 3,
            minTeamSize: 1,
            shortHandedAfterMs: 200,
            gameRoom: "table",
            tickMs: 50,
          }),
          table: defineRoom(TableRoom),
        },
      }),
      PORT,
    );
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.shutdown();
  });

  /** A player's own tab on `queue`, in its own browser context. */
  async function player(queue: string, rating: number): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 820, height: 760 });
    page.on("pageerror", (error) => process.stderr.write(`page error: ${String(error)}\n`));
    await page.goto(`http://localhost:${PORT}/play/?queue=${queue}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.$eval("#rating", (input, r) => ((input as HTMLInputElement).value = String(r)), rating);
    return page;
  }

  /** Join with each tab, and wait until each is in its game with `players` players listed. */
  async function playTogether(pages: Page[], players: number): Promise<void> {
    for (const p of pages) await p.click("#join");
    for (const p of pages)
      await p.waitForFunction(
        (n) => document.querySelectorAll('#teams li[data-arrived="true"]').length === n,
        { timeout: 20_000 },
        players,
      );
  }

  const inGame = (p: Page) =>
    p.$eval("#game-panel", (el) => ({
      roomId: (el as HTMLElement).dataset.roomId,
      side: (el as HTMLElement).dataset.side,
      team: (el as HTMLElement).dataset.team,
      you: document.getElementById("game-you")?.textContent,
    }));

  it("lists each queue with its shape, and offers a side and party sizes as the shape allows", async () => {
    const page = await player("squad", 1500);
    const labels = await page.$$eval("#queue option", (options) =>
      Object.fromEntries(options.map((o) => [(o as HTMLOptionElement).value, o.textContent])),
    );
    expect(labels).toMatchObject({
      squad: "squad (2v2)",
      ffa3: "ffa3 (free-for-all of 3)",
      ffa4: "ffa4 (free-for-all of 4)",
      ffa2to4: "ffa2to4 (2 to 4 players)",
      teams4x2: "teams4x2 (4 teams of 2)",
    });
    /** What the form offers in `queue`: a side, party sizes, and the queue's description. */
    const offers = async (queue: string) => {
      await page.select("#queue", queue);
      return page.evaluate(() => ({
        side: !document.getElementById("side-label")!.hidden,
        parties: Array.from(document.querySelectorAll<HTMLOptionElement>("#party-size option")).map((o) => o.value),
        info: document.getElementById("queue-info")!.textContent,
      }));
    };
    expect(await offers("squad")).toMatchObject({ side: true, parties: ["2"] });
    expect(await offers("teams4x2")).toMatchObject({ side: false, parties: ["2"] });
    // A free-for-all's party may fill its whole game.
    expect(await offers("ffa3")).toMatchObject({ side: false, parties: ["2", "3"] });
    const short = await offers("ffa2to4");
    expect(short.side).toBe(false);
    expect(short.info).toMatch(/^2 to 4 players, 4 players at once, or after 10 s of waiting as many as there are/);
    await page.browserContext().close();
  });

  it("three tabs on the 3-player free-for-all land in one game, each with its own team index and no side", async () => {
    const pages = [await player("ffa3", 1450), await player("ffa3", 1500), await player("ffa3", 1550)];
    // No side to choose, and no zones: the choices are not offered.
    expect(await pages[0]!.$eval("#choices", (el) => (el as HTMLElement).hidden)).toBe(true);
    await playTogether(pages, 3);
    const games = await Promise.all(pages.map(inGame));
    await pages[0]!.screenshot({ path: `${artifacts}shapes-ffa3-in-game.png` });

    expect(new Set(games.map((g) => g.roomId)).size).toBe(1);
    expect(games.map((g) => g.side)).toEqual([undefined, undefined, undefined]);
    expect(games.map((g) => g.team).sort()).toEqual(["0", "1", "2"]);
    for (const g of games)
      expect(g.you).toBe(`You play for yourself, player ${Number(g.team) + 1} of 3 (team index ${g.team}).`);
    // Every player in one list, each tab itself once; no seat left empty.
    for (const p of pages) {
      expect(await p.$$eval("#team-all li", (items) => items.length)).toBe(3);
      expect(await p.$$eval("li.you", (items) => items.length)).toBe(1);
      expect(await p.$eval("#empty-seats", (el) => (el as HTMLElement).hidden)).toBe(true);
    }
    // The server agrees: the demo game room holds all three.
    const [room] = await matchMaker.query({ name: "demo_game", roomId: games[0]!.roomId });
    expect(room?.clients).toBe(3);
    for (const p of pages) await p.browserContext().close();
  }, 60_000);

  it("a game that started short-handed: three teams of one, by team, and the three empty seats", async () => {
    const pages = [
      await player("trio_teams", 1400),
      await player("trio_teams", 1500),
      await player("trio_teams", 1600),
    ];
    await playTogether(pages, 3);
    const games = await Promise.all(pages.map(inGame));
    await pages[0]!.screenshot({ path: `${artifacts}shapes-short-handed.png` });

    expect(new Set(games.map((g) => g.roomId)).size).toBe(1);
    expect(games.map((g) => g.team).sort()).toEqual(["0", "1", "2"]);
    for (const g of games) expect(g.you).toBe(`You play in team ${Number(g.team) + 1} of 3 (team index ${g.team}).`);
    const lists = await pages[0]!.$$eval("#teams .team", (teams) =>
      teams.map((team) => ({
        title: team.querySelector("h3")?.textContent,
        players: team.querySelectorAll('li[data-arrived="true"]').length,
        empty: team.querySelectorAll('li[data-empty="true"]').length,
      })),
    );
    expect(lists).toEqual([
      { title: "Team 1", players: 1, empty: 1 },
      { title: "Team 2", players: 1, empty: 1 },
      { title: "Team 3", players: 1, empty: 1 },
    ]);
    expect(await pages[0]!.$eval("#empty-seats", (el) => el.textContent)).toBe(
      "3 of 6 seats empty: the game started short-handed.",
    );
    for (const p of pages) await p.browserContext().close();
  }, 60_000);
});
