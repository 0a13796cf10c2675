/// <reference lib="dom" />
/**
 * Ratings in the pages, in Chromium (puppeteer-core, as play.test.ts): two tabs sign in and play a
 * ranked 1v1 on the example server; the demo game draws its winner, reports the result to the
 * queue's ratings and tells each tab its change, which the page shows: the winner's rating up, the
 * loser's down. The dashboard then serves the queue's rating distribution with the two rated
 * players (to an operator only) and draws it. Screenshots are kept in test-artifacts/browser/.
 * Skipped without Chromium, except under CI=true (play.test.ts says so).
 */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app, { rooms } from "../../example-server/app.config.js";
import { defineDemoGame } from "../../example-server/DemoGameRoom.js";
import { ratings } from "../../example-server/ranked-ratings.js";
import { artifacts, haveChromium, inCI, launchChromium } from "../helpers/browser.js";
import { testPort } from "../helpers/sdk.js";

const PORT = testPort(245);
const ratingsFile = join(tmpdir(), `ratings-web-${randomUUID()}.sqlite`);
const base = `http://localhost:${PORT}`;
const RANKED = "ranked_1v1";
const OPERATOR = { username: "ops", password: "ratings-web-test-secret" };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** What a tab shows of its rated game's end. */
interface Result {
  outcome: string | undefined;
  before: number;
  after: number;
  title: string | null;
  change: string | null;
  winnerLine: string | null;
}

describe.skipIf(!haveChromium && !inCI)("ratings in the pages, in Chromium", () => {
  let server: ColyseusTestServer;
  let browser: Browser;
  const savedEnv = { user: process.env.MATCHMAKER_OPERATOR_USER, password: process.env.MATCHMAKER_OPERATOR_PASSWORD };

  beforeAll(async () => {
    // A store of this file's own, opened at the first join: the distribution counts this file's players only.
    process.env.RATINGS_FILE = ratingsFile;
    // A short play time: the demo game draws its winner 1 s after both players are in.
    server = await boot(config({ ...app, rooms: { ...rooms, demo_game: defineDemoGame({ playMs: 1000 }) } }), PORT);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.shutdown();
    process.env.MATCHMAKER_OPERATOR_USER = savedEnv.user;
    process.env.MATCHMAKER_OPERATOR_PASSWORD = savedEnv.password;
    if (savedEnv.user === undefined) delete process.env.MATCHMAKER_OPERATOR_USER;
    if (savedEnv.password === undefined) delete process.env.MATCHMAKER_OPERATOR_PASSWORD;
    await ratings.store.close?.();
    delete process.env.RATINGS_FILE;
    rmSync(ratingsFile, { force: true });
  });

  /** A player's own tab on the ranked queue, in its own browser context (its own account). */
  async function player(): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 820, height: 900 });
    page.on("pageerror", (error) => process.stderr.write(`page error: ${String(error)}\n`));
    await page.goto(`${base}/play/?queue=${RANKED}`);
    await page.waitForSelector("body[data-ready=true]");
    return page;
  }

  const resultOf = (page: Page): Promise<Result> =>
    page.evaluate(() => {
      const panel = document.getElementById("result-panel")!;
      return {
        outcome: panel.dataset.outcome,
        before: Number(panel.dataset.before),
        after: Number(panel.dataset.after),
        title: document.getElementById("result-title")!.textContent,
        change: document.getElementById("rating-change")!.textContent,
        winnerLine: document.getElementById("game-play")!.textContent,
      };
    });

  it("a ranked 1v1: each tab sees its rating change, the winner's up and the loser's down", async () => {
    const pages = [await player(), await player()];
    expect(await pages[0]!.$eval("#queue-info", (el) => el.textContent)).toContain("ranked");
    for (const p of pages) await p.click("#join");
    for (const p of pages)
      await p.waitForFunction(() => document.getElementById("result-panel")?.dataset.outcome, { timeout: 20_000 });
    await pages[0]!.screenshot({ path: `${artifacts}ratings-result.png` });
    const results = await Promise.all(pages.map(resultOf));

    expect(results.map((r) => r.outcome).sort()).toEqual(["lost", "won"]);
    const won = results.find((r) => r.outcome === "won")!;
    const lost = results.find((r) => r.outcome === "lost")!;
    // Two new accounts: both start at the newcomer's 1500; the winner goes up, the loser down.
    expect(won.before).toBe(1500);
    expect(lost.before).toBe(1500);
    expect(won.after).toBeGreaterThan(won.before);
    expect(lost.after).toBeLessThan(lost.before);
    expect(won.title).toBe("You won");
    expect(lost.title).toBe("You lost");
    expect(won.change).toMatch(/^1500 → \d+ \(\+\d+\), uncertainty 350 → \d+$/);
    expect(lost.change).toMatch(/^1500 → \d+ \(-\d+\), uncertainty 350 → \d+$/);
    // Both tabs name the same winner, and the game is over.
    expect(won.winnerLine).toMatch(/^Side [AB] won \(its chance by the ratings was 50%\)\.$/);
    expect(lost.winnerLine).toBe(won.winnerLine);
    for (const p of pages)
      await p.waitForFunction(() => document.getElementById("ended")?.textContent?.startsWith("The game is over"), {
        timeout: 10_000,
      });
    for (const p of pages) await p.browserContext().close();
  }, 60_000);

  it("the dashboard serves the distribution of the two rated players to an operator only, and draws it", async () => {
    process.env.MATCHMAKER_OPERATOR_USER = OPERATOR.username;
    process.env.MATCHMAKER_OPERATOR_PASSWORD = OPERATOR.password;
    const url = `${base}/dashboard/ratings.json?queue=${RANKED}&width=100`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: basic(OPERATOR.username, "guess") } })).status).toBe(401);
    const answer = await fetch(url, { headers: { Authorization: basic(OPERATOR.username, OPERATOR.password) } });
    expect(answer.status).toBe(200);
    const distribution = (await answer.json()) as {
      queue: string;
      width: number;
      players: number;
      bins: Array<{ from: number; count: number }>;
    };
    expect(distribution).toMatchObject({ queue: RANKED, width: 100, players: 2 });
    // The winner above 1500 and the loser below: two bands, one player each.
    expect(distribution.bins.map((b) => b.count)).toEqual([1, 1]);
    expect(distribution.bins[0]!.from).toBeLessThan(1500);
    expect(distribution.bins[1]!.from).toBeGreaterThanOrEqual(1500);

    const page = await browser.newPage();
    await page.authenticate(OPERATOR);
    await page.setViewport({ width: 1000, height: 1000 });
    await page.goto(`${base}/dashboard/`);
    const panel = `section[data-queue="${RANKED}"] .ratings`;
    await page.waitForFunction(
      (s) => document.querySelector<HTMLElement>(s)?.dataset.players === "2",
      { timeout: 20_000 },
      panel,
    );
    const drawn = await page.$eval(panel, (box) => ({
      bars: Number((box as HTMLElement).dataset.bars),
      canvases: box.querySelectorAll("canvas").length,
      note: box.querySelector(".ratings-note")?.textContent,
    }));
    expect(drawn.canvases).toBe(1);
    expect(drawn.bars).toBeGreaterThanOrEqual(2);
    expect(drawn.note).toMatch(/^2 rated players in season \S+, in bands of 50 points$/);
    // A queue without ratings has no such panel.
    expect(await page.$('section[data-queue="duel"] .ratings')).toBeNull();
    await (await page.$(`section[data-queue="${RANKED}"]`))!.screenshot({ path: `${artifacts}ratings-dashboard.png` });
    await page.close();
  }, 60_000);
});
