import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { ADMIN_KEY, ROOT, TMP_DIR } from "./e2e-env";

/** A port the kernel just handed out on 127.0.0.1 (closed again before the site takes it). */
export async function freePort() {
  return new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The environment of a private site on `port` with its own data folder (no SMTP: outbox files). */
export function siteEnv(port: number, dataDir: string, extra: Record<string, string> = {}, unset: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ADMIN_KEY,
    RATE_LIMIT: "off",
    // Served on 127.0.0.1 on purpose (a production start refuses a local PUBLIC_URL otherwise).
    ALLOW_LOCAL_PUBLIC_URL: "on",
    ...extra,
  };
  for (const k of ["SMTP_URL", "DATABASE_PATH", "DATABASE_URL", "ORG_INBOX", "MAIL_FROM", "TRUST_PROXY"]) if (!(k in extra)) delete env[k];
  for (const k of unset) delete env[k];
  return env;
}

export type SiteProcess = {
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process (and its children) printed so far. */
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * `node app/server/start.mjs` (the supervisor and its server process, exactly as `npm start`
 * runs them) on a free port and a fresh data folder under tests/.tmp. The build is fresh by
 * the time browser tests run, so this never builds.
 */
export async function startSiteProcess(label: string, extra: Record<string, string> = {}, unset: readonly string[] = []): Promise<SiteProcess> {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(TMP_DIR, `${label}-`));
  const port = await freePort();
  const child = spawn(process.execPath, ["app/server/start.mjs"], {
    cwd: ROOT,
    env: siteEnv(port, dataDir, extra, unset),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started = Date.now();
  // The text log's line, or LOG_FORMAT=json's entry for it.
  while (!output.includes("[http] serving") && !output.includes('"area":"http","message":"serving')) {
    if (child.exitCode !== null) throw new Error(`the site did not start:\n${output}`);
    if (Date.now() - started > 45_000) throw new Error(`the site did not start in 45 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    dataDir,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server process's pid, from its latest "[http] serving … pid N" line. */
export function servingPids(output: string): number[] {
  return [...output.matchAll(/\[http\] serving .*pid (\d+)\)/g)].map((m) => Number(m[1]));
}
