/**
 * A page script bundled for the browser with esbuild, its npm imports included (nothing comes
 * from a CDN). The package's build runs it; an installed package never does (its bundles are in
 * `dist/web`), so esbuild is a devDependency, loaded only when called.
 */

/** The bundle of `entry` (a TypeScript file) as one minified ES module. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
