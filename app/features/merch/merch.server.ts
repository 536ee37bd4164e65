import crypto from "node:crypto";
import type { Insertable } from "kysely";
import type { Db } from "~/lib/db/db.server";
import type { MerchItemsTable, MerchOrdersTable } from "./merch.tables";
import { nowIso } from "~/lib/db/db.server";
import { lockedForUpdate } from "~/lib/db/dialect.server";
import { appendedTo, joinEntries, noteEntry } from "~/lib/db/staff-notes.server";
import { oldReferenceOf } from "../legacy-ledger/ledger.server";
import { enqueueMail, kickMailWorker, randomToken } from "~/lib/mail/email.server";
import { env } from "~/lib/server/env.server";
import { DomainError } from "~/lib/core/domain-error";
import { absoluteUrl } from "~/lib/http/http.server";
import { unusedOrderId } from "~/features/orders/order-ids.server";
import { site } from "~/lib/core/site";
import { orderPagePath } from "~/features/orders/order-page";
import { orderSearch } from "../admin/order-search.server";
import { claimCodeForOrder, keepIdempotencyKey, OrderReplay, orderOfKey, replayCodelessOrder, type Idempotency } from "../payment-codes/order-replay.server";
import { isSameMerchOrder, orderFromEmptiedBag, promptOrderFromEmptiedBag, replayedMerchOrder } from "./merch-order-replay.server";
import { paymentChoice, type PaymentChoice } from "../stk-push/stk-push.schema";
import { stkEnabled } from "../stk-push/stk-push.server";
import { merchTeamNoticeEmail, orderApprovedEmail, orderReceivedEmail, orderRejectedEmail } from "./emails/merch-emails";
import {
  DEFAULT_CURRENCY,
  FALLBACK_CATALOGUE,
  lineKey,
  MAX_LINE_QUANTITY,
  MERCH_MESSAGES,
  type BagLine,
  type BagView,
  type MerchColor,
  type MerchItem,
  type MerchOrderStatus,
  type MerchOrderView,
  type PricedLine,
} from "./merch";
import type { CheckoutInput } from "./merch.schema";

// ---------------------------------------------------------------- catalogue

function toItem(r: MerchItemsTable): MerchItem {
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    description: r.description,
    price: r.price,
    currency: r.currency,
    impact: r.impact,
    image: r.image,
    tags: JSON.parse(r.tags) as string[],
    available: r.available === 1,
    colors: JSON.parse(r.colors) as MerchColor[],
    sizes: JSON.parse(r.sizes) as string[],
  };
}

/** An item as stored, at place `sort` in the catalogue (the staff editor and the seed both write these). */
export function merchItemRow(item: MerchItem, sort: number): Insertable<MerchItemsTable> {
  return {
    id: item.id,
    slug: item.slug,
    name: item.name,
    description: item.description,
    price: item.price,
    currency: item.currency,
    impact: item.impact,
    image: item.image,
    tags: JSON.stringify(item.tags),
    available: item.available ? 1 : 0,
    colors: JSON.stringify(item.colors),
    sizes: JSON.stringify(item.sizes),
    sort,
  };
}

export async function listItems(db: Db): Promise<MerchItem[]> {
  const rows = await db.selectFrom("merch_items").selectAll().orderBy("sort").orderBy("name").execute();
  return rows.map(toItem);
}

/** The catalogue for the store page; the built-in two items when it cannot be read. */
export async function loadCatalogue(db: Db): Promise<{ items: MerchItem[]; fallback: boolean }> {
  try {
    return { items: await listItems(db), fallback: false };
  } catch (e) {
    console.error("[merch] catalogue could not be read; showing the built-in items", e);
    return { items: FALLBACK_CATALOGUE, fallback: true };
  }
}

/** Replaces the whole catalogue (staff save it as one list), in one transaction. */
export async function saveCatalogue(db: Db, items: MerchItem[]) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("merch_items").execute();
    for (const [i, item] of items.entries()) {
      await trx.insertInto("merch_items").values(merchItemRow(item, i)).execute();
    }
  });
  return listItems(db);
}

// ---------------------------------------------------------------- lines and prices

type RawLine = { itemId: string; color: string | null; size: string | null; quantity: number };

