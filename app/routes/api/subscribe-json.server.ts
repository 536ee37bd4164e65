import type { AppLoadContext } from "react-router";
import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { parseOr400, readSubmission, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { jsonResponse } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";

/** The POST of /api/subscribe.php and /api/subscribers.php: a newsletter sign-up, answered {ok:true} (a bot's too). */
export async function subscribeJson({ request, context }: { request: Request; context: AppLoadContext }) {
  const submission = await readSubmission(request, 16 * 1024);
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot(submission)) return jsonResponse({ ok: true });
  const input = parseOr400(SubscribeSchema, submission.fields);
  await requireWithinLimit(context, "newsletter", limits.newsletter);
  await subscribe(context.db, input);
  return jsonResponse({ ok: true });
}
