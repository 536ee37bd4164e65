import { redirect, useActionData } from "react-router";
import { OrderLookupForm } from "~/features/reconciliation/components/order-lookup-form";
import { ORDER_NOT_FOUND_BY_EMAIL, OrderLookupSchema } from "~/features/reconciliation/order-lookup.schema";
import { orderLinkByEmail } from "~/features/reconciliation/order-status.server";
import { DomainError } from "~/lib/domain-error";
import { pageMeta } from "~/lib/meta";
import { limits } from "~/lib/rate-limit.server";
import { handleForm } from "~/lib/submission.server";
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
  const answer = await handleForm({
    request,
    context,
    schema: OrderLookupSchema,
    limit: { name: "orderLookup", rule: limits.orderLookup },
    run: async ({ reference, email }) => {
      const link = await orderLinkByEmail(context.db, reference, email);
      if (!link) throw new DomainError("not_found", ORDER_NOT_FOUND_BY_EMAIL);
      return { link };
    },
  });
  const link = answer.data.status === "success" ? answer.data.result?.link : undefined;
  if (link) throw redirect(link, { headers: { "Cache-Control": "private, no-store" } });
  return answer;
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
