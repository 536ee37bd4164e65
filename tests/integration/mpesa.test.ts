import { beforeEach, describe, expect, it } from "vitest";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as statements from "~/routes/api/mpesa-statements";
import { paymentStateFor } from "~/features/reconciliation/matching.server";
import type { Db } from "~/lib/db/db.server";
import { ORIGIN, args, jsonPost, readJson } from "../support/http";
import { freshApp } from "../support/reset";

const SECRET = "cb-secret-0123456789abcdef";
const KEY = "test-admin-key-0123456789";

const callback = (kind: string, body: unknown, secret = SECRET) => {
  const request = jsonPost(`/api/mpesa/c2b/${kind}/${secret}`, body);
  return c2b.action({ ...args(request), params: { kind, secret } } as never);
};

const darajaBody = (fields: Record<string, unknown> = {}) => ({
  TransactionType: "Pay Bill",
  TransID: "SKL4Q2ZB7X",
  TransTime: "20251112194210",
  TransAmount: "1300.00",
  BusinessShortCode: "880100",
  BillRefNumber: "VESPERS",
  InvoiceNumber: "",
  OrgAccountBalance: "10000.00",
  ThirdPartyTransID: "",
  MSISDN: "254712345678",
  FirstName: "JANE",
  MiddleName: "",
  LastName: "WANJIKU",
  ...fields,
});

const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
const line = (code: string, when: string, amount: string) =>
  `${code},${when},${when},Pay Bill,Completed,"${amount}",,,true,Pay Bill Online,254712345678 - JANE WANJIKU,,VESPERS`;
const csv = (...rows: string[]) => ["Street Light Outreach", "Short Code,880100", "", HEADER, ...rows].join("\n");

const upload = (text: string, { dryRun = false, key = KEY } = {}) => {
  const request = new Request(`${ORIGIN}/api/mpesa_statements.php${dryRun ? "?dryRun=1" : ""}`, {
    method: "POST",
    body: text,
    headers: { "content-type": "text/csv", "X-Admin-Key": key },
  });
  return statements.action(args(request, "10.9.9.9"));
};

const payments = (db: Db) => db.selectFrom("received_payments").selectAll().orderBy("code").execute();

let db: Db;
beforeEach(async () => {
  db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, MPESA_SHORTCODE: undefined, ADMIN_KEY: KEY });
});

describe("Daraja C2B confirmation callback", () => {
  it("stores the payment, then answers Accepted; the same callback twice is stored once", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await callback("confirmation", darajaBody());
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    }
    const rows = await payments(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      code: "SKL4Q2ZB7X",
      amount: 1300,
      paid_at: "2025-11-12T16:42:10.000Z",
      payer_name: "JANE WANJIKU",
      payer_phone: "254712345678",
      account_ref: "VESPERS",
      source: "callback",
    });
    expect(JSON.parse(rows[0]!.raw)).toMatchObject({ TransID: "SKL4Q2ZB7X", MSISDN: "254712345678" });
  });

  it("is a 404 with a wrong secret, an unknown kind, or no secret configured", async () => {
    expect((await callback("confirmation", darajaBody(), "wrong-secret-0123456789")).status).toBe(404);
    expect((await callback("refund", darajaBody())).status).toBe(404);
    await freshApp({ MPESA_CALLBACK_SECRET: undefined });
    expect((await callback("confirmation", darajaBody())).status).toBe(404);
  });

  it("a body that is not a payment is a 400 with a non-zero ResultCode, and nothing is stored", async () => {
    for (const body of ["not json", { TransID: "x" }, darajaBody({ TransAmount: "-5" }), darajaBody({ TransTime: "20251340000000" })]) {
      const res = await callback("confirmation", body);
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { ResultCode: number; ResultDesc: string };
      expect(answer.ResultCode).not.toBe(0);
      expect(answer.ResultDesc.length).toBeGreaterThan(0);
    }
    expect(await payments(db)).toEqual([]);
  });

  it("a payment to another paybill is acknowledged and not stored; validation accepts every payment and stores nothing", async () => {
    expect(await (await callback("confirmation", darajaBody({ BusinessShortCode: "999999" }))).json()).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    expect(await (await callback("validation", darajaBody())).json()).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    expect(await payments(db)).toEqual([]);
  });
});

