/**
 * The files of the browser pages and where each comes from. One table for both ends:
 * `scripts/build.ts` writes every file into `dist/web/<page>/` when the package is built, and the
 * handlers serve them from there. Run from the sources (`npm start`, the tests), there is no
 * `dist/web`: a file the build would have made (a bundle, a stylesheet from a dependency) is made
 * on first request instead, with the devDependencies the repository has.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { bundleForBrowser } from "./bundle.js";

/** How a page's file is made from the repository (absent: the file is copied as it is). */
export type AssetSource =
  /** A browser bundle of this TypeScript entry (relative to `web/`), its npm imports included. */
  | { readonly bundle: string }
  /** A file of an npm package (a devDependency), by its module specifier. */
  | { readonly module: string };

export interface Asset {
  readonly contentType: string;
  readonly from?: AssetSource;
}

const HTML = "text/html; charset=utf-8";
const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/** Every page and its files, by the name the page's HTML uses for them. */
export const PAGES = {
  play: {
    "index.html": { contentType: HTML },
    "play.js": { contentType: JS, from: { bundle: "play/main.ts" } },
  },
  dashboard: {
    "index.html": { contentType: HTML },
    "dashboard.js": { contentType: JS, from: { bundle: "dashboard/main.ts" } },
    "uplot.css": { contentType: CSS, from: { module: "uplot/dist/uPlot.min.css" } },
  },
} as const satisfies Record<string, Record<string, Asset>>;

export type PageName = keyof typeof PAGES;

/**
 * The pages' directory: `web/` beside `src/` in the repository (the sources), `dist/web/` beside
 * `dist/esm/` and `dist/cjs/` in the built package (the files the build made).
 */
export const WEB_DIR = fileURLToPath(new URL("../../web/", import.meta.url));

/** Make a file from its source (the build, or the first request when run from the sources). */
export async function produceAsset(webDir: string, page: string, name: string, asset: Asset): Promise<string> {
  if (!asset.from) return readFile(`${webDir}${page}/${name}`, "utf8");
  if ("bundle" in asset.from) return bundleForBrowser(`${webDir}${asset.from.bundle}`);
  return readFile(createRequire(import.meta.url).resolve(asset.from.module), "utf8");
}

const loaded = new Map<string, Promise<string>>();

/**
 * A page's file, read once per process: the built file when there is one, else made from its
 * source. A failure is not kept, so the next request tries again.
 */
export function loadAsset(page: PageName, name: string, webDir = WEB_DIR): Promise<string> {
  const asset = (PAGES[page] as Record<string, Asset>)[name];
  if (!asset) return Promise.reject(new Error(`the ${page} page has no file ${name}`));
  const key = `${webDir}${page}/${name}`;
  let text = loaded.get(key);
  if (!text) {
    text = readFile(key, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT" || !asset.from) throw error;
      return produceAsset(webDir, page, name, asset);
    });
    loaded.set(key, text);
    text.catch(() => loaded.delete(key));
  }
  return text;
}
