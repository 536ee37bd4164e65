import { data, redirect, useActionData } from "react-router";
import { OrderLookupForm } from "~/features/reconciliation/components/order-lookup-form";
import { ORDER_NOT_FOUND_BY_EMAIL, OrderLookupSchema } from "~/features/reconciliation/order-lookup.schema";
import { orderLinkByEmail } from "~/features/reconciliation/order-status.server";
import { pageMeta } from "~/lib/core/meta";
import { limits } from "~/lib/server/rate-limit.server";
import type { Reply } from "~/lib/core/forms";
import { invalidReply, NOT_SAVED, parseSubmission, readSubmission, replyFromError, requireWithinLimit, trippedHoneypot, typedValues } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import type { Route } from "./+types/lookup";

export const handle = { page: "orders" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Find your order",
    description: "See where your badge or merchandise order stands: its payment and its review.",
    path: "/orders",
    noindex: true,
  });

export const headers = () => ({ "Cache-Control": "private, no-store" });

export async function action({ request, context }: Route.ActionArgs) {
  let submission: Submission;
  try {
    submission = await readSubmission(request);
  } catch (e) {
    return replyFromError(e);
  }
  // Looks like a bot: answer as if all went well, look nothing up.
  if (trippedHoneypot(submission)) return data<Reply<never>>({ status: "success" }, 200);
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, OrderLookupSchema);
  if (!parsed.ok) return invalidReply(parsed, { values });
  const { reference, email } = parsed.value;
  let link: string | null;
  try {
    await requireWithinLimit(context, "orderLookup", limits.orderLookup);
    link = await orderLinkByEmail(context.db, reference, email);
  } catch (e) {
    return replyFromError(e, { values }, { unexpected: NOT_SAVED });
  }
  if (!link) return data<Reply<never>>({ status: "error", message: ORDER_NOT_FOUND_BY_EMAIL, values }, 404);
  throw redirect(link, { headers: { "Cache-Control": "private, no-store" } });
}

export default function FindOrder() {
  const reply = useActionData<typeof action>();
  return (
    <section className="section">
      <div className="container narrow">
        <h1>Find your order</h1>
        <p className="lead">Enter the reference from your order email and the email address you ordered with.</p>
        <OrderLookupForm reply={reply} />
      </div>
    </section>
  );
}
