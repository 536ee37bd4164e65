// Starts a private copy of the site for the measurement commands (bench.mjs, lighthouse.mjs):
// `node app/server/start.mjs` (which builds first when the build is stale) on a free loopback
// port, with a fresh temporary DATA_DIR, RATE_LIMIT=off, a generated ADMIN_KEY and PUBLIC_URL
// set to that port. The server's output goes to tests/.tmp/bench/<label>-<pid>.log (logs older
// than a day are removed at the next start).
//
// By default it runs from a snapshot of the sources in a temporary folder (node_modules linked),
// so it builds into its own build/ folder: another build of the checkout (npm start, the browser
// tests, a second bench) can then neither delete the assets this server is serving nor have its
// own assets deleted by this one. `inPlace: true` (the commands' --in-place) runs the checkout's
// start.mjs and build/ directly instead.
//
// Every started site is stopped on normal exit, on errors and on Ctrl-C (SIGINT/SIGTERM).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const TMP_DIR = path.join(ROOT, "tests/.tmp");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port the kernel just handed out on 127.0.0.1 (closed again before the site takes it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

const running = new Set();
let handlersInstalled = false;

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const onSignal = (signal, code) => {
    console.error(`\n[bench] ${signal}: stopping the site…`);
    stopAll().finally(() => process.exit(code));
  };
  process.once("SIGINT", () => onSignal("SIGINT", 130));
  process.once("SIGTERM", () => onSignal("SIGTERM", 143));
  // Last resort when the caller exits without stopping (process.exit, a crash): no waiting here.
  process.on("exit", () => {
    for (const site of running) site.killNow();
  });
}

const cleanups = new Set();

/** Registers extra cleanup (e.g. closing a browser) run by stopAll before the sites stop. */
export function addCleanup(fn) {
  installHandlers();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Runs registered cleanups, then stops every site this process started. */
export async function stopAll() {
  await Promise.allSettled([...cleanups].map(async (fn) => fn()));
  cleanups.clear();
  await Promise.allSettled([...running].map((s) => s.stop()));
}

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Starts the site and resolves once GET / answers (any HTTP status). When the process exits
 * before answering (for example a build racing another build of the same checkout), it tries
 * again, up to `attempts` times in all.
 * @param {{ label?: string, readyTimeoutMs?: number, quiet?: boolean, attempts?: number, inPlace?: boolean, nodeArgs?: string[], env?: Record<string, string>, cwd?: string }} [opts]
 */
export async function startSite({ attempts = 3, ...opts } = {}) {
  for (let i = 1; ; i++) {
    try {
      return await startOnce(opts);
    } catch (e) {
      if (i >= attempts || !(e instanceof ExitedEarly)) throw e;
      console.log(`[bench] the site exited before answering (attempt ${i} of ${attempts}); retrying in 3 s. ${e.message.split("\n")[0]}`);
      await sleep(3000);
    }
  }
}

class ExitedEarly extends Error {}

/** The private site's Daraja callback secret (the callbacks bench posts to it). */
const MPESA_SECRET = "bench-callback-secret-0123456789";

/** The inputs of a build, as ensure-build.mjs lists them (npm start rebuilds when one is newer than the build). */
function buildInputs() {
  const fallback = ["app", "db", "public", "package.json", "vite.config.ts", "react-router.config.ts"];
  let names = fallback;
  try {
    const text = fs.readFileSync(path.join(ROOT, "app/server/ensure-build.mjs"), "utf8");
    const m = text.match(/const sources\s*=\s*\[([^\]]*)\]/);
    if (m) names = [...m[1].matchAll(/["']([^"']+)["']/g)].map((x) => x[1]);
  } catch {}
  return [...new Set([...names, ...fallback, "tsconfig.json"])];
}

/** Copies the build inputs to a temporary folder with node_modules linked; returns the folder. */
function snapshotTree(label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `site-${label}-tree-`));
  for (const name of buildInputs()) {
    const from = path.join(ROOT, name);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, name), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

