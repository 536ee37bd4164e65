/// <reference types="vitest/config" />
import { reactRouter } from "@react-router/dev/vite";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pLimit from "p-limit";
import zlib from "node:zlib";
import { createLogger, defineConfig, type Plugin } from "vite";

/**
 * Vite's logger without one line: React Router's own child compiler sets `envFile: false`
 * (not ours to change), and Vite warns about that option once per compiler started, which a
 * new operator reads as an error in our settings.
 */
function quietLogger() {
  const logger = createLogger();
  const warn = logger.warn.bind(logger);
  logger.warn = (message, options) => {
    if (message.includes("`envFile` option is deprecated")) return;
    warn(message, options);
  };
  return logger;
}

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

/**
 * After the client build: each script, stylesheet and SVG also as .br (brotli 11) and .gz
 * (gzip 9) beside it, which the server sends as they are to a browser that accepts them
 * (sirv's precompressed files), instead of compressing every answer again at a lower level.
 */
function precompressAssets(): Plugin {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  return {
    name: "site-precompress",
    apply: "build",
    async writeBundle(options) {
      if (!options.dir) return;
      const files = (await fs.readdir(options.dir, { recursive: true })).map(String).filter((f) => /\.(js|css|svg)$/.test(f));
      let saved = 0;
      // Two files at a time: brotli 11 holds tens of MB per file being compressed.
      const turn = pLimit(2);
      await Promise.all(
        files.map((f) => turn(async () => {
          const file = path.join(options.dir!, f);
          const body = await fs.readFile(file);
          if (body.length < 1024) return;
          const br = await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
          const gz = await gzip(body, { level: 9 });
          if (br.length < body.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < body.length) await fs.writeFile(`${file}.gz`, gz);
          saved += body.length - br.length;
        })),
      );
      this.info(`${files.length} files precompressed (brotli saves ${Math.round(saved / 1000)} kB in all)`);
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  customLogger: quietLogger(),
  build: {
    // The server build is the whole app plus the HTTP server in app/server/server.ts.
    // No plugin-timing table at the end: the image variants' encoding is slow on a fresh cache by design.
    rollupOptions: { ...(isSsrBuild ? { input: "./app/server/server.ts" } : {}), checks: { bundlerTimings: false } },
  },
  ssr: { external: ["better-sqlite3"] },
  plugins: process.env.VITEST ? [] : [reactRouter(), ...(isSsrBuild ? [] : [imageVariants(), precompressAssets()])],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}));
