// A PostgreSQL server for the tests: TEST_DATABASE_URL when it is set, else a throwaway cluster
// started here from the machine's PostgreSQL programs (Debian's postgresql package) in a
// temporary folder, on a free port, stopped and deleted afterwards. Nothing is needed from the
// machine's own PostgreSQL service. As root the cluster runs as the 'postgres' user (initdb
// refuses root).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function findPostgresBin() {
  const fromPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return path.dirname(fromPath);
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster and returns { url, stop }, or undefined (with the reason) when PostgreSQL
 * is not installed. fsync is off unless `durable` (the bench): a test cluster is thrown away,
 * and the tests measure correctness, not the disk. `own`: a cluster of its own even when
 * TEST_DATABASE_URL is set, with `halt()` (pg_ctl stop -m fast) and `resume()` (pg_ctl start),
 * for tests that take the database away from a running site, and `crash()`.
 */
export async function startTestPostgres({ durable = false, own = false } = {}) {
  if (process.env.TEST_DATABASE_URL && !own) return { url: process.env.TEST_DATABASE_URL, stop() {}, started: false };
  const bin = findPostgresBin();
  if (!bin) return { reason: "PostgreSQL is not installed here (no initdb; Debian: apt-get install postgresql)" };
  const asRoot = process.getuid?.() === 0;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "site-pg-"));
  const dataDir = path.join(base, "data");
  const port = await freePort();
  const run = (file, args) => {
    const cmd = [path.join(bin, file), ...args];
    if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", ...cmd], { stdio: "pipe" });
    else execFileSync(cmd[0], cmd.slice(1), { stdio: "pipe" });
  };
  if (asRoot) execFileSync("chown", ["postgres", base]);
  const start = () =>
    run("pg_ctl", [
      "-D", dataDir, "-l", path.join(base, "log"), "-w", "-o",
      `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c max_connections=400` +
        (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"),
      "start",
    ]);
  try {
    run("initdb", ["-D", dataDir, "--no-locale", "-E", "UTF8", "-A", "trust", "-U", "site"]);
    start();
  } catch (e) {
    const log = fs.existsSync(path.join(base, "log")) ? fs.readFileSync(path.join(base, "log"), "utf8").slice(-2000) : "";
    fs.rmSync(base, { recursive: true, force: true });
    return { reason: `PostgreSQL did not start: ${String(e.stderr ?? e.message).trim()}\n${log}` };
  }
  return {
    url: `postgres://site@127.0.0.1:${port}/postgres`,
    started: true,
    halt() {
      run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    },
    resume: start,
    /** A frozen server: SIGSTOP to the postmaster and every backend (no answer, no refusal) until `thaw()`. */
    freeze() {
      signalCluster(dataDir, "SIGSTOP");
    },
    thaw() {
      signalCluster(dataDir, "SIGCONT");
    },
    /** A crash: the server stops at once (pg_ctl stop -m immediate), to recover from its log at `resume()`. */
    crash() {
      run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    },
    stop() {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        /* already gone */
      }
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Sends `signal` to the cluster's postmaster and all its children. */
function signalCluster(dataDir, signal) {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
    .split("\n")
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
  // The postmaster first when stopping (it starts no new backend), last when resuming.
  const order = signal === "SIGSTOP" ? [postmaster, ...children] : [...children, postmaster];
  for (const pid of order) {
    try {
      process.kill(pid, signal);
    } catch {
      /* ended meanwhile */
    }
  }
}
