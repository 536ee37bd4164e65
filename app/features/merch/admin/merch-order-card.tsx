import { useEffect, useState } from "react";
import { ConfirmBox } from "~/components/ui/confirm-box";
import type { Reply } from "~/lib/core/forms";
import { useFetcher } from "react-router";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { formatMoney, ORDER_STATUS_LABELS } from "../merch";
import type { MerchOrderView } from "../merch";
import { statusButtonsFor, type OrderStatusResult } from "./merch-admin-screen";
import { PaymentCheckbox, PaymentTag } from "../../received-payments/components/payment-tag";

export type ScreenMessage = { message: string; tone: "success" | "error" };

type Props = {
  order: MerchOrderView;
  /** The screen's address with ?q=, so a post without JavaScript keeps the list filtered. */
  action: string;
  /** The reply of a post made without JavaScript, when it was about this order. */
  serverReply?: Reply<OrderStatusResult>;
  onMessage: (m: ScreenMessage) => void;
};

/**
 * One order. Its three buttons post the status with the staff note in the box (prefilled
 * with the current note); with JavaScript a fetcher sends them and the answer replaces the card.
 */
export function MerchOrderCard({ order: loaded, action, serverReply, onMessage }: Props) {
  const fetcher = useFetcher<Reply<OrderStatusResult>>();
  const reply = fetcher.data ?? serverReply;
  const order = fetcher.data?.result?.order ?? serverReply?.result?.order ?? loaded;
  const busy = fetcher.state !== "idle";
  const pendingStatus = busy ? fetcher.formData?.get("status") : null;

  useEffect(() => {
    if (fetcher.data && !fetcher.data.result?.confirm) onMessage({ message: fetcher.data.message ?? "", tone: fetcher.data.status });
  }, [fetcher.data, onMessage]);
  // 'Cancel' on the confirming step forgets the reply that asked.
  const [cancelled, setCancelled] = useState<unknown>(null);
  // A rejection and un-approving ('Mark pending') take a second press.
  const asked = reply !== cancelled ? reply?.result?.confirm : undefined;
  const confirming = !!asked && order.status !== asked;

  const head = `order-${order.id}`;
  const noteId = `${head}-note`;
  return (
    <article
      id={`card-${order.id}`}
      className={busy ? "merch-order is-busy" : "merch-order"}
      aria-labelledby={head}
      aria-busy={busy || undefined}
    >
      <header className="merch-order-head">
        <h2 id={head}>{order.id}</h2>
        <span className={`pill pill-${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
        <time dateTime={order.ts} title={order.ts}>
          {formatNairobiTimeEat(order.ts)}
        </time>
      </header>

      <dl className="merch-order-facts">
        <div>
          <dt>Customer</dt>
          <dd>{order.customerName}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${order.customerEmail}`}>{order.customerEmail}</a>
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>
            {order.customerPhone ? (
              <a href={`tel:${order.customerPhone.replace(/[^0-9+]/g, "")}`}>{order.customerPhone}</a>
            ) : (
              <span className="muted">Not given</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Payment code</dt>
          <dd>
            <code className="payment-ref">{order.paymentReference}</code>
            <PaymentTag payment={order.payment} amount={order.total} orderId={order.id} />
          </dd>
        </div>
        {order.notes ? (
          <div className="fact-wide">
            <dt>Customer notes</dt>
            <dd className="order-notes">{order.notes}</dd>
          </div>
        ) : null}
      </dl>

      <table className="merch-order-lines">
        <caption className="visually-hidden">Items in order {order.id}</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Line total</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((l, i) => (
            <tr key={i}>
              <td>
                <span className="line-name">
                  {l.quantity} × {l.name}
                </span>
                {l.color || l.size ? (
                  <span className="line-options">
                    {l.color ? (
                      <span className="line-colour">
                        <span className="swatch" style={{ background: l.color.swatch }} aria-hidden="true" />
                        {l.color.label}
                      </span>
                    ) : null}
                    {l.color && l.size ? <span className="visually-hidden">, </span> : null}
                    {l.size ? <span>{/size/i.test(l.size) ? l.size : `Size ${l.size}`}</span> : null}
                  </span>
                ) : null}
              </td>
              <td className="line-total">{formatMoney(l.price * l.quantity, order.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="line-total">{formatMoney(order.total, order.currency)}</td>
          </tr>
        </tfoot>
      </table>

      <dl className="merch-order-review">
        {order.reviewedAt ? (
          <div>
            <dt>Reviewed</dt>
            <dd>
              <time dateTime={order.reviewedAt} title={order.reviewedAt}>
                {formatNairobiTimeEat(order.reviewedAt)}
              </time>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Staff note</dt>
          <dd className="order-notes">{order.staffNotes || <span className="muted">None</span>}</dd>
        </div>
      </dl>

      {/* Without JavaScript the answer reloads the page: it opens at these buttons, where the answer (or the question) is. */}
      <fetcher.Form method="post" action={`${action}#card-${order.id}-decide`} id={`card-${order.id}-decide`} className="merch-order-actions">
        <input type="hidden" name="intent" value="status" />
        <input type="hidden" name="id" value={order.id} />
        <label htmlFor={noteId}>Staff note for this change (optional)</label>
        <textarea
          // After each change the box is empty again: the note is in the staff notes above.
          key={`${order.reviewedAt ?? "new"}${confirming ? "-confirming" : ""}`}
          id={noteId}
          name="notes"
          rows={2}
          maxLength={1000}
          defaultValue={confirming ? (reply?.values?.notes ?? "") : ""}
        />
        <div className="order-decide">
          {statusButtonsFor(order.status).map((b) => (
            <button
              key={b.status}
              type="submit"
              name="status"
              value={b.status}
              disabled={busy || (confirming && b.status === asked)}
              aria-describedby={head}
              className={
                b.status === "approved" ? "button-small button-approve" : b.status === "rejected" ? "button-small button-reject" : "button-small button-ghost"
              }
            >
              {pendingStatus === b.status ? "Saving…" : b.label}
            </button>
          ))}
        </div>
        {order.status !== "approved" ? <PaymentCheckbox payment={order.payment} id={`${head}-paid`} /> : null}
        {confirming ? (
          <ConfirmBox
            id={head}
            question={reply?.message}
            yes={
              asked === "pending"
                ? { name: "status", value: "pending", label: "Yes, mark pending", className: "button-small button-reject-now" }
                : { name: "status", value: "rejected", label: "Yes, reject", className: "button-small button-reject-now" }
            }
            cancelHref={action}
            onCancel={() => setCancelled(reply)}
            busy={busy}
          >
            <p className="small">{asked === "pending" ? "The staff note above is kept with the order." : "The staff note above goes in the email."}</p>
            <input type="hidden" name="confirmed" value="yes" />
          </ConfirmBox>
        ) : reply && reply !== cancelled ? (
          <p className={`row-note row-note-${reply.status}`}>{reply.message}</p>
        ) : null}
      </fetcher.Form>
    </article>
  );
}
