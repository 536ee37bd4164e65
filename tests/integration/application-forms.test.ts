import { CONSENT_VERSION, JOIN_CONSENT_MESSAGE } from "~/lib/core/data-notices";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as home from "~/routes/site/home";
import * as join from "~/routes/site/join";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { args, formPost, reply, thrown } from "../support/http";
import { freshApp, resetApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

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

const applications = () => db.selectFrom("applications").selectAll().orderBy("id").execute();

const joinFields = {
  consent: "yes",
  name: "  Jane Wanjiru ",
  email: "Jane@Example.org",
  role: "Media / Video",
  phone: "+254 700 000 001",
  message: "I film street vespers.",
  source: "join",
  website: "",
};

describe("the home hero form (POST /?index)", () => {
  it("stores a General Interest application from home:hero and mails the organisation with Reply-To the visitor", async () => {
    const r = reply(await home.action(args(formPost("/?index", { email: " visitor@example.org ", website: "" }))));
    expect(r.status).toBe(200);
    expect(r.data.status).toBe("success");
    const rows = await applications();
    expect(rows).toMatchObject([
      { name: "", email: "visitor@example.org", phone: "", role: "General Interest", message: "", source: "home:hero" },
    ]);

    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["hello@streetlight-outreach.org"]);
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual(["visitor@example.org"]);
    expect(mail.subject).toBe(`New application #${rows[0]!.id}: General Interest`);
    expect(mail.text).toContain("Email: visitor@example.org");
    expect(mail.text).toContain("Source: home:hero");
  });

  it("ORG_INBOX, when set, receives the notice", async () => {
    db = await freshApp({ SMTP_URL: smtp.url, ORG_INBOX: "team@example.org" });
    await home.action(args(formPost("/?index", { email: "visitor@example.org" })));
    await drainOutbox();
    expect(smtp.messages.map((m) => m.envelope.to)).toEqual([["team@example.org"]]);
  });

  it("a bad email is a 400 with the product's message; nothing is stored or sent", async () => {
    const r = reply(await home.action(args(formPost("/?index", { email: "visitor.example.org" }))));
    expect(r.status).toBe(400);
    expect(r.data.fieldErrors?.email).toEqual(["Please provide a valid email address."]);
    expect(r.data.values?.email).toBe("visitor.example.org");
    await drainOutbox();
    expect(await applications()).toHaveLength(0);
    expect(smtp.messages).toHaveLength(0);
  });
});