describe("POST /api/mpesa_statements.php", () => {
  it("previews without importing, imports once, and a re-import or an overlapping statement adds nothing twice", async () => {
    const first = csv(line("TAA0000001", "2025-11-10 09:00:00", "300.00"), line("TAA0000002", "2025-11-11 10:00:00", "1,300.00"));
    const preview = await readJson<Record<string, unknown>>(await upload(first, { dryRun: true }));
    expect(preview.body).toMatchObject({ ok: true, dryRun: true, rows: 2, added: 2, known: 0, skipped: 0 });
    expect(await payments(db)).toEqual([]);

    expect((await readJson<Record<string, unknown>>(await upload(first))).body).toMatchObject({ ok: true, rows: 2, added: 2, known: 0 });
    expect((await readJson<Record<string, unknown>>(await upload(first))).body).toMatchObject({ added: 0, known: 2 });
    const overlapping = csv(line("TAA0000002", "2025-11-11 10:00:00", "1,300.00"), line("TAA0000003", "2025-11-12 11:00:00", "500"));
    expect((await readJson<Record<string, unknown>>(await upload(overlapping))).body).toMatchObject({ added: 1, known: 1 });
    expect((await payments(db)).map((p) => p.code)).toEqual(["TAA0000001", "TAA0000002", "TAA0000003"]);
    expect(await db.selectFrom("mpesa_imports").select(["added", "known"]).orderBy("id").execute()).toEqual([
      { added: 2, known: 0 },
      { added: 0, known: 2 },
      { added: 1, known: 1 },
    ]);
  });

  it("the same payment by callback and by statement is stored once (the first to arrive is kept)", async () => {
    await callback("confirmation", darajaBody());
    const body = (await readJson<Record<string, unknown>>(await upload(csv(line("SKL4Q2ZB7X", "2025-11-12 19:42:10", "1,300.00"))))).body;
    expect(body).toMatchObject({ added: 0, known: 1 });
    expect((await payments(db)).map((p) => [p.code, p.source])).toEqual([["SKL4Q2ZB7X", "callback"]]);
  });

  it("a malformed file is a 400 naming the line, and nothing is imported", async () => {
    const bad = csv(line("TAA0000001", "2025-11-10 09:00:00", "300.00"), line("TAA0000002", "11th November", "300.00"));
    const res = await upload(bad);
    expect(res.status).toBe(400);
    expect((await readJson<{ error: string }>(res)).body.error).toBe(
      "Line 6: '11th November' is not a date and time the import can read. Nothing was imported.",
    );
    expect(await payments(db)).toEqual([]);
    expect(await db.selectFrom("mpesa_imports").selectAll().execute()).toEqual([]);
  });

  it("needs the admin key and CSV text", async () => {
    expect((await upload(csv(), { key: "wrong-key-0123456789" })).status).toBe(401);
    const json = jsonPost("/api/mpesa_statements.php", { csv: "x" }, { "X-Admin-Key": KEY });
    expect((await statements.action(args(json))).status).toBe(415);
  });
});

describe("matching after an import", () => {
  it("verified, short, and unmatched (a statement stating no period covers nothing, whatever its rows span)", async () => {
    await upload(
      csv(
        line("TAA0000001", "2025-11-10 09:00:00", "1,300.00"),
        line("TAA0000002", "2025-11-10 10:00:00", "300.00"),
        line("TAA0000009", "2025-11-20 10:00:00", "100.00"),
      ),
    );
    const at = "2025-11-10T07:00:00.000Z"; // inside the period the statement's payments cover
    expect((await paymentStateFor(db, { code: "TAA0000001", amount: 1300, createdAt: at, kind: "merch" })).state).toBe("verified");
    expect(await paymentStateFor(db, { code: "TAA0000002", amount: 1300, createdAt: at, kind: "merch" })).toMatchObject({ state: "short", shortBy: 1000 });
    expect((await paymentStateFor(db, { code: "FAKE000001", amount: 300, createdAt: at, kind: "merch" })).state).toBe("unmatched");
    expect((await paymentStateFor(db, { code: "FAKE000002", amount: 300, createdAt: "2025-11-25T05:00:00.000Z", kind: "merch" })).state).toBe("unmatched");
  });
});
