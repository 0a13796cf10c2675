/**
 * vitest globalSetup (runs in the main process, so its output is never silenced): says loudly,
 * at the start and again after the summary, when the browser tests cannot run here.
 */
import { existsSync } from "node:fs";

export default function browserCheck(): (() => void) | undefined {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(chromium)) return undefined;
  const inCI = Boolean(process.env.CI) && process.env.CI !== "false";
  const banner =
    `\n*** BROWSER TESTS ${inCI ? "FAIL (CI=true)" : "SKIPPED"}: no Chromium at ${chromium}. ` +
    `Install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH). ***\n`;
  console.warn(banner);
  return () => console.warn(banner);
}
