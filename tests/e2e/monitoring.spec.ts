import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { ADMIN_KEY, ROOT } from "../support/e2e-env";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

// Logs and metrics as standard tools read them, from the site as `npm start` runs it:
// LOG_FORMAT=json lines that all parse, an access line per request, no secret, key or address
// in any line whatever is sent to any endpoint; /metrics for the token only, in Prometheus
// text format (read by a parser library), its counters moving with the requests made, summed
// across WORKERS=2.

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);
test.beforeEach(({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
});

const TOKEN = "metrics-token-0123456789abcdef";
const SECRET = "cbsecret0123456789ABCDEF";
const EMAIL = "jane.wanjiru@example.org";

let sites: SiteProcess[] = [];
test.afterEach(async () => {
  for (const s of sites) await s.stop();
  sites = [];
});

/** A GET on a connection of its own (no keep-alive): with two processes, the kernel hands connections to both. */
const getOnNewConnection = (url: string) =>
  new Promise<number>((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

async function scrape(base: string): Promise<Family[]> {
  // A gathering that took too long (a busy machine, a process starting) is a 503 'try again'.
  let res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  for (let i = 0; i < 3 && res.status === 503; i++) res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await res.text());
}

const requestsTo = (families: Family[], route: string) =>
  (families.find((f) => f.name === "site_http_requests_total")?.metrics ?? [])
    .filter((m) => m.labels?.route === route && m.labels?.method === "GET" && m.labels?.status === "200")
    .reduce((sum, m) => sum + Number(m.value), 0);

for (const workers of ["1", "2"]) {
  test(`/metrics with WORKERS=${workers}: 404 without the token, Prometheus text with it, counters moving with the requests made`, async () => {
    const site = await startSiteProcess(`metrics-${workers}`, { METRICS_TOKEN: TOKEN, WORKERS: workers });
    sites.push(site);
    const base = `http://127.0.0.1:${site.port}`;
    // Every process serves before the first count (with two, each prints its own line).
    await expect.poll(() => (site.output().match(/\[http\] serving/g) ?? []).length, { timeout: 45_000 }).toBe(Number(workers));
    for (const auth of [undefined, "Bearer wrong-token-0123456789", `Basic ${TOKEN}`]) {
      const res = await fetch(`${base}/metrics`, { headers: auth ? { Authorization: auth } : {} });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("site_http");
    }
    const before = requestsTo(await scrape(base), "/about");
    // New connections each time, so with two processes both answer some.
    for (let i = 0; i < 12; i++) expect(await getOnNewConnection(`${base}/about`)).toBe(200);
    const families = await scrape(base);
    expect(requestsTo(families, "/about") - before).toBe(12);
    const names = families.map((f) => f.name);
    for (const name of [
      "site_http_request_duration_seconds",
      "site_orders",
      "site_payments_received",
      "site_stk_prompts",
      "site_mail_messages",
      "site_mail_oldest_due_seconds",
      "site_database_pool_connections",
      "nodejs_eventloop_lag_seconds",
      "process_resident_memory_bytes",
    ]) expect(names).toContain(name);
    const histogram = families.find((f) => f.name === "site_http_request_duration_seconds")!;
    expect(histogram.type).toBe("HISTOGRAM");
    // (This parser keeps a histogram's buckets, not its labels: the +Inf buckets together count every request.)
    expect(histogram.metrics.reduce((s, m) => s + Number(m.buckets?.["+Inf"] ?? 0), 0)).toBeGreaterThanOrEqual(12);
    // Read from the database: the same in every process, taken once, never summed.
    const mail = families.find((f) => f.name === "site_mail_messages")!.metrics.find((m) => m.labels?.status === "queued");
    expect(Number(mail?.value)).toBe(0);
    const pool = families.find((f) => f.name === "site_database_pool_connections")!.metrics.find((m) => m.labels?.state === "total");
    expect(Number(pool?.value)).toBe(Number(workers));
  });
}

test("LOG_FORMAT=json and ACCESS_LOG=on: every line parses, one access line a request, and no callback secret, admin key or email address in any line whatever any endpoint is sent", async () => {
  const site = await startSiteProcess("logs", { LOG_FORMAT: "json", ACCESS_LOG: "on", MPESA_CALLBACK_SECRET: SECRET, METRICS_TOKEN: TOKEN });
  sites.push(site);
  const base = `http://127.0.0.1:${site.port}`;
  const paths = [...fs.readFileSync(path.join(ROOT, "app/routes.ts"), "utf8").matchAll(/\broute\(\s*"([^"]+)"/g)].map((m) => m[1]!);
  expect(paths.length).toBeGreaterThan(50);
  // The callbacks as Daraja calls them, besides the route patterns filled in with the address.
  paths.push("", "api/pay/c2b/confirmation/:secret", "api/pay/c2b/validation/:secret");
  const fill = (p: string) => "/" + p.replace(/:secret/g, SECRET).replace(/:([A-Za-z]+)\??/g, encodeURIComponent(EMAIL));
  const query = `email=${encodeURIComponent(EMAIL)}&key=${ADMIN_KEY}&token=${SECRET}&t=${SECRET}`;
  const headers = { "X-Admin-Key": ADMIN_KEY, Authorization: `Bearer ${ADMIN_KEY}`, Origin: base, Connection: "close" };
  let sent = 0;
  for (const p of paths) {
    const url = `${base}${fill(p)}?${query}`;
    const form = new URLSearchParams({ email: EMAIL, customerEmail: EMAIL, key: ADMIN_KEY, secret: SECRET, name: EMAIL, intent: "sign-in" });
    const json = JSON.stringify({ email: EMAIL, key: ADMIN_KEY, secret: SECRET, FirstName: EMAIL, TransID: "TKD4BK8D9T", TransAmount: "100", BusinessShortCode: "880100", BillRefNumber: EMAIL, MSISDN: "254712345678" });
    for (const init of [
      { method: "GET", headers },
      { method: "POST", headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" }, body: form.toString() },
      { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: json },
    ]) {
      const res = await fetch(url, { ...init, redirect: "manual" });
      await res.arrayBuffer();
      expect(res.status, `${init.method} ${p}`).toBeLessThan(500);
      sent++;
    }
  }
  await expect.poll(() => site.output().split("\n").filter((l) => l.includes('"area":"access"')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(sent);
  const lines = site.output().split("\n").filter((l) => l.trim());
  for (const line of lines) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(entry)).toEqual(["time", "level", "area", "message", "fields"]);
  }
  const access = lines.map((l) => JSON.parse(l)).filter((e) => e.area === "access");
  expect(access[0].fields).toEqual({ method: expect.any(String), path: expect.any(String), status: expect.any(Number), ms: expect.any(Number), bytes: expect.any(Number), client: "127.0.0.1" });
  expect(access.some((e) => e.fields.path === "/api/pay/c2b/confirmation/[secret]?email=…&key=…&token=…&t=…")).toBe(true);
  const all = site.output();
  for (const secret of [SECRET, ADMIN_KEY, TOKEN, EMAIL, encodeURIComponent(EMAIL), "jane.wanjiru"]) expect(all, `the log shows ${secret}`).not.toContain(secret);
});