describe("the join form (POST /join)", () => {
  it("stores the application with the chosen role, phone and message, then goes on to /join/thanks", async () => {
    const res = await thrown(join.action(args(formPost("/join", joinFields))));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/join/thanks");
    expect(await applications()).toMatchObject([
      {
        name: "Jane Wanjiru",
        email: "jane@example.org",
        role: "Media / Video",
        phone: "+254 700 000 001",
        message: "I film street vespers.",
        source: "join",
      },
    ]);
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["hello@streetlight-outreach.org"]);
    expect(mail.subject).toMatch(/^New application #\d+: Media \/ Video — Jane Wanjiru$/);
    expect(mail.replyTo?.text).toBe("jane@example.org");
    expect(mail.text).toContain("Phone: +254 700 000 001");
    expect(mail.text).toContain("Message: I film street vespers.");
  });

  it("cannot be sent without the explicit consent tick; a sent one keeps the wording's version, time and source", async () => {
    const { consent: _c, ...unticked } = joinFields;
    const r = reply(await join.action(args(formPost("/join", unticked))));
    expect(r.status).toBe(400);
    expect(r.data.fieldErrors?.consent).toEqual([JOIN_CONSENT_MESSAGE]);
    expect(await applications()).toHaveLength(0);
    await thrown(join.action(args(formPost("/join", joinFields))));
    const [row] = await db.selectFrom("applications").select(["consent_version", "consent_at", "source"]).execute();
    expect(row).toEqual({ consent_version: CONSENT_VERSION, consent_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), source: "join" });
  });

  it("phone and message are optional", async () => {
    const res = await thrown(
      join.action(args(formPost("/join", { name: "Otieno", email: "o@example.org", role: "DevOps", source: "join", consent: "yes" }))),
    );
    expect(res.headers.get("Location")).toBe("/join/thanks");
    expect(await applications()).toMatchObject([{ name: "Otieno", role: "DevOps", phone: "", message: "" }]);
  });

  it("invalid input is a 400 with the product's messages, keeping what was typed", async () => {
    const typed = { name: "   ", email: "jane@example", role: "Astronaut", phone: "0700", message: "Hello", source: "join" };
    const r = reply(await join.action(args(formPost("/join", typed))));
    expect(r.status).toBe(400);
    expect(r.data.status).toBe("error");
    expect(r.data.fieldErrors?.name).toEqual(["Please enter your full name."]);
    expect(r.data.fieldErrors?.email).toEqual(["Please provide a valid email address."]);
    expect(r.data.fieldErrors?.role).toEqual(["Please choose a role from the list."]);
    expect(r.data.values).toEqual(typed);
    expect(await applications()).toHaveLength(0);
  });

  it("a missing role is refused too (General Interest is not one of the nine)", async () => {
    for (const role of [undefined, "General Interest"]) {
      const fields: Record<string, string> = { name: "Jane", email: "jane@example.org" };
      if (role) fields.role = role;
      const r = reply(await join.action(args(formPost("/join", fields))));
      expect(r.status).toBe(400);
      expect(r.data.fieldErrors?.role).toEqual(["Please choose a role from the list."]);
    }
  });

  it("a filled honeypot gets the same thank-you redirect, and nothing is stored or sent", async () => {
    const res = await thrown(join.action(args(formPost("/join", { ...joinFields, website: "http://spam.example" }))));
    expect(res.headers.get("Location")).toBe("/join/thanks");
    await drainOutbox();
    expect(await applications()).toHaveLength(0);
    expect(smtp.messages).toHaveLength(0);
  });

  it("the hero's honeypot answers success and stores nothing", async () => {
    const r = reply(await home.action(args(formPost("/?index", { email: "bot@example.org", website: "x" }))));
    expect(r.status).toBe(200);
    expect(r.data.status).toBe("success");
    expect(await applications()).toHaveLength(0);
  });
});

describe("applications rate limit (5 per address per 10 minutes)", () => {
  it("the sixth application from one address gets 429 with Retry-After; another address still passes", async () => {
    for (let i = 1; i <= 5; i++) {
      const form = formPost("/join", { ...joinFields, email: `a${i}@example.org` });
      await thrown(join.action(args(form, "10.0.0.7")));
    }
    const r = reply(await join.action(args(formPost("/join", { ...joinFields, email: "a6@example.org" }), "10.0.0.7")));
    expect(r.status).toBe(429);
    expect(r.data.message).toBe("Too many attempts from your connection. Please try again in 10 minutes.");
    expect(r.data.values?.email).toBe("a6@example.org");
    const retryAfter = Number(r.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(540);
    expect(retryAfter).toBeLessThanOrEqual(600);

    const hero = reply(await home.action(args(formPost("/?index", { email: "a7@example.org" }), "10.0.0.7")));
    expect(hero.status).toBe(429);

    const other = await thrown(join.action(args(formPost("/join", { ...joinFields, email: "b@example.org" }), "10.0.0.8")));
    expect(other.headers.get("Location")).toBe("/join/thanks");
    expect((await applications()).map((a) => a.email)).toEqual([
      "a1@example.org",
      "a2@example.org",
      "a3@example.org",
      "a4@example.org",
      "a5@example.org",
      "b@example.org",
    ]);
  });

  it("RATE_LIMIT=off lifts the limit", async () => {
    db = await freshApp({ SMTP_URL: smtp.url, RATE_LIMIT: "off" });
    for (let i = 1; i <= 7; i++) {
      const r = reply(await home.action(args(formPost("/?index", { email: `h${i}@example.org` }), "10.0.0.7")));
      expect(r.status).toBe(200);
    }
    expect(await applications()).toHaveLength(7);
  });
});
