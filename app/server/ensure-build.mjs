// Builds when the build is missing or older than the sources (`npm start`, `npm run backup`,
// `npm run restore` all run the built server code).
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

export function ensureBuild(label = "start") {
  const builtAt = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
  const stale = sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
  if (!builtAt || stale) {
    console.log(builtAt ? `[${label}] sources changed since the last build: building…` : `[${label}] building…`);
    const r = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
