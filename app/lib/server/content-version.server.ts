import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";

/**
 * A signal from a command run beside the site (the old site's import) that its content
 * changed: a small file in DATA_DIR whose change every server process notices within a second
 * (on SQLite no message reaches a running server from another process), and then drops its
 * cached pages.
 */
const FILE = "content-version";
const fileOf = () => path.join(env().dataDir, FILE);

/** Records that content changed (a new version), for every running server on this machine. */
export function markContentChanged() {
  try {
    fs.writeFileSync(fileOf(), `${Date.now()}\n`, { mode: 0o600 });
  } catch (e) {
    console.error(`[content-version] could not record the change: ${(e as Error).message}`);
  }
}

let watching: string | null = null;

/** Runs `onChange` when another process records a change (checked every `intervalMs`; never keeps the process alive). */
export function watchContentVersion(onChange: () => void, intervalMs = 500) {
  let file: string;
  try {
    file = fileOf();
  } catch {
    return;
  }
  if (watching === file) return;
  if (watching) fs.unwatchFile(watching);
  watching = file;
  fs.watchFile(file, { interval: intervalMs, persistent: false }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs) onChange();
  });
}
