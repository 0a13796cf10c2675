/**
 * The package as a user gets it: the README's install block, run as it stands in a fresh app,
 * with the repository's URL pointing at a git repository that holds this working tree (a git
 * install, so npm clones it and runs its `prepare`, the build, in the clone) and npm's
 * `strict-allow-scripts` on, so an install script the block does not allow fails the install as
 * a later npm will. The README's complete server and client then run there, unchanged but for
 * the port, once as ES modules and once as CommonJS (`require("colyseus-matchmaker")`): four
 * clients land in one game, two per side, and the server serves the player page and the
 * dashboard from `colyseus-matchmaker/web`, prebuilt in the package (no bundler in the app).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transformSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPort } from "../helpers/sdk.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};

/** The placeholder the README's install block has for the repository's URL. */
const URL_PLACEHOLDER = "<url of this repository>";

/**
 * The README's install block, and what it tells a user to put in `.npmrc` and to install beside
 * the plugin: the test runs exactly that, so the README cannot drift from what works.
 */
function readmeInstall(): { block: string; npmrc: string; packages: string[] } {
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => b.includes('npm install "git+'));
  if (!block) throw new Error('the README has no sh block with `npm install "git+…"`');
  const npmrc = /echo "([^"]+)" >> \.npmrc/.exec(block)?.[1];
  if (!npmrc) throw new Error("the README's install block writes nothing to .npmrc");
  const command = block.replace(/\\\n/g, " ");
  const install = command.split("\n").find((line) => line.trim().startsWith("npm install"))!;
  const packages = install.split(/\s+/).filter((word) => /^(@[a-z0-9-]+\/)?[a-z0-9.-]+@\d+\.\d+\.\d+$/.test(word));
  return { block, npmrc, packages };
}

/**
 * A git repository in `target` whose one commit holds the working tree as it is (the files git
 * tracks and the new ones it does not ignore), so the test installs what is here, not HEAD.
 */
function snapshotRepository(target: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(repo, file)));
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(join(repo, file), join(target, file));
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@localhost", ...args], {
      cwd: target,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "--no-verify", "-m", "the working tree");
}

const NPM_TIMEOUT_MS = 150_000;

/** The environment for npm and node in the app: none of the npm variables of the `npm test` around us. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.toLowerCase().startsWith("npm_") && key.toLowerCase() !== "npm_config_cache") continue;
    if (key === "NODE_OPTIONS" || key.startsWith("VITEST") || key === "TEST") continue;
    env[key] = value;
  }
  // Installs come from the local npm cache (the repository's own install filled it).
  env.npm_config_prefer_offline = "true";
  env.npm_config_fetch_retries = "1";
  env.npm_config_fetch_timeout = "30000";
  env.npm_config_audit = "false";
  env.npm_config_fund = "false";
  return env;
}

/** Run a command to its end; reject with its output if it fails or outlives `timeoutMs`. */
function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...cleanEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`${command} ${args.join(" ")} did not finish in ${timeoutMs / 1000} s:\n${output.slice(-3000)}`),
      );
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
}

/** A long-running process whose output is collected. */
interface Running {
  child: ChildProcess;
  output: () => string;
}

/**
 * `node FILE`, or for a .ts file `npx tsx FILE` (the app's own tsx, as the README installs it). In
 * its own process group: npx and tsx each start a child, and `stop` must reach the last one.
 */
