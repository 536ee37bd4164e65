import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, ROOT, TMP_DIR } from "../support/e2e-env";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { freePort, startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * deploy/Caddyfile as shipped, with Debian's caddy in front of the built site (`npm start`):
 * the only changes are `tls internal` (a certificate from Caddy's own authority, which the
 * client here trusts), free ports, and the site's port. The site runs as deploy/site.env says
 * (HOST=127.0.0.1), trusting forwarded headers from 127.0.0.1 only, so a client on another
 * loopback address (127.0.0.7) can reach its port directly and try to forge one.
 */
const caddyBinary = ["/usr/bin/caddy", "/usr/local/bin/caddy"].find((p) => fs.existsSync(p));
const required = process.env.REQUIRE_CADDY === "1";
if (!caddyBinary && !required) console.warn("[deploy test] SKIPPED: Debian's caddy is not installed (apt-get install caddy; .ci/run installs it).");

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function get(
  mod: typeof http | typeof https,
  port: number,
  pathname: string,
  options: { headers?: Record<string, string>; from?: string; ca?: string; method?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method: options.method ?? "GET",
        localAddress: options.from,
        headers: { Host: `localhost:${port}`, ...options.headers },
        ...(options.ca ? { ca: options.ca, servername: "localhost" } : {}),
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer from ${pathname} in 15 s`)));
    req.end();
  });
}

describe.runIf(testDatabaseKind === "sqlite" && (caddyBinary || required))("Caddy in front of the site (deploy/Caddyfile)", () => {
  let site: SiteProcess;
  let caddy: ChildProcess;
  let caddyOutput = "";
  let httpsPort = 0;
  let httpPort = 0;
  let ca = "";
  let caddyDir = "";

  beforeAll(async () => {
    if (!caddyBinary) throw new Error("Debian's caddy is needed for this test (REQUIRE_CADDY=1): apt-get install caddy");
    builtSite();
    httpsPort = await freePort();
    httpPort = await freePort();
    site = await startSiteProcess("caddy", {
      PUBLIC_URL: `https://localhost:${httpsPort}`,
      TRUST_PROXY: "127.0.0.1",
      RATE_LIMIT: "off",
    });
    caddyDir = fs.mkdtempSync(path.join(TMP_DIR, "caddy-"));
    const shipped = fs.readFileSync(path.join(ROOT, "deploy/Caddyfile"), "utf8");
    expect(shipped).toMatch(/^example\.org \{$/m);
    expect(shipped).toMatch(/reverse_proxy 127\.0\.0\.1:3000 \{/);
    const caddyfile =
      `{\n\tadmin off\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n\tstorage file_system ${caddyDir}/data\n}\n` +
      shipped
        .replace(/^example\.org \{$/m, "localhost {\n\ttls internal")
        .replace("reverse_proxy 127.0.0.1:3000", `reverse_proxy 127.0.0.1:${site.port}`);
    fs.writeFileSync(path.join(caddyDir, "Caddyfile"), caddyfile);
    caddy = spawn(caddyBinary, ["run", "--config", path.join(caddyDir, "Caddyfile"), "--adapter", "caddyfile"], {
      env: { PATH: process.env.PATH, HOME: caddyDir, XDG_DATA_HOME: `${caddyDir}/data`, XDG_CONFIG_HOME: `${caddyDir}/config` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    caddy.stdout!.on("data", (d) => (caddyOutput += d));
    caddy.stderr!.on("data", (d) => (caddyOutput += d));
    // Caddy's internal authority writes its root certificate once it has issued for localhost.
    const root = path.join(caddyDir, "data/pki/authorities/local/root.crt");
    const started = Date.now();
    for (;;) {
      if (caddy.exitCode !== null) throw new Error(`caddy stopped:\n${caddyOutput}`);
      if (fs.existsSync(root)) {
        ca = fs.readFileSync(root, "utf8");
        const ok = await get(https, httpsPort, "/healthz", { ca }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
      }
      if (Date.now() - started > 30_000) throw new Error(`caddy did not serve https in 30 s:\n${caddyOutput}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 90_000);

  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const gone = new Promise((r) => caddy.once("exit", r));
      caddy.kill("SIGTERM");
      await gone;
    }
    await site?.stop();
    if (caddyDir) fs.rmSync(caddyDir, { recursive: true, force: true });
  });

  let seenWrongKeys = 0;
  /** The client address the site recorded for a wrong admin key sent this way. */
  async function addressSeen(send: (headers: Record<string, string>) => Promise<Answer>): Promise<string> {
    const marker = `wrong-key-${Math.random().toString(36).slice(2)}-0000000`;
    const answer = await send({ "X-Admin-Key": marker });
    expect(answer.status).toBe(401);
    const db = new Database(path.join(site.dataDir, "site.db"), { readonly: true, fileMustExist: true });
    try {
      const count = () => (db.prepare("SELECT count(*) AS n FROM activity WHERE type = 'admin.api_key_failed'").get() as { n: number }).n;
      const before = seenWrongKeys;
      for (let i = 0; i < 50 && count() <= before; i++) await new Promise((r) => setTimeout(r, 100));
      seenWrongKeys = count();
      const row = db.prepare("SELECT actor_ip FROM activity WHERE type = 'admin.api_key_failed' ORDER BY id DESC LIMIT 1").get() as { actor_ip: string } | undefined;
      return row?.actor_ip ?? "";
    } finally {
      db.close();
    }
  }

  it("serves the site over HTTPS with the certificate for its name, and sends plain http to https", async () => {
    const page = await get(https, httpsPort, "/", { ca });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<html");
    // PUBLIC_URL is https: the site asks browsers to keep to it.
    expect(page.headers["strict-transport-security"]).toBeTruthy();
    const plain = await get(http, httpPort, "/join?x=1");
    expect([301, 308]).toContain(plain.status);
    // (Caddy names no port in it here: on the server both are the standard 80 and 443.)
    const to = new URL(plain.headers.location ?? "");
    expect([to.protocol, to.hostname, to.pathname + to.search]).toEqual(["https:", "localhost", "/join?x=1"]);
  });

  it("health checks answer through the proxy, never cached", async () => {
    for (const p of ["/healthz", "/readyz"]) {
      const r = await get(https, httpsPort, p, { ca });
      expect(r.status, p).toBe(200);
      expect(r.headers["cache-control"], p).toBe("no-store");
      expect(JSON.parse(r.body).ok, p).toBe(true);
    }
  });

  it("the site sees the address the client connected to Caddy from, not one the client wrote", async () => {
    const api = "/api/badge_orders.php?status=pending";
    expect(await addressSeen((headers) => get(https, httpsPort, api, { ca, headers, from: "127.0.0.2" }))).toBe("127.0.0.2");
    // A forged X-Forwarded-For is replaced by Caddy, not passed on.
    expect(
      await addressSeen((headers) => get(https, httpsPort, api, { ca, headers: { ...headers, "X-Forwarded-For": "203.0.113.77" }, from: "127.0.0.3" })),
    ).toBe("127.0.0.3");
  });

  it("X-Forwarded-Proto: Caddy's says https (no redirect), and a client's own is not believed", async () => {
    const viaCaddy = await get(https, httpsPort, "/join", { ca, headers: { "X-Forwarded-Proto": "http" } });
    expect(viaCaddy.status).toBe(200);
    // From the proxy's address, a plain-http visitor is sent to https (a proxy that does not redirect itself).
    const fromProxy = await get(http, site.port, "/join", { from: "127.0.0.1", headers: { "X-Forwarded-Proto": "http", "X-Forwarded-Host": `localhost:${httpsPort}` } });
    expect(fromProxy.status).toBe(301);
    expect(fromProxy.headers.location).toBe(`https://localhost:${httpsPort}/join`);
    // The same header from anyone else is ignored.
    const direct = await get(http, site.port, "/join", { from: "127.0.0.7", headers: { "X-Forwarded-Proto": "http", Host: `localhost:${httpsPort}` } });
    expect(direct.status).toBe(200);
  });

  it("a request straight to the site's port cannot forge its address", async () => {
    const api = "/api/badge_orders.php?status=pending";
    const forged = await addressSeen((headers) =>
      get(http, site.port, api, { from: "127.0.0.7", headers: { ...headers, "X-Forwarded-For": "203.0.113.77", Host: `localhost:${httpsPort}` } }),
    );
    expect(forged).toBe("127.0.0.7");
    // The admin key through the proxy works as ever.
    expect((await get(https, httpsPort, api, { ca, headers: { "X-Admin-Key": ADMIN_KEY } })).status).toBe(200);
  });
});
