import { matchRoutes } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import routes from "~/routes";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as paymentsPage from "~/routes/admin/payments";
import { listReceivedPayments } from "~/features/received-payments/received-payments.server";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { refusedCallbackWord } from "~/lib/server/env.server";
import { ORIGIN, args, jsonPost } from "../support/http";
import { freshApp } from "../support/reset";

// Callbacks in the shapes Safaricom really sends (shared/docs/mpesa.md, 'What Safaricom really
// sends'): C2B v1 hashes the MSISDN (SHA-256, 64 hex characters), v2 masks it; optional fields
// come empty, as the text "null" or as JSON null; amounts are strings.

const SECRET = "cb-secret-0123456789abcdef";
const PUBLIC_URL = "https://outreach.example.org";
const ACCEPTED = { ResultCode: 0, ResultDesc: "Accepted" };
const ACCEPTED_AS_DOCUMENTED = { ResultCode: "0", ResultDesc: "Accepted" };
const HASHED = "2f1a7c4b9e0d83f6a5c2b1e4d7f09a3c6b8e5d2f1a4c7b0e9d3f6a2c5b8e1d4f";

/** A callback as the server hands it to the route: by its path, through the app's own route table. */
function post(path: string, body: unknown) {
  const matches = matchRoutes(routes as never, path);
  const leaf = matches?.at(-1) as { route: { file: string }; params: Record<string, string> } | undefined;
  if (leaf?.route.file !== "routes/api/mpesa-c2b.ts") throw new Error(`${path} is not served by the C2B callback route (${leaf?.route.file})`);
  return c2b.action({ ...args(jsonPost(path, body)), params: leaf.params } as never);
}
const pay = (kind: string, body: unknown) => post(`/api/pay/c2b/${kind}/${SECRET}`, body);

/** C2B v1 confirmation: hashed MSISDN, the sample's "null" and "" names, null invoice. */
const v1 = (fields: Record<string, unknown> = {}) => ({
  TransactionType: "Pay Bill",
  TransID: "TKB3XY7QPL",
  TransTime: "20261126171005",
  TransAmount: "1500",
  BusinessShortCode: "880100",
  BillRefNumber: "BO-7K2Q9P",
  InvoiceNumber: null,
  OrgAccountBalance: "",
  ThirdPartyTransID: "",
  MSISDN: HASHED,
  FirstName: "JOHN",
  MiddleName: "null",
  LastName: "",
  ...fields,
});

/** C2B v2 confirmation: masked MSISDN, amount "5.00". */
const v2 = (fields: Record<string, unknown> = {}) => ({
  TransactionType: "Pay Bill",
  TransID: "TKB4AB1CDE",
  TransTime: "20261126171510",
  TransAmount: "5.00",
  BusinessShortCode: "880100",
  BillRefNumber: "",
  InvoiceNumber: "",
  OrgAccountBalance: "null",
  ThirdPartyTransID: null,
  MSISDN: "2547 ***** 126",
  FirstName: "JANE",
  MiddleName: null,
  LastName: "null",
  ...fields,
});

const ledger = (db: Db) => db.selectFrom("received_payments").selectAll().orderBy("code").execute();
const setAside = (db: Db) => db.selectFrom("callbacks_set_aside").selectAll().orderBy("trans_id").execute();

let db: Db;
beforeEach(async () => {
  db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, MPESA_SHORTCODE: undefined, PUBLIC_URL });
});

describe("callback paths", () => {
  it("the URLs to register carry none of the words Safaricom refuses; the old /api/mpesa paths answer too", async () => {
    expect(refusedCallbackWord(`${PUBLIC_URL}/api/pay/c2b/confirmation/${SECRET}`)).toBeNull();
    expect(refusedCallbackWord(`${PUBLIC_URL}/api/mpesa/c2b/confirmation/${SECRET}`)).toBe("mpesa");
    const res = await post(`/api/mpesa/c2b/confirmation/${SECRET}`, v1());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ACCEPTED);
    expect((await ledger(db)).map((p) => p.code)).toEqual(["TKB3XY7QPL"]);
  });

  it("a wrong secret on the new path is a 404, and nothing is stored", async () => {
    expect((await post("/api/pay/c2b/confirmation/wrong-secret-0123456789", v1())).status).toBe(404);
    expect((await post("/api/pay/c2b/validation/wrong-secret-0123456789", v1())).status).toBe(404);
    expect(await ledger(db)).toEqual([]);
    expect(await setAside(db)).toEqual([]);
  });
});

