/**
 * Server processes for the multi-process tests: started with tsx from the repository's root,
 * ready once they print that they listen, stopped (or killed) by PID.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { within } from "./sdk.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Start `script` (a path from the repository's root) on `port`; `ready` resolves once it prints that it listens. */
export function startServerProcess(
  script: string,
  port: number,
  env: Record<string, string>,
): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes(`listening on ${port}`)) resolve();
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    child.on("exit", (code) => reject(new Error(`server on ${port} exited with ${code}:\n${output.slice(-2000)}`)));
  });
  ready.catch(() => undefined); // a server killed on purpose rejects it later
  return { child, ready: within(ready, 15_000, `the server on ${port} to listen`) };
}

/** Stop a server process with `signal` (SIGKILL if it has not exited 5 s after SIGTERM). */
export async function stopServerProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await within(exited, 5000, "a server to exit").catch(() => child.kill("SIGKILL"));
}
