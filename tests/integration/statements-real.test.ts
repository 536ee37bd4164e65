import writeExcelFile from "write-excel-file/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as statements from "~/routes/api/mpesa-statements";
import * as paymentsPage from "~/routes/admin/payments";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { approveVerifiedOrders } from "~/features/reconciliation/auto-approve.server";
import { listPaymentMismatches } from "~/features/reconciliation/matching.server";
import { orderByToken } from "~/features/reconciliation/order-status.server";
import { paymentWords } from "~/features/reconciliation/order-words";
import { attachBadgeAssets, changeMerchOrderStatus, getBadgeOrder, getMerchOrder, setBadgeOrderStatus } from "~/features/reconciliation/orders.server";
import { staff } from "~/lib/core/actor";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { plainKitPng } from "../support/kit-png";
import { ORIGIN, args, jsonPost, readJson } from "../support/http";
import { freshApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

// Statements as the M-PESA business portal really writes them, and as Excel leaves them
// (shared/docs/mpesa.md, 'The business portal's statement export' and 'What Safaricom really
// sends'), through the JSON API and the staff screen, on a real database: only a stated period
// of one of the site's numbers can call a payer's code missing; another number's or a person's
// statement is refused; day/month is never guessed; .xlsx is read; a reversal is never approved.

const SECRET = "cb-secret-0123456789abcdef";
const KEY = "test-admin-key-0123456789";
const STAFF = staff("203.0.113.9");
const DAY = 86_400_000;
const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";

let n = 0;
const nextCode = () => `TS${String(++n).padStart(8, "0")}`;

/** Nairobi wall-clock parts of an instant. */
const wall = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString();
/**
 * '2026-11-26 17:10:05', as the portal writes it. (Its dd-mm-yyyy form is read in the unit
 * tests; here times follow the clock, and a day of 12 or less written 05-11-2026 would make a
 * file refused whenever no other date shows the order.)
 */
const portalTime = (d: Date) => wall(d).replace("T", " ").slice(0, 19);
/** '11/26/2026 5:10:05 PM', as Excel (US) re-saves it. */
const usTime = (d: Date) => {
  const w = wall(d);
  const h = Number(w.slice(11, 13));
  return `${Number(w.slice(5, 7))}/${Number(w.slice(8, 10))}/${w.slice(0, 4)} ${h % 12 || 12}:${w.slice(14, 19)} ${h < 12 ? "AM" : "PM"}`;
};

type Title = { shortcode?: string | null; from?: Date; to?: Date };
const title = ({ shortcode = "880100", from, to }: Title) => [
  "Organisation Name:,STREET LIGHT OUTREACH",
  ...(shortcode ? [`Short Code:,${shortcode}`] : []),
  "Account:,Utility Account",
  ...(from && to ? [`Time Period:,From ${portalTime(from)} To ${portalTime(to)}`] : []),
  "",
];
const portal = (t: Title, ...rows: string[]) => [...title(t), HEADER, ...rows].join("\r\n");
const payIn = (code: string, at: Date | string, amount: number, account = "") => {
  const when = typeof at === "string" ? at : portalTime(at);
  const money = `"${amount.toLocaleString("en-US")}.00"`;
  return `${code},${when},${when},Pay Bill from 2547******678 - JANE WANJIKU,Completed,${money},,"54,300.00",true,Pay Bill Online,2547******678 - JANE WANJIKU,,${account}`;
};
const reversalRow = (code: string, at: Date, amount: number, original: string) =>
  `${code},${portalTime(at)},${portalTime(at)},Reversal of ${original},Completed,,"-${amount.toLocaleString("en-US")}.00","51,800.00",true,Reversal,2547******678 - JANE WANJIKU,${original},`;

const send = (body: BodyInit, type: string, dryRun = false) =>
  statements.action(
    args(
      new Request(`${ORIGIN}/api/mpesa_statements.php${dryRun ? "?dryRun=1" : ""}`, {
        method: "POST",
        body,
        headers: { "content-type": type, "X-Admin-Key": KEY, ...(typeof body === "string" ? {} : { "content-length": String((body as Uint8Array).byteLength) }) },
      }),
      "10.9.9.9",
    ),
  );
const importCsv = async (csv: string, dryRun = false) => readJson<Record<string, any>>(await send(csv, "text/csv", dryRun));

const callback = (code: string, amount: number, at: Date) =>
  c2b.action({
    ...args(
      jsonPost(`/api/pay/c2b/confirmation/${SECRET}`, {
        TransactionType: "Pay Bill",
        TransID: code,
        TransTime: wall(at).replace(/[-:T]/g, "").slice(0, 14),
        TransAmount: `${amount}.00`,
        BusinessShortCode: "880100",
        BillRefNumber: "",
        InvoiceNumber: null,
        OrgAccountBalance: "",
        ThirdPartyTransID: "",
        MSISDN: "2547 ***** 678",
        FirstName: "JANE",
        MiddleName: "null",
        LastName: "WANJIKU",
      }),
    ),
    params: { kind: "confirmation", secret: SECRET },
  } as never);

const badge = async (db: Db, code: string, placed = new Date()) => {
  const o = await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: code }), null);
  await db.updateTable("badge_orders").set({ created_at: placed.toISOString() }).where("id", "=", o.id).execute();
  return o.id;
};
const merch = async (db: Db, code: string, placed = new Date()) => {
  const o = await submitMerchOrder(
    db,
    CheckoutSchema.parse({ customerName: "Achieng Otieno", customerEmail: "achieng@example.org", customerPhone: "", notes: "", paymentReference: code }),
    [{ itemId: "SL-TOTE", color: null, size: "One size", quantity: 1 }],
  );
  await db.updateTable("merch_orders").set({ ts: placed.toISOString() }).where("id", "=", o.id).execute();
  return o.id;
};
const stateOf = async (db: Db, id: string) => (await getBadgeOrder(db, id)).payment!.state;
const ledger = (db: Db) => db.selectFrom("received_payments").select("code").execute();
const imports = (db: Db) => db.selectFrom("mpesa_imports").selectAll().orderBy("id").execute();

