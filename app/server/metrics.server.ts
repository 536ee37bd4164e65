import cluster from "node:cluster";
import crypto from "node:crypto";
import type http from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import client from "prom-client";
import { postgresPoolOf, type Db } from "~/lib/db/db.server";
import { isPostgres } from "~/lib/db/dialect.server";
import { paymentArrivals } from "~/features/received-payments/payment-arrivals.server";

/**
 * GET /metrics in Prometheus text format (prom-client), answered only to
 * `Authorization: Bearer $METRICS_TOKEN`; with no METRICS_TOKEN it is a 404 like any unknown
 * page. Each server process counts its own requests; with WORKERS > 1 the supervisor
 * (app/server/start.mjs) gathers every process's series and sums them (prom-client's
 * AggregatorRegistry), so a scrape that reaches any process sees the whole site. Figures read
 * from the database (orders, payments, prompts, mail) are the same in every process and are
 * taken once ('first'), never summed.
 */
const register = client.register;
let started = false;
let routeOf: (pathname: string) => string = () => "other";

const requests = new client.Counter({ name: "site_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"] });
const latency = new client.Histogram({
  name: "site_http_request_duration_seconds",
  help: "Time to answer HTTP requests, by route pattern.",
  labelNames: ["route"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

let source: () => Db | undefined = () => undefined;

/** A gauge filled from the database at each scrape, the same in every process. */
function fromDatabase(name: string, help: string, labelNames: string[], fill: (db: Db, g: client.Gauge) => Promise<void>) {
  return new client.Gauge({
    name,
    help,
    labelNames,
    aggregator: "first",
    async collect() {
      this.reset();
      const db = source();
      if (!db) return;
      try {
        await fill(db, this);
      } catch {
        // The database is away: the series are missing from this scrape, as /readyz says why.
      }
    },
  });
}

const count = <R extends { n: unknown }>(rows: R[]) => rows.map((r) => ({ ...r, n: Number(r.n) }));

fromDatabase("site_orders", "Orders placed, by kind and status (approved ones included).", ["kind", "status"], async (db, g) => {
  for (const r of count(await db.selectFrom("badge_orders").select(["status", db.fn.countAll<number>().as("n")]).groupBy("status").execute())) g.set({ kind: "badge", status: String(r.status) }, r.n);
  for (const r of count(await db.selectFrom("merch_orders").select(["status", db.fn.countAll<number>().as("n")]).groupBy("status").execute())) g.set({ kind: "merch", status: String(r.status) }, r.n);
});
fromDatabase("site_payments_received", "M-Pesa payments received, by source (callback, statement) and state (kept, reversed).", ["source", "state"], async (db, g) => {
  const rows = await db
    .selectFrom("received_payments")
    .select((eb) => ["source", eb.case().when("reversed_at", "is", null).then("kept").else("reversed").end().as("state"), eb.fn.countAll<number>().as("n")])
    .groupBy(["source", "state"])
    .execute();
  for (const r of count(rows)) g.set({ source: String(r.source), state: String(r.state) }, r.n);
});
fromDatabase("site_stk_prompts", "M-Pesa Express prompts, by state.", ["state"], async (db, g) => {
  for (const r of count(await db.selectFrom("stk_pushes").select(["state", db.fn.countAll<number>().as("n")]).groupBy("state").execute())) g.set({ state: String(r.state) }, r.n);
});
fromDatabase("site_mail_messages", "Outbox messages, by status (queued, sending, sent, written, failed).", ["status"], async (db, g) => {
  for (const s of ["queued", "sending", "sent", "written", "failed"]) g.set({ status: s }, 0);
  for (const r of count(await db.selectFrom("outbox").select(["status", db.fn.countAll<number>().as("n")]).groupBy("status").execute())) g.set({ status: String(r.status) }, r.n);
});
fromDatabase("site_mail_oldest_due_seconds", "Age of the oldest queued message that is due (0 when none).", [], async (db, g) => {
  const row = await db.selectFrom("outbox").select("next_attempt_at").where("status", "=", "queued").where("next_attempt_at", "<=", new Date().toISOString()).orderBy("next_attempt_at").limit(1).executeTakeFirst();
  g.set(row ? Math.max(0, (Date.now() - Date.parse(row.next_attempt_at)) / 1000) : 0);
});
fromDatabase("site_seconds_since_last_callback", "Seconds since the last M-Pesa callback, by kind (c2b, stk); absent when none came yet.", ["kind"], async (db, g) => {
  const a = await paymentArrivals(db);
  if (a.lastC2bCallbackAt) g.set({ kind: "c2b" }, (Date.now() - Date.parse(a.lastC2bCallbackAt)) / 1000);
  if (a.lastStkCallbackAt) g.set({ kind: "stk" }, (Date.now() - Date.parse(a.lastStkCallbackAt)) / 1000);
});
new client.Gauge({
  name: "site_database_pool_connections",
  help: "This process's database connections, by state (PostgreSQL: total, idle, waiting; SQLite: one open file).",
  labelNames: ["state"],
  collect() {
    this.reset();
    const db = source();
    if (!db) return;
    const pool = isPostgres(db) ? postgresPoolOf(db)?.pool : undefined;
    if (pool) {
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    } else this.set({ state: "total" }, 1);
  },
});

/** The route patterns of the build (`/blogs/:slug`), so a label never holds a visitor's own path. */
function routeMatcher(build: Pick<ServerBuild, "routes">) {
  const byParent = new Map<string | undefined, { id: string; path?: string; index?: boolean }[]>();
  for (const r of Object.values(build.routes)) {
    if (!r) continue;
    const list = byParent.get(r.parentId) ?? [];
    list.push({ id: r.id, path: r.path, index: r.index });
    byParent.set(r.parentId, list);
  }
  const tree = (parent: string | undefined): RouteObject[] =>
    (byParent.get(parent) ?? []).map((r) => (r.index ? { id: r.id, index: true } : { id: r.id, path: r.path, children: tree(r.id) }) as RouteObject);
  const routes = tree(undefined);
  const cache = new Map<string, string>();
  return (pathname: string) => {
    const known = cache.get(pathname);
    if (known) return known;
    const matches = matchRoutes(routes, pathname);
    const pattern = matches
      ? "/" + matches.map((m) => m.route.path ?? "").filter(Boolean).join("/").replace(/\/+/g, "/").replace(/^\//, "")
      : "unmatched";
    if (cache.size > 2000) cache.clear();
    cache.set(pathname, pattern);
    return pattern;
  };
}

export function startMetrics(build: Pick<ServerBuild, "routes">, db: () => Db) {
  if (started) return;
  started = true;
  source = db;
  routeOf = routeMatcher(build);
  client.collectDefaultMetrics({ eventLoopMonitoringPrecision: 20 });
  // Under the supervisor: answer its requests for this process's series (prom-client's cluster messages).
  if (cluster.isWorker) new client.AggregatorRegistry();
}

/** Counts one request once it is answered. */
export function countRequest(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
  const started = performance.now();
  res.once("finish", () => {
    const path = url.pathname;
    const route = path === "/healthz" || path === "/readyz" || path === "/metrics" ? path : path.startsWith("/assets/") ? "/assets/*" : routeOf(path);
    const method = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(req.method ?? "") ? req.method! : "other";
    requests.inc({ route, method, status: String(res.statusCode) });
    latency.observe({ route }, (performance.now() - started) / 1000);
  });
}

const sameToken = (given: string, token: string) => {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(token).digest();
  return crypto.timingSafeEqual(a, b);
};

let asked = 0;
const waiting = new Map<number, (text: string | null) => void>();
process.on("message", (m: { site?: string; id?: number; text?: string | null }) => {
  if (m?.site !== "metrics-answer" || typeof m.id !== "number") return;
  waiting.get(m.id)?.(m.text ?? null);
  waiting.delete(m.id);
});

/** Every process's series, summed by the supervisor (WORKERS > 1), or this process's own. */
function allMetrics(workers: number): Promise<string | null> {
  if (workers <= 1 || !process.send) return register.metrics();
  const id = ++asked;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(null);
    }, 10_000);
    waiting.set(id, (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    process.send!({ site: "metrics-request", id });
  });
}

/** GET /metrics; false for any other path. */
export function answerMetrics(req: http.IncomingMessage, res: http.ServerResponse, url: URL, opts: { token: string | undefined; workers: number }): boolean {
  if (url.pathname !== "/metrics") return false;
  const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers });
    res.end(text);
  };
  if (!opts.token) return (plain(404, "Not found.\n"), true);
  const auth = String(req.headers.authorization ?? "");
  const given = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? "";
  if (!given || !sameToken(given, opts.token)) return (plain(404, "Not found.\n"), true);
  if (req.method !== "GET" && req.method !== "HEAD") return (plain(405, "Use GET.\n", { Allow: "GET, HEAD" }), true);
  allMetrics(opts.workers).then(
    (text) => (text === null ? plain(503, "The metrics could not be gathered. Try again.\n") : plain(200, text, { "Content-Type": register.contentType })),
    () => plain(503, "The metrics could not be gathered. Try again.\n"),
  );
  return true;
}