/** Checks a wanted line against the item: colour and size chosen when the item has them. */
function checkChoice(item: MerchItem | undefined, color: string | null, size: string | null) {
  if (!item) throw new DomainError("invalid", MERCH_MESSAGES.unknownItem, "itemId");
  if (!item.available) throw new DomainError("conflict", `${item.name}: ${MERCH_MESSAGES.restocking}`);
  if (item.colors.length > 0) {
    if (!color) throw new DomainError("invalid", MERCH_MESSAGES.selectColour, "color");
    if (!item.colors.some((c) => c.label === color)) throw new DomainError("invalid", MERCH_MESSAGES.selectColour, "color");
  } else if (color) {
    throw new DomainError("invalid", `${item.name} comes in one colour only.`, "color");
  }
  if (item.sizes.length > 0) {
    if (!size || !item.sizes.includes(size)) throw new DomainError("invalid", MERCH_MESSAGES.selectSize, "size");
  } else if (size) {
    throw new DomainError("invalid", `${item.name} comes in one size only.`, "size");
  }
  return {
    color: item.colors.find((c) => c.label === color) ?? null,
    size: item.sizes.length > 0 ? size : null,
  };
}

/**
 * Prices lines from the catalogue: the client's prices and total are never used. Unknown or
 * unavailable items, impossible quantities and mixed or wrong currencies are refused.
 */
export function priceLines(catalogue: MerchItem[], lines: RawLine[], clientCurrency?: string) {
  if (lines.length === 0) throw new DomainError("invalid", MERCH_MESSAGES.emptyBag);
  const byId = new Map(catalogue.map((i) => [i.id, i]));
  const priced: PricedLine[] = [];
  let currency: string | undefined;
  for (const l of lines) {
    const item = byId.get(l.itemId);
    const choice = checkChoice(item, l.color, l.size);
    if (!Number.isInteger(l.quantity) || l.quantity < 1) throw new DomainError("invalid", MERCH_MESSAGES.quantityMin);
    if (l.quantity > MAX_LINE_QUANTITY) throw new DomainError("invalid", MERCH_MESSAGES.quantityMax);
    currency ??= item!.currency;
    if (item!.currency !== currency) throw new DomainError("invalid", "Items priced in different currencies cannot share one order.");
    priced.push({ itemId: item!.id, name: item!.name, price: item!.price, quantity: l.quantity, ...choice });
  }
  if (clientCurrency && clientCurrency.toUpperCase() !== currency) {
    throw new DomainError("invalid", `These items are priced in ${currency}, not ${clientCurrency}.`);
  }
  const total = priced.reduce((sum, l) => sum + l.price * l.quantity, 0);
  return { lines: priced, total, currency: currency ?? DEFAULT_CURRENCY };
}

// ---------------------------------------------------------------- the bag

/** A bag's id: random, URL-safe (the route keeps it in the visitor's HttpOnly cookie). */
const BAG_ID = /^[A-Za-z0-9_-]{20,40}$/;

async function readLines(db: Db, bagId: string | null): Promise<RawLine[]> {
  if (!bagId || !BAG_ID.test(bagId)) return [];
  const row = await db.selectFrom("bags").select("lines").where("id", "=", bagId).executeTakeFirst();
  return row ? (JSON.parse(row.lines) as RawLine[]) : [];
}

/**
 * The bag's lines for a change inside a transaction, the bag's row locked until it commits: a
 * second change to the same bag (another tab, a double tap) waits and then reads this one's
 * result, so neither is lost. The row is made first so there is always one to lock.
 */
