import { site } from "~/lib/core/site";

/** The two kinds of order the site takes payment for. */
export type OrderKind = "badge" | "merch";

/**
 * What differs between a badge order and a merch order, apart from their tables (those are in
 * orders.server.ts): read from here by kind, so no payments code asks which kind it holds.
 * Safe for the browser (no server code).
 */
type KindFacts = {
  /** The reference's prefix before the dash: BO-7KQ2MX, MO-Q29BY6. */
  prefix: string;
  /** Above the order page's heading. */
  label: string;
  /** The M-Pesa prompt's transaction description. */
  promptDescription: string;
  /** The paybill its supporters pay to. */
  paybill: string;
  /** Where its supporters write with questions. */
  contactEmail: string;
  /** What the order page says once it is approved. */
  approvedWords: string;
  /** Payments made before the event's ticket sales opened are checked by hand. */
  sellsFromSalesOpening: boolean;
  /** Its supporter can take themselves off the supporter wall from the order page. */
  onSupporterWall: boolean;
  /** The staff screen that finds the order. */
  staffLink: (id: string) => string;
};

export const ORDER_KINDS: Record<OrderKind, KindFacts> = {
  badge: {
    prefix: "BO",
    label: "Event badge order",
    promptDescription: "Event badge",
    paybill: site.payments.eventPaybill,
    contactEmail: site.contactEmail,
    approvedWords: "Approved: your badge and 'Will Be Attending' poster are below, and in your email.",
    sellsFromSalesOpening: true,
    onSupporterWall: true,
    staffLink: (id) => `/admin/badge-orders?status=all&q=${encodeURIComponent(id)}`,
  },
  merch: {
    prefix: "MO",
    label: "Merchandise order",
    promptDescription: "Merch order",
    paybill: site.payments.merchPaybill,
    contactEmail: site.merchEmail,
    approvedWords: "Approved: the merch team will contact you to arrange delivery.",
    sellsFromSalesOpening: false,
    onSupporterWall: false,
    staffLink: (id) => `/admin/merch-orders?q=${encodeURIComponent(id)}`,
  },
};

export const ORDER_KIND_LIST = Object.keys(ORDER_KINDS) as OrderKind[];

/** The kind a reference names by its prefix (BO-…, MO-…), or null for neither. */
export function kindOfReference(reference: string): OrderKind | null {
  return ORDER_KIND_LIST.find((kind) => reference.startsWith(`${ORDER_KINDS[kind].prefix}-`)) ?? null;
}
