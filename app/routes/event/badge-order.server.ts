import type { AppLoadContext } from "react-router";
import { handleForm, type Submission } from "~/lib/submission.server";
import { DomainError, onField } from "~/lib/domain-error";
import { limits } from "~/lib/rate-limit.server";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { PORTRAIT_MAX_BYTES, PORTRAIT_SENT } from "~/features/event-badges/portrait";
import { processPortrait } from "~/features/event-badges/portrait.server";

/** Room for a 6 MB portrait plus the other fields and multipart framing. */
export const BADGE_FORM_MAX_BYTES = PORTRAIT_MAX_BYTES + 256 * 1024;

async function portraitFrom(formData: FormData): Promise<Buffer | null> {
  const file = formData.get("portrait");
  if (!file || typeof file === "string" || file.size === 0) return null;
  try {
    return await processPortrait(new Uint8Array(await file.arrayBuffer()));
  } catch (e) {
    if (e instanceof DomainError) throw onField(e, "portrait");
    throw e;
  }
}

/**
 * The /event confirmation form (a multipart POST, with or without JavaScript). The portrait
 * arrives either cropped in the browser or as the original file, cropped here.
 */
export async function badgeOrderAction(context: AppLoadContext, submission: Submission) {
  const reply = await handleForm({
    submission,
    intent: "order",
    context,
    schema: BadgeOrderSchema,
    maxBytes: BADGE_FORM_MAX_BYTES,
    limit: { name: "badge-order", rule: limits.badgeOrder },
    run: async (input, submission) => {
      const portrait = submission.form ? await portraitFrom(submission.form) : null;
      return submitBadgeOrder(context.db, input, portrait);
    },
  });
  // A reload cannot keep a chosen file: the form asks for it again only when one was sent.
  const file = submission.form?.get("portrait");
  if (reply.data.status === "error" && file && typeof file !== "string" && file.size > 0) {
    reply.data.values = { ...reply.data.values, portrait: PORTRAIT_SENT };
  }
  return reply;
}
