import type { Generated } from "kysely";
import type { StkState } from "./stk-push";

/** One M-Pesa Express prompt sent (or tried) for an order. */
export interface StkPushesTable {
  id: Generated<number>;
  kind: "badge" | "merch";
  order_id: string;
  /** 2547XXXXXXXX or 2541XXXXXXXX: the number the supporter typed for this order. */
  phone: string;
  amount: number;
  client_ip: string;
  /** Daraja's id of the prompt; null until Daraja accepted it (or when it never did). */
  checkout_request_id: string | null;
  merchant_request_id: string;
  state: StkState;
  result_code: string | null;
  result_desc: string;
  receipt: string | null;
  sent_at: string;
  settled_at: string | null;
  query_due_at: string | null;
  query_claimed_until: string | null;
  query_attempts: number;
}

/** A result callback that came for a CheckoutRequestID no prompt row held at the time (kept, never only logged). */
export interface StkCallbacksHeldTable {
  id: Generated<number>;
  checkout_request_id: string;
  merchant_request_id: string;
  result_code: string;
  result_desc: string;
  receipt: string | null;
  amount: number | null;
  phone: string;
  paid_at: string | null;
  body: string;
  received_at: string;
  /** The prompt it was given to, once known. */
  push_id: number | null;
}

export interface StkPushTables {
  stk_pushes: StkPushesTable;
  stk_callbacks_held: StkCallbacksHeldTable;
}
