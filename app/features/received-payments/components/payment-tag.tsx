import { Form, Link } from "react-router";
import { formatNairobiTime } from "~/lib/core/nairobi-time";
import {
  MATCHED_BY_LABEL,
  needsPaymentCheck,
  paymentDetail,
  PAYMENT_STATE_LABEL,
  PAYMENT_STATES,
  type PaymentState,
  type PaymentView,
} from "../payment-state";
import { formatAmount } from "~/lib/core/plain-format";
import { NoPaymentSeen } from "./payment-arrivals";

/** An order's M-Pesa prompt (STK push), when one was sent: what the order lists add as `payment.stk`. */
type PromptFacts = { state: string; sentAt: string; resultCode: string | null; resultDesc: string };
const PROMPT_WORDS: Record<string, string> = { sent: "sent, no answer yet", paid: "paid", cancelled: "cancelled on the phone", timeout: "phone not reached / timed out", failed: "failed" };

function PromptLine({ payment }: { payment: PaymentView & { stk?: PromptFacts } }) {
  const stk = payment.stk;
  if (!stk) return null;
  const result = stk.resultCode !== null ? ` (ResultCode ${stk.resultCode}: ${stk.resultDesc})` : stk.resultDesc ? ` (${stk.resultDesc})` : "";
  return (
    <span className="order-line small">
      M-Pesa prompt {formatNairobiTime(stk.sentAt)}: {PROMPT_WORDS[stk.state] ?? stk.state}
      {result}
    </span>
  );
}

/** Where the forms about a receipt and an order post: the staff payments screen (reconciliation's PAYMENTS_PATH). */
const PAYMENTS_SCREEN = "/admin/payments";

/**
 * Beside an order's code on the staff screens: where its payment stands, in words and colour;
 * the receipts it holds and how each was matched; a payment that is probably its own, with a
 * button to link it (a plain form to the payments screen).
 */
export function PaymentTag({ payment, amount, orderId }: { payment: PaymentView | undefined; amount: number; orderId?: string }) {
  if (!payment) return null;
  const detail = paymentDetail(payment, amount);
  const listReceipts = payment.receipts.length > 1 || payment.receipts.some((r) => r.matchedBy !== "code");
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
      {listReceipts ? (
        <span className="order-line small">
          {payment.receipts.map((r, i) => (
            <span key={r.transId}>
              {i > 0 ? " + " : ""}
              <code>{r.transId}</code> {formatAmount(r.amount)} ({MATCHED_BY_LABEL[r.matchedBy]})
            </span>
          ))}
        </span>
      ) : null}
      <PromptLine payment={payment} />
      {payment.beforeSales ? <span className="order-line small payment-flag">Paid before sales opened</span> : null}
      {payment.state === "early" && !payment.beforeSales ? <span className="order-line small payment-flag">Paid long before the order</span> : null}
      {payment.codeWrong ? <span className="order-line small payment-flag">Code marked wrong: the supporter was emailed</span> : null}
      {payment.suggestions?.map((s) => (
        <span className="order-line small payment-suggestion" key={s.transId}>
          Probably this order: <code>{s.transId}</code>, {formatAmount(s.amount)}, {formatNairobiTime(s.at)}
          {s.payerName ? ` by ${s.payerName}` : ""}
          {orderId ? (
            <Form method="post" action={PAYMENTS_SCREEN} className="inline-form">
              <input type="hidden" name="transId" value={s.transId} />
              <input type="hidden" name="orderId" value={orderId} />
              <button type="submit" name="intent" value="link" className="button-ghost button-small">
                Link {s.transId} to {orderId}
              </button>
            </Form>
          ) : null}
        </span>
      ))}
    </span>
  );
}

/**
 * Approving an order whose payment M-Pesa does not show in full takes a tick: a checkbox in the
 * row's form, so it works without JavaScript.
 */
export function PaymentCheckbox({ payment, id }: { payment: PaymentView | undefined; id: string }) {
  // No payment seen anywhere stays approvable without the tick (a site with no M-Pesa records,
  // the old client): staff are told so, with when M-Pesa last reached the site.
  if (payment?.state === "unmatched") return <NoPaymentSeen lastSeen={payment.lastSeen} />;
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
