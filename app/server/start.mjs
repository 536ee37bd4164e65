// `npm start`: builds when the build is missing or older than the sources, then serves it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const entry = path.join(root, "build/server/index.js");

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
const builtAt = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
const stale = sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
if (!builtAt || stale) {
  console.log(builtAt ? "[start] sources changed since the last build: building…" : "[start] building…");
  const r = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
process.env.NODE_ENV = "production";
const { startServer } = await import(entry);
await startServer();
