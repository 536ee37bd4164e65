import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { freshApp, testDatabaseKind } from "../../../tests/support/reset";
import { closedPort, headerText, startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import type { Db } from "../db/db.server";
import { drainOutbox, enqueueMail, MAIL_PACE_WHILE_ANSWERING_MS, MAX_ATTEMPTS, outboxDir, startMailWorker, stopMailWorker } from "./email.server";
import { requestEnded, requestStarted } from "../server/loop-watch.server";
import { putBlob } from "../db/blob-store.server";

const message = {
  kind: "test.note",
  to: "someone@example.org",
  replyTo: "visitor@example.org",
  subject: "A note from the outbox",
  text: "Plain words.",
  html: "<p>Plain words.</p>",
  headers: { "X-Test": "yes" },
};

const row = (db: Db, id: number) => db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

let receivers: SmtpReceiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const r of receivers) await r.close();
  receivers = [];
});

describe("without SMTP_URL", () => {
  let db: Db;
  beforeEach(async () => {
    db = await freshApp({ SMTP_URL: undefined });
    fs.rmSync(outboxDir(), { recursive: true, force: true });
  });

  it("writes each message as an .eml file under DATA_DIR/outbox and marks it written, not sent", async () => {
    const id = await enqueueMail(db, message);
    expect((await row(db, id)).status).toBe("queued");
    await drainOutbox();

    const dir = path.join(process.env.DATA_DIR!, "outbox");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(dir, files[0]!)));
    expect(mail.subject).toBe("A note from the outbox");
    expect(mail.text?.trim()).toBe("Plain words.");
    expect(mail.replyTo?.text).toBe("visitor@example.org");
    expect(headerText(mail, "X-Test")).toBe("yes");

    const sent = await row(db, id);
    expect(sent).toMatchObject({ status: "written", attempts: 1, last_error: null, message_id: `file:${files[0]}` });
    expect(sent.sent_at).not.toBeNull();
  });
});

describe("while the site is answering requests", () => {
  const sentCount = async (db: Db) =>
    Number((await db.selectFrom("outbox").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "in", ["sent", "written"]).executeTakeFirstOrThrow()).n);
  /** Real time passing (setImmediate is not faked): the worker's database and file work go on. */
  const realWait = async (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) await new Promise((resolve) => setImmediate(resolve));
  };
  /** Waits (up to 10 s of real time) until `n` messages are sent; answers the count then. */
  const sentReaches = async (db: Db, n: number) => {
    const end = performance.now() + 10_000;
    let sent = await sentCount(db);
    while (sent < n && performance.now() < end) {
      await realWait(20);
      sent = await sentCount(db);
    }
    return sent;
  };

  it("each message waits its turn while requests are under way; once none are, the rest are sent at once", async () => {
    const db = await freshApp({ SMTP_URL: undefined });
    for (let i = 0; i < 5; i++) await enqueueMail(db, { ...message, subject: `Order received ${i}` });
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    requestStarted();
    let pass: Promise<void> | undefined;
    try {
      pass = drainOutbox();
      // A visitor's order is being answered: nothing is sent before the pause ends.
      await realWait(300);
      expect(await sentCount(db)).toBe(0);
      // One message per pause.
      vi.advanceTimersByTime(MAIL_PACE_WHILE_ANSWERING_MS);
      expect(await sentReaches(db, 1)).toBe(1);
      await realWait(200);
      expect(await sentCount(db)).toBe(1);
      vi.advanceTimersByTime(MAIL_PACE_WHILE_ANSWERING_MS);
      expect(await sentReaches(db, 2)).toBe(2);
      await realWait(200);
      expect(await sentCount(db)).toBe(2);
    } finally {
      // No request under way any more: the pause under way ends, and there is no other.
      requestEnded();
      vi.advanceTimersByTime(MAIL_PACE_WHILE_ANSWERING_MS);
      vi.useRealTimers();
    }
    await pass;
    expect(await sentCount(db)).toBe(5);
  });
});

