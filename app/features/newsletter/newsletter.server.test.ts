import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { freshApp, resetApp } from "../../../tests/support/reset";
import { headerText, startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import { SubscribeSchema, UnsubscribeTokenSchema } from "./newsletter.schema";
import { listSubscribers, maskEmail, subscribe, unsubscribe } from "./newsletter.server";

let smtp: SmtpReceiver;
let db: Db;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await resetApp();
  await smtp.close();
});
const rows = (email: string) => db.selectFrom("subscribers").selectAll().where("email", "=", email).execute();

describe("subscribe", () => {
  beforeEach(async () => {
    db = await freshApp({ SMTP_URL: smtp.url });
    smtp.clear();
  });

  it("stores one active subscriber and mails a welcome with one-click unsubscribe headers", async () => {
    expect(await subscribe(db, { email: "reader@example.org", source: "footer:/about" })).toBe("created");
    const [row, ...more] = await rows("reader@example.org");
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({ status: "active", source: "footer:/about", unsubscribed_at: null });
    expect(UnsubscribeTokenSchema.safeParse(row!.token).success).toBe(true);

    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    const link = `http://site.test/unsubscribe?token=${row!.token}`;
    expect(envelope.to).toEqual(["reader@example.org"]);
    expect(mail.subject).toBe("Welcome to Street Light Outreach updates");
    expect(headerText(mail, "List-Unsubscribe")).toBe(`<${link}>`);
    expect(headerText(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toContain(link);
    expect(mail.html || "").toContain(`href="${link.replace("&", "&amp;")}"`);
  });

  it("a second sign-up of the same address changes nothing and sends no second welcome", async () => {
    await subscribe(db, SubscribeSchema.parse({ email: "reader@example.org", source: "about" }));
    await drainOutbox();
    expect(await subscribe(db, SubscribeSchema.parse({ email: "  READER@example.org ", source: "blogs:index" }))).toBe(
      "already",
    );
    await drainOutbox();
    const found = await rows("reader@example.org");
    expect(found).toHaveLength(1);
    expect(found[0]!.source).toBe("about");
    expect(smtp.messages).toHaveLength(1);
  });

  it("unsubscribing stops the address; signing up again turns it back on and welcomes again", async () => {
    await subscribe(db, { email: "reader@example.org", source: "newsletter" });
    const token = (await rows("reader@example.org"))[0]!.token;
    expect(await unsubscribe(db, token)).toBe(true);
    const off = (await rows("reader@example.org"))[0]!;
    expect(off.status).toBe("unsubscribed");
    expect(off.unsubscribed_at).not.toBeNull();

    expect(await subscribe(db, { email: "reader@example.org", source: "newsletter" })).toBe("reactivated");
    const on = await rows("reader@example.org");
    expect(on).toHaveLength(1);
    expect(on[0]).toMatchObject({ status: "active", unsubscribed_at: null });
    await drainOutbox();
    expect(smtp.messages.map((m) => m.envelope.to[0])).toEqual(["reader@example.org", "reader@example.org"]);
    expect(headerText(smtp.messages[1]!.mail, "List-Unsubscribe")).toBe(
      `<http://site.test/unsubscribe?token=${token}>`,
    );
  });

  it("an unknown token unsubscribes no one", async () => {
    await subscribe(db, { email: "reader@example.org", source: "newsletter" });
    expect(await unsubscribe(db, "unknown-token-0123456789")).toBe(false);
    expect((await rows("reader@example.org"))[0]!.status).toBe("active");
  });
});

describe("listSubscribers", () => {
  beforeEach(async () => {
    db = await freshApp({ SMTP_URL: smtp.url });
  });

  it("lists newest first, at most the limit, with the public fields only", async () => {
    for (let i = 1; i <= 5; i++) await subscribe(db, { email: `r${i}@example.org`, source: "newsletter" });
    const items = await listSubscribers(db, 3);
    expect(items.map((i) => i.email)).toEqual(["r5@example.org", "r4@example.org", "r3@example.org"]);
    expect(Object.keys(items[0]!).sort()).toEqual(["created_at", "email", "source", "status"]);
  });
});

describe("maskEmail", () => {
  it("shows the first letter and the domain only", () => {
    expect(maskEmail("jane@example.org")).toBe("j***@example.org");
    expect(maskEmail("x@y.co")).toBe("x***@y.co");
  });
});

describe("SubscribeSchema", () => {
  it("trims and lower-cases the email and keeps the source label", () => {
    expect(SubscribeSchema.parse({ email: " Reader@Example.org ", source: "footer:/about" })).toEqual({
      email: "reader@example.org",
      source: "footer:/about",
      variant: "footer",
    });
  });

  it("keeps a known box variant and treats an unknown one as the footer's", () => {
    expect(SubscribeSchema.parse({ email: "a@b.co", variant: "about" }).variant).toBe("about");
    expect(SubscribeSchema.parse({ email: "a@b.co", variant: "<script>" }).variant).toBe("footer");
  });

  it("labels a sign-up without a source 'newsletter'", () => {
    expect(SubscribeSchema.parse({ email: "a@b.co" }).source).toBe("newsletter");
    expect(SubscribeSchema.parse({ email: "a@b.co", source: "" }).source).toBe("newsletter");
  });

  it("refuses a bad email with the product's message, and odd source labels", () => {
    expect(SubscribeSchema.safeParse({ email: "reader@example" }).error?.issues[0]?.message).toBe(
      "Please provide a valid email address.",
    );
    expect(SubscribeSchema.safeParse({ email: "a@b.co", source: "<b>" }).success).toBe(false);
  });
});
