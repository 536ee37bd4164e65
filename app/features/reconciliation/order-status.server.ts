import type { Db } from "~/lib/db/db.server";
import { orderForOldReference } from "../legacy-ledger/ledger.server";
import { OLD_ORDER_REFERENCE } from "./order-lookup.schema";
import { orderPagePath } from "~/features/orders/order-page";
import { safeEqual } from "~/lib/db/secrets.server";
import { entryQrSvg } from "../event-badges/check-in.server";
import { referenceInWords } from "../event-badges/ticket";
import { badgeName } from "../event-badges/tiers";
import { getMerchOrderForPage } from "../merch/merch.server";
import { withPayments } from "./matching.server";
import type { OrderPage } from "./order-status";
import { getBadgeOrder } from "./orders.server";

/**
 * A supporter's private order page: any order (badge or merch) by its reference and the
 * random token from its email, or found again by reference plus the email it was placed with.
 * One answer (null) for an unknown reference, a wrong token and a wrong email: nothing to probe.
 */
const BADGE_REF = /^BO-[0-9A-Z]{6}$/;
const MERCH_REF = /^MO-[0-9A-Z]{6}$/;

export const normaliseReference = (text: string) => text.trim().toUpperCase();

/**
 * The two secrets an order page is opened with: its token and the email it was placed with.
 * One indexed read whatever the reference (a malformed one reads a reference that cannot
 * exist), and an unknown order is compared against a stand-in: a real reference with a
 * wrong token takes the same time as an unknown one.
 */
const STAND_IN = { token: "0".repeat(43), email: "nobody@invalid" };

async function credentialsOf(db: Db, reference: string): Promise<{ found: boolean; token: string; email: string }> {
  const row = MERCH_REF.test(reference)
    ? await db.selectFrom("merch_orders").select(["view_token as token", "customer_email as email"]).where("id", "=", reference).executeTakeFirst()
    : await db
        .selectFrom("badge_orders")
        .select(["asset_token as token", "email"])
        .where("id", "=", BADGE_REF.test(reference) ? reference : "BO-?")
        .executeTakeFirst();
  return row && row.token ? { found: true, token: row.token, email: row.email } : { found: false, ...STAND_IN };
}

/** The note that went to the supporter with the order's latest decision (never staff's own notes). */
async function supporterNoteOf(db: Db, table: "badge_orders" | "merch_orders", id: string) {
  const row = await db.selectFrom(table).select("supporter_note").where("id", "=", id).executeTakeFirst();
  return row?.supporter_note ?? "";
}

/** The page of an order whose secrets were already checked. */
async function load(db: Db, reference: string): Promise<{ page: OrderPage } | null> {
  if (BADGE_REF.test(reference)) {
    const o = await getBadgeOrder(db, reference);
    // A withdrawn badge no longer lets anyone in: no kit, no entry code, and the reason in words.
    const revoked = o.status === "approved" ? o.badgeRevoked : null;
    const admitted = o.status === "approved" && !revoked;
    const approved = admitted && o.badgePath && o.posterPath;
    return {
      page: {
        kind: "badge",
        reference: o.id,
        placedAt: o.createdAt,
        name: o.name,
        lines: [`${badgeName(o.tierName)}${o.hardCopy ? " (with a hard copy at the door)" : ""}`],
        amount: o.amount,
        currency: "KES",
        paymentCode: o.paymentReference,
        payment: o.payment,
        status: revoked ? "revoked" : o.status,
        note: revoked ? revoked.reason : o.status === "rejected" ? await supporterNoteOf(db, "badge_orders", o.id) : "",
        revokedAt: revoked ? revoked.at : null,
        kit: approved ? { badge: o.badgePath!, poster: o.posterPath! } : null,
        wall: o.wall.optIn && !revoked ? { name: o.wall.name, hidden: o.wall.hidden } : null,
        entry: admitted ? { qrSvg: await entryQrSvg(o.id), words: referenceInWords(o.id) } : null,
      },
    };
  }
  if (MERCH_REF.test(reference)) {
    const found = await getMerchOrderForPage(db, reference);
    if (!found) return null;
    const o = (await withPayments(db, "merch", [found.order], (m) => ({ amount: m.total, createdAt: m.ts })))[0]!;
    return {
      page: {
        kind: "merch",
        reference: o.id,
        placedAt: o.ts,
        name: o.customerName,
        lines: o.items.map(
          (l) => `${l.quantity} × ${l.name}${[l.color?.label, l.size].filter(Boolean).length ? ` (${[l.color?.label, l.size].filter(Boolean).join(", ")})` : ""}`,
        ),
        amount: o.total,
        currency: o.currency,
        paymentCode: o.paymentReference,
        payment: o.payment,
        status: o.status === "approved" || o.status === "rejected" ? o.status : "pending",
        note: o.status === "rejected" || o.status === "approved" ? await supporterNoteOf(db, "merch_orders", o.id) : "",
        revokedAt: null,
        kit: null,
        wall: null,
        entry: null,
      },
    };
  }
  return null;
}

/** The order behind a link from its email, or null. */
export async function orderByToken(db: Db, reference: string, token: string): Promise<OrderPage | null> {
  const ref = normaliseReference(reference);
  const secrets = await credentialsOf(db, ref);
  const matches = safeEqual(token.slice(0, 100), secrets.token);
  if (!secrets.found || !matches || !token || token.length > 100) return null;
  return (await load(db, ref))?.page ?? null;
}

/** The link to an order's page, given its reference and the email it was placed with, or null. */
export async function orderLinkByEmail(db: Db, reference: string, email: string): Promise<string | null> {
  // An old site's reference (order_…, mo_…) opens the order it became here.
  const ref = OLD_ORDER_REFERENCE.test(reference.trim()) ? ((await orderForOldReference(db, reference)) ?? "BO-?") : normaliseReference(reference);
  const secrets = await credentialsOf(db, ref);
  const matches = safeEqual(secrets.email.trim().toLowerCase(), email.slice(0, 320).trim().toLowerCase());
  if (!secrets.found || !matches) return null;
  return orderPagePath(ref, secrets.token);
}
