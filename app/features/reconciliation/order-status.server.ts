import type { Db } from "~/lib/db.server";
import { orderPagePath } from "~/lib/order-page";
import { safeEqual } from "~/lib/secrets.server";
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

async function load(db: Db, reference: string): Promise<{ page: OrderPage; token: string; email: string } | null> {
  if (BADGE_REF.test(reference)) {
    const row = await db.selectFrom("badge_orders").select(["asset_token"]).where("id", "=", reference).executeTakeFirst();
    if (!row) return null;
    const o = await getBadgeOrder(db, reference);
    // A withdrawn badge no longer lets anyone in: no kit, no entry code, and the reason in words.
    const revoked = o.status === "approved" ? o.badgeRevoked : null;
    const admitted = o.status === "approved" && !revoked;
    const approved = admitted && o.badgePath && o.posterPath;
    return {
      token: row.asset_token,
      email: o.email,
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
        note: revoked ? revoked.reason : o.status === "rejected" ? o.staffNote : "",
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
      token: found.token,
      email: o.customerEmail,
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
        note: o.status === "rejected" || o.status === "approved" ? o.staffNotes : "",
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
  if (!token || token.length > 100) return null;
  const found = await load(db, ref);
  if (!found || !found.token || !safeEqual(token, found.token)) return null;
  return found.page;
}

/** The link to an order's page, given its reference and the email it was placed with, or null. */
export async function orderLinkByEmail(db: Db, reference: string, email: string): Promise<string | null> {
  const ref = normaliseReference(reference);
  const found = await load(db, ref);
  if (!found || !found.token) return null;
  if (!safeEqual(found.email.trim().toLowerCase(), email.trim().toLowerCase())) return null;
  return orderPagePath(ref, found.token);
}
