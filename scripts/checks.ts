/**
 * `npm run checks` (the first half of `npm test`): `npm run typecheck`, `npm run lint` and
 * `npm run api:check` (the API report and the reference's exports match the code) side by side.
 * The first two are each one mostly single-threaded process of 15-20 s, the third about 5 s, so on
 * two cores together they take about as long as the slowest. Each one's output is printed whole once it ends (not
 * interleaved); the exit code is non-zero when either fails, so `npm test` stops before vitest.
 * Written in Node rather than with the shell's `&` and `wait` so that it runs the same everywhere.
 */
import { spawn } from "node:child_process";

const SCRIPTS = ["typecheck", "lint", "api:check"] as const;

interface Outcome {
  script: string;
  code: number;
  output: string;
  seconds: number;
}

/** Run `npm run <script>`, collecting stdout and stderr together. */
function run(script: string): Promise<Outcome> {
  const start = Date.now();
  // A shell, so that `npm` resolves to npm.cmd on Windows too.
  const child = spawn(`npm run --silent ${script}`, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => {
    child.on("error", (error) => (output += `${error.message}\n`));
    child.on("close", (code, signal) =>
      resolve({ script, code: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - start) / 1000 }),
    );
  });
}

const outcomes = await Promise.all(
  SCRIPTS.map((script) =>
    run(script).then((outcome) => {
      const verdict = outcome.code === 0 ? "passed" : `FAILED (exit ${outcome.code})`;
      process.stdout.write(`${outcome.output}npm run ${script}: ${verdict} in ${outcome.seconds.toFixed(1)} s\n`);
      return outcome;
    }),
  ),
);
process.exitCode = outcomes.some((o) => o.code !== 0) ? 1 : 0;
