import { renderEmail } from "~/lib/mail/email-layout";
import type { ApplicationInput } from "../applications.schema";

export function applicationNoticeEmail(a: ApplicationInput & { id: number }) {
  return renderEmail({
    subject: `New application #${a.id}: ${a.role}${a.name ? ` — ${a.name}` : ""}`,
    heading: `New ${a.role} application`,
    paragraphs: [
      `Name: ${a.name || "(not given)"}`,
      `Email: ${a.email}`,
      `Phone: ${a.phone || "(not given)"}`,
      `Role: ${a.role}`,
      `Source: ${a.source}`,
      `Message: ${a.message || "(none)"}`,
      "Reply to this email to answer the applicant directly.",
    ],
  });
}
