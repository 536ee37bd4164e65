import { useState } from "react";
import type { BadgeOrderView } from "../badge-order";
import { BadgeOrderRow, type ScreenMessage } from "./badge-order-row";
import type { Reply } from "~/lib/core/forms";
import type { OrderActionResult } from "./badge-orders-screen";

type Props = {
  orders: BadgeOrderView[];
  /** Where row forms post: the screen's address with the current filters. */
  action: string;
  /** The reply of a post made without JavaScript (the page re-rendered with it). */
  serverReply?: Reply<OrderActionResult>;
  /** A filter the loader could not read. */
  filterError: string | null;
  loading: boolean;
};

/** The message line and the orders table. Mounted afresh for every load of the list. */
export function BadgeOrdersTable({ orders: loaded, action, serverReply, filterError, loading }: Props) {
  const [latest, setLatest] = useState<ScreenMessage | null>(null);
  const orders = withRepliedOrder(loaded, serverReply?.result?.order);
  const shown: ScreenMessage | null =
    latest ?? (serverReply && !serverReply.result?.confirm ? { message: serverReply.message ?? "", tone: serverReply.status } : null) ?? (filterError ? { message: filterError, tone: "error" } : null);

  return (
    <>
      <p role="status" aria-live="polite" className={shown ? `admin-message admin-message-${shown.tone}` : "admin-message"}>
        {shown?.message}
      </p>
      <div className="table-wrap orders-table-wrap" aria-busy={loading || undefined}>
        <table className="orders-table">
          <caption>
            {orders.length === 1 ? "1 order" : `${orders.length} orders`}, newest first. Times are Nairobi time (EAT,
            UTC+3).
          </caption>
          <thead>
            <tr>
              <th scope="col">Supporter</th>
              <th scope="col">Tier</th>
              <th scope="col">Payment Ref</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {orders.length === 0 ? (
              <tr>
                <td colSpan={6} className="orders-empty">
                  No orders found.
                </td>
              </tr>
            ) : (
              orders.map((o) => (
                <BadgeOrderRow
                  key={o.id}
                  order={o}
                  action={action}
                  serverReply={serverReply?.result?.id === o.id ? serverReply : undefined}
                  onMessage={setLatest}
                />
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * Without JavaScript the page re-renders after a row action; an order that no longer matches
 * the filter (approved, in the pending list) stays in view until the next load, as it does with
 * JavaScript, so staff see what they just did.
 */
function withRepliedOrder(orders: BadgeOrderView[], replied: BadgeOrderView | null | undefined) {
  if (!replied || orders.some((o) => o.id === replied.id)) return orders;
  return [...orders, replied].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
