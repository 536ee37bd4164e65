export interface MerchItemsTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** Whole units of `currency` (KES has no cents in use). */
  price: number;
  currency: string;
  impact: string;
  image: string;
  /** JSON arrays. */
  tags: string;
  available: number;
  colors: string;
  sizes: string;
  sort: number;
}

export interface BagsTable {
  id: string;
  lines: string;
  updated_at: string;
}

export interface MerchOrdersTable {
  id: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  notes: string;
  payment_reference: string;
  total: number;
  currency: string;
  /** JSON: the lines as priced by the server when the order was placed. */
  items: string;
  status: "pending" | "approved" | "rejected";
  ts: string;
  reviewed_at: string | null;
  /** Staff's notes, a dated entry per review that wrote one (and the import's): appended, never replaced. */
  staff_notes: string;
  /** The note sent to the customer with the latest review (their order page shows it). */
  supporter_note: string;
  /** The secret in the link to the order's private page. */
  view_token: string;
  /** When the customer's 'confirmed' email was queued (once per order); null: never. */
  confirmation_sent_at: string | null;
}

export interface MerchTables {
  merch_items: MerchItemsTable;
  bags: BagsTable;
  merch_orders: MerchOrdersTable;
}
