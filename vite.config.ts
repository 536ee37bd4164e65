/// <reference types="vitest/config" />
import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/** After the client build: every site picture's variants as static files (app/features/images). */
function imageVariants(): Plugin {
  return {
    name: "site-image-variants",
    apply: "build",
    async writeBundle(options) {
      if (!options.dir) return;
      const { buildImageVariants } = await import("./app/features/images/variants.server.ts");
      const root = fileURLToPath(new URL(".", import.meta.url));
      const started = Date.now();
      const { written, made } = await buildImageVariants(`${root}public`, options.dir, `${root}node_modules/.cache/site-image-variants`);
      this.info(`${written} image variants in ${options.dir}/img (${made} newly encoded, ${Date.now() - started} ms)`);
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    // The server build is the whole app plus the HTTP server in app/server/server.ts.
    rollupOptions: isSsrBuild ? { input: "./app/server/server.ts" } : undefined,
  },
  ssr: { external: ["better-sqlite3"] },
  plugins: process.env.VITEST ? [] : [reactRouter(), ...(isSsrBuild ? [] : [imageVariants()])],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}));
