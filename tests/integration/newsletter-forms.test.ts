import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as about from "~/routes/site/about";
import * as newsletter from "~/routes/site/newsletter";
import * as unsubscribePage from "~/routes/site/unsubscribe";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { args, formPost, get, reply } from "../support/http";
import { freshApp, resetApp } from "../support/reset";
import { headerText, startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

let smtp: SmtpReceiver;
let db: Db;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await resetApp();
  await smtp.close();
});
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
});

const subscribers = () => db.selectFrom("subscribers").selectAll().orderBy("id").execute();

async function tokenOf(email: string) {
  const row = await db.selectFrom("subscribers").select("token").where("email", "=", email).executeTakeFirstOrThrow();
  return row.token;
}

describe("the footer newsletter box (POST /newsletter)", () => {
  it("subscribes, labels the source, and the welcome arrives", async () => {
    const r = reply(
      await newsletter.action(
        args(formPost("/newsletter", { email: " Reader@Example.org ", source: "footer:/about", variant: "footer", website: "" })),
      ),
    );
    expect(r.status).toBe(200);
    expect(r.data.status).toBe("success");
    expect(await subscribers()).toMatchObject([{ email: "reader@example.org", source: "footer:/about", status: "active" }]);

    await drainOutbox();
    expect(smtp.messages.map((m) => m.envelope.to)).toEqual([["reader@example.org"]]);
    const token = await tokenOf("reader@example.org");
    expect(headerText(smtp.messages[0]!.mail, "List-Unsubscribe")).toBe(`<http://site.test/unsubscribe?token=${token}>`);
  });

  it("a second sign-up answers success but stores nothing new and sends no second welcome", async () => {
    for (let i = 0; i < 2; i++) {
      const r = reply(await newsletter.action(args(formPost("/newsletter", { email: "reader@example.org", source: "footer:/" }))));
      expect(r.data.status).toBe("success");
      await drainOutbox();
    }
    expect(await subscribers()).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
  });

  it("a bad address is a 400 with the product's message, keeping what was typed", async () => {
    const r = reply(await newsletter.action(args(formPost("/newsletter", { email: "reader@example", source: "footer:/" }))));
    expect(r.status).toBe(400);
    expect(r.data.fieldErrors?.email).toEqual(["Please provide a valid email address."]);
    expect(r.data.values).toMatchObject({ email: "reader@example", source: "footer:/" });
    expect(await subscribers()).toHaveLength(0);
  });

  it("an empty address is refused too", async () => {
    const r = reply(await newsletter.action(args(formPost("/newsletter", { email: "  ", source: "footer:/" }))));
    expect(r.status).toBe(400);
    expect(r.data.fieldErrors?.email?.[0]).toBe("Please provide a valid email address.");
  });

  it("a filled honeypot is told all went well, and nothing is stored or sent", async () => {
    const r = reply(
      await newsletter.action(args(formPost("/newsletter", { email: "bot@example.org", source: "footer:/", website: "http://spam" }))),
    );
    expect(r.status).toBe(200);
    expect(r.data.status).toBe("success");
    await drainOutbox();
    expect(await subscribers()).toHaveLength(0);
    expect(smtp.messages).toHaveLength(0);
  });
});

describe("the about page's subscribe box (POST /about)", () => {
  it("subscribes with the about source", async () => {
    const r = reply(await about.action(args(formPost("/about", { email: "friend@example.org", source: "about", variant: "about" }))));
    expect(r.data.status).toBe("success");
    expect(await subscribers()).toMatchObject([{ email: "friend@example.org", source: "about" }]);
    await drainOutbox();
    expect(smtp.messages[0]?.mail.subject).toBe("Welcome to Street Light Outreach updates");
  });
});

describe("/unsubscribe", () => {
  async function subscribed(email = "reader@example.org") {
    await newsletter.action(args(formPost("/newsletter", { email, source: "footer:/" })));
    return tokenOf(email);
  }

  it("GET with the mailed link shows the masked address and asks to confirm", async () => {
    const token = await subscribed();
    const r = reply(await unsubscribePage.loader(args(get(`/unsubscribe?token=${token}`))));
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ state: "active", token, email: "r***@example.org" });
    const row = (await subscribers())[0]!;
    expect(row.status).toBe("active");
  });

  it("POST from the page unsubscribes, and the page then says so", async () => {
    const token = await subscribed();
    const r = reply(await unsubscribePage.action(args(formPost("/unsubscribe", { token }))));
    expect(r.status).toBe(200);
    expect(r.data.state).toBe("done");
    expect((await subscribers())[0]).toMatchObject({ status: "unsubscribed" });
    const after = reply(await unsubscribePage.loader(args(get(`/unsubscribe?token=${token}`))));
    expect(after.data).toMatchObject({ state: "done", email: "r***@example.org" });
  });

  it("the RFC 8058 one-click POST (token in the query string) unsubscribes", async () => {
    const token = await subscribed();
    const r = reply(
      await unsubscribePage.action(args(formPost(`/unsubscribe?token=${token}`, { "List-Unsubscribe": "One-Click" }))),
    );
    expect(r.status).toBe(200);
    expect(r.data.state).toBe("done");
    expect((await subscribers())[0]!.status).toBe("unsubscribed");
  });

  it.each([
    ["an unknown token", "unknowntoken0123456789"],
    ["a malformed token", "x'; drop table subscribers;--"],
    ["no token", ""],
  ])("%s is a 404, and nobody is unsubscribed", async (_label, token) => {
    await subscribed();
    const page = reply(await unsubscribePage.loader(args(get(`/unsubscribe?token=${encodeURIComponent(token)}`))));
    expect(page.status).toBe(404);
    expect(page.data.state).toBe("unknown");
    const post = reply(await unsubscribePage.action(args(formPost("/unsubscribe", { token }))));
    expect(post.status).toBe(404);
    expect((await subscribers())[0]!.status).toBe("active");
  });

  it("signing up again after unsubscribing reactivates the address and welcomes again", async () => {
    const token = await subscribed();
    await unsubscribePage.action(args(formPost("/unsubscribe", { token })));
    const r = reply(await newsletter.action(args(formPost("/newsletter", { email: "reader@example.org", source: "footer:/" }))));
    expect(r.data.status).toBe("success");
    const rows = await subscribers();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "active", unsubscribed_at: null });
    await drainOutbox();
    expect(smtp.messages).toHaveLength(2);
  });
});

describe("newsletter rate limit", () => {
  it("the ninth sign-up from one address in ten minutes is a 429; another address still passes", async () => {
    for (let i = 1; i <= 8; i++) {
      const r = reply(await newsletter.action(args(formPost("/newsletter", { email: `r${i}@example.org` }), "10.0.0.9")));
      expect(r.status).toBe(200);
    }
    const limited = reply(await newsletter.action(args(formPost("/newsletter", { email: "r9@example.org" }), "10.0.0.9")));
    expect(limited.status).toBe(429);
    expect(limited.data.message).toMatch(/^Too many attempts from your connection\. Please try again in \d+ minutes?\.$/);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    const other = reply(await newsletter.action(args(formPost("/newsletter", { email: "r9@example.org" }), "10.0.0.10")));
    expect(other.status).toBe(200);
    expect(await subscribers()).toHaveLength(9);
  });
});
