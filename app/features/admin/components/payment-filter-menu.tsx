import { PaymentFilter } from "../../received-payments/components/payment-tag";
import { PAYMENT_STATE_LABEL, type PaymentState } from "../../received-payments/payment-state";

/**
 * The payment-state links of a staff order list, folded under one line ('Payment: any') so the
 * search and its results stay on a phone's first screen; open while a payment filter is on.
 * A `<details>`: it opens without JavaScript.
 */
export function PaymentFilterMenu({ current, hrefFor }: { current: PaymentState | ""; hrefFor: (p: PaymentState | "") => string }) {
  return (
    <details className="payment-filter-menu" open={current ? true : undefined}>
      <summary>Payment: {current ? PAYMENT_STATE_LABEL[current] : "any"}</summary>
      <PaymentFilter current={current} hrefFor={hrefFor} />
    </details>
  );
}
