/// <reference lib="dom" />
/**
 * The dashboard tells the story of every queue in a real browser (Debian's Chromium,
 * puppeteer-core), in three states: before any player (every defined queue is there: "no players
 * yet", "no matches yet"), during a burst (players waiting, then matched), and after the queue
 * drained (nobody waiting, its running totals kept although its room is gone). Screenshots of
 * the three are kept in test-artifacts/browser/. Skipped without Chromium, except under CI=true.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import type { Room as SdkRoom } from "@colyseus/sdk";
import type { Browser, Page } from "puppeteer-core";
import { matchMaker } from "@colyseus/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import app from "../../example-server/app.config.js";
import { artifacts, haveChromium, inCI, launchChromium } from "../helpers/browser.js";
import { joinQueue, testPort, within, type QueuedClient } from "../helpers/sdk.js";

const PORT = testPort(181);
/** The example server's queues, as the dashboard lists them (by name). */
const QUEUES = [
  "arena5",
  "duel",
  "duel_regions",
  "duel_zones",
  "ffa2to4",
  "ffa3",
  "ffa4",
  "ranked",
  "ranked_1v1",
  "ranked_2v2",
  "squad",
  "squad_ready",
  "teams4x2",
];

describe.skipIf(!haveChromium && !inCI)("the dashboard's three states in Chromium", () => {
  let server: ColyseusTestServer;
  let browser: Browser;
  let page: Page;
  const games: SdkRoom[] = [];

  beforeAll(async () => {
    server = await boot(app, PORT);
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 1400 });
  }, 60_000);
  afterAll(async () => {
    for (const g of games) await g.leave().catch(() => undefined);
    await browser?.close();
    await server?.shutdown();
  });

  /** Wait until the panel of `queue` is in `state` and its state line matches `text`. */
  const panelIs = (queue: string, state: string, text: RegExp) =>
    page.waitForFunction(
      (q, s, t) => {
        const section = document.querySelector<HTMLElement>(`section[data-queue="${q}"]`);
        return section?.dataset.state === s && new RegExp(t).test(section.querySelector(".state")?.textContent ?? "");
      },
      { timeout: 20_000 },
      queue,
      state,
      text.source,
    );

  /** The panel's counters, by header. */
  const countersOf = (queue: string) =>
    page.$eval(`section[data-queue="${queue}"] .counters`, (table) => {
      const [head, values] = Array.from(table.querySelectorAll("tr")).map((tr) =>
        Array.from(tr.children).map((c) => c.textContent ?? ""),
      );
      return Object.fromEntries(head!.map((h, i) => [h, values![i]]));
    });

  it("before any player: every defined queue, with no players and no matches yet", async () => {
    const response = await page.goto(`http://localhost:${PORT}/dashboard/`);
    expect(response?.status()).toBe(200);
    for (const queue of QUEUES) await panelIs(queue, "idle", /^no players yet; no matches yet$/);
    const listed = await page.$$eval("section[data-queue]", (list) =>
      list.map((s) => (s as HTMLElement).dataset.queue),
    );
    expect(listed).toEqual(QUEUES);
    expect(await countersOf("duel")).toMatchObject({ waiting: "0", matches: "0", "players seated": "0" });
    await page.screenshot({ path: `${artifacts}dashboard-1-before.png` });
  }, 60_000);

  it("during a burst: the players waiting, then the matches as they form", async () => {
    // 1v1 with sides: three players insist on side A, nobody can play yet.
    const a: QueuedClient[] = [];
    for (const rating of [1400, 1500, 1600]) a.push(await joinQueue(server, "duel", { rating, side: "A" }));
    await panelIs("duel", "waiting", /^3 waiting, the longest for [0-9.]+ s; no matches yet$/);
    await page.screenshot({ path: `${artifacts}dashboard-2-burst.png` });

    // Three on side B: three matches; everyone enters its game and leaves the queue.
    const b: QueuedClient[] = [];
    for (const rating of [1400, 1500, 1600]) b.push(await joinQueue(server, "duel", { rating, side: "B" }));
    const seats = await within(Promise.all([...a, ...b].map((c) => c.seat)), 10_000, "six seats");
    for (const seat of seats) games.push(await server.sdk.consumeSeatReservation(seat));
    const roomId = a[0]!.queue.roomId;
    for (const c of [...a, ...b]) await c.queue.leave();
    await vi.waitFor(() => expect(matchMaker.getLocalRoomById(roomId)).toBeUndefined(), { timeout: 10_000 });
  }, 60_000);

  it("after it drained: nobody waiting, the running totals kept without a room", async () => {
    await panelIs("duel", "drained", /^nobody waiting; 3 matches, 6 players seated; recent waits p95 [0-9.]+ s$/);
    await page.waitForFunction(
      () => document.querySelector('section[data-queue="duel"] h2')?.textContent?.includes("no room now"),
      { timeout: 20_000 },
    );
    expect(await countersOf("duel")).toMatchObject({
      waiting: "0",
      matches: "3",
      "players seated": "6",
      "no-shows": "0",
      requeued: "0",
    });
    expect(await page.$eval('section[data-queue="duel"] .hour', (p) => p.textContent)).toBe(
      "Last hour: 3 matches, 6 players seated, 0 no-shows, 0 requeued.",
    );
    // The other queues never had a player.
    await panelIs("squad", "idle", /^no players yet; no matches yet$/);
    await page.screenshot({ path: `${artifacts}dashboard-3-drained.png` });
  }, 60_000);
});
