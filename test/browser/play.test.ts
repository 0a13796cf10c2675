/// <reference lib="dom" />
/**
 * The player page in a real browser: Debian's Chromium driven by puppeteer-core. Four pages join
 * the example server's `squad_ready` queue (2v2 with a ready check), two of them as a party by
 * code; all accept the ready check and land in one demo game room, the party on one side. A tab
 * whose queue connection closes as in a deploy (handover, 4001) rejoins by itself. Two tabs near
 * one region play there, in the queue of regions by latency. Two tabs sign in
 * (anonymously) and play in the ranked queue at the server's ratings, whatever their rating field says.
 * Screenshots are kept in test-artifacts/browser/.
 *
 * Without Chromium these tests are skipped, loudly, except under CI=true, where that fails.
 */
import { matchMaker } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import type { Browser, Page } from "puppeteer-core";
import type { MatchInfo } from "../../src/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../example-server/app.config.js";
import { artifacts, CHROMIUM, haveChromium, inCI, launchChromium } from "../helpers/browser.js";
import { testPort } from "../helpers/sdk.js";

const base = () => `http://localhost:${testPort(42)}`;

if (!haveChromium) {
  const message =
    `\n*** BROWSER TESTS ${inCI ? "FAIL" : "SKIPPED"}: no Chromium at ${CHROMIUM}. ` +
    `Install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH). ***\n\n`;
  // test/setup/browser-check.ts says so loudly; under CI it is a failure.
  if (inCI) {
    describe("the player page in Chromium", () => {
      it("needs Chromium (CI=true: a missing browser is a failure)", () => {
        throw new Error(message.trim());
      });
    });
  }
}

/** The text of an element, or null when the page has none. */
const text = (page: Page, selector: string) =>
  page.$eval(selector, (element) => element.textContent ?? "").catch(() => null);

const visible = (page: Page, selector: string) =>
  page.waitForFunction((s) => document.querySelector<HTMLElement>(s)?.hidden === false, { timeout: 15_000 }, selector);

