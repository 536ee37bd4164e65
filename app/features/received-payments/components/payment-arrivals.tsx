import { quietWarning, whenWords, type PaymentArrivals } from "../payment-arrivals";

/** When the last C2B callback, M-Pesa Express answer and statement import arrived, and a warning when callbacks went quiet while orders wait. */
export function PaymentArrivalsBox({ arrivals }: { arrivals: PaymentArrivals }) {
  const warning = quietWarning(arrivals);
  return (
    <section className="payment-arrivals" aria-label="When M-Pesa last reached the site">
      {warning ? (
        <p className="admin-message admin-message-error" role="alert">
          {warning}
        </p>
      ) : null}
      <ul className="small">
        <li>
          Last C2B callback: <span data-arrival="c2b">{whenWords(arrivals.lastC2bCallbackAt)}</span>
        </li>
        <li>
          Last M-Pesa Express (STK) callback: <span data-arrival="stk">{whenWords(arrivals.lastStkCallbackAt)}</span>
        </li>
        <li>
          Last statement import: <span data-arrival="statement">{whenWords(arrivals.lastStatementImportAt)}</span>
        </li>
      </ul>
    </section>
  );
}

/** The line beside Approve on an order with no payment seen ('unmatched'). */
export function NoPaymentSeen({ lastSeen }: { lastSeen: { callbackAt: string | null; statementAt: string | null } | undefined }) {
  return (
    <span className="order-line small no-payment-seen">
      <strong>No payment seen yet for this order</strong>
      {lastSeen ? ` (last callback ${whenWords(lastSeen.callbackAt)}, statement ${whenWords(lastSeen.statementAt)})` : ""}
    </span>
  );
}
