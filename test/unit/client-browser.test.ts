/**
 * `colyseus-matchmaker/client` is browser-safe: bundled for the browser (esbuild, as the player
 * page is), it pulls in its own modules and the SDK's and nothing else: no Node module (esbuild
 * refuses `node:` imports for the browser), no server code of this package, no package the SDK
 * does not bring itself. The player page is built on it.
 */
import { build, type Metafile } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The files a browser bundle of `entry` (a path, or a module's source) reads. */
async function browserInputs(entry: { file: string } | { source: string }): Promise<string[]> {
  const result = await build({
    ...("file" in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.source, resolveDir: ROOT, loader: "ts" } }),
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    metafile: true,
    logLevel: "silent",
  });
  return Object.keys((result.metafile as Metafile).inputs);
}

/** The npm package an input belongs to (`@scope/name` or `name`), or undefined for the repository's own files. */
function packageOf(input: string): string | undefined {
  const path = input.split("node_modules/").at(-1)!;
  if (path === input) return undefined;
  const parts = path.split("/");
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

describe("the client entry in the browser", () => {
  it("bundles from its own modules and the SDK alone", async () => {
    const inputs = await browserInputs({ file: "src/client/index.ts" });
    const own = inputs.filter((i) => packageOf(i) === undefined);
    expect(own.sort()).toEqual(
      ["events.ts", "index.ts", "matchmaking.ts", "rating-change.ts", "retry.ts", "waited.ts"].map(
        (f) => `src/client/${f}`,
      ),
    );
    const packages = new Set(inputs.map(packageOf).filter((p) => p !== undefined));
    const sdkAlone = new Set(
      (await browserInputs({ source: 'export * from "@colyseus/sdk";' })).map(packageOf).filter((p) => p !== undefined),
    );
    expect(packages.has("@colyseus/sdk")).toBe(true);
    expect([...packages].filter((p) => !sdkAlone.has(p))).toEqual([]);
    expect(packages.has("@colyseus/core")).toBe(false);
  });

  it("is what the player page is built on", async () => {
    const inputs = await browserInputs({ file: "web/play/main.ts" });
    expect(inputs).toContain("src/client/matchmaking.ts");
    expect(inputs.filter((i) => packageOf(i) === undefined && i.startsWith("src/"))).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^src\/(colyseus|core|options|policies|server|sim)\//)]),
    );
  });
});