async function startOnce({ label = "bench", readyTimeoutMs = 300_000, quiet = false, inPlace = false, nodeArgs = [], env: extraEnv = {}, cwd: otherTree } = {}) {
  installHandlers();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `site-${label}-data-`));
  // "bench-" keeps the key mixed (letters and a symbol), as ADMIN_KEY requires.
  const adminKey = `bench-${crypto.randomBytes(24).toString("base64url")}`;
  const logDir = path.join(TMP_DIR, "bench");
  fs.mkdirSync(logDir, { recursive: true });
  for (const name of fs.readdirSync(logDir)) {
    const file = path.join(logDir, name);
    try {
      if (name.endsWith(".log") && Date.now() - fs.statSync(file).mtimeMs > 86_400_000) fs.rmSync(file);
    } catch {}
  }
  const logFile = path.join(logDir, `${label}-${process.pid}.log`);
  const logFd = fs.openSync(logFile, "w");

  const env = { ...process.env };
  // Nothing from the caller's shell may point the private site at real mail or a real database.
  for (const k of ["SMTP_URL", "DATABASE_PATH", "DATABASE_URL", "WORKERS", "TRUST_PROXY", "HOST", "PORT", "PUBLIC_URL", "DATA_DIR"]) {
    delete env[k];
  }
  Object.assign(env, {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: origin,
    ALLOW_LOCAL_PUBLIC_URL: "on",
    DATA_DIR: dataDir,
    RATE_LIMIT: "off",
    ADMIN_KEY: adminKey,
    MPESA_CALLBACK_SECRET: MPESA_SECRET,
    // What a caller sets on purpose (the PostgreSQL bench: DATABASE_URL, WORKERS).
    ...extraEnv,
  });

  // otherTree: another commit's sources, already unpacked by the caller (served as they are).
  const tree = inPlace || otherTree ? null : snapshotTree(label);
  const cwd = otherTree ?? tree ?? ROOT;
  if (!quiet) {
    console.log(
      `[bench] starting the site on ${origin} ` +
        (tree ? `from a snapshot of the sources in ${tree} (builds there)` : otherTree ? `from ${otherTree}` : "from the checkout (builds first if stale)") +
        `; log: ${path.relative(ROOT, logFile)}`,
    );
  }
  const startedAt = Date.now();
  // detached: its own process group, so a build (npx react-router build) is stopped along with it.
  const proc = spawn(process.execPath, [...nodeArgs, "app/server/start.mjs"], {
    cwd,
    env,
    stdio: ["ignore", logFd, logFd],
    detached: true,
  });
  fs.closeSync(logFd);

  let exitInfo = null;
  const exited = new Promise((resolve) => {
    proc.once("exit", (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  const alive = () => exitInfo === null;

  let stopping;
  const site = {
    origin,
    port,
    tree,
    dataDir,
    dbPath: path.join(dataDir, "site.db"),
    adminKey,
    mpesaSecret: MPESA_SECRET,
    logFile,
    pid: proc.pid,
    alive,
    exitInfo: () => exitInfo,
    logTail: (lines = 40) => tail(logFile, lines),
    /** SIGTERM to the site's process group, SIGKILL after 10 s; then removes DATA_DIR. */
    stop() {
      stopping ??= (async () => {
        if (alive()) {
          try {
            process.kill(-proc.pid, "SIGTERM");
          } catch {}
          await Promise.race([exited, sleep(10_000)]);
          if (alive()) {
            try {
              process.kill(-proc.pid, "SIGKILL");
            } catch {}
            await Promise.race([exited, sleep(3_000)]);
          }
        }
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (tree) fs.rmSync(tree, { recursive: true, force: true });
        running.delete(site);
      })();
      return stopping;
    },
    killNow() {
      if (alive()) {
        try {
          process.kill(-proc.pid, "SIGKILL");
        } catch {}
      }
      try {
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (tree) fs.rmSync(tree, { recursive: true, force: true });
      } catch {}
    },
  };
  running.add(site);

  // Wait until it answers, bounded; fail early if the process dies.
  const deadline = Date.now() + readyTimeoutMs;
  let lastError = "";
  while (true) {
    if (!alive()) {
      await site.stop();
      throw new ExitedEarly(
        `the site exited (${exitInfo.code ?? exitInfo.signal}) before answering. Last log lines:\n${tail(logFile)}`,
      );
    }
    if (Date.now() > deadline) {
      await site.stop();
      throw new Error(`the site did not answer within ${readyTimeoutMs / 1000} s (${lastError}). Last log lines:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(origin + "/", { signal: AbortSignal.timeout(3000), redirect: "manual" });
      await res.arrayBuffer();
      if (!quiet) {
        console.log(`[bench] site answered GET / with ${res.status} after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
      }
      break;
    } catch (e) {
      lastError = e instanceof Error ? e.message : String(e);
      await sleep(300);
    }
  }
  return site;
}
