import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { drainOutbox, enqueueMail } from "~/lib/mail/email.server";
import { freshApp, testDatabaseKind } from "../../tests/support/reset";
import { answerMetrics, startMetrics } from "./metrics.server";

async function ask(token: string | undefined, auth?: string) {
  const server = http.createServer((req, res) => {
    if (!answerMetrics(req, res, new URL(req.url ?? "/", "http://site.test"), { token, workers: 1 })) res.end("other");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, { headers: auth ? { Authorization: auth } : {} });
    return { status: res.status, text: await res.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("GET /metrics", () => {
  it("is a 404 with no METRICS_TOKEN set, whatever is sent", async () => {
    expect((await ask(undefined)).status).toBe(404);
    expect((await ask(undefined, "Bearer anything-at-all-0123")).status).toBe(404);
  });

  it("answers only the token's bearer, in Prometheus text", async () => {
    const token = "metrics-token-0123456789";
    expect((await ask(token)).status).toBe(404);
    expect((await ask(token, "Bearer metrics-token-0123456780")).status).toBe(404);
    const ok = await ask(token, `Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain("# TYPE site_http_requests_total counter");
  });
});

describe(`/metrics' database figures on ${testDatabaseKind}`, () => {
  it("counts orders by kind and status, mail by status, and the database pool", async () => {
    const db = await freshApp();
    startMetrics({ routes: {} }, () => db);
    await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane", email: "jane@example.org", paymentReference: "TKD4BK8D9T" }), null);
    await enqueueMail(db, { kind: "test.note", to: "someone@example.org", subject: "s", text: "t" });
    // The order started the mail worker: let it finish, or it may take either message while
    // /metrics counts (with no SMTP server each is written to the outbox folder).
    await drainOutbox();
    const token = "metrics-token-0123456789";
    const { text } = await ask(token, `Bearer ${token}`);
    expect(text).toContain('site_orders{kind="badge",status="pending"} 1');
    expect(text).toMatch(/site_mail_messages\{status="written"\} 2\n/);
    expect(text).toContain('site_database_pool_connections{state="total"}');
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect(text).not.toContain("jane@example.org");
  });
});
