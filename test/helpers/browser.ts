/** Debian's Chromium for the browser tests, driven by puppeteer-core. */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const haveChromium = existsSync(CHROMIUM);
export const inCI = Boolean(process.env.CI) && process.env.CI !== "false";
/** Where screenshots are kept (gitignored). */
export const artifacts = fileURLToPath(new URL("../../test-artifacts/browser/", import.meta.url));

/** A headless Chromium as these machines can run it (no sandbox, no GPU, no /dev/shm). */
export function launchChromium(): Promise<Browser> {
  mkdirSync(artifacts, { recursive: true });
  return puppeteer.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    headless: true,
  });
}
