import { formatDateInWords, formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { ORDER_KINDS } from "~/features/orders/order-kinds";
import type { OrderPage } from "../order-status";
import { paymentWords, reviewWords } from "../order-words";
import { formatAmount } from "~/lib/core/plain-format";

/** 'jpg' or 'png': the poster's link names its stored file (poster.jpg, or poster.png for an older order). */
const posterExt = (link: string) => (/\/poster\.jpg(\?|$)/.test(link) ? "jpg" : "png");

/** One order as its supporter sees it: payment first, then the review, then what was ordered. */
export function OrderStatus({ order }: { order: OrderPage }) {
  const pay = paymentWords(order.payment, order);
  const paid = order.payment.state === "verified" || order.payment.state === "over" || !!order.promptPaid;
  return (
    <article className="order-page" aria-labelledby="order-title">
      <p className="eyebrow">{ORDER_KINDS[order.kind].label}</p>
      <h1 id="order-title">
        Order <span className="order-ref">{order.reference}</span>
      </h1>
      <p className="small">Placed {formatNairobiTimeEat(order.placedAt)} by {order.name}</p>

      <section className={`order-box ${paid ? "order-box-ok" : "order-box-wait"}`} aria-labelledby="order-payment">
        <h2 id="order-payment">Payment</h2>
        <p className="order-headline">{pay.headline}</p>
        <p>{pay.detail}</p>
        {/* An order paid by prompt or by account number has no code of its own (its reference stands in). */}
        {order.paymentCode && order.paymentCode !== order.reference ? <p className="small">M-Pesa code you gave: {order.paymentCode}</p> : null}
      </section>

      <section className={order.status === "revoked" ? "order-box order-box-revoked" : "order-box"} aria-labelledby="order-review">
        <h2 id="order-review">Review</h2>
        <p className="order-headline">{reviewWords(order.kind, order.status)}</p>
        {order.status === "revoked" ? (
          <p>
            Cancelled on {formatDateInWords(order.revokedAt!)}. The reason: {order.note ? order.note.replace(/([^.!?])$/, "$1.") : "none was given."} If you think
            this is a mistake, reply to your order email.
          </p>
        ) : order.note ? (
          <p>A note from the team: {order.note}</p>
        ) : null}
        {order.kit ? (
          <ul className="order-kit">
            <li>
              <a href={order.kit.badge} download={`${order.reference}-badge.png`}>Download your badge (PNG)</a>
            </li>
            <li>
              {/* A JPEG for orders kept since pictures were stored as JPEG; a PNG for older ones. */}
              <a href={order.kit.poster} download={`${order.reference}-will-be-attending.${posterExt(order.kit.poster)}`}>
                Download your 'Will Be Attending' poster ({posterExt(order.kit.poster).toUpperCase().replace("JPG", "JPEG")})
              </a>
            </li>
          </ul>
        ) : null}
      </section>

      {order.entry ? (
        <section className="order-box" aria-labelledby="order-entry">
          <h2 id="order-entry">Your entry code</h2>
          <p>Show this QR code at the door (it is also in your badge email). It is yours alone: please do not share it.</p>
          <img
            className="order-entry-qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(order.entry.qrSvg)}`}
            alt={`Entry QR code for ${order.reference}`}
            width={200}
            height={200}
          />
          <p>
            No QR code to hand? Give your reference: <strong>{order.reference}</strong> ({order.entry.words}).
          </p>
        </section>
      ) : null}

      {order.wall ? (
        <section className="order-box" aria-labelledby="order-wall">
          <h2 id="order-wall">Supporter wall</h2>
          {order.wall.hidden ? (
            <p>You are not shown on the supporter wall.</p>
          ) : (
            <form method="post">
              <p>
                You asked to be on <a href="/event/supporters">the supporter wall</a> as '{order.wall.name}'
                {order.status === "approved" ? "." : ", once the team approves your order."}
              </p>
              <input type="hidden" name="intent" value="leave-wall" />
              <button type="submit" className="button-ghost button-small">
                Remove me from the wall
              </button>
            </form>
          )}
        </section>
      ) : null}

      <section className="order-box" aria-labelledby="order-lines">
        <h2 id="order-lines">What you ordered</h2>
        <ul>
          {order.lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
        <p>
          Total: <strong>{formatAmount(order.amount, order.currency)}</strong>
        </p>
      </section>
    </article>
  );
}
