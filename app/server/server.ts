import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestListener } from "@react-router/node";
import compression from "compression";
import sirv from "sirv";
import * as build from "virtual:react-router/server-build";
import { flushAnalytics } from "~/features/analytics/analytics.server";
import { startAnalyticsRollup, stopAnalyticsRollup } from "~/features/analytics/rollup.server";
import { closeDb, getDb } from "~/lib/db.server";
import { drainOutbox, startMailWorker, stopMailWorker } from "~/lib/email.server";
import { ConfigError, env } from "~/lib/env.server";
import { adminKeyInfo } from "~/lib/secrets.server";
import { baseSecurityHeaders } from "~/lib/security-headers.server";
import { runSeeds } from "../../db/seed";

/** The client address: the socket's, or with TRUST_PROXY the last X-Forwarded-For hop. */
function addressOf(request: Request, socketAddress: string, trustProxy: boolean) {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const hops = forwarded?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
    const last = hops[hops.length - 1];
    if (last && last.length <= 64) return last;
  }
  return socketAddress.replace(/^::ffff:/, "");
}

function announceAdminKey() {
  const info = adminKeyInfo();
  if (info.source === "env") {
    console.log("[admin] using the admin key from ADMIN_KEY.");
    return;
  }
  console.log(
    `[admin] ${info.created ? "generated a new" : "using the"} admin key stored in ${info.file} (mode 0600):\n` +
      `[admin]   ${info.value}\n` +
      "[admin] To choose your own, set ADMIN_KEY (16+ characters) or replace that file and restart.",
  );
}

export async function startServer() {
  let config;
  try {
    config = env();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const db = await getDb();
  await runSeeds(db);
  announceAdminKey();
  await startMailWorker();

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const statics = sirv(clientDir, {
    etag: true,
    setHeaders(res, pathname) {
      res.setHeader(
        "Cache-Control",
        pathname.startsWith("/assets/")
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600",
      );
    },
  });
  const compress = compression({ threshold: 1024 });
  const security = baseSecurityHeaders(config.publicUrl.startsWith("https://"));
  const listener = createRequestListener({
    build,
    mode: "production",
    getLoadContext: (request, client) => ({
      clientAddress: addressOf(request, client.address, config.trustProxy),
    }),
  });

  const server = http.createServer((req, res) => {
    for (const [k, v] of Object.entries(security)) res.setHeader(k, v);
    // @ts-expect-error compression's types expect Express objects; it works on node:http.
    compress(req, res, () => statics(req, res, () => void listener(req, res)));
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  console.log(`[http] serving ${config.publicUrl} (listening on ${config.host}:${config.port})`);
  // Load the badge renderer's fonts and measurements now, not on the first staff click.
  setTimeout(() => {
    import("~/features/badges/render/kit.server")
      .then((m) => m.warmKit())
      .catch((e) => console.warn("[render] warm-up failed", e));
  }, 250).unref();
  // Analytics summaries and the retention roll-up: shortly after start, then every 15 minutes.
  startAnalyticsRollup();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`[http] ${signal}: closing`);
    server.close();
    server.closeIdleConnections();
    await flushAnalytics();
    await stopAnalyticsRollup();
    await Promise.race([drainOutbox(), new Promise((r) => setTimeout(r, 5000))]);
    stopMailWorker();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return server;
}

export { build };
