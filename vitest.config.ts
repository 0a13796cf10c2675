import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Colyseus 0.18 on Node 20 needs the global WebSocket before it loads.
    setupFiles: ["example-server/node20.ts"],
    // Warns, unsilenced, when Chromium is missing and the browser tests are skipped.
    globalSetup: ["test/setup/browser-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Console output (the SDK's warnings, Colyseus's banners and notices) only for failing
    // tests; `npx vitest run --silent=false` shows all of it.
    silent: "passed-only",
    // Two files at a time even on a 2-core machine (vitest's default there is one): the
    // integration files mostly wait on sockets, child processes and timers, and every file
    // already has its own ports (test/unit/test-ports.test.ts) and its own Redis key prefix.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/stat/**/*.test.ts"],
          // Pure code without servers: the files of a worker share their imported modules
          // instead of each loading them again (`@fast-check/vitest` alone takes 2-4 s to
          // import, in 31 files). Safe because these files keep no state between them: no
          // module mocks, spies restored after each test, no environment or global changes.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Servers, child processes, Colyseus's process-wide matchmaker: a fresh module
          // graph for every file.
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: ["test/unit/**", "test/stat/**"],
        },
      },
    ],
  },
});
