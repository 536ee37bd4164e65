// Starts the site for the browser tests on a fresh data folder: wipes DATA_DIR (only when it
// lies under tests/.tmp, so a mistyped variable can never remove real data), then runs the
// ordinary entry point, which builds first if the build is stale.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scratch = path.join(root, "tests", ".tmp") + path.sep;
const dataDir = path.resolve(root, process.env.DATA_DIR ?? "");
if (!dataDir.startsWith(scratch)) {
  console.error(`[e2e-site] DATA_DIR must be under tests/.tmp, got ${dataDir}`);
  process.exit(1);
}
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
await import(path.join(root, "app/server/start.mjs"));
