/**
 * `npm run build` (and `prepare`, so that `npm install git+<repository>` and `npm pack` build it):
 * - dist/esm: `tsc` output, ES modules with their declarations (the package is `"type": "module"`);
 * - dist/cjs: the same modules as CommonJS (esbuild, one file per module, so `require` of the
 *   root and of a subpath share one policy registry), with a `{"type":"commonjs"}` package.json
 *   and a copy of the declarations, so TypeScript resolves `require` to CommonJS types.
 * The simulator's command line (`sim/cli.ts`, top-level await) is ESM only: it is the `bin`.
 */
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name));
}

rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

const sources = filesUnder(join(root, "src"), ".ts").filter((file) => !file.endsWith(join("sim", "cli.ts")));
await build({
  entryPoints: sources,
  outdir: join(dist, "cjs"),
  outbase: join(root, "src"),
  format: "cjs",
  platform: "node",
  target: "node20",
  bundle: false,
  logLevel: "warning",
  // `import.meta.url` (win-probability's createRequire) becomes this module's file URL.
  define: { "import.meta.url": "__importMetaUrl" },
  banner: { js: 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
});
writeFileSync(join(dist, "cjs", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");

for (const declaration of filesUnder(join(dist, "esm"), ".d.ts")) {
  if (declaration.endsWith(join("sim", "cli.d.ts"))) continue;
  const target = join(dist, "cjs", relative(join(dist, "esm"), declaration));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(declaration, target);
}
console.log(`built ${relative(root, join(dist, "esm"))} and ${relative(root, join(dist, "cjs"))}`);