async function readLinesToChange(trx: Db, bagId: string): Promise<RawLine[]> {
  await trx
    .insertInto("bags")
    .values({ id: bagId, lines: "[]", updated_at: nowIso() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const row = await trx.selectFrom("bags").select("lines").where("id", "=", bagId).$call(lockedForUpdate(trx)).executeTakeFirstOrThrow();
  return JSON.parse(row.lines) as RawLine[];
}

async function writeLines(db: Db, bagId: string, lines: RawLine[]) {
  await db
    .insertInto("bags")
    .values({ id: bagId, lines: JSON.stringify(lines), updated_at: nowIso() })
    .onConflict((oc) => oc.column("id").doUpdateSet({ lines: JSON.stringify(lines), updated_at: nowIso() }))
    .execute();
}

/** The bag as shown: every price from the catalogue; lines whose item is gone are dropped. */
export function viewBag(catalogue: MerchItem[], lines: RawLine[]): BagView {
  const byId = new Map(catalogue.map((i) => [i.id, i]));
  const out: BagLine[] = [];
  for (const l of lines) {
    const item = byId.get(l.itemId);
    if (!item) continue;
    const color = item.colors.find((c) => c.label === l.color) ?? null;
    out.push({
      key: lineKey(item.id, l.color, l.size),
      itemId: item.id,
      slug: item.slug,
      name: item.name,
      price: item.price,
      quantity: l.quantity,
      color,
      size: l.size,
      image: color?.image || item.image,
      currency: item.currency,
      available: item.available,
    });
  }
  return {
    lines: out,
    count: out.reduce((n, l) => n + l.quantity, 0),
    total: out.reduce((n, l) => n + l.price * l.quantity, 0),
    currency: out[0]?.currency ?? DEFAULT_CURRENCY,
  };
}

export async function getBag(db: Db, bagId: string | null) {
  const { items } = await loadCatalogue(db);
  return viewBag(items, await readLines(db, bagId));
}

/** Adds to the bag, merging with a line of the same item, colour and size. */
export async function addToBag(
  db: Db,
  bagId: string | null,
  input: { itemId: string; color?: string; size?: string; quantity: number },
) {
  const catalogue = await listItems(db);
  const item = catalogue.find((i) => i.id === input.itemId);
  const choice = checkChoice(item, input.color || null, input.size || null);
  if (!Number.isInteger(input.quantity) || input.quantity < 1) {
    throw new DomainError("invalid", MERCH_MESSAGES.quantityMin, "quantity");
  }
  const id = bagId && BAG_ID.test(bagId) ? bagId : crypto.randomBytes(18).toString("base64url");
  // Read, merge and write in one transaction: two adds at once both count.
  const lines = await db.transaction().execute(async (trx) => {
    const lines = await readLinesToChange(trx, id);
    const key = lineKey(item!.id, choice.color?.label, choice.size);
    const existing = lines.find((l) => lineKey(l.itemId, l.color, l.size) === key);
    const quantity = (existing?.quantity ?? 0) + input.quantity;
    if (quantity > MAX_LINE_QUANTITY) throw new DomainError("invalid", MERCH_MESSAGES.quantityMax, "quantity");
    if (existing) existing.quantity = quantity;
    else lines.push({ itemId: item!.id, color: choice.color?.label ?? null, size: choice.size, quantity });
    await writeLines(trx, id, lines);
    return lines;
  });
  return { bagId: id, bag: viewBag(catalogue, lines) };
}

/** Sets a line's quantity (never below 1: the minus button stops there) or removes it. */
export async function changeBagLine(db: Db, bagId: string | null, key: string, quantity: number | "remove") {
  if (bagId && BAG_ID.test(bagId)) {
    await db.transaction().execute(async (trx) => {
      const lines = await readLinesToChange(trx, bagId);
      const i = lines.findIndex((l) => lineKey(l.itemId, l.color, l.size) === key);
      if (i < 0) return;
      if (quantity === "remove") lines.splice(i, 1);
      else lines[i]!.quantity = Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.trunc(quantity)));
      await writeLines(trx, bagId, lines);
    });
  }
  return getBag(db, bagId);
}

// ---------------------------------------------------------------- orders

function toOrder(r: MerchOrdersTable): MerchOrderView {
  return {
    id: r.id,
    ts: r.ts,
    status: r.status,
    reviewedAt: r.reviewed_at,
    staffNotes: r.staff_notes,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    customerPhone: r.customer_phone,
    notes: r.notes,
    paymentReference: r.payment_reference,
    total: r.total,
    currency: r.currency,
    items: JSON.parse(r.items) as PricedLine[],
  };
}

const teamInbox = () => env().orgInbox ?? site.merchEmail;

/**
 * Places an order: lines priced from the catalogue, the payment code claimed in the same
 * transaction (one code, one order of any kind), the customer's and the merch team's emails
 * queued with it. The same order sent again (same code, email, lines and quantities; or the
 * same Idempotency-Key and body) is answered with the stored one, `replayed`.
 */
