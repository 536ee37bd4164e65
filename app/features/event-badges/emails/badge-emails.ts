import { renderEmail } from "~/lib/email-layout";
import { site } from "~/lib/site";
import { EVENT, formatKes } from "../tiers";

type OrderForMail = { id: string; name: string; tierName: string; amount: number; paymentReference: string; hardCopy: boolean };

export function orderReceivedEmail(o: OrderForMail, eventUrl: string) {
  return renderEmail({
    subject: `We received your ${o.tierName} confirmation (${o.id})`,
    heading: `Thank you, ${o.name}!`,
    paragraphs: [
      `We have your ${o.tierName} confirmation for the ${EVENT.title} on ${EVENT.dateText}. Your reference is ${o.id}.`,
      `Tier: ${o.tierName} · Amount: ${formatKes(o.amount)} · M-Pesa code: ${o.paymentReference}${o.hardCopy ? " · Hard-copy badge requested" : ""}`,
      "Your confirmation is pending approval. Once our team has verified the payment, we will email you your badge and a 'Will Be Attending' poster to share.",
      `Questions? Reply to this email or write to ${site.contactEmail}, quoting ${o.id}.`,
    ],
    cta: { label: "See the event", url: eventUrl },
  });
}

export function badgeKitEmail(o: OrderForMail, shareUrl: string) {
  return renderEmail({
    subject: `Your ${o.tierName} badge and 'Will Be Attending' poster`,
    heading: `You're confirmed, ${o.name}!`,
    paragraphs: [
      `Your payment for the ${o.tierName} tier (${formatKes(o.amount)}, code ${o.paymentReference}) is verified. Thank you for standing with the streets of ${site.city}.`,
      "Attached are your badge and your 'Will Be Attending' poster (1080x1080 PNG). Share the poster on WhatsApp, Instagram or LinkedIn: its QR code brings friends to the event page.",
      ...(o.hardCopy ? ["You asked for a hard-copy badge: we will have it ready for you at the door."] : []),
      `See you on ${EVENT.dateText}. Your reference is ${o.id}.`,
    ],
    cta: { label: "Invite a friend", url: shareUrl },
  });
}
