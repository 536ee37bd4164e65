import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type Db } from "~/lib/db/db.server";
import { HttpError } from "~/lib/http/http.server";
import { newOrderId, ORDER_ID_TRIES, ORDER_ID_UNAVAILABLE, unusedOrderId } from "./order-ids.server";

let db: Db;
beforeAll(async () => {
  db = openDatabase(":memory:");
  await migrateToLatest(db);
  const order = (id: string) => ({
    id,
    customer_name: "A",
    customer_email: "a@b.co",
    customer_phone: "",
    notes: "",
    payment_reference: `REF${id}`,
    total: 1,
    currency: "KES",
    items: "[]",
    status: "pending" as const,
    ts: "2026-11-21T10:00:00.000Z",
    reviewed_at: null,
    staff_notes: "",
    supporter_note: "",
    view_token: `t-${id}`,
  });
  await db.insertInto("merch_orders").values([order("MO-AAAAAA"), order("MO-BBBBBB")]).execute();
});
afterAll(() => db.destroy());

/** A stand-in for the random source: the given ids in turn, counting the calls. */
function sequence(...ids: string[]) {
  const make = (prefix: string) => {
    make.calls.push(prefix);
    return ids[make.calls.length - 1] ?? ids[ids.length - 1]!;
  };
  make.calls = [] as string[];
  return make;
}

describe("newOrderId", () => {
  it("is the prefix and six readable characters", () => {
    for (let i = 0; i < 200; i++) expect(newOrderId("BO")).toMatch(/^BO-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(newOrderId("MO")).toMatch(/^MO-/);
  });
});

describe("unusedOrderId", () => {
  it("skips references already taken", async () => {
    const make = sequence("MO-AAAAAA", "MO-BBBBBB", "MO-CCCCCC");
    expect(await unusedOrderId(db, "merch_orders", "MO", make)).toBe("MO-CCCCCC");
    expect(make.calls).toEqual(["MO", "MO", "MO"]);
  });

  it("looks only in its own table", async () => {
    expect(await unusedOrderId(db, "badge_orders", "MO", sequence("MO-AAAAAA"))).toBe("MO-AAAAAA");
  });

  it("gives up with 503 after 20 taken references in a row", async () => {
    const make = sequence("MO-AAAAAA");
    const err = await unusedOrderId(db, "merch_orders", "MO", make).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 503, message: ORDER_ID_UNAVAILABLE });
    expect(make.calls).toHaveLength(ORDER_ID_TRIES);
  });

  it("works inside a transaction", async () => {
    const id = await db.transaction().execute((trx) => unusedOrderId(trx, "merch_orders", "MO"));
    expect(id).toMatch(/^MO-[0-9A-Z]{6}$/);
  });
});
