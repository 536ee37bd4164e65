import type { BadgeOrderStatus } from "../badge-order.schema";
import type { BadgeOrderView } from "../badge-order";
import type { PaymentState } from "../../received-payments/payment-state";

/** Client-safe pieces of the staff screen /admin/badge-orders: its URL state and words. */

export const SCREEN_PATH = "/admin/badge-orders";
export const SEARCH_PLACEHOLDER = "name, email, Mpesa code, tier, or order id";

export type StatusFilter = BadgeOrderStatus | "all";
export const STATUS_FILTERS: ReadonlyArray<{ value: StatusFilter; label: string }> = [
  { value: "all", label: "All" },
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
];
/** Spec section 9: the list opens on pending orders. */
export const DEFAULT_STATUS: StatusFilter = "pending";

/** `payment`: one payment state, or "" for all. */
export type ListFilter = { status: StatusFilter; q: string; payment: PaymentState | "" };

export const ORDER_INTENTS = ["generate", "approve", "reject", "resend", "wall-hide", "wall-show", "revoke-badge"] as const;
export type OrderIntent = (typeof ORDER_INTENTS)[number];

/** What every row action's reply carries: the order it was about, as it now stands (it replaces its row). */
export type OrderActionResult = {
  id: string | null;
  order: BadgeOrderView | null;
  /** Set when the action needs a second, confirming press (a rejection) before it runs. */
  confirm?: "reject";
};

/** The reason beside a greyed-out Approve (phones show no tooltips). Approving draws a missing kit itself. */
export function approveBlockedBy(o: Pick<BadgeOrderView, "status">): string | null {
  if (o.status === "approved") return "Already approved.";
  return null;
}

export const rejectQuestion = (o: Pick<BadgeOrderView, "id" | "name" | "status">) =>
  o.status === "approved"
    ? `Reject order ${o.id}? It was approved and its kit sent; ${o.name} will be emailed that it is cancelled.`
    : `Reject order ${o.id}? ${o.name} will be emailed that it was not accepted.`;

/** How many orders a search found in each state (and in all). */
export type FoundByStatus = Record<StatusFilter, number>;

export function foundByStatus(orders: ReadonlyArray<Pick<BadgeOrderView, "status">>): FoundByStatus {
  const found: FoundByStatus = { all: orders.length, pending: 0, approved: 0, rejected: 0 };
  for (const o of orders) found[o.status] += 1;
  return found;
}

/** The screen's address for a filter: status is always written, q only when there is one. */
export function screenHref(filter: Omit<ListFilter, "payment"> & { payment?: ListFilter["payment"] }) {
  const params = new URLSearchParams({ status: filter.status });
  if (filter.q) params.set("q", filter.q);
  if (filter.payment) params.set("payment", filter.payment);
  return `${SCREEN_PATH}?${params}`;
}

export const STATUS_LABEL: Record<BadgeOrderStatus, string> = {
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
};

export const hasAssets = (o: Pick<BadgeOrderView, "badgePath" | "posterPath">) => !!o.badgePath && !!o.posterPath;

/** Resend is offered only once sending has finally failed: a retrying message would go twice. */
export const deliveryFailed = (o: Pick<BadgeOrderView, "delivery">) => o.delivery?.state === "failed";

/** The per-order delivery line (spec section 8: 'Failed ({detail or unknown})'). */
export function deliveryText(delivery: BadgeOrderView["delivery"]) {
  if (!delivery) return null;
  if (delivery.state === "sent") return `Delivered: ${delivery.detail}`;
  if (delivery.state === "queued") return `Email queued: ${delivery.detail}`;
  if (delivery.state === "written") return delivery.detail;
  return `Failed (${delivery.detail || "unknown"})`;
}
