/**
 * Optional peer dependencies (openskill, node-sqlite3-wasm) are loaded, synchronously, only by the
 * features that need them, so the default install stays small; a missing one is a configuration
 * error that says what to install.
 */
import { createRequire } from "node:module";
import { MatchmakerError } from "./errors.js";

const loaded = new Map<string, unknown>();

/** The package `name`, or `MatchmakerError("invalid_config")` for `field`: "`feature` needs the `name` package". */
export function requireOptional<T>(name: string, feature: string, field: string): T {
  if (loaded.has(name)) return loaded.get(name) as T;
  let module: T;
  try {
    module = createRequire(import.meta.url)(name) as T;
  } catch {
    throw new MatchmakerError("invalid_config", `${feature} needs the ${name} package (npm install ${name})`, field);
  }
  loaded.set(name, module);
  return module;
}
