import { Form } from "react-router";
import type { Reply } from "~/lib/core/forms";
import { PAYMENTS_PATH, RECEIPT_INTENTS, type PaymentsResult } from "../payments-screen";

/**
 * The payments screen's forms about one receipt and one order: link, unlink, and 'the code is
 * wrong'. Plain forms posting to the screen (they work without JavaScript); the answer says
 * what was done and where the order's payment now stands.
 */

/** The answer of one of these forms, if the page's last answer was one. */
export const receiptReply = (reply: Reply<PaymentsResult> | undefined) =>
  reply && (RECEIPT_INTENTS as readonly string[]).includes(reply.intent ?? "") ? reply : undefined;

export function ReceiptReply({ reply }: { reply: Reply<PaymentsResult> | undefined }) {
  if (!reply) return null;
  return (
    <p className={`row-note row-note-${reply.status}`} role={reply.status === "error" ? "alert" : "status"}>
      {reply.message}
    </p>
  );
}

/** One button: link this payment to this order. */
export function LinkButton({ transId, orderId, busy }: { transId: string; orderId: string; busy: boolean }) {
  return (
    <Form method="post" action={PAYMENTS_PATH} className="inline-form">
      <input type="hidden" name="transId" value={transId} />
      <input type="hidden" name="orderId" value={orderId} />
      <button type="submit" name="intent" value="link" className="button-small button-approve" disabled={busy}>
        Link to {orderId}
      </button>
    </Form>
  );
}

/** Link this payment to an order: the orders the typo rule offers as buttons, any other by its reference. */
export function LinkPaymentForm({ transId, likely, busy }: { transId: string; likely: { id: string }[]; busy: boolean }) {
  const field = `link-${transId}-order`;
  return (
    <div className="receipt-forms">
      {likely.map((o) => (
        <span className="order-line small payment-suggestion" key={o.id}>
          Probably {o.id} <LinkButton transId={transId} orderId={o.id} busy={busy} />
        </span>
      ))}
      <Form method="post" action={PAYMENTS_PATH} className="inline-form">
        <input type="hidden" name="transId" value={transId} />
        <label htmlFor={field} className="small">
          Link {transId} to order
        </label>{" "}
        <input id={field} name="orderId" size={10} maxLength={40} placeholder="BO-…" autoComplete="off" required />{" "}
        <button type="submit" name="intent" value="link" className="button-small" disabled={busy}>
          Link
        </button>
      </Form>
    </div>
  );
}

/** Take a payment away from the order that holds it. */
export function UnlinkButton({ transId, orderId, busy }: { transId: string; orderId: string; busy: boolean }) {
  return (
    <Form method="post" action={PAYMENTS_PATH} className="inline-form">
      <input type="hidden" name="transId" value={transId} />
      <input type="hidden" name="orderId" value={orderId} />
      <button type="submit" name="intent" value="unlink" className="button-ghost button-small" disabled={busy}>
        Unlink from {orderId}
      </button>
    </Form>
  );
}

/** Mark an order's typed code wrong: behind a disclosure, since it emails the supporter. */
export function CodeWrongButton({ orderId, code, busy }: { orderId: string; code: string; busy: boolean }) {
  return (
    <details className="receipt-forms">
      <summary className="small">Code {code} is wrong…</summary>
      <Form method="post" action={PAYMENTS_PATH} className="inline-form">
        <input type="hidden" name="orderId" value={orderId} />
        <p className="small">The supporter is emailed to send their M-Pesa message, or to pay with {orderId} as the account number.</p>
        <button type="submit" name="intent" value="code-wrong" className="button-small button-reject" disabled={busy}>
          Mark code wrong and email the supporter
        </button>
      </Form>
    </details>
  );
}

/** The same three actions for any payment and order, by their codes. */
export function ReceiptActions({ reply, busy }: { reply: Reply<PaymentsResult> | undefined; busy: boolean }) {
  const typed = (name: string) => (reply?.status === "error" ? reply.values?.[name] : undefined);
  return (
    <section aria-labelledby="receipt-actions-title" className="form-card">
      <h2 id="receipt-actions-title">Link a payment to an order</h2>
      <p className="small">
        A payment pays one order. Link one that found no order, unlink one that joined the wrong order, or mark the code typed
        with an order as wrong (the supporter is emailed what to do). Every action is in the activity log.
      </p>
      <Form method="post" action={PAYMENTS_PATH}>
        <div className="field">
          <label htmlFor="receipt-trans-id">M-Pesa receipt number</label>
          <input id="receipt-trans-id" name="transId" maxLength={40} autoComplete="off" defaultValue={typed("transId")} />
        </div>
        <div className="field">
          <label htmlFor="receipt-order-id">Order reference</label>
          <input id="receipt-order-id" name="orderId" maxLength={40} autoComplete="off" placeholder="BO-… or MO-…" defaultValue={typed("orderId")} />
        </div>
        <button type="submit" name="intent" value="link" className="button-small button-approve" disabled={busy}>
          Link
        </button>{" "}
        <button type="submit" name="intent" value="unlink" className="button-small button-ghost" disabled={busy}>
          Unlink
        </button>{" "}
        <button type="submit" name="intent" value="code-wrong" className="button-small button-reject" disabled={busy}>
          Order's code is wrong
        </button>
      </Form>
    </section>
  );
}
