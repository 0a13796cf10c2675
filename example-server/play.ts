/**
 * The player page at `/play`: web/play/index.html and web/play/main.ts, bundled for the browser
 * with esbuild (the Colyseus SDK included; nothing comes from a CDN) on first request, and
 * `/play/queues.json`, what the page needs to know of each queue room this server defines.
 */
import { matchMaker } from "@colyseus/core";
import { browserBundle } from "./browser-bundle.js";
import express, { type Router } from "express";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { MatchmakerRoom, type MatchmakerRoomOptions, type ZoneOption } from "../src/index.js";
import type { QueueDescription } from "../web/play/queues.js";

const webDir = fileURLToPath(new URL("../web/play/", import.meta.url));

/** The page's script, bundled once per process on first request. */
export const playBundle = browserBundle(`${webDir}main.ts`);

const zoneName = (zone: ZoneOption) => (typeof zone === "string" ? zone : zone.name);

/** Every queue room type registered in this process, as the page shows it. */
export function describeQueues(): QueueDescription[] {
  return Object.entries(matchMaker.getAllHandlers())
    .filter(([, handler]) => handler.klass === MatchmakerRoom || handler.klass.prototype instanceof MatchmakerRoom)
    .map(([name, handler]) => {
      const options = (handler.options ?? {}) as MatchmakerRoomOptions;
      return {
        name,
        teamSize: options.teamSize,
        policy: options.policy ?? (options.roles ? "roles" : "greedy"),
        zones: (options.zones ?? []).map(zoneName),
        readyCheckMs: options.readyCheck?.timeoutMs ?? null,
        rating: { min: options.rating?.min ?? 0, max: options.rating?.max ?? 10_000 },
        roles: Boolean(options.roles),
      };
    });
}

/** Mount with `app.use("/play", playPage())`. */
export function playPage(): Router {
  const router = express.Router();
  router.get("/", async (req, res, next) => {
    // Relative URLs in the page (play.js, queues.json) need the trailing slash.
    if (!req.originalUrl.split("?")[0]!.endsWith("/")) {
      const [path, query] = req.originalUrl.split("?");
      res.redirect(301, `${path}/${query ? `?${query}` : ""}`);
      return;
    }
    try {
      res.type("html").send(await readFile(`${webDir}index.html`, "utf8"));
    } catch (error) {
      next(error);
    }
  });
  router.get("/play.js", async (_req, res) => {
    try {
      res.type("text/javascript").send(await playBundle());
    } catch (error) {
      res
        .status(500)
        .type("text/plain")
        .send(`the player page failed to build: ${(error as Error).message}`);
    }
  });
  router.get("/queues.json", (_req, res) => {
    res.json({ queues: describeQueues() });
  });
  return router;
}

/** The server's front page: where to go. */
export function frontPage(): express.RequestHandler {
  return (_req, res) => {
    res.type("html").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>colyseus-matchmaker example</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}</style></head>
<body><h1>colyseus-matchmaker example server</h1>
<ul>
<li><a href="/play/">Play</a>: join a queue from the browser, alone or as a party, and land in a game</li>
<li><a href="/playground">Playground</a>: the Colyseus playground (join any room by hand)</li>
<li><a href="/dashboard/">Dashboard</a>: every queue's waiting players, waits and longest-waiting tickets, live (operators)</li>
<li><a href="/monitor">Monitor</a>: the rooms of this process and their state (operators)</li>
<li><a href="/matchmaker/metrics">Metrics</a> (JSON; <a href="/matchmaker/metrics/prometheus">Prometheus</a>)</li>
</ul></body></html>`);
  };
}
