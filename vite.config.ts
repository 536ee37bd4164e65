/// <reference types="vitest/config" />
import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    // The server build is the whole app plus the HTTP server in app/server/server.ts.
    rollupOptions: isSsrBuild ? { input: "./app/server/server.ts" } : undefined,
  },
  ssr: { external: ["better-sqlite3"] },
  plugins: process.env.VITEST ? [] : [reactRouter()],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}));