export async function submitMerchOrder(
  db: Db,
  input: CheckoutInput,
  lines: RawLine[],
  opts: { clientCurrency?: string; idempotency?: Idempotency } = {},
): Promise<{ id: string; total: number; currency: string; orderPath: string; replayed?: true; payment: PaymentChoice | { by: "code" } }> {
  const pay = paymentChoice(input, input.customerPhone, { codeRequired: MERCH_MESSAGES.codeRequired, phoneField: "customerPhone", stkOn: stkEnabled() });
  const code = pay.by === "code" ? pay.code : "";
  // A retried order was placed already: its prompt, if any, is not sent again from here.
  const alreadyPlaced = { by: "code" } as const;
  const keyed = await orderOfKey(db, "merch", opts.idempotency);
  if (keyed) return { ...(await replayedMerchOrder(db, keyed)), payment: alreadyPlaced };
  const priced = priceLines(await listItems(db), lines, opts.clientCurrency);
  const placed = await db.transaction().execute(async (trx) => {
    const id = await unusedOrderId(trx, "merch_orders", "MO");
    // An order paid by prompt has no typed code: its reference stands in (the column is unique),
    // the account number its prompt carries; the caller sends the prompt once this is stored.
    if (code) {
      await claimCodeForOrder(trx, {
        code,
        kind: "merch",
        orderId: id,
        idempotency: opts.idempotency,
        isSameOrder: (stored) => isSameMerchOrder(trx, stored, { email: input.customerEmail, lines: priced.lines }),
      });
    } else {
      if (opts.idempotency) await keepIdempotencyKey(trx, "merch", opts.idempotency, id);
      // 'Pay now' pressed twice: the same email, items and phone within minutes is one order.
      await replayCodelessOrder(trx, {
        kind: "merch",
        email: input.customerEmail,
        phone: input.customerPhone,
        isSameOrder: (stored) => isSameMerchOrder(trx, stored, { email: input.customerEmail, lines: priced.lines }),
      });
    }
    const row: MerchOrdersTable = {
      id,
      customer_name: input.customerName,
      customer_email: input.customerEmail,
      customer_phone: input.customerPhone,
      notes: input.notes,
      payment_reference: code || id,
      total: priced.total,
      currency: priced.currency,
      items: JSON.stringify(priced.lines),
      status: "pending",
      ts: nowIso(),
      reviewed_at: null,
      staff_notes: "",
      supporter_note: "",
      view_token: randomToken(24),
      confirmation_sent_at: null,
    };
    await trx.insertInto("merch_orders").values(row).execute();
    const order = toOrder(row);
    await enqueueMail(trx, { kind: "merch.received", to: order.customerEmail, replyTo: teamInbox(), ...orderReceivedEmail(order, absoluteUrl(orderPagePath(id, row.view_token))) });
    await enqueueMail(trx, {
      kind: "merch.notice",
      to: teamInbox(),
      replyTo: order.customerEmail,
      ...merchTeamNoticeEmail(order, absoluteUrl("/admin/merch-orders")),
    });
    return { id, token: row.view_token };
  }).catch((e) => (e instanceof OrderReplay ? e : Promise.reject(e)));
  if (placed instanceof OrderReplay) return { ...(await replayedMerchOrder(db, placed.orderId)), payment: alreadyPlaced };
  void kickMailWorker();
  return { id: placed.id, total: priced.total, currency: priced.currency, orderPath: orderPagePath(placed.id, placed.token), payment: pay };
}

/** Places the order in a visitor's bag, then empties the bag. */
export async function checkoutBag(db: Db, bagId: string | null, input: CheckoutInput) {
  const lines = await readLines(db, bagId);
  // A checkout sent again after its answer was lost finds the bag emptied: the code and email name the order.
  const again =
    lines.length === 0 && input.payWith !== "stk" && input.paymentReference
      ? await orderFromEmptiedBag(db, { code: input.paymentReference, email: input.customerEmail })
      : null;
  if (again) return { ...again, payment: { by: "code" } as const };
  // 'Pay now' sent again after the first emptied the bag: the order paid by prompt from this email and phone just now.
  const prompted = lines.length === 0 && input.payWith === "stk" ? await promptOrderFromEmptiedBag(db, input) : null;
  if (prompted) return { ...prompted, payment: { by: "code" } as const };
  const result = await submitMerchOrder(db, input, lines);
  if (bagId && BAG_ID.test(bagId)) {
    // Empty what was ordered; a line added meanwhile from another tab stays.
    const ordered = new Set(lines.map((l) => `${lineKey(l.itemId, l.color, l.size)}#${l.quantity}`));
    await db.transaction().execute(async (trx) => {
      const now = await readLinesToChange(trx, bagId);
      await writeLines(trx, bagId, now.filter((l) => !ordered.has(`${lineKey(l.itemId, l.color, l.size)}#${l.quantity}`)));
    });
  }
  return result;
}

/** Staff list: newest first, optionally filtered by a search over id, customer, code and status. */
export async function listMerchOrders(db: Db, q?: string): Promise<MerchOrderView[]> {
  let query = db.selectFrom("merch_orders").selectAll().orderBy("ts", "desc").orderBy("id", "desc").limit(500);
  const text = q?.trim();
  if (text) query = query.where(orderSearch(["id", "customer_name", "customer_email", "payment_reference", "status"], { code: "payment_reference", id: "id" }, text));
  return (await query.execute()).map(toOrder);
}

