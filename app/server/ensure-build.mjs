// Builds when the build is missing or older than the sources (`npm start`, `npm run backup`,
// `npm run restore` all run the built server code); never in a release (`npm run release`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const entry = path.join(root, "build/server/index.js");

function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

const sources = ["app", "db", "public", "package.json", "vite.config.ts", "react-router.config.ts"];

/**
 * `react-router build`, its output passed through without one line: React Router's config
 * loader starts Vite with `envFile: false` (not ours to change) and Vite warns about that
 * option each time, which an operator reads as an error in their settings.
 */
export function runBuild() {
  // Memory for a 1 GB server: V8 collects before its heap passes 384 MB (it otherwise grows it
  // lazily to well over 500 MB), and glibc keeps two malloc arenas, not eight per core, for
  // libvips' threads encoding the image variants.
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=384`.trim(),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
  };
  const r = spawnSync("npx", ["react-router", "build"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 << 20 });
  const drop = (text) => String(text ?? "").split("\n").filter((l) => !l.includes("`envFile` option is deprecated")).join("\n");
  process.stdout.write(drop(r.stdout));
  process.stderr.write(drop(r.stderr));
  return r.status ?? 1;
}

/** A folder made by `npm run release` (app/server/release.mjs): built once, elsewhere. */
export const isRelease = fs.existsSync(path.join(root, "RELEASE"));

export function ensureBuild(label = "start") {
  // A release is never built where it runs: it has no sources and no dev dependencies.
  if (isRelease) {
    if (!fs.existsSync(entry)) {
      console.error(`[${label}] this release has no build/server/index.js: unpack it again, or make a new one with \`npm run release\`.`);
      process.exit(1);
    }
    return;
  }
  const builtAt = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
  const stale = sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
  if (!builtAt || stale) {
    console.log(builtAt ? `[${label}] sources changed since the last build: building…` : `[${label}] building…`);
    const status = runBuild();
    if (status !== 0) process.exit(status);
  }
}