function start(file: string, cwd: string): Running {
  const [command, args] = file.endsWith(".ts") ? ["npx", ["--no-install", "tsx", file]] : [process.execPath, [file]];
  const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** Kill a process `start` started, with its children. */
function stop({ child }: Running): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

async function until(what: string, check: () => boolean, ms: number, context: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}:\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The TypeScript code blocks of a Markdown file of the repository (the README by default). */
function docBlocks(doc: string): string[] {
  const text = readFileSync(join(repo, doc), "utf8");
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

function readmeBlock(what: string, test: (code: string) => boolean, doc = "README.md"): string {
  const block = docBlocks(doc).find(test);
  if (!block) throw new Error(`${doc} has no ${what} code block`);
  return block;
}

/** The README's code as runnable JavaScript for this port: ESM as written, or CommonJS. */
function compile(code: string, port: number, format: "esm" | "cjs"): string {
  let source = code.replaceAll("2567", String(port));
  // CommonJS has no top-level await: the client's body runs in an async function.
  if (format === "cjs" && /\bawait\b/.test(source)) {
    const imports = source.match(/^import[^;]*;$/gm) ?? [];
    const body = imports.reduce((rest, line) => rest.replace(line, ""), source);
    source = `${imports.join("\n")}\n(async () => {\n${body}\n})().catch((e) => { console.error(e); process.exit(1); });`;
  }
  return transformSync(source, { loader: "ts", format, platform: "node", target: "node20" }).code;
}

describe("the packed package, installed into a fresh app", () => {
  let dir: string;
  let app: string;
  const running: Running[] = [];

  beforeAll(
    async () => {
      // What the README says to install, checked before anything is installed.
      const { block, npmrc, packages: versions } = readmeInstall();
      // The README's install trap: `colyseus` names an optional transport fetched from a git host.
      expect(npmrc).toBe("legacy-peer-deps=true");
      // The README's versions are the ones this repository is tested with.
      for (const spec of versions) {
        const at = spec.lastIndexOf("@");
        expect(pkg.devDependencies[spec.slice(0, at)], spec).toBe(spec.slice(at + 1));
      }
      expect(versions.map((v) => v.slice(0, v.lastIndexOf("@"))).sort()).toEqual(
        [
          "@colyseus/core",
          "@colyseus/monitor",
          "@colyseus/schema",
          "@colyseus/sdk",
          "colyseus",
          "express",
          "ws",
        ].sort(),
      );

      dir = mkdtempSync(join(tmpdir(), "colyseus-matchmaker-install-"));
      app = join(dir, "app");
      mkdirSync(app);
      const source = join(dir, "source");
      snapshotRepository(source);
      const script = block.replaceAll(URL_PLACEHOLDER, `file://${source}`);
      let output: string;
      try {
        output = await run("bash", ["-euo", "pipefail", "-c", script], app, 2 * NPM_TIMEOUT_MS, {
          // What a later npm does by default: an install script nobody allowed fails the install.
          npm_config_strict_allow_scripts: "true",
        });
      } catch (error) {
        throw new Error(
          `the README's install block failed in a fresh app; the local npm cache needs ${versions.join(" ")} ` +
            `and the repository's own dependencies (run \`npm install\` in the repository first):\n${(error as Error).message}`,
          { cause: error },
        );
      }
      // Every install script the packages have is allowed: nothing left for npm to warn about.
      expect(output).not.toMatch(/install-scripts|allowScripts/);
      const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
        type?: string;
        dependencies: Record<string, string>;
      };
      expect(manifest.type).toBe("module");
      expect(manifest.dependencies["colyseus-matchmaker"]).toBe(`git+file://${source}`);
    },
    2 * NPM_TIMEOUT_MS + 30_000,
  );

  afterAll(() => {
    running.forEach(stop);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships ESM and CommonJS builds with types, and exports only the documented entry points", async () => {
    const files = await run("npm", ["ls", "--all", "--parseable", "colyseus-matchmaker"], app, 30_000);
    expect(files).toContain("colyseus-matchmaker");
    const check = `
      const root = require("colyseus-matchmaker");
      const engine = require("colyseus-matchmaker/engine");
      const sim = require("colyseus-matchmaker/sim");
      const web = require("colyseus-matchmaker/web");
      const client = require("colyseus-matchmaker/client");
      let internal = "exported";
      try { require("colyseus-matchmaker/dist/esm/core/assembly.js"); } catch (e) { internal = e.code; }
      console.log(JSON.stringify({
        root: typeof root.defineQueue, backfill: typeof root.requestBackfill, engine: typeof engine.Matchmaker,
        sim: typeof sim.simulate, web: [typeof web.playPage, typeof web.dashboardPage],
        client: [typeof client.joinQueue, typeof client.MatchmakingEnded], subsetSums: "subsetSums" in engine || "subsetSums" in root,
        nearestRank: "nearestRank" in engine || "nearestRank" in root, internal,
      }));`;
    writeFileSync(join(app, "check.cjs"), check);
    writeFileSync(
      join(app, "check.mjs"),
      `import * as root from "colyseus-matchmaker"; import * as engine from "colyseus-matchmaker/engine";
       console.log(JSON.stringify({ root: Object.keys(root).sort(), engine: typeof engine.Matchmaker }));`,
    );
    const cjs = JSON.parse(await run(process.execPath, ["check.cjs"], app, 30_000));
    expect(cjs).toEqual({
      root: "function",
      backfill: "function",
      engine: "function",
      sim: "function",
      web: ["function", "function"],
      client: ["function", "function"],
      subsetSums: false,
      nearestRank: false,
      internal: "ERR_PACKAGE_PATH_NOT_EXPORTED",
    });
    const esm = JSON.parse(await run(process.execPath, ["check.mjs"], app, 30_000));
    expect(esm.engine).toBe("function");
    expect(esm.root).toEqual(
      [
        "BlockList",
        "MatchmakerError",
        "MatchmakerRoom",
        "MatchmakerState",
        "PROMETHEUS_CONTENT_TYPE",
        "PlayerRefused",
        "QueueFigures",
        "QueueViewRoom",
        "WaitingEntry",
        "aggregatingLogger",
        "cancelBackfill",
        "clientAddress",
        "closeUnknownMessage",
        "collectMetrics",
        "defineQueue",
        "failFastDriver",
        "limitRequestBodies",
        "matchmakerMetrics",
        "matchmakerTraces",
        "operatorAuth",
        "operatorCredentialsFromEnv",
        "playerArrived",
        "prometheusText",
        "queueSeatsOnly",
        "requestBackfill",
        "Ratings",
        "MemoryRatingStore",
        "SqliteRatingStore",
        "RedisRatingStore",
      ].sort(),
    );
  });

  it("has types for import and for require: TypeScript (nodenext) checks an ES module and a CommonJS file using it", async () => {
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          typeRoots: [join(repo, "node_modules", "@types")],
          types: ["node"],
        },
        files: ["types-esm.mts", "types-cjs.cts"],
      }),
    );
    writeFileSync(
      join(app, "types-esm.mts"),
      `import { defineQueue, requestBackfill, type MatchInfo } from "colyseus-matchmaker";
import { Matchmaker, type Ticket } from "colyseus-matchmaker/engine";
import { simulate } from "colyseus-matchmaker/sim";
import { dashboardPage, playPage, type PageHandler } from "colyseus-matchmaker/web";
import { joinQueue, type Matchmaking, type MatchmakingState, type StatusMessage } from "colyseus-matchmaker/client";
import { Client } from "@colyseus/sdk";
import type { IncomingMessage, ServerResponse } from "node:http";
const queue2: Matchmaking = joinQueue(new Client("ws://localhost:1"), "arena_queue", { rating: 1500 }, { retries: 0 });
const state: MatchmakingState = queue2.state;
void queue2.leave();
// @ts-expect-error the events are typed
queue2.on("status", (status: { waiting: string }) => status);
const pages: PageHandler[] = [playPage({ queues: ["arena_queue"] }), dashboardPage({ metrics: "/ops/metrics" })];
const handler: (req: IncomingMessage, res: ServerResponse) => void = pages[0]!;
// @ts-expect-error queues are room names
playPage({ queues: "arena_queue" });
const queue = defineQueue({ teamSize: 2, gameRoom: "arena" });
const engine = new Matchmaker({ teamSize: 1, policy: "greedy" });
// @ts-expect-error gameRoom is required
defineQueue({ teamSize: 2 });
const ticket: Ticket = { id: "t", players: [{ sessionId: "p", rating: 1 }], enqueuedAt: 0 };
engine.enqueue(ticket, 0);
export const used = [queue, handler, requestBackfill, simulate, null as unknown as MatchInfo, null as unknown as StatusMessage, state];
`,
    );
    writeFileSync(
      join(app, "types-cjs.cts"),
      `import matchmaker = require("colyseus-matchmaker");
import engine = require("colyseus-matchmaker/engine");
import client = require("colyseus-matchmaker/client");
const queue = matchmaker.defineQueue({ teamSize: 1, gameRoom: "arena" });
const status: client.StatusMessage | undefined = undefined;
// Real types, not \`any\`: a wrong option is an error (else this directive is unused: TS2578).
// @ts-expect-error teamSize is a number
matchmaker.defineQueue({ teamSize: "2", gameRoom: "arena" });
export = [queue, status, new engine.Matchmaker({ teamSize: 1, policy: "greedy" })];
`,
    );
    const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], app, 60_000);
  });

  it("every file the exports map names is in the package, and the guide's engine example runs", async () => {
    const installed = join(app, "node_modules", "colyseus-matchmaker");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, Record<string, string>>>;
    };
    const paths = Object.values(manifest.exports).flatMap((entry) =>
      typeof entry === "string" ? [entry] : Object.values(entry).flatMap((conditions) => Object.values(conditions)),
    );
    expect(paths.length).toBeGreaterThanOrEqual(21);
    for (const path of paths) expect(existsSync(join(installed, path)), path).toBe(true);

    // The client entry as a browser app bundles it: the package's own client modules and the SDK's, nothing of the server.
    const bundle = await build({
      stdin: { contents: 'export { joinQueue } from "colyseus-matchmaker/client";', resolveDir: app },
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(bundle.metafile.inputs);
    const own = inputs.filter((i) => i.includes("node_modules/colyseus-matchmaker/"));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((i) => !i.includes("node_modules/colyseus-matchmaker/dist/esm/client/"))).toEqual([]);
    expect(inputs.filter((i) => /node_modules\/(@colyseus\/core|colyseus)\//.test(i))).toEqual([]);

    const engine = readmeBlock(
      "engine",
      (code) => code.includes('from "colyseus-matchmaker/engine"'),
      "docs/simulator.md",
    );
    writeFileSync(join(app, "engine.mjs"), compile(engine, 0, "esm") + "\nconsole.log(JSON.stringify(match));\n");
    const match = JSON.parse(await run(process.execPath, ["engine.mjs"], app, 30_000)) as {
      teams: Array<{ players: Array<{ sessionId: string }> }>;
    };
    expect(match.teams.flatMap((team) => team.players.map((p) => p.sessionId)).sort()).toEqual(["alice", "bob"]);
  });

  /** The pages the README's server mounts from `colyseus-matchmaker/web`, as the package ships them. */
  async function expectPages(port: number): Promise<void> {
    const built = join(app, "node_modules", "colyseus-matchmaker", "dist", "web");
    const get = async (path: string) => {
      const response = await fetch(`http://localhost:${port}${path}`, { redirect: "manual" });
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        location: response.headers.get("location"),
        body: await response.text(),
      };
    };
    // No bundler in the app but tsx's compiler: what is served is what the package's build made.
    const bundlers = JSON.parse(await run("npm", ["ls", "esbuild", "--json"], app, 30_000)) as {
      dependencies?: Record<string, unknown>;
    };
    expect(Object.keys(bundlers.dependencies ?? {})).toEqual(["tsx"]);
    expect(await get("/play")).toMatchObject({ status: 301, location: "/play/" });
    const play = await get("/play/");
    expect(play).toMatchObject({ status: 200, type: "text/html; charset=utf-8" });
    expect(play.body).toContain('<script type="module" src="play.js"></script>');
    const playScript = await get("/play/play.js");
    expect(playScript).toMatchObject({ status: 200, type: "text/javascript; charset=utf-8" });
    expect(playScript.body.length).toBeGreaterThan(20_000); // the Colyseus SDK bundled in
    expect(playScript.body).toBe(readFileSync(join(built, "play", "play.js"), "utf8"));
    expect(JSON.parse((await get("/play/queues.json")).body)).toEqual({
      queues: [
        {
          name: "queue_2v2",
          shape: {
            kind: "two-teams",
            teams: 2,
            teamSize: 2,
            players: 4,
            minPlayers: 4,
            shortHandedAfterMs: null,
            maxParty: 2,
            sides: true,
            text: "2v2",
          },
          policy: "greedy",
          zones: [],
          latency: null,
          readyCheckMs: null,
          rating: { min: 0, max: 10_000 },
          roles: false,
          trustedPlayers: false,
          ranked: false,
        },
      ],
    });
    // The dashboard, behind operatorAuth (this machine, no credentials: let through).
    const dashboard = await get("/dashboard/");
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain('<script type="module" src="dashboard.js"></script>');
    const dashboardScript = await get("/dashboard/dashboard.js");
    expect(dashboardScript).toMatchObject({ status: 200, type: "text/javascript; charset=utf-8" });
    expect(dashboardScript.body).toContain("matchmaker-metrics");
    expect(dashboardScript.body).toBe(readFileSync(join(built, "dashboard", "dashboard.js"), "utf8"));
    expect((await get("/dashboard/uplot.css")).body).toContain(".uplot");
    expect(JSON.parse((await get("/matchmaker/metrics")).body)).toHaveProperty("queues");
  }

  // As the README says to run them (`npx tsx server.ts` with the tsx its install block adds), and
  // as CommonJS compiled to plain JavaScript.
  for (const [format, port] of [
    ["tsx", testPort(40)],
    ["cjs", testPort(41)],
  ] as const) {
    it(`runs the README's server and four of its clients ${format === "tsx" ? "with npx tsx, as written" : "as CommonJS"}: one game, two per side`, async () => {
      const ext = format === "tsx" ? "ts" : "cjs";
      const server = readmeBlock("server", (code) => code.includes("defineServer(") && code.includes("defineQueue("));
      const client = readmeBlock(
        "client",
        (code) => code.includes('from "colyseus-matchmaker/client"') && code.includes("joinQueue("),
      );
      const source = (code: string) =>
        format === "tsx" ? code.replaceAll("2567", String(port)) : compile(code, port, format);
      writeFileSync(join(app, `server.${ext}`), source(server));
      writeFileSync(join(app, `client.${ext}`), source(client));
      if (format === "cjs")
        expect(readFileSync(join(app, "server.cjs"), "utf8")).toContain('require("colyseus-matchmaker")');

      const serverProcess = start(`server.${ext}`, app);
      running.push(serverProcess);
      const up = async () => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          if (serverProcess.child.exitCode !== null)
            throw new Error(`the README's server exited:\n${serverProcess.output()}`);
          try {
            await fetch(`http://localhost:${port}/`);
            return;
          } catch {
            if (Date.now() > deadline)
              throw new Error(`the README's server did not listen:\n${serverProcess.output()}`);
            await new Promise((r) => setTimeout(r, 200));
          }
        }
      };
      await up();
      await expectPages(port);

      const clients = [0, 1, 2, 3].map(() => start(`client.${ext}`, app));
      running.push(...clients);
      const seated = /(\S+) plays side ([AB]) in match (\S+)/g;
      await until(
        "four players seated in a game",
        () => [...serverProcess.output().matchAll(seated)].length >= 4,
        30_000,
        () => `server:\n${serverProcess.output()}\nclients:\n${clients.map((c) => c.output()).join("\n")}`,
      );
      await until(
        "every client told its side",
        () => clients.every((c) => /match \S+: you play side [AB]/.test(c.output())),
        10_000,
        () => clients.map((c) => c.output()).join("\n"),
      );
      const seats = [...serverProcess.output().matchAll(seated)].map((m) => ({ side: m[2], match: m[3] }));
      expect(seats).toHaveLength(4);
      expect(new Set(seats.map((s) => s.match)).size).toBe(1);
      expect(seats.filter((s) => s.side === "A")).toHaveLength(2);
      expect(seats.filter((s) => s.side === "B")).toHaveLength(2);

      [...clients, serverProcess].forEach(stop);
    }, 90_000);
  }
});