let smtp: SmtpReceiver;
let png: Buffer;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  png = await plainKitPng();
});
afterAll(() => smtp.close());

let db: Db;
const fresh = async (extra: Record<string, string | undefined> = {}) => {
  db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, MPESA_SHORTCODE: undefined, AUTO_APPROVE_VERIFIED: undefined, EVENT_SALES_OPEN: undefined, SMTP_URL: smtp.url, ...extra });
  await saveCatalogue(db, FALLBACK_CATALOGUE);
};
beforeEach(() => fresh());

describe("what a statement covers", () => {
  it("a portal statement whose Time Period covers the order: its code paid is verified, a code it does not list is not_found; a later order stays unmatched", async () => {
    const now = Date.now();
    const placed = new Date(now - 3 * DAY);
    const [paidCode, fakeCode, lateCode] = [nextCode(), nextCode(), nextCode()];
    const paid = await badge(db, paidCode, placed);
    const fake = await badge(db, fakeCode, placed);
    const late = await badge(db, lateCode, new Date(now - 12 * 3_600_000));
    const csv = portal({ from: new Date(now - 15 * DAY), to: new Date(now - 60_000) }, payIn(paidCode, new Date(placed.getTime() - 600_000), 1300, "BO"));
    const answer = await importCsv(csv);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, added: 1, shortcode: "880100", periodSource: "time_period", periodNote: null, reversals: [] });
    expect(Date.parse(answer.body.coversFrom)).toBe(Math.floor((now - 15 * DAY) / 1000) * 1000);
    expect(await stateOf(db, paid)).toBe("verified");
    expect(await stateOf(db, fake)).toBe("not_found");
    // Placed twelve hours before the statement ends: its payment may still come.
    expect(await stateOf(db, late)).toBe("unmatched");
    expect((await listPaymentMismatches(db)).map((m) => m.id)).toEqual([fake]);
    expect((await imports(db)).map((i) => [i.shortcode, i.period_source])).toEqual([["880100", "time_period"]]);
  });

  it("a statement filtered to one account lists rows around the order but states no period: it covers nothing, the order stays unmatched", async () => {
    const placed = new Date(Date.now() - 5 * DAY);
    const fake = await merch(db, nextCode(), placed);
    const csv = portal({}, payIn(nextCode(), new Date(placed.getTime() - 8 * DAY), 300, "MO-4TR8ZD"), payIn(nextCode(), new Date(placed.getTime() + 2 * DAY), 300, "MO-4TR8ZD"));
    const answer = await importCsv(csv);
    expect(answer.body).toMatchObject({
      ok: true,
      added: 2,
      coversFrom: null,
      coversTo: null,
      periodNote: "The statement states no period (no 'Time Period' or From/To line), so it covers no period.",
    });
    expect((await getMerchOrder(db, fake))!.payment!.state).toBe("unmatched");
    expect((await imports(db)).map((i) => [i.covers_from, i.period_source])).toEqual([[null, "none"]]);
  });

  it("callbacks alone never make a payer's code not_found, however long they have been live", async () => {
    const seen = nextCode();
    await callback(seen, 500, new Date(Date.now() - 10 * DAY));
    await db.updateTable("received_payments").set({ received_at: new Date(Date.now() - 10 * DAY).toISOString() }).where("code", "=", seen).execute();
    const id = await badge(db, nextCode(), new Date(Date.now() - 2 * DAY));
    expect(await stateOf(db, id)).toBe("unmatched");
    expect(await listPaymentMismatches(db)).toEqual([]);
  });

  it("with a paybill and a till, a missing code is not_found only once statements of both cover its time", async () => {
    await fresh({ MPESA_SHORTCODE: "880100,5123456" });
    const now = Date.now();
    const id = await badge(db, nextCode(), new Date(now - 3 * DAY));
    const period = { from: new Date(now - 15 * DAY), to: new Date(now - 60_000) };
    await importCsv(portal({ ...period, shortcode: "880100" }));
    expect(await stateOf(db, id)).toBe("unmatched");
    await importCsv(portal({ ...period, shortcode: "5123456" }));
    expect(await stateOf(db, id)).toBe("not_found");
  });

  it("a period that ends after the import covers only up to the import", async () => {
    const now = Date.now();
    const id = await badge(db, nextCode(), new Date(now - 6 * 3_600_000));
    const answer = await importCsv(portal({ from: new Date(now - 15 * DAY), to: new Date(now + 5 * DAY) }));
    expect(Date.parse(answer.body.coversTo)).toBeLessThanOrEqual(Date.now());
    expect(answer.body.periodNote).toBe("The statement's period ends after now: it covers up to the time of this import.");
    expect(await stateOf(db, id)).toBe("unmatched");
  });
});

