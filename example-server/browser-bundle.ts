/**
 * A page script bundled for the browser with esbuild (its npm imports included; nothing comes
 * from a CDN), built once per process on first request and rebuilt after a failed build.
 */
import { build } from "esbuild";

export function browserBundle(entry: string): () => Promise<string> {
  let bundle: Promise<string> | undefined;
  return () => {
    bundle ??= build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      legalComments: "none",
      logLevel: "silent",
    }).then((result) => result.outputFiles[0]!.text);
    bundle.catch(() => (bundle = undefined));
    return bundle;
  };
}