/** One order and the token its page needs (the order page). */
export async function getMerchOrderForPage(db: Db, id: string) {
  const row = await db.selectFrom("merch_orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return { order: toOrder(row), token: row.view_token };
}

/** One order as staff read it (its payment is added by reconciliation), or null. */
export async function getMerchOrder(db: Db, id: string): Promise<MerchOrderView | null> {
  const row = await db.selectFrom("merch_orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return toOrder(row);
}

const STATUS_WORDS: Record<MerchOrderStatus, string> = { approved: "Approved", rejected: "Rejected", pending: "Marked pending" };

/**
 * Any status from any status, with an optional staff note (added to the order's notes as a
 * dated entry; the customer's note stays when none is given). The first approval emails the customer that the order is confirmed, once per order:
 * approving again (after 'Mark pending' or a rejection) sends no second one. Moving to rejected
 * emails them too (with the note), also when the order had been approved. `beforeApprove` may
 * refuse a move to approved: it runs inside the transaction, the row locked.
 */
export async function setMerchOrderStatus(
  db: Db,
  id: string,
  status: MerchOrderStatus,
  notes?: string,
  opts: { onlyFrom?: MerchOrderStatus; beforeApprove?: (db: Db, order: MerchOrderView) => Promise<void> } = {},
) {
  const order = await db.transaction().execute(async (trx) => {
    // Locked until the transaction ends: a second decision waits, then reads this one's result.
    const row = await trx.selectFrom("merch_orders").selectAll().where("id", "=", id).$call(lockedForUpdate(trx)).executeTakeFirst();
    if (!row) throw new DomainError("not_found", "Order not found.");
    if (opts.onlyFrom && row.status !== opts.onlyFrom) throw new DomainError("conflict", `Order is no longer ${opts.onlyFrom}.`);
    // The caller may refuse first (staff screens: a payment M-Pesa does not show in full waits
    // for their tick).
    if (status === "approved" && row.status !== "approved" && opts.beforeApprove) await opts.beforeApprove(trx, toOrder(row));
    const now = nowIso();
    // The 'confirmed' email goes once per order; its time is kept with the order, in this transaction.
    const confirming = status === "approved" && row.status !== "approved" && !row.confirmation_sent_at;
    // A note is added to the staff notes as a dated entry (what was there stays), and is the
    // customer's note from now on ('' clears that; none given keeps it).
    const note = notes?.trim();
    const entry = note ? noteEntry(`${STATUS_WORDS[status]}: ${note}`, now) : null;
    const next = { status, reviewed_at: now, supporter_note: notes ?? row.supporter_note, ...(confirming ? { confirmation_sent_at: now } : {}) };
    // Only from the status just read: two changes at once (two staff, or staff and the automatic
    // approval in another process) cannot both send their email.
    const updated = await trx
      .updateTable("merch_orders")
      .set({ ...next, ...(entry ? { staff_notes: appendedTo("staff_notes", entry) } : {}) })
      .where("id", "=", id)
      .where("status", "=", row.status)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new DomainError("conflict", "The order changed meanwhile. Reload and try again.");
    const saved = { ...row, ...next, staff_notes: entry ? joinEntries(row.staff_notes, entry) : row.staff_notes };
    const order = toOrder(saved);
    // The customer's emails carry their note, never staff's log.
    // An order from the old site quotes the reference and code its customer knew.
    const old = await oldReferenceOf(trx, id);
    const mailed = { ...order, staffNotes: saved.supporter_note, ...(old ? { oldReference: old, paymentReference: order.paymentReference.replace(/-\d+$/, "") } : {}) };
    const store = absoluteUrl("/merchandise");
    if (confirming) {
      await enqueueMail(trx, { kind: "merch.approved", to: order.customerEmail, replyTo: teamInbox(), ...orderApprovedEmail(mailed, store) });
    }
    // A rejection is never silent, least of all after 'confirmed' was sent: the customer is told, with the note.
    if (status === "rejected" && row.status !== "rejected") {
      await enqueueMail(trx, {
        kind: "merch.rejected",
        to: order.customerEmail,
        replyTo: teamInbox(),
        ...orderRejectedEmail(mailed, row.status === "approved", store),
      });
    }
    return order;
  });
  void kickMailWorker();
  return order;
}
