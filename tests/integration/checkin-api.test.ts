import { plainKitPng } from "../support/kit-png";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkInCounts, entryTicket } from "~/features/event-badges/check-in.server";
import { revokeSupporterBadge } from "~/features/open-badges/open-badges.server";
import { staff } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as checkinApi from "~/routes/api/checkin";
import { args, jsonPost, readJson, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

/** POST /api/checkin.php: door check-in by scanned ticket or typed reference, once per supporter. */
const ADMIN = { "X-Admin-Key": "test-admin-key-0123456789" };
const FORGED = "This ticket is not one of ours. Check the code, or look the supporter up by reference or name.";

let ip = 0;
const nextIp = () => `10.7.${Math.floor(++ip / 250)}.${ip % 250}`;
let codes = 0;
const nextCode = () => `QD${String(++codes).padStart(8, "0")}`;

const orders = (body: unknown, headers: Record<string, string> = {}) => badgeOrdersApi.action(args(jsonPost("/api/badge_orders.php", body, headers), nextIp()));
const scan = (body: unknown, headers: Record<string, string> = ADMIN) => checkinApi.action(args(jsonPost("/api/checkin.php", body, headers), "10.9.9.9"));

let kit: string;
let smtp: SmtpReceiver;
let db: Db;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  kit = `data:image/png;base64,${(await plainKitPng()).toString("base64")}`;
});
afterAll(async () => smtp.close());
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
});

async function order(fields: Record<string, unknown> = {}, approve = true) {
  const placed = await readJson<{ id: string }>(
    await orders({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: nextCode(), hardCopy: true, ...fields }),
  );
  const id = placed.body.id;
  if (approve) {
    expect((await orders({ id, badgeDataUrl: kit, posterDataUrl: kit }, ADMIN)).status).toBe(200);
    expect((await orders({ id, status: "approved", paymentChecked: true }, ADMIN)).status).toBe(200);
  }
  return id;
}

type Answer = { ok: true; order: { id: string; name: string; tierName: string; hardCopy: boolean }; checkedInAt: string; already: boolean };

