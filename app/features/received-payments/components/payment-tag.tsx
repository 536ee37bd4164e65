import { Link } from "react-router";
import { formatNairobiTime } from "~/lib/nairobi-time";
import { needsPaymentCheck, paymentDetail, PAYMENT_STATE_LABEL, PAYMENT_STATES, type PaymentState, type PaymentView } from "../payment-state";

/** Beside an order's code on the staff screens: where its payment stands, in words and colour. */
export function PaymentTag({ payment, amount }: { payment: PaymentView | undefined; amount: number }) {
  if (!payment) return null;
  const detail = paymentDetail(payment, amount);
  return (
    <span className="payment-state">
      <span className={`pill pill-pay-${payment.state}`}>{PAYMENT_STATE_LABEL[payment.state]}</span>
      {detail ? <span className="order-line small">{detail}</span> : null}
      {payment.receivedAt ? (
        <span className="order-line small muted">
          Paid {formatNairobiTime(payment.receivedAt)}
          {payment.payerName ? ` by ${payment.payerName}` : ""}
        </span>
      ) : null}
      {payment.beforeSales ? <span className="order-line small payment-flag">Paid before sales opened</span> : null}
    </span>
  );
}

/**
 * Approving an order whose payment M-Pesa does not show in full takes a tick: a checkbox in the
 * row's form, so it works without JavaScript.
 */
export function PaymentCheckbox({ payment, id }: { payment: PaymentView | undefined; id: string }) {
  if (!needsPaymentCheck(payment)) return null;
  return (
    <label className="payment-check" htmlFor={id}>
      <input type="checkbox" id={id} name="paymentChecked" value="yes" /> Approve without a verified payment
    </label>
  );
}

/** Links that narrow a staff list to one payment state (plain navigation: works without JavaScript). */
export function PaymentFilter({ current, hrefFor }: { current: PaymentState | ""; hrefFor: (p: PaymentState | "") => string }) {
  const options: { value: PaymentState | ""; label: string }[] = [
    { value: "", label: "Any payment" },
    ...PAYMENT_STATES.map((s) => ({ value: s, label: PAYMENT_STATE_LABEL[s] })),
  ];
  return (
    <nav aria-label="Filter by payment">
      <ul className="status-filters">
        {options.map((o) => (
          <li key={o.value || "any"}>
            <Link to={hrefFor(o.value)} aria-current={o.value === current ? "page" : undefined}>
              {o.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
