import type { AppLoadContext } from "react-router";
import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { acceptJson } from "~/lib/submission.server";
import { jsonResponse } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

/** The POST of /api/subscribe.php and /api/subscribers.php: a newsletter sign-up, answered {ok:true} (a bot's too). */
export async function subscribeJson({ request, context }: { request: Request; context: AppLoadContext }) {
  const taken = await acceptJson(request, context, SubscribeSchema, { name: "newsletter", rule: limits.newsletter });
  if (taken) await subscribe(context.db, taken.input);
  return jsonResponse({ ok: true });
}
