/**
 * `npm run build` (and `prepare`, so that `npm install git+<repository>` and `npm pack` build it):
 * - dist/esm: `tsc` output, ES modules with their declarations (the package is `"type": "module"`);
 * - dist/cjs: the same modules as CommonJS (esbuild, one file per module, so `require` of the
 *   root and of a subpath share one policy registry), with a `{"type":"commonjs"}` package.json
 *   and a copy of the declarations, so TypeScript resolves `require` to CommonJS types;
 * - dist/web: the browser pages of `colyseus-matchmaker/web` (src/web/assets.ts lists their
 *   files): HTML, the scripts bundled with their npm imports, uPlot's stylesheet.
 * The simulator's command line (`sim/cli.ts`, top-level await) is ESM only: it is the `bin`.
 *
 * `--prepare` (the `prepare` script) is the fast path for installs: it skips type checking
 * (`tsc --noCheck`; `npm run typecheck` and the tests check types), and it does nothing when
 * dist/ was built from the same inputs, because npm runs `prepare` twice for a git dependency
 * (in its `npm install` of the clone, then again before packing it).
 */
import { build } from "esbuild";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PAGES, produceAsset, type Asset } from "../src/web/assets.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const stampFile = join(dist, ".inputs-sha256");
const prepare = process.argv.includes("--prepare");

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** A digest of everything the build reads from the repository (the lock file stands for node_modules). */
function inputsDigest(): string {
  const hash = createHash("sha256");
  const inputs = [
    ...filesUnder(join(root, "src"), ""),
    ...filesUnder(join(root, "web"), ""),
    ...["scripts/build.ts", "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"].map((f) =>
      join(root, f),
    ),
  ];
  for (const file of inputs) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

const digest = inputsDigest();
if (prepare && existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === digest) {
  console.log("dist/ is up to date with src/ and web/: not rebuilt");
  process.exit(0);
}

rmSync(dist, { recursive: true, force: true });
const started = Date.now();

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const esm = promisify(execFile)(
  process.execPath,
  [tsc, "-p", join(root, "tsconfig.build.json"), ...(prepare ? ["--noCheck"] : [])],
  { maxBuffer: 16 * 1024 * 1024 },
).catch((error: Error & { stdout?: string; stderr?: string }) => {
  throw new Error(`tsc failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`, { cause: error });
});

const sources = filesUnder(join(root, "src"), ".ts").filter((file) => !file.endsWith(join("sim", "cli.ts")));
const cjs = build({
  entryPoints: sources,
  outdir: join(dist, "cjs"),
  outbase: join(root, "src"),
  format: "cjs",
  platform: "node",
  target: "node20",
  bundle: false,
  logLevel: "warning",
  // `import.meta.url` (win-probability's createRequire, the web pages' directory) becomes this
  // module's file URL.
  define: { "import.meta.url": "__importMetaUrl" },
  banner: { js: 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
});

// The pages: each file as src/web/assets.ts makes it, into dist/web/<page>/<name>.
const webSource = join(root, "web") + "/";
const web = Promise.all(
  Object.entries(PAGES).flatMap(([page, files]) =>
    Object.entries(files as Record<string, Asset>).map(async ([name, asset]) => {
      const text = await produceAsset(webSource, page, name, asset);
      mkdirSync(join(dist, "web", page), { recursive: true });
      writeFileSync(join(dist, "web", page, name), text);
    }),
  ),
);

await Promise.all([esm, cjs, web]);
writeFileSync(join(dist, "cjs", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
for (const declaration of filesUnder(join(dist, "esm"), ".d.ts")) {
  if (declaration.endsWith(join("sim", "cli.d.ts"))) continue;
  const target = join(dist, "cjs", relative(join(dist, "esm"), declaration));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(declaration, target);
}
writeFileSync(stampFile, digest + "\n");
console.log(
  `built dist/esm, dist/cjs and dist/web in ${((Date.now() - started) / 1000).toFixed(1)} s` +
    (prepare ? " (types not checked: npm run typecheck does that)" : ""),
);