describe("statements that are not this site's are refused, saying whose they are", () => {
  it("another short code", async () => {
    await fresh({ MPESA_SHORTCODE: "880100,5123456" });
    const res = await send(portal({ shortcode: "123456", from: new Date(Date.now() - 9 * DAY), to: new Date() }, payIn(nextCode(), new Date(), 1300)), "text/csv");
    expect(res.status).toBe(400);
    expect((await readJson<{ error: string }>(res)).body.error).toBe("This statement is for short code 123456, not this site's 880100 or 5123456. Nothing was imported.");
    expect(await ledger(db)).toEqual([]);
    expect(await imports(db)).toEqual([]);
  });

  it("a personal M-PESA statement", async () => {
    const personal = [
      "MPESA FULL STATEMENT",
      "Customer Name:,JOHN DOE",
      "Mobile Number:,254722000678",
      "Statement Period:,01 Nov 2026 - 26 Nov 2026",
      "",
      "Receipt No.,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance",
      `TKQ1A2B3C4,2026-11-26 17:10:05,Funds received from - 0711***222 MARY,Completed,"1,300.00",,"5,300.00"`,
    ].join("\n");
    const res = await send(personal, "text/csv");
    expect(res.status).toBe(400);
    expect((await readJson<{ error: string }>(res)).body.error).toBe(
      "This is a personal M-PESA statement (for 0722 *** 678), not the organisation's paybill statement: download the statement from the M-PESA business portal. Nothing was imported.",
    );
    expect(await ledger(db)).toEqual([]);
  });
});

