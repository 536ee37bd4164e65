import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type Db } from "~/lib/db/db.server";
import { site } from "~/lib/core/site";
import { kindOfReference, ORDER_KINDS } from "./order-kinds";
import {
  appendStaffNote,
  codelessOrdersSince,
  existingOrderIds,
  findOrder,
  findOrderByReference,
  paymentReferenceTaken,
  pendingOrdersWithReceipts,
  setPaymentReference,
} from "./orders.server";

let db: Db;
const badge = {
  id: "BO-AAAAAA",
  tier_key: "t1",
  tier_name: "Friend",
  amount: 1500,
  name: "Achieng Otieno",
  email: "achieng@example.org",
  phone: "0712345678",
  payment_reference: "BO-AAAAAA",
  hard_copy: 0,
  notes: "",
  share_url: "",
  status: "pending" as const,
  created_at: "2026-11-21T10:00:00.000Z",
  approved_at: null,
  rejected_at: null,
  portrait_file: null,
  badge_file: null,
  poster_file: null,
  asset_token: "badge-token",
  delivery_outbox_id: null,
  staff_note: "",
  supporter_note: "",
  wall_opt_in: 0,
  wall_name: "",
  wall_portrait: 0,
  wall_hidden: 0,
  wall_key: null,
  checked_in_at: null,
  reminder_for: null,
  badge_revoked_at: null,
  badge_revocation_reason: "",
};
const merch = {
  id: "MO-BBBBBB",
  customer_name: "Wanjiru Kamau",
  customer_email: "wanjiru@example.org",
  customer_phone: "0798765432",
  notes: "",
  payment_reference: "QAB1CD2EF3",
  total: 2400,
  currency: "KES",
  items: "[]",
  status: "pending" as const,
  ts: "2026-11-22T09:30:00.000Z",
  reviewed_at: null,
  staff_notes: "",
  supporter_note: "",
  view_token: "merch-token",
  confirmation_sent_at: null,
};

beforeAll(async () => {
  db = openDatabase(":memory:");
  await migrateToLatest(db);
  await db.insertInto("badge_orders").values(badge).execute();
  await db.insertInto("merch_orders").values(merch).execute();
});
afterAll(() => db.destroy());

describe("the one order shape", () => {
  it("reads a badge order and a merch order under the same names", async () => {
    expect(await findOrder(db, "badge", badge.id)).toEqual({
      kind: "badge",
      id: badge.id,
      createdAt: badge.created_at,
      name: badge.name,
      email: badge.email,
      phone: badge.phone,
      amount: 1500,
      currency: "KES",
      token: "badge-token",
      status: "pending",
      paymentReference: badge.id,
    });
    expect(await findOrder(db, "merch", merch.id)).toEqual({
      kind: "merch",
      id: merch.id,
      createdAt: merch.ts,
      name: merch.customer_name,
      email: merch.customer_email,
      phone: merch.customer_phone,
      amount: 2400,
      currency: "KES",
      token: "merch-token",
      status: "pending",
      paymentReference: "QAB1CD2EF3",
    });
  });

  it("finds an order by its reference's prefix, and nothing in the other kind's table", async () => {
    expect((await findOrderByReference(db, merch.id))?.kind).toBe("merch");
    expect((await findOrderByReference(db, badge.id))?.kind).toBe("badge");
    expect(await findOrderByReference(db, "XO-BBBBBB")).toBeUndefined();
    expect(await findOrder(db, "badge", merch.id)).toBeUndefined();
    expect(kindOfReference("BO-7KQ2MX")).toBe("badge");
    expect(kindOfReference("MO-Q29BY6")).toBe("merch");
    expect(kindOfReference("VESPERS")).toBeNull();
  });

  it("writes the reference and the staff notes of each kind in its own table", async () => {
    expect(await paymentReferenceTaken(db, "merch", "QAB1CD2EF3")).toBe(true);
    expect(await paymentReferenceTaken(db, "badge", "QAB1CD2EF3")).toBe(false);
    await appendStaffNote(db, "badge", badge.id, "FLAG: one");
    await appendStaffNote(db, "merch", merch.id, "FLAG: two");
    expect((await db.selectFrom("badge_orders").select("staff_note").executeTakeFirstOrThrow()).staff_note).toMatch(/FLAG: one$/);
    expect((await db.selectFrom("merch_orders").select("staff_notes").executeTakeFirstOrThrow()).staff_notes).toMatch(/FLAG: two$/);
    expect(await existingOrderIds(db, "badge", [badge.id, merch.id])).toEqual([badge.id]);
  });

  it("lists codeless orders and pending orders holding a receipt, for either kind", async () => {
    expect(await codelessOrdersSince(db, "badge", "2026-11-20T00:00:00.000Z")).toEqual([{ id: badge.id, email: badge.email, phone: badge.phone }]);
    expect(await codelessOrdersSince(db, "merch", "2026-11-20T00:00:00.000Z")).toEqual([]);
    expect(await pendingOrdersWithReceipts(db, "badge")).toEqual([]);
    await setPaymentReference(db, "badge", badge.id, "QZZ9YY8XX7");
    expect((await findOrder(db, "badge", badge.id))?.paymentReference).toBe("QZZ9YY8XX7");
    await db
      .insertInto("received_payments")
      .values({ code: "QZZ9YY8XX7", amount: 1500, paid_at: badge.created_at, payer_name: "A", payer_phone: "", account_ref: "", shortcode: site.payments.eventPaybill, source: "statement", raw: "{}", received_at: badge.created_at, odd_parts: "", reversed_at: null, reversed_by: null })
      .execute();
    expect(await pendingOrdersWithReceipts(db, "badge")).toEqual([badge.id]);
    expect(await pendingOrdersWithReceipts(db, "merch")).toEqual([]);
  });

  it("gives each kind its own paybill and contact", () => {
    expect(ORDER_KINDS.badge.paybill).toBe(site.payments.eventPaybill);
    expect(ORDER_KINDS.merch.paybill).toBe(site.payments.merchPaybill);
    expect(ORDER_KINDS.merch.contactEmail).toBe(site.merchEmail);
  });
});

describe("payments code", () => {
  it("never asks which kind an order is to pick a table, a column, a paybill or an email (the kinds are read from features/orders)", () => {
    const app = fileURLToPath(new URL("../..", import.meta.url));
    let found = "";
    try {
      found = execFileSync("grep", ["-rnE", `kind (===|!==) ['"](badge|merch)['"]|case ['"](badge|merch)['"]`, "."], { cwd: app, encoding: "utf8" });
    } catch (e) {
      // grep exits 1 when nothing matches.
      if ((e as { status?: number }).status !== 1) throw e;
    }
    const outside = found.split("\n").filter((line) => line && !line.startsWith("./features/orders/") && !line.includes(".test.ts"));
    expect(outside, outside.join("\n")).toEqual([]);
  });
});