describe("confirmations as Safaricom sends them are stored", () => {
  it("v1 with a hashed MSISDN, null and \"null\" fields: stored whole, shown shortened", async () => {
    const res = await pay("confirmation", v1());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ACCEPTED);
    const [row] = await ledger(db);
    expect(row).toMatchObject({
      code: "TKB3XY7QPL",
      amount: 1500,
      paid_at: "2026-11-26T14:10:05.000Z",
      payer_name: "JOHN",
      payer_phone: HASHED,
      account_ref: "BO-7K2Q9P",
      shortcode: "880100",
      source: "callback",
      odd_parts: "",
    });
    expect(JSON.parse(row!.raw)).toMatchObject({ MSISDN: HASHED, InvoiceNumber: null, MiddleName: "null" });
    const [listed] = await listReceivedPayments(db);
    expect(listed!.payerPhone).toBe("2f1a7c…1d4f");
  });

  it("v2 with a masked MSISDN and amount \"5.00\": stored, shown to staff as sent", async () => {
    const res = await pay("confirmation", v2());
    expect(await res.json()).toEqual(ACCEPTED);
    expect(await ledger(db)).toMatchObject([{ code: "TKB4AB1CDE", amount: 5, payer_name: "JANE", payer_phone: "2547 ***** 126", account_ref: "" }]);
    expect((await listReceivedPayments(db))[0]!.payerPhone).toBe("2547 ***** 126");
  });

  it("odd fields do not lose the payment: stored on doubt with the odd parts as they came, for staff", async () => {
    const odd = v1({
      TransID: "TKB3XY7QPL42",
      TransAmount: 1300.5,
      BusinessShortCode: 880100,
      FirstName: { value: "JOHN" },
      OrgAccountBalance: false,
      BillRefNumber: "STORE#BO-7K2Q9P-and-a-much-longer-account-text",
    });
    const res = await pay("confirmation", odd);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ACCEPTED);
    const [row] = await ledger(db);
    expect(row).toMatchObject({ code: "TKB3XY7QPL42", amount: 1300, payer_name: "", shortcode: "880100" });
    expect(JSON.parse(row!.raw)).toEqual(odd);
    const [listed] = await listReceivedPayments(db);
    expect(listed!.oddParts).toEqual([
      { field: "TransID", value: "TKB3XY7QPL42", note: "not the usual ten letters and digits" },
      { field: "TransAmount", value: 1300.5, note: "not whole shillings; counted as 1300" },
      { field: "FirstName", value: { value: "JOHN" }, note: "not text; left out" },
      { field: "OrgAccountBalance", value: false, note: "not text; left out" },
      { field: "BillRefNumber", value: odd.BillRefNumber, note: "longer than 40 characters; shortened in lists" },
    ]);
  });

  it("a confirmation whose amount cannot be read is kept for staff with its body as it came", async () => {
    const body = v2({ TransAmount: "five hundred" });
    expect((await pay("confirmation", body)).status).toBe(400);
    expect(await ledger(db)).toEqual([]);
    const [kept] = await setAside(db);
    expect(kept).toMatchObject({ trans_id: "TKB4AB1CDE", reason: "unreadable", note: "TransAmount 'five hundred' is not an amount paid in." });
    expect(JSON.parse(kept!.body)).toEqual(body);
  });

  it("a body with no TransID is no confirmation: refused, nothing kept", async () => {
    const res = await pay("confirmation", v1({ TransID: "null" }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { ResultCode: number }).ResultCode).not.toBe(0);
    expect(await ledger(db)).toEqual([]);
    expect(await setAside(db)).toEqual([]);
  });
});

