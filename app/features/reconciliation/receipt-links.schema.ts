import { z } from "zod";
import { orderReferenceIn } from "./receipt-rules";

export const RECEIPT_CODE_MESSAGE = "Enter the M-Pesa receipt number of the payment, e.g. SKL4Q2ZB7X.";
export const ORDER_REFERENCE_MESSAGE = "Enter the order reference, e.g. BO-7KQ2MX or MO-4TR8ZD.";

/** A receipt number as staff type or paste it: any case, spaces or dashes inside. */
const TransIdField = z
  .string({ error: RECEIPT_CODE_MESSAGE })
  .max(40, RECEIPT_CODE_MESSAGE)
  .transform((s) => s.toUpperCase().replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[A-Z0-9]{6,20}$/, RECEIPT_CODE_MESSAGE));

/** An order reference: any case, with or without its dash. */
const OrderIdField = z
  .string({ error: ORDER_REFERENCE_MESSAGE })
  .max(40, ORDER_REFERENCE_MESSAGE)
  .transform((s) => orderReferenceIn(s) ?? "")
  .pipe(z.string().min(1, ORDER_REFERENCE_MESSAGE));

/** /admin/payments: link or unlink one receipt and one order. */
export const ReceiptLinkSchema = z.object({ transId: TransIdField, orderId: OrderIdField });

/** /admin/payments: mark the code typed with an order as wrong. */
export const OrderCodeSchema = z.object({ orderId: OrderIdField });

/** POST /api/mpesa_payments.php */
export const ReceiptLinkApiSchema = z.object({
  action: z.enum(["link", "unlink"], { error: "action must be link or unlink." }),
  transId: TransIdField,
  orderId: OrderIdField,
});