describe("a statement Excel re-saved", () => {
  it("US dates are read by the file's own unambiguous row; an all-ambiguous file is refused with the line, and nothing is imported", async () => {
    const a = new Date("2026-11-05T14:10:00Z"); // 11/5/2026 5:10 PM in Nairobi: either order fits
    const b = new Date("2026-11-26T06:05:00Z"); // 11/26/2026: only month/day fits
    const [ca, cb] = [nextCode(), nextCode()];
    const ok = await importCsv(portal({}, payIn(ca, usTime(a), 1300), payIn(cb, usTime(b), 300)));
    expect(ok.body).toMatchObject({ ok: true, added: 2 });
    const stored = await db.selectFrom("received_payments").select(["code", "paid_at"]).orderBy("code").execute();
    expect(stored).toEqual([
      { code: ca, paid_at: "2026-11-05T14:10:00.000Z" },
      { code: cb, paid_at: "2026-11-26T06:05:00.000Z" },
    ]);

    const res = await send(portal({}, payIn(nextCode(), "11/5/2026 17:10", 500), payIn(nextCode(), "11/6/2026 17:10", 500)), "text/csv");
    expect(res.status).toBe(400);
    expect((await readJson<{ error: string }>(res)).body.error).toMatch(/^Line 6: '11\/5\/2026 17:10' could be 11 May or 5 November 2026, and no other date in the file shows whether the day or the month comes first\./);
    expect(await ledger(db)).toHaveLength(2);
  });

  it("an .xlsx is accepted as the body, as a form upload, and on the staff screen (preview, then import)", async () => {
    const row = (code: string, d: number) => [
      code,
      { value: new Date(Date.UTC(2026, 10, d, 17, 10)), format: "dd-mm-yyyy hh:mm:ss" },
      { value: new Date(Date.UTC(2026, 10, d, 17, 10)), format: "dd-mm-yyyy hh:mm:ss" },
      "Pay Bill",
      "Completed",
      1300,
      null,
      54300,
      "true",
      "Pay Bill Online",
      "2547******678 - JANE WANJIKU",
      null,
      "BO-7KQ2MX",
    ];
    const xlsx = (...rows: unknown[][]) =>
      writeExcelFile([["Organisation Name:", "STREET LIGHT OUTREACH"], ["Short Code:", 880100], [null], HEADER.split(","), ...rows] as never).toBuffer();
    const [c1, c2, c3] = [nextCode(), nextCode(), nextCode()];

    const raw = await readJson<Record<string, any>>(await send(new Uint8Array(await xlsx(row(c1, 20))), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"));
    expect(raw.body).toMatchObject({ ok: true, added: 1, shortcode: "880100" });

    const form = new FormData();
    form.set("statement", new File([new Uint8Array(await xlsx(row(c2, 21)))], "statement.xlsx"));
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const multipart = await readJson<Record<string, any>>(await send(body, encoded.headers.get("content-type")!));
    expect(multipart.body).toMatchObject({ ok: true, added: 1 });

    // The staff screen: the file goes up with 'Preview', then 'Import' takes the kept draft.
    const cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), "10.0.0.42")).split(";")[0]!;
    const screen = async (fields: FormData) => {
      const enc = new Response(fields);
      const bytes = Buffer.from(await enc.arrayBuffer());
      const request = new Request(`${ORIGIN}/admin/payments`, {
        method: "POST",
        body: bytes,
        headers: { "content-type": enc.headers.get("content-type")!, "content-length": String(bytes.length), Cookie: cookie, Origin: ORIGIN },
      });
      return (await paymentsPage.action(args(request, "10.0.0.42"))) as unknown as { data: { status: string; message: string; result?: any }; init: { status: number } };
    };
    const preview = new FormData();
    preview.set("intent", "preview");
    preview.set("statement", new File([new Uint8Array(await xlsx(row(c3, 22)))], "portal.xlsx"));
    const previewed = await screen(preview);
    expect(previewed.init.status).toBe(200);
    expect(previewed.data.result).toMatchObject({ step: "preview", fileName: "portal.xlsx", preview: { added: 1, shortcode: "880100", coversFrom: null } });
    expect((await ledger(db)).map((p) => p.code)).not.toContain(c3);
    const confirm = new FormData();
    confirm.set("intent", "import");
    confirm.set("draft", previewed.data.result.draftId);
    const imported = await screen(confirm);
    expect(imported.data.message).toBe("Imported: 1 new payments, 0 already known, 0 skipped; 0 orders matched.");
    expect((await ledger(db)).map((p) => p.code).sort()).toEqual([c1, c2, c3]);
  });
});