describe("validation accepts on doubt", () => {
  it("real shapes are accepted", async () => {
    for (const body of [v1(), v2()]) {
      const res = await pay("validation", body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(ACCEPTED);
    }
    expect(await ledger(db)).toEqual([]);
  });

  it("a body it cannot read is accepted (Safaricom's words) and nothing is stored", async () => {
    const garbage = ["not json at all", "", "[1,2,3]", "null", JSON.stringify({ hello: "world" }), JSON.stringify(v1({ TransAmount: "-5", TransTime: "soon" }))];
    for (const body of garbage) {
      const res = await pay("validation", body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(ACCEPTED_AS_DOCUMENTED);
    }
    expect(await ledger(db)).toEqual([]);
    expect(await setAside(db)).toEqual([]);
  });
});

describe("one site, more than one number", () => {
  beforeEach(async () => {
    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, MPESA_SHORTCODE: "880100, 5123456", PUBLIC_URL });
  });

  it("payments to each of the site's numbers are stored; one for another number is acknowledged and kept as 'other number'", async () => {
    expect(await (await pay("confirmation", v1())).json()).toEqual(ACCEPTED);
    expect(await (await pay("confirmation", v2({ BusinessShortCode: "5123456", TransactionType: "Buy Goods" }))).json()).toEqual(ACCEPTED);
    expect((await ledger(db)).map((p) => [p.code, p.shortcode])).toEqual([
      ["TKB3XY7QPL", "880100"],
      ["TKB4AB1CDE", "5123456"],
    ]);

    const other = v1({ TransID: "TKB9ZZ0XYZ", BusinessShortCode: "999999" });
    for (let i = 0; i < 2; i++) expect(await (await pay("confirmation", other)).json()).toEqual(ACCEPTED);
    const kept = await setAside(db);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      trans_id: "TKB9ZZ0XYZ",
      reason: "other_number",
      shortcode: "999999",
      amount: 1500,
      note: "Paid to 999999, which is not one of this site's numbers (880100, 5123456).",
    });
    expect((await ledger(db)).map((p) => p.code)).not.toContain("TKB9ZZ0XYZ");
  });

  it("staff see on /admin/payments the exact URLs to register, the numbers, and the payments set aside", async () => {
    await pay("confirmation", v1({ TransID: "TKB9ZZ0XYZ", BusinessShortCode: "999999" }));
    await pay("confirmation", v1());
    const cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), "10.0.0.42")).split(";")[0]!;
    const data = await paymentsPage.loader(args(new Request(`${ORIGIN}/admin/payments`, { headers: { Cookie: cookie } })));
    expect(data).not.toBeNull();
    expect(data!.callbacks).toEqual({
      shortcodes: ["880100", "5123456"],
      urls: {
        confirmation: `${PUBLIC_URL}/api/pay/c2b/confirmation/${SECRET}`,
        validation: `${PUBLIC_URL}/api/pay/c2b/validation/${SECRET}`,
      },
      warnings: [],
    });
    expect(data!.setAside).toMatchObject([{ transId: "TKB9ZZ0XYZ", reason: "other_number", shortcode: "999999", amount: 1500, payerPhone: "2f1a7c…1d4f" }]);
    expect(data!.received.map((p) => [p.code, p.payerPhone])).toEqual([["TKB3XY7QPL", "2f1a7c…1d4f"]]);

    // Not signed in: nothing.
    expect(await paymentsPage.loader(args(new Request(`${ORIGIN}/admin/payments`)))).toBeNull();
  });

  it("staff are warned when the site's address is one Safaricom would refuse", async () => {
    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, PUBLIC_URL: "http://mpesa.outreach.example.org" });
    const cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), "10.0.0.42")).split(";")[0]!;
    const data = await paymentsPage.loader(args(new Request(`${ORIGIN}/admin/payments`, { headers: { Cookie: cookie } })));
    expect(data!.callbacks.warnings).toEqual([
      "Safaricom calls only public https:// addresses: set PUBLIC_URL to the site's https address.",
      "PUBLIC_URL contains 'mpesa', which Safaricom refuses in a callback URL: register the site under another address.",
    ]);
  });
});
