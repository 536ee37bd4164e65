import { renderEmail } from "~/lib/mail/email-layout";
import { codeInWords } from "../../payment-codes/payment-code";
import { site } from "~/lib/core/site";
import { formatMoney } from "../merch";
import type { MerchOrderView } from "../merch";

const lineText = (o: MerchOrderView) =>
  o.items.map(
    (l) =>
      `${l.quantity} × ${l.name}${l.color ? `, ${l.color.label}` : ""}${l.size ? `, ${l.size}` : ""} — ${formatMoney(l.price * l.quantity, o.currency)}`,
  );

export function orderReceivedEmail(o: MerchOrderView, orderUrl: string) {
  return renderEmail({
    subject: `We received your merch order ${o.id}`,
    heading: `Thank you, ${o.customerName}!`,
    paragraphs: [
      `Your order ${o.id} is pending review. Every purchase funds the street outreach in ${site.city}.`,
      ...lineText(o),
      `Total: ${formatMoney(o.total, o.currency)} · ${codeInWords(o.id, o.paymentReference)}`,
      `What happens next: the merch team checks the payment (paybill ${site.payments.merchPaybill}, account ${site.payments.merchAccount}), then emails you to confirm. Delivery fees and options (M-Pesa, card or cash) are agreed with you after that.`,
      "Your order's own page shows whether your payment has reached us and where your order stands; keep this email to find it.",
      `Questions? Reply to this email or write to ${site.merchEmail}, quoting ${o.id}.`,
    ],
    cta: { label: "See your order", url: orderUrl },
  });
}

export function merchTeamNoticeEmail(o: MerchOrderView, adminUrl: string) {
  return renderEmail({
    subject: `New merch order ${o.id}: ${formatMoney(o.total, o.currency)}`,
    heading: `New order ${o.id}`,
    paragraphs: [
      `From ${o.customerName} <${o.customerEmail}>${o.customerPhone ? `, ${o.customerPhone}` : ""}.`,
      ...lineText(o),
      `Total: ${formatMoney(o.total, o.currency)} · ${codeInWords(o.id, o.paymentReference)}`,
      ...(o.notes ? [`Notes: ${o.notes}`] : []),
      "Check the payment, then approve or reject the order.",
    ],
    cta: { label: "Review merch orders", url: adminUrl },
  });
}

/** An order moved in from the old site: the reference its customer knew. */
type MailedOrder = MerchOrderView & { oldReference?: string };
const knownAs = (o: MailedOrder) => (o.oldReference ? [`You placed this order on our old site as ${o.oldReference}; it is ${o.id} here.`] : []);

export function orderApprovedEmail(o: MailedOrder, storeUrl: string) {
  return renderEmail({
    subject: `Your merch order ${o.id} is confirmed`,
    heading: `Payment confirmed, ${o.customerName}!`,
    paragraphs: [
      `The merch team has confirmed your payment for order ${o.id} (${formatMoney(o.total, o.currency)}).`,
      ...knownAs(o),
      ...lineText(o),
      ...(o.staffNotes ? [`A note from the team: ${o.staffNotes}`] : []),
      "We will contact you to arrange delivery within Nairobi and the metropolitan area. Thank you for funding the outreach!",
    ],
    cta: { label: "Visit the store", url: storeUrl },
  });
}

/** A rejected order: the customer is told, with the team's note, and how to reach a person. */
export function orderRejectedEmail(o: MailedOrder, wasApproved: boolean, storeUrl: string) {
  return renderEmail({
    subject: `Your merch order ${o.id} was not accepted`,
    heading: `About your order ${o.id}, ${o.customerName}`,
    paragraphs: [
      wasApproved
        ? `We are sorry: your order ${o.id} was confirmed earlier, but the merch team has now cancelled it. Nothing will be delivered for it.`
        : `We are sorry: the merch team could not accept your order ${o.id}.`,
      ...lineText(o),
      `Total: ${formatMoney(o.total, o.currency)} · ${codeInWords(o.id, o.paymentReference)}`,
      ...knownAs(o),
      ...(o.staffNotes ? [`A note from the team: ${o.staffNotes}`] : []),
      `If you did pay, reply to this email with your M-Pesa confirmation message, or write to ${site.merchEmail} quoting ${o.id}, and we will sort it out.`,
    ],
    cta: { label: "Visit the store", url: storeUrl },
  });
}
