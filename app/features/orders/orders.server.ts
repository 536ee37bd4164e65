import { sql, type RawBuilder } from "kysely";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { site } from "~/lib/core/site";
import { appendedTo, noteEntry } from "~/lib/db/staff-notes.server";
import { kindOfReference, type OrderKind } from "./order-kinds";

/**
 * Both kinds of order under one shape. The badge and merch tables name the same facts in two
 * vocabularies (created_at/name/amount/asset_token, ts/customer_name/total/view_token); payments
 * code (reconciliation, receipt links, automatic approval, prompts, order replay, late codes,
 * the order page) reads and writes an order here, by kind, and never picks a table or a column
 * itself. The JSON payloads keep their own names; only this module knows the columns.
 */

/** Each table's columns for the shape's fields. */
const TABLES = {
  badge: { table: "badge_orders", createdAt: "created_at", name: "name", email: "email", phone: "phone", amount: "amount", token: "asset_token", staffNote: "staff_note" },
  merch: { table: "merch_orders", createdAt: "ts", name: "customer_name", email: "customer_email", phone: "customer_phone", amount: "total", token: "view_token", staffNote: "staff_notes" },
} as const satisfies Record<OrderKind, Record<string, string>>;

/** Where replies to a kind's payment emails go (none given: to the site's sender). */
const REPLY_TO: Record<OrderKind, () => { replyTo?: string }> = {
  badge: () => ({}),
  merch: () => ({ replyTo: env().orgInbox ?? site.merchEmail }),
};

export type Order = {
  kind: OrderKind;
  id: string;
  createdAt: string;
  name: string;
  email: string;
  phone: string;
  amount: number;
  currency: string;
  /** The token of the order's private page link. */
  token: string;
  status: "pending" | "approved" | "rejected";
  /** The M-Pesa code typed with it, or (paid by prompt or account number) its own reference. */
  paymentReference: string;
};

/** Where each kind keeps its currency: badges are priced in shillings; a merch order keeps its own. */
const CURRENCY: Record<OrderKind, () => RawBuilder<string>> = {
  badge: () => sql.lit("KES"),
  merch: () => sql.ref<string>("o.currency"),
};

/**
 * The table of a kind as `o`. Typed as the badge table: a query names by name only the columns
 * both tables share (id, status, payment_reference) and reaches the rest through `column`.
 */
const from = (db: Db, kind: OrderKind) => db.selectFrom(`${TABLES[kind].table} as o` as "badge_orders as o");

const column = <T>(kind: OrderKind, field: "createdAt" | "name" | "email" | "phone" | "amount" | "token") => sql.ref<T>(`o.${TABLES[kind][field]}`);

/** One order, or undefined. */
export async function findOrder(db: Db, kind: OrderKind, id: string): Promise<Order | undefined> {
  const row = await from(db, kind)
    .select(["o.id", "o.status", "o.payment_reference as paymentReference"])
    .select([
      column<string>(kind, "createdAt").as("createdAt"),
      column<string>(kind, "name").as("name"),
      column<string>(kind, "email").as("email"),
      column<string>(kind, "phone").as("phone"),
      column<number>(kind, "amount").as("amount"),
      column<string>(kind, "token").as("token"),
      CURRENCY[kind]().as("currency"),
    ])
    .where("o.id", "=", id)
    .executeTakeFirst();
  return row ? { kind, ...row } : undefined;
}

/** The order a reference names (BO-… a badge, MO-… merch), or undefined. */
export async function findOrderByReference(db: Db, reference: string): Promise<Order | undefined> {
  const kind = kindOfReference(reference);
  return kind ? findOrder(db, kind, reference) : undefined;
}

/** The reply address of a payment email about an order of this kind, to spread into the mail. */
export const paymentReplyTo = (kind: OrderKind): { replyTo?: string } => REPLY_TO[kind]();

/** The order's payment reference becomes `reference` (a code typed after the order). */
export async function setPaymentReference(db: Db, kind: OrderKind, id: string, reference: string): Promise<void> {
  await db
    .updateTable(TABLES[kind].table as "badge_orders")
    .set({ payment_reference: reference })
    .where("id", "=", id)
    .execute();
}

/** True when an order of this kind already has this payment reference. */
export async function paymentReferenceTaken(db: Db, kind: OrderKind, reference: string): Promise<boolean> {
  return !!(await from(db, kind).select("o.id").where("o.payment_reference", "=", reference).executeTakeFirst());
}

/** Adds a dated entry to an order's staff notes (a flag staff see on the order screens); nothing is cut. */
export async function appendStaffNote(db: Db, kind: OrderKind, id: string, note: string): Promise<void> {
  const col = TABLES[kind].staffNote;
  await db
    .updateTable(TABLES[kind].table as "badge_orders")
    .set({ [col]: appendedTo(col, noteEntry(note)) } as { staff_note: RawBuilder<string> })
    .where("id", "=", id)
    .execute();
}

/** The references among `ids` that name an order of this kind. */
export async function existingOrderIds(db: Db, kind: OrderKind, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await from(db, kind).select("o.id").where("o.id", "in", ids).execute()).map((r) => r.id);
}

/** Pending orders of one kind that hold at least one receipt (by their typed code, or linked), oldest first. */
export async function pendingOrdersWithReceipts(db: Db, kind: OrderKind): Promise<string[]> {
  const rows = await from(db, kind)
    .select("o.id")
    .where("o.status", "=", "pending")
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom("received_payments as p").select("p.code").whereRef("p.code", "=", "o.payment_reference")),
        eb.exists(eb.selectFrom("order_receipts as r").select("r.trans_id").whereRef("r.order_id", "=", "o.id")),
      ]),
    )
    .orderBy(column(kind, "createdAt"))
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Orders of one kind placed since `since` without a typed code (paid by prompt: the reference
 * stands in for the code), newest first, with the email and phone typed for them.
 */
export async function codelessOrdersSince(db: Db, kind: OrderKind, since: string): Promise<{ id: string; email: string; phone: string }[]> {
  return from(db, kind)
    .select(["o.id", column<string>(kind, "email").as("email"), column<string>(kind, "phone").as("phone")])
    .where(column(kind, "createdAt"), ">=", since)
    .whereRef("o.payment_reference", "=", "o.id")
    .orderBy(column(kind, "createdAt"), "desc")
    .execute();
}
