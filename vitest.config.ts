import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Colyseus 0.18 on Node 20 needs the global WebSocket before it loads.
    setupFiles: ["example-server/node20.ts"],
    // Warns, unsilenced, when Chromium is missing and the browser tests are skipped.
    globalSetup: ["test/setup/browser-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Console output (the SDK's warnings, Colyseus's banners and notices) only for failing
    // tests; `npx vitest run --silent=false` shows all of it.
    silent: "passed-only",
  },
});