describe("POST /api/checkin.php", () => {
  it("checks an approved supporter in by ticket once; the second scan says 'already', with the first time", async () => {
    const id = await order();
    const first = await readJson<Answer>(await scan({ token: entryTicket(id) }));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ok: true,
      order: { id, name: "Jane Wanjiru", tierName: "Big Friend", hardCopy: true },
      checkedInAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      already: false,
    });
    const second = await readJson<Answer>(await scan({ reference: id.toLowerCase() }));
    expect(second.body).toMatchObject({ already: true, checkedInAt: first.body.checkedInAt, order: { id } });
    const log = await db.selectFrom("activity").select(["type", "actor_ip"]).where("type", "=", "badge_orders.check_in").execute();
    expect(log).toEqual([{ type: "badge_orders.check_in", actor_ip: "10.9.9.9" }]);
  });

  it("twenty door phones scanning one ticket at once: exactly one first check-in, nineteen 'already'", async () => {
    const id = await order();
    const token = entryTicket(id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => scan({ token }).then((r) => readJson<Answer>(r))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => !a.body.already)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.checkedInAt)).size).toBe(1);
    const row = await db.selectFrom("badge_orders").select("checked_in_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.checked_in_at).toBe(answers[0]!.body.checkedInAt);
  });

  it("a forged or altered ticket, a pending order (not yet approved), an unknown reference: 404 with a message, nobody checked in", async () => {
    const approved = await order();
    const pending = await order({}, false);
    const ticket = entryTicket(approved);
    const cases: [unknown, string][] = [
      [{ token: `${approved}.${"A".repeat(22)}` }, FORGED],
      [{ token: `${pending}${ticket.slice(approved.length)}` }, FORGED],
      [{ token: "anything at all" }, FORGED],
      // A real order not yet paid for reads differently from a mistyped one.
      [{ token: entryTicket(pending) }, `${pending} is not yet approved: its payment has not been checked. Look at it under Badge orders.`],
      [{ reference: pending }, `${pending} is not yet approved: its payment has not been checked. Look at it under Badge orders.`],
      [{ reference: "BO-ZZZZZZ" }, "No approved order with that reference."],
    ];
    for (const [body, message] of cases) {
      const res = await scan(body);
      const { body: answer } = await readJson<ApiError>(res);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(answer).toEqual({ ok: false, error: message });
    }
    const arrived = await db.selectFrom("badge_orders").select("id").where("checked_in_at", "is not", null).execute();
    expect(arrived).toEqual([]);
  });

  it("a revoked badge is refused (409) by ticket and by reference, with the reason; nobody is checked in and the count leaves it out", async () => {
    const id = await order();
    const other = await order({ name: "Other Guest", email: "other@example.org" });
    expect(await checkInCounts(db)).toEqual({ arrived: 0, approved: 2 });
    await revokeSupporterBadge(db, id, "Refunded", staff("10.9.9.1"));
    const refusal = {
      ok: false,
      error: `Do not let in: the badge of Jane Wanjiru (${id}) was revoked. Reason: Refunded`,
      order: { id, name: "Jane Wanjiru", tierName: "Big Friend", hardCopy: true },
      refused: { kind: "revoked", at: expect.stringMatching(/^\d{4}-/), reason: "Refunded" },
    };
    for (const body of [{ token: entryTicket(id) }, { reference: id }, { reference: id.slice(3).toLowerCase() }]) {
      const res = await scan(body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect((await readJson(res)).body).toEqual(refusal);
    }
    const row = await db.selectFrom("badge_orders").select("checked_in_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.checked_in_at).toBeNull();
    expect(await db.selectFrom("activity").select("type").where("type", "=", "badge_orders.check_in").execute()).toEqual([]);
    expect(await checkInCounts(db)).toEqual({ arrived: 0, approved: 1 });
    // Someone checked in before their badge was revoked is refused at the next scan too, and no longer counted.
    expect((await scan({ reference: other })).status).toBe(200);
    await revokeSupporterBadge(db, other, "Payment reversed", staff("10.9.9.1"));
    const again = await scan({ token: entryTicket(other) });
    expect(again.status).toBe(409);
    expect((await readJson<ApiError>(again)).body.error).toContain("Reason: Payment reversed");
    expect(await checkInCounts(db)).toEqual({ arrived: 0, approved: 0 });
  });

  it("a rejected order (approved, then rejected) is refused with the note sent to the supporter", async () => {
    const id = await order();
    expect((await orders({ id, status: "rejected", note: "The M-Pesa payment was reversed." }, ADMIN)).status).toBe(200);
    const res = await scan({ token: entryTicket(id) });
    expect(res.status).toBe(409);
    expect((await readJson(res)).body).toMatchObject({
      ok: false,
      error: `Do not let in: the order of Jane Wanjiru (${id}) was rejected. Reason: The M-Pesa payment was reversed.`,
      refused: { kind: "rejected", reason: "The M-Pesa payment was reversed." },
    });
    const row = await db.selectFrom("badge_orders").select("checked_in_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.checked_in_at).toBeNull();
  });

  it("a reference is read with or without 'BO-', in any case, with spaces or dashes", async () => {
    const id = await order();
    const six = id.slice(3);
    const first = await readJson<Answer>(await scan({ reference: `${six.slice(0, 3).toLowerCase()} ${six.slice(3).toLowerCase()}` }));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ already: false, order: { id } });
    for (const typed of [six, `bo-${six.toLowerCase()}`, `BO ${six}`, ` Bo-${six.slice(0, 3)}-${six.slice(3)} `, `B0-${six}`]) {
      const res = await readJson<Answer>(await scan({ reference: typed }));
      expect(res.status, typed).toBe(200);
      expect(res.body, typed).toMatchObject({ already: true, order: { id } });
    }
    for (const typed of ["BO-12345", "ABCDEFG", "BO-ABC12!", "XY-ABC123"]) {
      const res = await scan({ reference: typed });
      expect(res.status, typed).toBe(400);
      expect((await readJson<ApiError>(res)).body.error, typed).toBe("A reference looks like BO-ABC123.");
    }
  });

  it("needs the admin key; a body with neither token nor reference, or a malformed reference, is a 400", async () => {
    const id = await order();
    expect((await scan({ token: entryTicket(id) }, {})).status).toBe(401);
    expect((await scan({ token: entryTicket(id) }, { "X-Admin-Key": "wrong-key-0123456789" })).status).toBe(401);
    const none = await scan({});
    expect(none.status).toBe(400);
    expect((await readJson<ApiError>(none)).body.error).toBe("Send {token} (a scanned ticket) or {reference} (BO-ABC123).");
    expect((await readJson<ApiError>(await scan({ reference: "12345" }))).body.error).toBe("A reference looks like BO-ABC123.");
    expect((await scan({ token: 42 })).status).toBe(400);
    expect((await checkinApi.loader(args(new Request("http://site.test/api/checkin.php"), "10.9.9.9"))).status).toBe(405);
  });
});
