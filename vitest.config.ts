import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Colyseus 0.18 on Node 20 needs the global WebSocket before it loads.
    setupFiles: ["example-server/node20.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
