/// <reference lib="dom" />
/**
 * The operator dashboard in a real browser (Debian's Chromium, puppeteer-core): three players
 * wait in the example server's `duel` queue, and the dashboard shows them in its counters, its
 * chart and its longest-waiting sample; each queue's panel says its shape and the quality figure
 * that fits it. A screenshot is kept in test-artifacts/browser/.
 * Skipped without Chromium, except under CI=true (see play.test.ts, which says so loudly).
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { artifacts, haveChromium, inCI, launchChromium } from "../helpers/browser.js";
import { joinQueue, testPort, type QueuedClient } from "../helpers/sdk.js";

describe.skipIf(!haveChromium && !inCI)("the operator dashboard in Chromium", () => {
  let server: ColyseusTestServer;
  let browser: Browser;
  const waiting: QueuedClient[] = [];

  beforeAll(async () => {
    server = await boot(app, testPort(54));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    for (const w of waiting) await w.queue.leave();
    await browser?.close();
    await server?.shutdown();
  });

  it("charts a queue's waiting players and lists its longest-waiting tickets", async () => {
    // Side A only, in 1v1: nobody can play, all three wait.
    for (const rating of [1400, 1500, 1600]) waiting.push(await joinQueue(server, "duel", { rating, side: "A" }));
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 900 });
    const response = await page.goto(`http://localhost:${testPort(54)}/dashboard/`);
    expect(response?.status()).toBe(200);
    // The counters' first cell is the waiting count; the sample lists each waiting ticket.
    await page.waitForFunction(
      () => document.querySelector('section[data-queue="duel"] .counters tr:nth-child(2) td')?.textContent === "3",
      { timeout: 20_000 },
    );
    await page.waitForFunction(
      () => document.querySelectorAll('section[data-queue="duel"] .sample tr').length === 4, // header + 3
      { timeout: 20_000 },
    );
    // The charts (uPlot's canvases) hold three polls of history, the waiting count in each.
    await page.waitForFunction(
      () => Number(document.querySelector<HTMLElement>('section[data-queue="duel"]')?.dataset.points ?? 0) >= 3,
      { timeout: 20_000 },
    );
    const canvases = await page.$$eval('section[data-queue="duel"] canvas', (list) => list.length);
    expect(canvases).toBe(2);
    const sampleIds = await page.$$eval('section[data-queue="duel"] .sample tr td:first-child', (cells) =>
      cells.map((c) => c.textContent),
    );
    expect(sampleIds.sort()).toEqual(waiting.map((w) => w.queue.sessionId).sort());
    await page.screenshot({ path: `${artifacts}dashboard.png` });
  }, 60_000);

  it("says each queue's shape, and the quality figure that fits it: imbalance of teams, spread of a free-for-all", async () => {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${testPort(54)}/dashboard/`);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('section[data-queue="ffa3"]')?.dataset.shape, {
      timeout: 20_000,
    });
    const panel = (queue: string) =>
      page.$eval(`section[data-queue="${queue}"]`, (section) => ({
        shape: (section as HTMLElement).dataset.shape,
        heading: section.querySelector("h2 small")?.textContent,
        counters: Array.from(section.querySelectorAll(".counters th")).map((th) => th.textContent),
        sideMix: section.querySelector(".counters tr:nth-child(2) td:last-child")?.textContent,
      }));
    const duel = await panel("duel");
    expect(duel).toMatchObject({ shape: "two-teams", sideMix: "ok" });
    expect(duel.heading).toMatch(/^\(1v1; greedy, /);
    expect(duel.counters).toContain("mean imbalance");
    const ffa = await panel("ffa3");
    expect(ffa).toMatchObject({ shape: "free-for-all", sideMix: "–" });
    expect(ffa.heading).toMatch(/^\(free-for-all of 3; greedy, /);
    expect(ffa.counters).toContain("mean spread");
    expect(ffa.counters).not.toContain("mean imbalance");
    expect((await panel("teams4x2")).heading).toMatch(/^\(4 teams of 2; greedy, /);
    expect((await panel("ffa2to4")).heading).toMatch(/^\(2 to 4 players, short-handed after 10\.0 s; greedy, /);
    await page.close();
  }, 60_000);
});