describe.skipIf(!haveChromium)("the player page in Chromium", () => {
  let server: ColyseusTestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await boot(app, testPort(42));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.shutdown();
  });

  /** A player's own tab, in its own browser context (no shared storage). */
  async function player(rating: number, queue = "squad_ready"): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 820, height: 760 });
    page.on("pageerror", (error) => process.stderr.write(`page error: ${String(error)}\n`));
    await page.goto(`${base()}/play/?queue=${queue}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.$eval("#rating", (input, r) => ((input as HTMLInputElement).value = String(r)), rating);
    return page;
  }

  it("links the player page and the playground from the front page", async () => {
    const front = await (await fetch(`${base()}/`)).text();
    expect(front).toContain('href="/play/"');
    expect(front).toContain('href="/playground"');
    const playground = await fetch(`${base()}/playground/`);
    expect(playground.status).toBe(200);
    expect(await playground.text()).toContain("Colyseus Playground");
  });

  it("a 1v1 queue with zones: two tabs pick a zone and a side, and play in that zone on those sides", async () => {
    const [first, second] = [await player(1200, "duel_zones"), await player(1250, "duel_zones")];
    // A 1v1 queue has no parties; its zones are offered as choices.
    expect(await first.$eval("#mode-create-label", (el) => (el as HTMLElement).hidden)).toBe(true);
    expect(
      await first.$$eval('input[name="zone"]', (boxes) => boxes.map((b) => (b as HTMLInputElement).value)),
    ).toEqual(["eu", "na"]);
    for (const [p, side] of [
      [first, "B"],
      [second, "A"],
    ] as const) {
      // The zone listed second: with none ticked the game would play in the first.
      await p.click('input[name="zone"][value="na"]');
      await p.select("#side", side);
      await p.click("#join");
    }
    const games = [];
    for (const p of [first, second]) {
      await visible(p, "#game-panel");
      games.push(
        await p.$eval("#game-panel", (el) => ({
          roomId: (el as HTMLElement).dataset.roomId,
          side: (el as HTMLElement).dataset.side,
          you: document.getElementById("game-you")?.textContent,
        })),
      );
    }
    await first.screenshot({ path: `${artifacts}0-zones-in-game.png` });
    expect(games[0]!.roomId).toBe(games[1]!.roomId);
    expect(games.map((g) => g.side)).toEqual(["B", "A"]);
    expect(games.map((g) => g.you)).toEqual(["You play side B in zone na.", "You play side A in zone na."]);
    for (const p of [first, second]) await p.browserContext().close();
  });

  it("regions by latency: two tabs near eu play in eu; latencies that reach no region are refused by name", async () => {
    const [first, second] = [await player(1400, "duel_regions"), await player(1420, "duel_regions")];
    expect(await text(first, "#queue-info")).toContain("you wait in every region you reach within 80 ms");
    expect(await first.$eval("#latency-set", (el) => (el as HTMLElement).hidden)).toBe(false);
    // The page says what it measured (its round trip to this server), not a latency per region.
    await first.waitForFunction(() => /^\d+ ms$/.test(document.getElementById("latency-measured")?.textContent ?? ""));
    const latencies = (p: Page) =>
      p.$$eval('input[name="latency"]', (inputs) =>
        Object.fromEntries(inputs.map((i) => [(i as HTMLInputElement).dataset.zone, (i as HTMLInputElement).value])),
      );
    // Filled from the first place ("near eu"); the second tab sets its own.
    expect(await latencies(first)).toEqual({ eu: "30", us: "120" });
    const setLatency = (p: Page, zone: string, ms: number) =>
      p.$eval(
        `input[name="latency"][data-zone="${zone}"]`,
        (input, v) => ((input as HTMLInputElement).value = v),
        String(ms),
      );
    await setLatency(second, "eu", 45);
    await setLatency(second, "us", 140);

    // Out of reach of both regions: refused, naming the field, before any queue is joined.
    const far = await player(1500, "duel_regions");
    await setLatency(far, "eu", 200);
    await setLatency(far, "us", 300);
    await far.click("#join");
    await far.waitForFunction(() => (document.getElementById("join-error")?.textContent ?? "").length > 0);
    expect(await text(far, "#join-error")).toBe(
      "invalid join options: latencies: no zone is reached within 80 ms (the nearest, eu, at 200 ms)",
    );
    expect(await far.$eval("#join-form", (el) => (el as HTMLElement).hidden)).toBe(false);

    for (const p of [first, second]) await p.click("#join");
    const you = [];
    for (const p of [first, second]) {
      await visible(p, "#game-panel");
      you.push(await text(p, "#game-you"));
    }
    await first.screenshot({ path: `${artifacts}7-regions-in-game.png` });
    expect(you.every((line) => / in zone eu\.$/.test(line ?? ""))).toBe(true);
    for (const p of [first, second, far]) await p.browserContext().close();
  });

  it("the ranked queue: two tabs sign in, send no rating, and play at the server's ratings as their accounts", async () => {
    const pages = [await player(9999, "ranked"), await player(1, "ranked")];
    for (const p of pages) {
      // The rating is the server's: the field is not offered.
      expect(await p.$eval("#rating-label", (el) => (el as HTMLElement).hidden)).toBe(true);
      expect(await text(p, "#queue-info")).toContain("your rating comes from your account");
      await p.click("#join");
    }
    for (const p of pages) {
      await visible(p, "#game-panel");
      await p.waitForFunction(() => document.querySelectorAll('#teams li[data-arrived="true"]').length === 2, {
        timeout: 15_000,
      });
    }
    await pages[0]!.screenshot({ path: `${artifacts}6-ranked-in-game.png` });
    // Both play at the example store's rating for a new account, 1500, not what their fields held.
    expect(await pages[0]!.$$eval("#teams li", (items) => items.map((i) => i.textContent))).toEqual(
      expect.arrayContaining([expect.stringContaining("(rating 1500)"), expect.stringContaining("(rating 1500)")]),
    );
    // The game room knows each player's account: the one in that tab's auth token.
    const accountOf = (p: Page) =>
      p.evaluate(() => {
        const token = localStorage.getItem("colyseus-auth-token") ?? "";
        const payload = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
        return (JSON.parse(atob(payload)) as { id: string }).id;
      });
    const accounts = [await accountOf(pages[0]!), await accountOf(pages[1]!)];
    const roomId = (await pages[0]!.$eval("#game-panel", (el) => (el as HTMLElement).dataset.roomId))!;
    const match = (matchMaker.getLocalRoomById(roomId) as unknown as { match: MatchInfo }).match;
    expect(match.trustedPlayers).toBe(true);
    expect(match.teams.flatMap((t) => t.players.map((p) => p.playerId)).sort()).toEqual([...accounts].sort());
    expect(new Set(accounts).size).toBe(2);
    for (const p of pages) await p.browserContext().close();
  }, 60_000);

  it("a queue connection closed by a deploy (handover, 4001) is rejoined; resume and resumed are shown", async () => {
    const page = await player(1500, "duel");
    await page.click("#join");
    await visible(page, "#waiting-panel");
    const sessionOf = async () => /your session (\S+)\./.exec((await text(page, "#queue-note")) ?? "")?.[1];
    const first = await sessionOf();
    const queueRoom = async () => matchMaker.getLocalRoomById((await matchMaker.query({ name: "duel" }))[0]!.roomId);

    // What a durable queue does on a graceful stop (docs/scale-out.md): handover, then close 4001.
    const gone = (await queueRoom()).clients.getById(first!)!;
    gone.send("handover", { reason: "shutdown", retryInMs: 0 });
    gone.leave(4001);
    // A new session shown (not the note's empty state while the page reconnects).
    await page.waitForFunction(
      (old) => {
        const shown = /your session (\S+)\./.exec(document.getElementById("queue-note")?.textContent ?? "")?.[1];
        return shown !== undefined && shown !== old;
      },
      { timeout: 15_000 },
      first,
    );
    const second = (await sessionOf())!;
    expect(second).not.toBe(first);
    // The page is back in the queue (a new room: the emptied one was disposed), as that session alone.
    const queue = await queueRoom();
    expect([...queue.clients].map((c) => c.sessionId)).toEqual([second]);

    // The token is kept for the next rejoin; "resumed" tells the player its place is back.
    queue.clients.getById(second)!.send("resume", { token: "t0k", graceMs: 60_000 });
    queue.clients.getById(second)!.send("resumed", { enqueuedAt: Date.now(), waitingFor: 0 });
    await page.waitForFunction(() => document.getElementById("queue-note")?.dataset.resumed === "true", {
      timeout: 15_000,
    });
    expect(await text(page, "#queue-note")).toContain("back at your place");
    await page.screenshot({ path: `${artifacts}5-back-at-your-place.png` });

    // The next lost connection rejoins with the kept token: this queue keeps no places (no Redis), so
    // the token is refused (525) and the page joins anew, as a third session.
    const again = (await queueRoom()).clients.getById(second)!;
    again.send("handover", { reason: "moved", retryInMs: 0 });
    again.leave(4001);
    await page.waitForFunction(
      (old) => {
        const note = document.getElementById("queue-note");
        const shown = /your session (\S+)\./.exec(note?.textContent ?? "")?.[1];
        return note?.dataset.placeGone === "true" && shown !== undefined && shown !== old;
      },
      { timeout: 15_000 },
      second,
    );
    const third = (await sessionOf())!;
    expect([...(await queueRoom()).clients].map((c) => c.sessionId)).toEqual([third]);
    await page.browserContext().close();
  });

  it("four tabs, two of them a party by code, accept the ready check and land in one game, 2 v 2", async () => {
    // The leader opens a party and is shown its code.
    const leader = await player(1500);
    await leader.click('input[name="mode"][value="create"]');
    await leader.click("#join");
    await leader.waitForFunction(() => (document.getElementById("party-code")?.textContent ?? "").length === 22);
    const code = (await text(leader, "#party-code"))!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    await leader.screenshot({ path: `${artifacts}1-party-created.png` });

    // The friend joins by code: side and zone choices are the leader's, so they are hidden.
    const friend = await player(1480);
    await friend.click('input[name="mode"][value="join"]');
    expect(await friend.$eval("#choices", (el) => (el as HTMLElement).hidden)).toBe(true);
    await friend.type("#party-code-input", code);
    await friend.click("#join");
    for (const member of [leader, friend])
      await member.waitForFunction(() => document.getElementById("party-state")?.dataset.status === "queued", {
        timeout: 15_000,
      });
    expect(await text(friend, "#party-code")).toBe(code);

    // A solo player waits and sees its wait, the estimate and its rating window.
    const solo1 = await player(1510);
    await solo1.click("#join");
    await visible(solo1, "#waiting-panel");
    await solo1.waitForFunction(() => /^\d+ to \d+$/.test(document.getElementById("window")?.textContent ?? ""), {
      timeout: 15_000,
    });
    expect(await text(solo1, "#waited")).toMatch(/^\d+ s$/);
    expect(await text(solo1, "#estimate")).toMatch(/^(\d+ s|unknown yet)$/);
    expect(await text(solo1, "#waiting")).toBe("3");
    await solo1.screenshot({ path: `${artifacts}2-waiting.png` });

    // The fourth player completes the match: everyone is asked to accept.
    const solo2 = await player(1495);
    await solo2.click("#join");
    const pages = [leader, friend, solo1, solo2];
    for (const p of pages) await visible(p, "#ready-panel");
    expect(await text(solo2, "#ready-players")).toBe("4");
    await solo2.screenshot({ path: `${artifacts}3-ready-check.png` });
    for (const p of pages) await p.click("#accept");

    // Everyone lands in the same demo game room and sees both full teams.
    for (const p of pages) {
      await visible(p, "#game-panel");
      await p.waitForFunction(
        () =>
          document.querySelectorAll('#team-A li[data-arrived="true"]').length === 2 &&
          document.querySelectorAll('#team-B li[data-arrived="true"]').length === 2,
        { timeout: 15_000 },
      );
    }
    const games = await Promise.all(
      pages.map((p) =>
        p.$eval("#game-panel", (el) => ({
          roomId: (el as HTMLElement).dataset.roomId,
          side: (el as HTMLElement).dataset.side,
          you: document.querySelectorAll("li.you").length,
        })),
      ),
    );
    for (const [i, p] of pages.entries()) await p.screenshot({ path: `${artifacts}4-in-game-${i + 1}.png` });

    expect(new Set(games.map((g) => g.roomId)).size).toBe(1);
    expect(games.every((g) => g.you === 1)).toBe(true);
    // The party plays together; the two solos form the other team.
    expect(games[0]!.side).toBe(games[1]!.side);
    expect(games[2]!.side).toBe(games[3]!.side);
    expect(games[0]!.side).not.toBe(games[2]!.side);
    expect(games.map((g) => g.side).sort()).toEqual(["A", "A", "B", "B"]);

    // The server agrees: that demo game room holds all four.
    const [room] = await matchMaker.query({ name: "demo_game", roomId: games[0]!.roomId });
    expect(room?.clients).toBe(4);
  }, 90_000);
});
