import type { PaymentView } from "../received-payments/payment-state";
import type { StatementPreview } from "../received-payments/received-payments";

/** Client-safe pieces of the staff screen /admin/payments. */
export const PAYMENTS_PATH = "/admin/payments";

export const SKIP_REASON_LIMIT = 50;

/** What the screen's action answers: a preview (with the draft to import) or an import's counts. */
export type StatementResult = {
  step: "preview" | "imported";
  draftId?: string;
  fileName?: string;
  preview: StatementPreview;
};

/** A pending order whose payment M-Pesa does not show in full (the screen's mismatch list). */
export type PaymentMismatch = {
  kind: "badge" | "merch";
  id: string;
  name: string;
  code: string;
  amount: number;
  createdAt: string;
  payment: PaymentView;
};

/** An approved order whose payment M-Pesa then reversed (the screen's first list). */
export type ReversedApproval = {
  kind: "badge" | "merch";
  id: string;
  name: string;
  code: string;
  amount: number;
  received: number;
  reversedAt: string;
  reversedBy: string;
};

/** The screen's forms about one receipt and one order (each answers with the order's payment as it now stands). */
export const RECEIPT_INTENTS = ["link", "unlink", "code-wrong"] as const;
export type ReceiptIntent = (typeof RECEIPT_INTENTS)[number];

export type ReceiptActionResult = {
  step: "linked" | "unlinked" | "code-wrong";
  orderId: string;
  transId: string;
  payment: PaymentView;
};

/** What any of the screen's forms answers. */
export type PaymentsResult = StatementResult | ReceiptActionResult;

/** The orders an unclaimed payment is probably for (by its code), keyed by its code. */
export type LikelyOrders = Record<string, { kind: "badge" | "merch"; id: string }[]>;

/** A payment one order holds by its typed code while its account number names another (receipts.server.ts). */
export type AccountClash = { transId: string; amount: number; paidAt: string; heldBy: { kind: "badge" | "merch"; id: string }; named: { kind: "badge" | "merch"; id: string } };
