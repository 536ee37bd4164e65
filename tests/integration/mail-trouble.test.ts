import http from "node:http";
import type { AddressInfo } from "node:net";
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, UNSAFE_withComponentProps as withComponentProps } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { notifyNewBlog, savePosts } from "~/features/blog/blog.server";
import { BlogPostSchema } from "~/features/blog/blog.schema";
import { subscriberRows } from "~/features/engagement/engagement.server";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox, enqueueMail, stopMailWorker, SUPPRESSED_ERROR } from "~/lib/mail/email.server";
import { resetEnvForTests } from "~/lib/server/env.server";
import { isSuppressed } from "~/lib/mail/mail-health.server";
import * as adminPage from "~/routes/admin/index";
import { answerHealth, forgetReadinessForTests } from "~/server/health.server";
import { get, testContext } from "../support/http";
import { freshApp, testDatabaseKind } from "../support/reset";
import { startSmtpReceiver } from "../support/smtp";
import { startDroppingSmtp, startRefusingSmtp } from "../support/smtp-trouble";

/**
 * Mail that says where it went, against real SMTP servers in trouble: a 550 to RCPT fails the
 * message on its first attempt and keeps the address out of the next blog notice; a server that
 * drops every connection makes /readyz name `mail` as degraded (still 200) within 5 minutes, and
 * /admin says so at the top; with no SMTP_URL in production, /admin says mail is not sent.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

const post = BlogPostSchema.parse({
  slug: "friday-night",
  title: "Friday night",
  summary: "What we saw",
  author: "Grace Wanjiru",
  date: "2025-10-17",
  tags: ["vespers"],
  image: "/images/blog/a.webp",
  url: "https://www.linkedin.com/pulse/x",
});

const outboxRow = (db: Db, kind: string, to: string) =>
  db.selectFrom("outbox").selectAll().where("kind", "like", kind).where("to_address", "=", to).executeTakeFirstOrThrow();

/** /readyz as the load balancer asks it, answered by the server's own handler on this test's database. */
async function readyz(db: Db) {
  const server = http.createServer((req, res) => {
    if (!answerHealth(req, res, new URL(req.url ?? "/", "http://site.test"), { draining: () => false, db: () => db })) res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    forgetReadinessForTests();
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** /admin as a signed-in staff browser gets it without JavaScript, as text. */
async function adminText(db: Db) {
  const cookie = (await createAdminSessionCookie(db, get("/admin"), "10.0.0.42")).split(";")[0]!;
  const handler = createStaticHandler([
    {
      id: "screen",
      path: "/admin",
      loader: adminPage.loader as never,
      Component: withComponentProps(adminPage.default as never) as ComponentType,
    },
  ]);
  const context = await handler.query(get("/admin", { Cookie: cookie }), { requestContext: testContext("10.0.0.42") });
  if (context instanceof Response) throw new Error(`expected a page, got ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
  return html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ");
}

describe(`mail in trouble on ${testDatabaseKind}`, () => {
  it("a 550 to RCPT fails the message at its first attempt, staff see the address refused, and the next blog notice skips it until it subscribes again", async () => {
    const smtp = await startRefusingSmtp((a) => a === "gone@example.org");
    cleanups.push(smtp.close);
    const db = await freshApp({ SMTP_URL: smtp.url });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await savePosts(db, [post]);
    await subscribe(db, { email: "gone@example.org", source: "newsletter" });
    await subscribe(db, { email: "amina@example.org", source: "newsletter" });
    await drainOutbox();

    const refused = await outboxRow(db, "newsletter.welcome", "gone@example.org");
    expect(refused).toMatchObject({ status: "failed", attempts: 1 });
    expect(refused.last_error).toMatch(/550/);
    expect((await outboxRow(db, "newsletter.welcome", "amina@example.org")).status).toBe("sent");
    expect(await isSuppressed(db, "gone@example.org")).toBe(true);
    const rows = await subscriberRows(db);
    expect(rows.find((r) => r.email === "gone@example.org")?.mailRefusedAt).toEqual(expect.any(String));
    expect(rows.find((r) => r.email === "amina@example.org")?.mailRefusedAt).toBeUndefined();

    smtp.rcpt.splice(0);
    const run = await notifyNewBlog(db, "friday-night");
    await run.done;
    await drainOutbox();
    expect(smtp.rcpt).toEqual(["amina@example.org"]);
    expect(await outboxRow(db, "blog.notify.%", "gone@example.org")).toMatchObject({ status: "failed", last_error: SUPPRESSED_ERROR });
    // Refusals are the address's trouble, not the mail server's: nothing is degraded.
    expect((await readyz(db)).body.degraded).toBeUndefined();

    expect(await subscribe(db, { email: "gone@example.org", source: "newsletter" })).toBe("already");
    expect(await isSuppressed(db, "gone@example.org")).toBe(false);
  });

  it("a mail server dropping every connection: retried with back-off, /readyz names mail degraded (still 200) within 5 minutes, /admin says so at the top", async () => {
    const dropping = await startDroppingSmtp();
    cleanups.push(dropping.close);
    const db = await freshApp({ SMTP_URL: dropping.url });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-03-01T10:00:00.000Z");
    vi.setSystemTime(start);
    const id = await enqueueMail(db, { kind: "test.note", to: "someone@example.org", subject: "A note", text: "Words." });

    const row = () => db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    await drainOutbox();
    expect((await row()).attempts).toBe(1);
    let ready = await readyz(db);
    expect([ready.status, ready.body.degraded]).toEqual([200, undefined]);
    expect(ready.body.detail.mail).toMatchObject({ ok: true, failedAttemptsInRow: 1 });

    let waits = 0;
    for (let attempt = 2; attempt <= 3; attempt++) {
      const due = Date.parse((await row()).next_attempt_at);
      expect(due).toBeGreaterThan(Date.now());
      waits++;
      vi.setSystemTime(new Date(due + 1000));
      await drainOutbox();
      expect((await row())).toMatchObject({ status: "queued", attempts: attempt });
    }
    expect(waits).toBe(2);
    expect(dropping.connections()).toBeGreaterThanOrEqual(3);
    expect(Date.now() - start.getTime()).toBeLessThan(5 * 60_000);

    ready = await readyz(db);
    expect(ready.status).toBe(200);
    expect(ready.body.ok).toBe(true);
    expect(ready.body.degraded).toEqual(["mail"]);
    expect(ready.body.detail.mail).toMatchObject({ ok: false, failedAttemptsInRow: 3, failingSince: start.toISOString() });
    expect(JSON.stringify(ready.body)).not.toContain("@");

    const page = await adminText(db);
    expect(page).toMatch(/^\s*Mail is failing: the last 3 attempts to reach the mail server failed/);
    expect(page).toContain("nothing has been sent since");
    expect(page).toContain("Queued: 1 · Sent: 0 · Failed: 0");

    // The mail server is back: the next message sent clears it.
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.close);
    stopMailWorker();
    process.env.SMTP_URL = smtp.url;
    resetEnvForTests();
    vi.setSystemTime(new Date(Date.parse((await row()).next_attempt_at) + 1000));
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    ready = await readyz(db);
    expect(ready.body.degraded).toBeUndefined();
    expect(ready.body.detail.mail).toMatchObject({ ok: true, failedAttemptsInRow: 0 });
    expect(await adminText(db)).not.toContain("Mail is failing");
  });

  it("with no SMTP_URL in production, mail is 'written to the outbox folder', never counted as sent, and /admin says mail is not sent", async () => {
    const db = await freshApp({ SMTP_URL: undefined, NODE_ENV: "production" });
    vi.spyOn(console, "log").mockImplementation(() => {});
    await enqueueMail(db, { kind: "test.note", to: "someone@example.org", subject: "A note", text: "Words." });
    await drainOutbox();
    const page = await adminText(db);
    expect(page).toMatch(/^\s*Mail is not being sent: SMTP_URL is not set/);
    expect(page).toContain("Queued: 0 · Sent: 0 · Written to the outbox folder: not sent; set SMTP_URL: 1 · Failed: 0");
    expect((await readyz(db)).body.detail.mail).toMatchObject({ ok: true, outboxOnly: true });
    // The staff overview also says when M-Pesa last reached the site.
    expect(page).toContain("Last C2B callback: never");
  });

  it("outside production (a developer's machine) the banner stays away; the count still says written, not sent", async () => {
    const db = await freshApp({ SMTP_URL: undefined, NODE_ENV: "development" });
    vi.spyOn(console, "log").mockImplementation(() => {});
    await enqueueMail(db, { kind: "test.note", to: "someone@example.org", subject: "A note", text: "Words." });
    await drainOutbox();
    const page = await adminText(db);
    expect(page).not.toContain("Mail is not being sent");
    expect(page).toContain("Sent: 0 · Written to the outbox folder: not sent; set SMTP_URL: 1");
  });
});
