export interface PaymentCodesTable {
  code: string;
  kind: "badge" | "merch";
  order_id: string;
  created_at: string;
}

/** A receipt linked to an order other than by the order's typed code (that claim is payment_codes). */
export interface OrderReceiptsTable {
  /** The receipt (received_payments.code): it pays this one order. */
  trans_id: string;
  kind: "badge" | "merch";
  order_id: string;
  matched_by: "account" | "staff";
  /** The staff address, or 'system' for a rule. */
  linked_by: string;
  linked_at: string;
}

/** Staff said this receipt is not this order's (unlinked, or the order's typed code marked wrong). */
export interface ReceiptUnlinksTable {
  trans_id: string;
  kind: "badge" | "merch";
  order_id: string;
  reason: "unlinked" | "wrong_code";
  unlinked_by: string;
  unlinked_at: string;
}

/** An `Idempotency-Key` a JSON caller sent with an order, and the order it placed. */
export interface OrderIdempotencyKeysTable {
  kind: "badge" | "merch";
  idem_key: string;
  /** sha-256 (hex) of the request body as read. */
  body_hash: string;
  order_id: string;
  created_at: string;
}

export interface PaymentCodesTables {
  payment_codes: PaymentCodesTable;
  order_receipts: OrderReceiptsTable;
  receipt_unlinks: ReceiptUnlinksTable;
  order_idempotency_keys: OrderIdempotencyKeysTable;
}
