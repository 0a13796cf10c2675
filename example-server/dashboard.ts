/**
 * The operator dashboard at `/dashboard` (mount it behind `operatorAuth`): web/dashboard's page
 * and its script (uPlot bundled in), which polls `/matchmaker/metrics` and its `/sample`.
 */
import express, { type Router } from "express";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { browserBundle } from "./browser-bundle.js";

const webDir = fileURLToPath(new URL("../web/dashboard/", import.meta.url));
const dashboardBundle = browserBundle(`${webDir}main.ts`);
const uplotCss = createRequire(import.meta.url).resolve("uplot/dist/uPlot.min.css");

/** Mount with `app.use("/dashboard", operatorAuth(), dashboardPage())`. */
export function dashboardPage(): Router {
  const router = express.Router();
  router.get("/", async (req, res, next) => {
    // Relative URLs in the page (dashboard.js, ../matchmaker/metrics) need the trailing slash.
    if (!req.originalUrl.split("?")[0]!.endsWith("/")) {
      res.redirect(301, `${req.originalUrl.split("?")[0]}/`);
      return;
    }
    try {
      res.type("html").send(await readFile(`${webDir}index.html`, "utf8"));
    } catch (error) {
      next(error);
    }
  });
  router.get("/dashboard.js", async (_req, res) => {
    try {
      res.type("text/javascript").send(await dashboardBundle());
    } catch (error) {
      res
        .status(500)
        .type("text/plain")
        .send(`the dashboard failed to build: ${(error as Error).message}`);
    }
  });
  router.get("/uplot.css", (_req, res) => res.sendFile(uplotCss));
  return router;
}
