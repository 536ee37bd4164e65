import type { PaymentView } from "../received-payments/payment-state";

/** One order as its supporter's private page shows it (order-status.server.ts finds it). */
export type OrderPage = {
  kind: "badge" | "merch";
  reference: string;
  placedAt: string;
  name: string;
  /** What was ordered, one line each. */
  lines: string[];
  amount: number;
  currency: string;
  paymentCode: string;
  payment: PaymentView;
  /** M-Pesa's query said the order's prompt was paid; its receipt number has not come yet. */
  promptPaid?: boolean;
  /** The order was to be paid by prompt and none reached M-Pesa: it is paid by paybill. */
  noPromptSent?: boolean;
  /** 'revoked': an approved badge order whose badge staff withdrew (no kit, no entry code). */
  status: "pending" | "approved" | "rejected" | "revoked";
  /** The team's note on a decision, when there is one. */
  note: string;
  /** When a badge was withdrawn. */
  revokedAt: string | null;
  /** Approved badge orders: the kit to download. */
  kit: { badge: string; poster: string } | null;
  /** Badge orders whose supporter said yes to the supporter wall: the name shown, and whether they are off it now. */
  wall: { name: string; hidden: boolean } | null;
  /** Approved badge orders: the entry QR code (SVG) and the reference spelled out, for the door. */
  entry: { qrSvg: string; words: string } | null;
};