describe("reversals", () => {
  it("a statement's Reversal row marks the payment reversed: never auto-approved, staff need the tick, the supporter is not told 'in full'", async () => {
    await fresh({ AUTO_APPROVE_VERIFIED: "on" });
    const now = Date.now();
    const [bc, mc, keep] = [nextCode(), nextCode(), nextCode()];
    const b = await badge(db, bc, new Date(now - 2 * DAY));
    const m = await merch(db, mc, new Date(now - 2 * DAY));
    const k = await badge(db, keep, new Date(now - 2 * DAY));
    const paidAt = new Date(now - 2 * DAY - 600_000);
    const answer = await importCsv(
      portal(
        { from: new Date(now - 10 * DAY), to: new Date(now - 60_000) },
        payIn(bc, paidAt, 1300),
        payIn(mc, paidAt, 1200),
        payIn(keep, paidAt, 1300),
        reversalRow("TR00000001", new Date(now - DAY), 1300, bc),
        reversalRow("TR00000002", new Date(now - DAY), 1200, mc),
      ),
    );
    expect(answer.body).toMatchObject({ ok: true, added: 3, skipped: 0 });
    expect(answer.body.reversals.map((r: any) => [r.code, r.original, r.amount, r.originalKnown])).toEqual([
      ["TR00000001", bc, 1300, true],
      ["TR00000002", mc, 1200, true],
    ]);
    expect((await getBadgeOrder(db, b)).payment).toMatchObject({ state: "reversed", receivedAmount: 1300, reversedBy: "TR00000001" });
    expect((await getMerchOrder(db, m))!.payment).toMatchObject({ state: "reversed", reversedBy: "TR00000002" });

    const approved = await approveVerifiedOrders(db);
    expect(approved.merch).toEqual([]);
    expect(approved.badges).toEqual([k]);
    expect((await getBadgeOrder(db, b)).status).toBe("pending");
    expect((await getMerchOrder(db, m))!.status).toBe("pending");
    expect((await listPaymentMismatches(db)).map((x) => x.id).sort()).toEqual([b, m].sort());

    await expect(changeMerchOrderStatus(db, { id: m, status: "approved" }, STAFF)).rejects.toThrow(
      `M-Pesa reversed the payment with code ${mc} (reversal TR00000002): the money went back to the payer. Tick 'Approve without a verified payment' to approve it anyway.`,
    );

    const token = (await db.selectFrom("badge_orders").select("asset_token").where("id", "=", b).executeTakeFirstOrThrow()).asset_token;
    const page = (await orderByToken(db, b, token))!;
    expect(page.payment.state).toBe("reversed");
    const words = paymentWords(page.payment, { amount: page.amount, currency: "KES" });
    expect(`${words.headline} ${words.detail}`).not.toContain("in full");
    expect(words.headline).toBe("This payment was reversed");
  });

  it("an order approved, then reversed, is first on /admin/payments and its row says so", async () => {
    const now = Date.now();
    const code = nextCode();
    const id = await badge(db, code, new Date(now - 2 * DAY));
    await callback(code, 1300, new Date(now - 2 * DAY - 600_000));
    await attachBadgeAssets(db, id, { badge: png, poster: png }, STAFF);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    await importCsv(portal({ from: new Date(now - 10 * DAY), to: new Date(now - 60_000) }, reversalRow("TR00000009", new Date(now - DAY), 1300, code)));

    const cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), "10.0.0.42")).split(";")[0]!;
    const data = await paymentsPage.loader(args(new Request(`${ORIGIN}/admin/payments`, { headers: { Cookie: cookie } })));
    expect(data!.reversedApprovals).toMatchObject([{ kind: "badge", id, code, amount: 1300, received: 1300, reversedBy: "TR00000009" }]);
    expect(data!.received.find((p) => p.code === code)!.reversed).toMatchObject({ by: "TR00000009" });
    const order = await getBadgeOrder(db, id);
    expect(order.status).toBe("approved");
    expect(order.payment).toMatchObject({ state: "reversed", reversedBy: "TR00000009" });
  });

  it("a receipt linked by account number, then reversed, makes its approved order reversed and first on /admin/payments", async () => {
    const now = Date.now();
    const [typed, paidCode] = [nextCode(), nextCode()];
    const id = await badge(db, typed, new Date(now - 2 * DAY));
    // The supporter typed a code M-Pesa never sent; the payment names the order as its account number.
    await importCsv(portal({}, payIn(paidCode, new Date(now - 2 * DAY - 600_000), 1300, id.toLowerCase())));
    expect((await getBadgeOrder(db, id)).payment).toMatchObject({ state: "verified", receipts: [{ transId: paidCode, matchedBy: "account" }] });
    await attachBadgeAssets(db, id, { badge: png, poster: png }, STAFF);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    await importCsv(portal({}, reversalRow("TR00000010", new Date(now - DAY), 1300, paidCode)));

    expect((await getBadgeOrder(db, id)).payment).toMatchObject({ state: "reversed", reversedBy: "TR00000010" });
    const cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), "10.0.0.42")).split(";")[0]!;
    const data = await paymentsPage.loader(args(new Request(`${ORIGIN}/admin/payments`, { headers: { Cookie: cookie } })));
    expect(data!.reversedApprovals).toMatchObject([{ kind: "badge", id, code: typed, amount: 1300, received: 1300, reversedBy: "TR00000010" }]);
  });

  it("a reversal read before its payment is known is kept, and applied when the payment arrives", async () => {
    const now = Date.now();
    const code = nextCode();
    const id = await badge(db, code, new Date(now - 2 * DAY));
    const answer = await importCsv(portal({}, reversalRow("TR00000005", new Date(now - DAY), 1300, code)));
    expect(answer.body.reversals).toMatchObject([{ code: "TR00000005", original: code, originalKnown: false }]);
    expect(await stateOf(db, id)).toBe("unmatched");
    await callback(code, 1300, new Date(now - 2 * DAY - 600_000));
    expect((await getBadgeOrder(db, id)).payment).toMatchObject({ state: "reversed", reversedBy: "TR00000005" });
    // The same statement again changes nothing.
    await importCsv(portal({}, reversalRow("TR00000005", new Date(now - DAY), 1300, code)));
    expect(await db.selectFrom("payment_reversals").select(["code", "original_code"]).execute()).toEqual([{ code: "TR00000005", original_code: code }]);
  });
});
