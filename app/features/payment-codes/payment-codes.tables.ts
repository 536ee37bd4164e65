export interface PaymentCodesTable {
  code: string;
  kind: "badge" | "merch";
  order_id: string;
  created_at: string;
}

export interface PaymentCodesTables {
  payment_codes: PaymentCodesTable;
}