describe("with an SMTP server", () => {
  it("a message that names no Reply-To answers to the organisation's inbox (the sender is no-reply)", async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const db = await freshApp({ SMTP_URL: smtp.url, ORG_INBOX: undefined });
    await enqueueMail(db, { ...message, replyTo: undefined });
    await enqueueMail(db, { ...message, subject: "Its own" });
    await drainOutbox();
    const bySubject = Object.fromEntries(smtp.messages.map((m) => [m.mail.subject, m.mail.replyTo?.text]));
    expect(bySubject).toEqual({ "A note from the outbox": "hello@streetlight-outreach.org", "Its own": "visitor@example.org" });
  });

  it("ORG_INBOX, when set, is the Reply-To of messages that name none", async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const db = await freshApp({ SMTP_URL: smtp.url, ORG_INBOX: "team@example.org" });
    await enqueueMail(db, { ...message, replyTo: undefined });
    await drainOutbox();
    expect(smtp.messages[0]!.mail.replyTo?.text).toBe("team@example.org");
  });

  it("delivers to the server, attachments included", async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const db = await freshApp({ SMTP_URL: smtp.url });
    await putBlob(db, "files/kit.txt", "badge kit contents");
    const id = await enqueueMail(db, {
      ...message,
      attachments: [{ filename: "kit.txt", dataPath: "files/kit.txt", contentType: "text/plain" }],
    });
    await drainOutbox();

    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["someone@example.org"]);
    expect(envelope.from).toBe("no-reply@streetlight-outreach.org");
    expect(mail.from?.text).toBe('"Street Light Outreach" <no-reply@streetlight-outreach.org>');
    expect(mail.subject).toBe("A note from the outbox");
    expect(mail.attachments.map((a) => [a.filename, a.content.toString("utf8")])).toEqual([
      ["kit.txt", "badge kit contents"],
    ]);
    expect((await row(db, id)).status).toBe("sent");
  });

  it("keeps a message queued while the server is down and delivers it when the retry is due", async () => {
    const port = await closedPort();
    const db = await freshApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-03-01T10:00:00.000Z");
    vi.setSystemTime(start);

    const id = await enqueueMail(db, message);
    await drainOutbox();
    const waiting = await row(db, id);
    expect(waiting.status).toBe("queued");
    expect(waiting.attempts).toBe(1);
    expect(waiting.last_error).toEqual(expect.any(String));
    expect(waiting.last_error).not.toBe("");
    expect(Date.parse(waiting.next_attempt_at)).toBeGreaterThan(start.getTime());
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`message ${id} attempt 1 failed`));

    // The server comes up, but the retry is not due yet: nothing is sent.
    const smtp = await startSmtpReceiver(port);
    receivers.push(smtp);
    await drainOutbox();
    expect(smtp.messages).toHaveLength(0);
    expect((await row(db, id)).attempts).toBe(1);

    vi.setSystemTime(new Date(Date.parse(waiting.next_attempt_at) + 1000));
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.mail.subject).toBe("A note from the outbox");
    expect(await row(db, id)).toMatchObject({ status: "sent", attempts: 2, last_error: null });
  });

  it("gives up as 'failed' only after the last retry, keeping the error", async () => {
    const port = await closedPort();
    const db = await freshApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00.000Z"));
    const id = await enqueueMail(db, message);
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      await drainOutbox();
      const r = await row(db, id);
      expect(r.attempts).toBe(i);
      expect(r.status).toBe(i < MAX_ATTEMPTS ? "queued" : "failed");
      vi.setSystemTime(new Date(Date.parse(r.next_attempt_at) + 1000));
    }
    expect((await row(db, id)).last_error).toBeTruthy();
  });

  // On PostgreSQL another machine may be sending it: the lease case below applies.
  it.skipIf(testDatabaseKind === "postgres")("at start-up, a message left mid-send by a crash is sent again", async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const db = await freshApp({ SMTP_URL: smtp.url });
    const id = await enqueueMail(db, message);
    // Claimed a moment ago: its lease (15 minutes) still runs, so a sending pass leaves it alone.
    const lease = new Date(Date.now() + 10 * 60_000).toISOString();
    await db.updateTable("outbox").set({ status: "sending", attempts: 1, next_attempt_at: lease }).where("id", "=", id).execute();
    await drainOutbox();
    expect(smtp.messages).toHaveLength(0);

    // One server process: at its start nobody else can be sending it.
    await startMailWorker(60_000);
    await drainOutbox();
    stopMailWorker();
    expect(smtp.messages).toHaveLength(1);
    expect((await row(db, id)).status).toBe("sent");
  });

  it("with several server processes (or on PostgreSQL), a restart leaves another's message alone until its lease ends", async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const db = await freshApp({ SMTP_URL: smtp.url, WORKERS: testDatabaseKind === "postgres" ? "1" : "2" });
    const live = await enqueueMail(db, message);
    const dead = await enqueueMail(db, message);
    await db.updateTable("outbox").set({ status: "sending", attempts: 1, next_attempt_at: new Date(Date.now() + 600_000).toISOString() }).where("id", "=", live).execute();
    await db.updateTable("outbox").set({ status: "sending", attempts: 1, next_attempt_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", dead).execute();
    await startMailWorker(60_000);
    await drainOutbox();
    stopMailWorker();
    expect(smtp.messages).toHaveLength(1);
    expect((await row(db, dead)).status).toBe("sent");
    expect((await row(db, live)).status).toBe("sending");
  });
});
