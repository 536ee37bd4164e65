import { PaymentFilterMenu } from "../../admin/components/payment-filter-menu";
import type { PaymentState } from "../../received-payments/payment-state";
import { useEffect, useState } from "react";
import type { Reply } from "~/lib/core/forms";
import { Form, Link } from "react-router";
import { trackEvent } from "~/lib/browser/track";
import type { MerchOrderView } from "../merch";
import { MerchOrderCard, type ScreenMessage } from "./merch-order-card";
import { ORDERS_PATH, ordersHref, type OrderStatusResult } from "./merch-admin-screen";

/** A plain GET form: the filter box and 'Load orders', which reloads the list. */
export function MerchOrderFilters({ q, payment, loading }: { q: string; payment: PaymentState | ""; loading: boolean }) {
  return (
    <Form method="get" action={ORDERS_PATH} className="order-filters" role="search" aria-label="Merch orders">
      <label htmlFor="merch-order-search">Filter orders</label>
      <div className="order-search-row">
        <input
          // A new filter in the address (Clear, a link) resets what the box shows.
          key={q}
          id="merch-order-search"
          type="search"
          name="q"
          defaultValue={q}
          placeholder="e.g. MO-Q29BY6 or Achieng"
          aria-describedby={q ? undefined : "merch-order-search-hint"}
          maxLength={100}
          autoComplete="off"
          enterKeyHint="search"
        />
        {q ? (
          <Link to={ORDERS_PATH} className="button button-ghost button-small">
            Clear
          </Link>
        ) : null}
        <button type="submit" className="button-small" aria-busy={loading || undefined}>
          {loading ? "Loading…" : "Load orders"}
        </button>
      </div>
      {/* Not while a search is shown: its results come first. */}
      {q ? null : (
        <p className="field-hint" id="merch-order-search-hint">
          Searches the order id, the customer's name and email, the M-Pesa code and the status.
        </p>
      )}
      {payment ? <input type="hidden" name="payment" value={payment} /> : null}
      <PaymentFilterMenu current={payment} hrefFor={(p) => ordersHref(q, p)} />
    </Form>
  );
}

type Props = {
  orders: MerchOrderView[];
  q: string;
  action: string;
  serverReply?: Reply<OrderStatusResult>;
  loadError: string | null;
  loading: boolean;
};

/** The message line and the order cards, newest first. Mounted afresh for every load. */
export function MerchOrdersList({ orders: loaded, q, action, serverReply, loadError, loading }: Props) {
  const [latest, setLatest] = useState<ScreenMessage | null>(null);
  const orders = withRepliedOrder(loaded, serverReply?.result?.order);
  const shown: ScreenMessage | null = latest ?? (serverReply && !serverReply.result?.confirm ? { message: serverReply.message ?? "", tone: serverReply.status } : null) ?? (loadError ? { message: loadError, tone: "error" } : null);

  useEffect(() => {
    if (!loadError) trackEvent("merch.admin.orders_loaded", { count: loaded.length });
  }, [loaded, loadError]);

  return (
    <>
      <p role="status" aria-live="polite" className={shown ? `admin-message admin-message-${shown.tone}` : "admin-message"}>
        {shown?.message}
      </p>
      <div className="merch-orders-wrap" aria-busy={loading || undefined}>
        <p className="merch-orders-count muted">
          {orders.length === 1 ? "1 order" : `${orders.length} orders`}
          {q ? ` matching “${q}”` : ""}, newest first. Times are Nairobi time (EAT, UTC+3).
        </p>
        {orders.length === 0 ? (
          <p className="orders-empty card">{loadError ? "No orders to show." : q ? "No orders match that filter." : "No orders yet."}</p>
        ) : (
          <ol className="merch-orders">
            {orders.map((o) => (
              <li key={o.id}>
                <MerchOrderCard
                  order={o}
                  action={action}
                  serverReply={serverReply?.result?.id === o.id ? serverReply : undefined}
                  onMessage={setLatest}
                />
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}

/** Without JavaScript, an order changed out of the filter stays in view until the next load. */
function withRepliedOrder(orders: MerchOrderView[], replied: MerchOrderView | null | undefined) {
  if (!replied) return orders;
  if (orders.some((o) => o.id === replied.id)) return orders.map((o) => (o.id === replied.id ? replied : o));
  return [...orders, replied].sort((a, b) => (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : a.id < b.id ? 1 : -1));
}
