import { useEffect, useState } from "react";
import { ConfirmBox } from "~/components/ui/confirm-box";
import type { Reply } from "~/lib/core/forms";
import { useFetcher } from "react-router";
import { formatNairobiTime } from "~/lib/core/nairobi-time";
import type { BadgeOrderView } from "../badge-order";
import { formatKes } from "../tiers";
import { PaymentCheckbox, PaymentTag } from "../../received-payments/components/payment-tag";
import {
  approveBlockedBy,
  deliveryFailed,
  deliveryText,
  hasAssets,
  rejectQuestion,
  STATUS_LABEL,
  type OrderActionResult,
} from "./badge-orders-screen";

export type ScreenMessage = { message: string; tone: "success" | "error" | "info" };

type Props = {
  order: BadgeOrderView;
  /** The screen's address with its filters, so a post without JavaScript keeps the list filtered. */
  action: string;
  /** The reply of a post made without JavaScript, when it was about this order. */
  serverReply?: Reply<OrderActionResult>;
  onMessage: (m: ScreenMessage) => void;
};

/**
 * One order. Its buttons post to the screen's action (intent + id); with JavaScript a fetcher
 * sends them and the order that comes back replaces the row.
 */
export function BadgeOrderRow({ order: loaded, action, serverReply, onMessage }: Props) {
  const fetcher = useFetcher<Reply<OrderActionResult>>();
  const reply = fetcher.data ?? serverReply;
  const order = fetcher.data?.result?.order ?? loaded;
  const busy = fetcher.state !== "idle";
  const pendingIntent = busy ? fetcher.formData?.get("intent") : null;
  const generating = pendingIntent === "generate";

  // Approving an order without its kit draws it first: that takes a few seconds.
  const drawing = generating || (pendingIntent === "approve" && !hasAssets(loaded));
  useEffect(() => {
    if (drawing) onMessage({ message: generating ? "Generating badge kit…" : "Drawing the badge kit and approving…", tone: "info" });
  }, [drawing, generating, onMessage]);
  useEffect(() => {
    if (fetcher.data && !fetcher.data.result?.confirm) onMessage({ message: fetcher.data.message ?? "", tone: fetcher.data.status });
  }, [fetcher.data, onMessage]);
  // 'Cancel' on the confirming step forgets the reply that asked.
  const [cancelled, setCancelled] = useState<unknown>(null);
  const confirming = reply?.result?.confirm === "reject" && reply !== cancelled && order.status !== "rejected";

  const approved = order.status === "approved";
  const revoked = approved ? order.badgeRevoked : null;
  const blocked = revoked ? "Badge revoked: refused at the door." : approveBlockedBy(order);
  const who = `order-${order.id}-who`;
  const why = `order-${order.id}-why`;
  const created = formatNairobiTime(order.createdAt);

  return (
    <tr id={`row-${order.id}`} className={busy ? "order-row is-busy" : "order-row"} aria-busy={busy || undefined}>
      <td data-label="Supporter">
        <div className="cell">
          <strong id={who}>{order.name}</strong>
          {revoked ? <span className="tag tag-revoked">Badge revoked</span> : null}
          <a className="order-line" href={`mailto:${order.email}`}>
            {order.email}
          </a>
          {order.phone ? (
            <a className="order-line" href={`tel:${order.phone.replace(/[^0-9+]/g, "")}`}>
              {order.phone}
            </a>
          ) : null}
          {order.hardCopy ? <span className="tag">Hard-copy requested</span> : null}
          <span className="order-line order-id">{order.id}</span>
        </div>
      </td>
      <td data-label="Tier">
        <div className="cell">
          <span className="order-line">{order.tierName}</span>
          <span className="order-line order-amount muted">{formatKes(order.amount)}</span>
        </div>
      </td>
      <td data-label="Payment Ref">
        <div className="cell">
          <code className="payment-ref">{order.paymentReference}</code>
          <PaymentTag payment={order.payment} amount={order.amount} orderId={order.id} />
          {order.notes ? <p className="order-notes">{order.notes}</p> : null}
          {order.staffNote ? <StaffNote note={order.staffNote} /> : null}
        </div>
      </td>
      <td data-label="Status">
        <div className="cell">
          {/* A revoked badge reads 'Revoked' first, with why, where 'Approved' would be. */}
          {revoked ? (
            <>
              <span className="pill pill-revoked">Revoked</span>
              <span className="order-line row-note-error">Badge revoked: {revoked.reason}</span>
              <span className="order-line muted">
                Revoked{" "}
                <time dateTime={revoked.at} title={revoked.at}>
                  {formatNairobiTime(revoked.at)}
                </time>
                ; refused at the door
              </span>
            </>
          ) : (
            <span className={`pill pill-${order.status}`}>{STATUS_LABEL[order.status]}</span>
          )}
          {order.delivery ? (
            <span className={order.delivery.ok ? "order-line delivery" : "order-line delivery delivery-failed"}>
              {deliveryText(order.delivery)}
            </span>
          ) : null}
        </div>
      </td>
      <td data-label="Created">
        <div className="cell">
          <time className="order-line" dateTime={order.createdAt} title={order.createdAt}>
            {created}
          </time>
          {order.approvedAt ? (
            <span className="order-line muted">
              Approved{" "}
              <time dateTime={order.approvedAt} title={order.approvedAt}>
                {formatNairobiTime(order.approvedAt)}
              </time>
            </span>
          ) : null}
        </div>
      </td>
      <td data-label="Actions">
        {/* Without JavaScript the answer reloads the page: it opens at this row. */}
        <fetcher.Form method="post" action={`${action}#row-${order.id}`} className="order-actions">
          <input type="hidden" name="id" value={order.id} />
          {order.badgePath || order.posterPath ? (
            <span className="order-assets">
              {order.badgePath ? <AssetLink href={order.badgePath} label="Badge" name={order.name} /> : null}
              {order.posterPath ? <AssetLink href={order.posterPath} label="Poster" name={order.name} /> : null}
            </span>
          ) : null}
          <span className="order-decide">
            <button
              type="submit"
              name="intent"
              value="approve"
              className="button-small button-approve"
              disabled={busy || approved}
              title={blocked?.replace(/\.$/, "")}
              aria-describedby={blocked ? `${who} ${why}` : who}
            >
              Approve
            </button>
            <button
              type="submit"
              name="intent"
              value="reject"
              className="button-small button-reject"
              disabled={busy || order.status === "rejected" || confirming}
              aria-describedby={who}
            >
              Reject
            </button>
            {/* Approving draws a missing kit itself; this draws (or redraws) it to look at first. */}
            <button
              type="submit"
              name="intent"
              value="generate"
              className="button-ghost button-small"
              disabled={busy}
              aria-describedby={who}
            >
              {generating ? "Generating badge kit…" : "Generate assets"}
            </button>
            {order.wall.optIn ? (
              <button
                type="submit"
                name="intent"
                value={order.wall.hidden ? "wall-show" : "wall-hide"}
                className="button-ghost button-small"
                disabled={busy}
                aria-describedby={who}
              >
                {order.wall.hidden ? "Show on wall" : "Hide from wall"}
              </button>
            ) : null}
            {approved && !revoked && deliveryFailed(order) ? (
              <button
                type="submit"
                name="intent"
                value="resend"
                className="button-ghost button-small"
                disabled={busy}
                aria-describedby={who}
              >
                Resend kit
              </button>
            ) : null}
          </span>
          {blocked ? (
            <span className="decide-why" id={why}>
              {blocked}
            </span>
          ) : null}
          {order.wall.optIn ? (
            <span className="order-line muted">
              Supporter wall: '{order.wall.name}'{order.wall.portrait ? " with portrait" : ""}
              {order.wall.hidden ? " (hidden by staff)" : revoked ? " (not shown: badge revoked)" : ""}
            </span>
          ) : null}
          {!approved ? <PaymentCheckbox payment={order.payment} id={`${why}-paid`} /> : null}
          {confirming ? (
            <ConfirmBox
              id={why}
              question={reply?.message ?? rejectQuestion(order)}
              yes={{ name: "intent", value: "reject", label: "Yes, reject", className: "button-small button-reject-now" }}
              cancelHref={action}
              onCancel={() => setCancelled(reply)}
              busy={busy}
            >
              <label htmlFor={`${why}-note`}>Note to the supporter (optional)</label>
              <textarea id={`${why}-note`} name="note" rows={2} maxLength={500} />
              <input type="hidden" name="confirmed" value="yes" />
            </ConfirmBox>
          ) : reply && reply !== cancelled ? (
            <span className={`row-note row-note-${reply.status}`}>{reply.message}</span>
          ) : null}
        </fetcher.Form>
        {approved && !revoked ? (
          <details className="order-revoke">
            <summary>Revoke badge</summary>
            <fetcher.Form method="post" action={`${action}#row-${order.id}`}>
              <input type="hidden" name="id" value={order.id} />
              <label htmlFor={`${order.id}-revoke-reason`}>Reason (shown to anyone who verifies it)</label>
              <textarea id={`${order.id}-revoke-reason`} name="reason" rows={2} maxLength={300} required />
              <button type="submit" name="intent" value="revoke-badge" className="button-small button-reject" disabled={busy} aria-describedby={who}>
                Revoke badge
              </button>
            </fetcher.Form>
          </details>
        ) : null}
      </td>
    </tr>
  );
}

function AssetLink({ href, label, name }: { href: string; label: string; name: string }) {
  return (
    <a className="asset-link" href={href} target="_blank" rel="noopener">
      <img src={href} width={56} height={56} loading="lazy" decoding="async" alt="" />
      <span>
        {label}
        <span className="visually-hidden"> for {name} (opens in a new tab)</span>
      </span>
    </a>
  );
}

/** What staff noted on the order (an imported order's flags among it), one line per line. */
function StaffNote({ note }: { note: string }) {
  return (
    <p className="order-notes order-staff-note">
      <strong>Staff note:</strong>
      {note.split("\n").map((line, i) => (
        <span key={i} className="order-line">
          {line}
        </span>
      ))}
    </p>
  );
}
