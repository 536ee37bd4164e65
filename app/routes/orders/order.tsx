import { data, Link, redirect } from "react-router";
import { setWallHidden } from "~/features/event-badges/wall.server";
import { ORDER_KINDS } from "~/features/orders/order-kinds";
import { system } from "~/lib/core/actor";
import { readForm } from "~/lib/forms/submission.server";
import { OrderLookupForm } from "~/features/reconciliation/components/order-lookup-form";
import { OrderStatus } from "~/features/reconciliation/components/order-status";
import { ORDER_LINK_NOT_FOUND } from "~/features/reconciliation/order-lookup.schema";
import { orderByToken } from "~/features/reconciliation/order-status.server";
import { pageMeta } from "~/lib/core/meta";
import { StkPanel } from "~/features/stk-push/components/stk-panel";
import { resendPromptFromPage, stkPanelOf } from "~/features/reconciliation/order-prompts.server";
import { clientAddress, onRefusal } from "~/lib/http/http.server";
import { addPaymentCode, LATE_CODE_SAVED } from "~/features/reconciliation/late-code.server";
import type { Route } from "./+types/order";

export const handle = { page: "order", path: "/orders/order" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Your order", description: "Your order, its payment and its review.", path: "/orders", noindex: true });

/** The token is in the address: never cached, never sent to another site as a referrer (same-origin: a form posted from it keeps its Origin). */
const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
export const headers = () => PRIVATE;

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("t") ?? "";
  const found = await orderByToken(context.db, params.reference ?? "", token);
  const stk = found ? await stkPanelOf(context.db, found, token) : null;
  const order = found && stk ? { ...found, promptPaid: stk.promptPaid, noPromptSent: stk.noPromptSent } : found;
  return data({ order, stk }, { status: order ? 200 : 404, headers: PRIVATE });
}

/** The supporter takes themselves off the supporter wall (the link's token is the proof it is them). */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const order = await orderByToken(context.db, params.reference ?? "", url.searchParams.get("t") ?? "");
  if (!order) throw data(ORDER_LINK_NOT_FOUND, { status: 404, headers: PRIVATE });
  const form = await readForm(request);
  if (form.get("intent") === "resend-prompt") {
    const phone = form.get("phone");
    const sent = await resendPromptFromPage(context.db, {
      orderId: order.reference,
      token: url.searchParams.get("t") ?? "",
      ip: clientAddress(context),
      ...(typeof phone === "string" && phone.trim() ? { phone: phone.slice(0, 30) } : {}),
    });
    if (sent.error) return data({ stkError: sent.error }, { status: sent.status, headers: PRIVATE });
    return redirect(`${url.pathname}${url.search}`, { status: 303, headers: PRIVATE });
  }
  if (form.get("intent") === "add-code") {
    // 'Pay by paybill instead': the code from the SMS joins this order as a typed code would.
    return onRefusal(
      async () => {
        await addPaymentCode(context.db, { kind: order.kind, reference: order.reference }, String(form.get("paymentReference") ?? ""));
        return data({ codeSaved: LATE_CODE_SAVED }, { status: 200, headers: PRIVATE });
      },
      (refused) => data({ codeError: refused.message }, { status: refused.status, headers: { ...refused.headers, ...PRIVATE } }),
    );
  }
  if (form.get("intent") !== "leave-wall" || !ORDER_KINDS[order.kind].onSupporterWall) throw data("Unknown action.", { status: 400, headers: PRIVATE });
  await setWallHidden(context.db, order.reference, true, system("the supporter left the wall from their order page"));
  return redirect(`${url.pathname}${url.search}`, { status: 303, headers: PRIVATE });
}

export default function OrderPageRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { order, stk } = loaderData;
  return (
    <section className="section">
      <div className="container narrow">
        {order ? (
          <>
            {stk ? (
              <StkPanel
                stk={stk}
                error={actionData && "stkError" in actionData ? actionData.stkError : undefined}
                code={{
                  saved: actionData && "codeSaved" in actionData ? actionData.codeSaved : undefined,
                  error: actionData && "codeError" in actionData ? actionData.codeError : undefined,
                }}
              />
            ) : null}
            <OrderStatus order={order} />
            <p className="small">
              Questions? Reply to your order email, quoting {order.reference}. <Link to="/orders">Find another order</Link>
            </p>
          </>
        ) : (
          <>
            <h1>Order not found</h1>
            <p className="lead">{ORDER_LINK_NOT_FOUND}</p>
            <OrderLookupForm />
          </>
        )}
      </div>
    </section>
  );
}
