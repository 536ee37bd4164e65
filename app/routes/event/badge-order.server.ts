import { data, redirect, type AppLoadContext } from "react-router";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { promptNewOrder } from "~/features/stk-push/stk-push.server";
import { clientAddress } from "~/lib/http/http.server";
import {
  invalidReply,
  NOT_SAVED,
  parseSubmission,
  replyFromError,
  requireWithinLimit,
  trippedHoneypot,
  typedValues,
  type Submission,
} from "~/lib/forms/submission.server";
import { DomainError, onField } from "~/lib/core/domain-error";
import type { Reply } from "~/lib/core/forms";
import { UploadedFile } from "~/lib/http/multipart.server";
import { limits } from "~/lib/server/rate-limit.server";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { PORTRAIT_SENT, PORTRAIT_UPLOAD_MAX_BYTES, portraitTooLargeMessage } from "~/features/event-badges/portrait";
import { processPortrait } from "~/features/event-badges/portrait.server";

/** The portrait field may carry a photo as a phone saved it; it is kept in a temporary file while it is handled. */
export const PORTRAIT_FILE_FIELDS = { portrait: PORTRAIT_UPLOAD_MAX_BYTES };
/**
 * Most bytes read from the order form. A photo over its 25 MB limit is still read through (and
 * dropped as it arrives) so that the form comes back with every field kept and the photo's
 * real size; a body over this is answered from its headers alone.
 */
export const BADGE_FORM_MAX_BYTES = 64 * 1024 * 1024;

async function portraitFrom(formData: FormData): Promise<Buffer | null> {
  const file = formData.get("portrait");
  if (!file || typeof file === "string" || file.size === 0) return null;
  try {
    const source = file instanceof UploadedFile && file.path ? { path: file.path, bytes: file.sentBytes } : new Uint8Array(await file.arrayBuffer());
    return await processPortrait(source);
  } catch (e) {
    if (e instanceof DomainError) throw onField(e, "portrait");
    throw e;
  }
}

type Placed = Awaited<ReturnType<typeof submitBadgeOrder>>;

/**
 * The /event confirmation form (a multipart POST, with or without JavaScript). The portrait
 * arrives either cropped in the browser or as the original file, cropped here.
 */
export async function badgeOrderAction(context: AppLoadContext, submission: Submission) {
  const intent = "order";
  const file = submission.form?.get("portrait");
  const sentFile = !!file && typeof file !== "string" && (file.size > 0 || (file instanceof UploadedFile && file.sentBytes > 0));
  const values = typedValues(submission);
  // A reload cannot keep a chosen file: the form asks for it again only when one was sent.
  const kept = sentFile ? { ...values, portrait: PORTRAIT_SENT } : values;
  // A photo over the limit was dropped as it arrived: say its size before anything else is checked.
  if (file instanceof UploadedFile && file.overLimit) {
    const message = portraitTooLargeMessage(file.sentBytes);
    return data<Reply<Placed>>({ status: "error", intent, fieldErrors: { portrait: [message] }, values: { ...values, portrait: PORTRAIT_SENT } }, 413);
  }
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot(submission)) return data<Reply<Placed>>({ status: "success", intent }, 200);
  const parsed = parseSubmission(submission, BadgeOrderSchema);
  if (!parsed.ok) return invalidReply<Placed>(parsed, { values: kept, intent });
  let placed: Placed;
  try {
    await requireWithinLimit(context, "badge-order", limits.badgeOrder);
    const portrait = submission.form ? await portraitFrom(submission.form) : null;
    placed = await submitBadgeOrder(context.db, parsed.value, portrait);
    // Its code may name a payment already received.
    afterPayments();
    // Paying now: the prompt goes out once the order is stored; its page shows what comes of it.
    if (await promptNewOrder(context.db, "badge", placed.id, placed.payment, clientAddress(context))) afterPayments();
  } catch (e) {
    return replyFromError<Placed>(e, { values: kept, intent }, { unexpected: NOT_SAVED });
  }
  if (paidByPrompt(placed)) throw redirect(placed.orderPath!, 303);
  return data<Reply<Placed>>({ status: "success", result: placed, intent }, 200);
}
const paidByPrompt = (result: unknown) => {
  const r = result as { payment?: { by?: string }; byPrompt?: boolean } | undefined;
  return r?.payment?.by === "stk" || r?.byPrompt === true;
};
