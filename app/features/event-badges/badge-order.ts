import type { PaymentView } from "../received-payments/payment-state";
import type { BadgeOrderStatus } from "./badge-order.schema";

export const ORDER_NOT_FOUND = "Order not found.";

/**
 * The kit email's fate (spec: an ok flag and a detail text), plus its state: a message that is
 * still queued or being retried is neither delivered nor finally failed.
 */
export type Delivery = { ok: boolean; detail: string; state: "queued" | "sent" | "written" | "retrying" | "failed" } | null;

/** The order as staff read it (spec section 3, 'Badge order as read by admin'). */
export type BadgeOrderView = {
  id: string;
  name: string;
  email: string;
  phone: string;
  hardCopy: boolean;
  tierKey: string;
  tierName: string;
  amount: number;
  paymentReference: string;
  notes: string;
  status: BadgeOrderStatus;
  createdAt: string;
  approvedAt: string | null;
  delivery: Delivery;
  portraitPath: string | null;
  badgePath: string | null;
  posterPath: string | null;
  shareUrl: string;
  /** What staff wrote when they last decided (sent to the supporter with a rejection). */
  staffNote: string;
  /** The supporter wall: whether they said yes (to their name, to their portrait), the name shown, and whether staff hid them. */
  wall: { optIn: boolean; name: string; portrait: boolean; hidden: boolean };
  /** The supporter badge revoked by staff (its Open Badges assertion says so, with this reason). */
  badgeRevoked: { at: string; reason: string } | null;
  /** Where the payment stands in M-Pesa's records (reconciliation adds it for staff lists and the order page). */
  payment?: PaymentView;
};
