import { renderEmail } from "~/lib/mail/email-layout";
import { ORDER_KINDS, type OrderKind } from "~/features/orders/order-kinds";
import { formatAmount } from "~/lib/core/plain-format";

type OrderForMail = {
  kind: OrderKind;
  reference: string;
  name: string;
  amount: number;
  currency: string;
  /** The M-Pesa code the supporter typed with the order. */
  code: string;
  /** The order's private page. */
  orderUrl: string;
};

/**
 * Staff marked the code typed with an order as wrong: the supporter is told, in plain words,
 * what to send us if they paid and how to pay so the payment finds the order by itself if
 * they have not. Never an accusation: most wrong codes are a slip copying the SMS.
 */
export function wrongCodeEmail(o: OrderForMail) {
  const { paybill, contactEmail: contact } = ORDER_KINDS[o.kind];
  return renderEmail({
    subject: `About the M-Pesa code for your order ${o.reference}`,
    heading: `About your payment, ${o.name}`,
    paragraphs: [
      `Thank you for your order ${o.reference} (${formatAmount(o.amount, o.currency)}). The M-Pesa code given with it, ${o.code}, does not match any payment we have received, so we cannot confirm your payment yet. This often happens when a letter or number is copied wrongly.`,
      "If you have paid: please reply to this email with the confirmation message M-Pesa sent you (it starts with the code, followed by 'Confirmed'). We will find your payment and link it to your order.",
      `If you have not paid yet: pay ${formatAmount(o.amount, o.currency)} to paybill ${paybill} with account number ${o.reference} (your order reference). A payment with that account number joins your order by itself.`,
      "Please do not pay twice for the same order.",
      `Questions? Reply to this email or write to ${contact}, quoting ${o.reference}.`,
    ],
    cta: { label: "See your order", url: o.orderUrl },
  });
}
