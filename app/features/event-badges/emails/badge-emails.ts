import { renderEmail } from "~/lib/mail/email-layout";
import { codeInWords } from "../../payment-codes/payment-code";
import { site } from "~/lib/core/site";
import { eventDateText, eventWhenText, type EventRecord } from "../event";
import { badgeName, formatKes } from "../tiers";
import { referenceInWords } from "../ticket";

/** `oldReference`: an order moved in from the old site, known to its supporter by that reference. */
type OrderForMail = { id: string; name: string; tierName: string; amount: number; paymentReference: string; hardCopy: boolean; oldReference?: string };

/** For an order from the old site: the reference the supporter knew, beside this site's. */
const knownAs = (o: OrderForMail) => (o.oldReference ? [`You placed this order on our old site as ${o.oldReference}; it is ${o.id} here.`] : []);

export function orderReceivedEmail(o: OrderForMail, event: EventRecord, orderUrl: string) {
  return renderEmail({
    subject: `We received your ${o.tierName} confirmation (${o.id})`,
    heading: `Thank you, ${o.name}!`,
    paragraphs: [
      `We have your ${o.tierName} confirmation for the ${event.title} on ${eventDateText(event)}. Your reference is ${o.id}.`,
      `Tier: ${o.tierName} · Amount: ${formatKes(o.amount)} · ${codeInWords(o.id, o.paymentReference)}${o.hardCopy ? " · Hard-copy badge requested" : ""}`,
      "Your confirmation is pending approval. Once our team has verified the payment, we will email you your badge and a 'Will Be Attending' poster to share.",
      "Your order's own page shows whether your payment has reached us and where your order stands; keep this email to find it.",
      `Questions? Reply to this email or write to ${site.contactEmail}, quoting ${o.id}.`,
    ],
    cta: { label: "See your order", url: orderUrl },
  });
}

/** The entry QR code, attached inline (cid) and shown in the message's HTML. */
export const ENTRY_QR_CID = "entry-qr@street-vespers";

/** What to show at the door: the QR and the reference, spelled out for reading aloud. */
function entryParagraphs(o: OrderForMail) {
  return [
    "Your entry QR code is below (and attached): show it at the door and we will check you in. It is yours alone; please do not share it.",
    `No QR code to hand? Give your reference at the door: ${o.id} (${referenceInWords(o.id)}).`,
  ];
}

export function badgeKitEmail(o: OrderForMail, event: EventRecord, shareUrl: string) {
  return renderEmail({
    subject: `Your ${badgeName(o.tierName)} and 'Will Be Attending' poster`,
    heading: `You're confirmed, ${o.name}!`,
    paragraphs: [
      `Your payment for the ${o.tierName} tier (${formatKes(o.amount)}, code ${o.paymentReference}) is verified. Thank you for standing with the streets of ${site.city}.`,
      "Attached are your badge and your 'Will Be Attending' poster (1080x1080 images). Share the poster on WhatsApp, Instagram or LinkedIn: its QR code brings friends to the event page.",
      ...knownAs(o),
      ...(o.hardCopy ? ["You asked for a hard-copy badge: we will have it ready for you at the door."] : []),
      ...entryParagraphs(o),
      `See you on ${eventWhenText(event)}, ${event.venue}. Your reference is ${o.id}.`,
    ],
    image: { cid: ENTRY_QR_CID, alt: `Entry QR code for ${o.id}`, size: 240 },
    cta: { label: "Invite a friend", url: shareUrl },
  });
}

/** The day-before reminder: when and where, and the entry QR again. */
export function eventReminderEmail(o: OrderForMail, event: EventRecord, orderUrl: string) {
  return renderEmail({
    subject: `Tomorrow: ${event.title}`,
    heading: `See you tomorrow, ${o.name}!`,
    paragraphs: [
      `The ${event.title} is tomorrow, ${eventWhenText(event)}, at ${event.venue}. Thank you for coming as a ${o.tierName} supporter.`,
      ...entryParagraphs(o),
      ...(o.hardCopy ? ["Your hard-copy badge will be waiting for you at the badge table."] : []),
    ],
    image: { cid: ENTRY_QR_CID, alt: `Entry QR code for ${o.id}`, size: 240 },
    cta: { label: "See your order", url: orderUrl },
  });
}

/** A rejected order: the supporter is told, with the team's note, and how to reach a person. */
export function badgeRejectedEmail(o: OrderForMail & { wasApproved: boolean; note: string }, eventUrl: string) {
  return renderEmail({
    subject: `Your ${o.tierName} confirmation (${o.id}) was not accepted`,
    heading: `About your ${o.tierName} confirmation, ${o.name}`,
    paragraphs: [
      o.wasApproved
        ? `We are sorry: your ${o.tierName} order ${o.id} was approved earlier, but our team has now cancelled it. The badge and poster we sent are no longer valid.`
        : `We are sorry: we could not accept your ${o.tierName} confirmation ${o.id}.`,
      `Order ${o.id} · Tier: ${o.tierName} · Amount: ${formatKes(o.amount)} · ${codeInWords(o.id, o.paymentReference)}`,
      ...knownAs(o),
      ...(o.note ? [`A note from the team: ${o.note}`] : []),
      `If you did pay, reply to this email with your M-Pesa confirmation message, or write to ${site.contactEmail} quoting ${o.id}, and we will sort it out.`,
    ],
    cta: { label: "See the event", url: eventUrl },
  });
}
