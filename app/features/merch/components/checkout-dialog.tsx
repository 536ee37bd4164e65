import { DataNotice } from "~/components/ui/data-notice";
import { useFetcher } from "react-router";
import { ContactFields } from "~/components/ui/contact-fields";
import { PaymentCodeField } from "~/features/payment-codes/components/payment-code-field";
import { PayWithChoice } from "~/features/stk-push/components/pay-with-choice";
import { otherErrors, useFormChecks, useSettledReply } from "~/components/ui/form-checks";
import { FieldError, Honeypot, useHydrated } from "~/components/ui/form-parts";
import { NOTES_MAX_LENGTH } from "~/lib/core/rules";
import { site } from "~/lib/core/site";
import { trackEvent } from "~/lib/browser/track";
import { formatMoney, type BagView } from "../merch";
import { lineLabel } from "./bag-dialog";
import { checkCheckout } from "./checks";
import { StoreDialog } from "./store-dialog";
import { BAG_HREF, CHECKOUT_HREF, failureText } from "./store-links";
import type { Reply } from "~/lib/core/forms";
import { ErrorSummary } from "~/components/ui/error-summary";
import { PaySteps } from "~/features/payment-codes/components/pay-steps";
import { ErrorBanner } from "~/components/ui/error-banner";

/** The checkout's reply on success: the order reference and what it costs (priced by the server). */
export type CheckoutReply = Reply<{ id: string; total: number; currency: string; orderPath?: string; replayed?: boolean }>;

const FIELDS = ["customerName", "customerEmail", "customerPhone", "notes", "paymentReference"] as const;

/** The fields in page order, as their labels say them (for the error summary). */
const LABELS: Record<(typeof FIELDS)[number], string> = {
  customerName: "Full name",
  customerEmail: "Email",
  customerPhone: "Phone",
  notes: "Notes",
  paymentReference: "M-Pesa confirmation code",
};

type Props = {
  bag: BagView;
  serverReply?: CheckoutReply;
  onClose(): void;
  /** With JavaScript, after the order is placed: the page shows the order's answer. */
  onPlaced(result: CheckoutReply["result"]): void;
  /** M-Pesa Express is configured: 'Pay now with M-Pesa on this phone' comes first. */
  stkOn?: boolean;
};

/** Checkout (?checkout=1): the order summary, how to pay, and who is ordering. */
export function CheckoutDialog({ bag, serverReply, onClose, onPlaced, stkOn = false }: Props) {
  return (
    <StoreDialog id="checkout" title="Checkout" closeHref={BAG_HREF} onClose={onClose} className="checkout-dialog">
      {() => (
        <>
          {/* A reloaded page (no JavaScript) opens here: what to fix comes first. */}
          <ErrorSummary reply={serverReply} labels={LABELS} idPrefix="checkout" />
          <OrderSummary bag={bag} />
          <PaymentSteps total={formatMoney(bag.total, bag.currency)} />
          <CheckoutForm bag={bag} serverReply={serverReply} onPlaced={onPlaced} stkOn={stkOn} />
        </>
      )}
    </StoreDialog>
  );
}

function OrderSummary({ bag }: { bag: BagView }) {
  return (
    <section className="order-summary" aria-labelledby="summary-title">
      <h3 id="summary-title">Your order</h3>
      {bag.lines.length === 0 ? (
        <p>Your bag is empty. Add something from the store first.</p>
      ) : (
        <>
          <ul role="list">
            {bag.lines.map((l) => (
              <li key={l.key}>
                <span className="summary-name">
                  {lineLabel(l)} <span className="muted">× {l.quantity}</span>
                </span>
                <span className="summary-amount">{formatMoney(l.price * l.quantity, l.currency)}</span>
              </li>
            ))}
          </ul>
          <p className="bag-total">
            <span>Total</span> <strong>{formatMoney(bag.total, bag.currency)}</strong>
          </p>
        </>
      )}
    </section>
  );
}

function PaymentSteps({ total }: { total: string }) {
  const pay = site.payments;
  return (
    <PaySteps
      className="pay-box"
      rows={[
        { term: "Paybill", value: pay.merchPaybill, kind: "code" },
        { term: "Account", value: pay.merchAccount, kind: "code" },
        { term: "Amount", value: total, kind: "amount" },
      ]}
    >
      In M-Pesa choose Lipa na M-Pesa, then Pay Bill: business number {pay.merchPaybill}, account number{" "}
      {pay.merchAccount}, amount {total}. Delivery fees and payment options (M-Pesa, card or cash) are confirmed with you
      after you submit your order.
    </PaySteps>
  );
}

function CheckoutForm({ bag, serverReply, onPlaced, stkOn = false }: Omit<Props, "onClose">) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<CheckoutReply>();
  const reply = fetcher.data ?? serverReply;
  const busy = fetcher.state !== "idle";
  // After a lost answer the bag may be empty because the order was placed: sending again is
  // answered with that order, so the button stays.
  const empty = bag.lines.length === 0 && !reply?.network;
  const { formRef, errorOf, field, hasClientErrors, showErrors, focusFirstError, onInput } = useFormChecks({
    fields: FIELDS,
    reply,
    busy,
    idPrefix: "checkout",
  });
  const other = otherErrors(FIELDS, reply);
  let banner: string | null = null;
  if (!busy && !hasClientErrors && reply?.status === "error") {
    if (reply.message || reply.network || !reply.fieldErrors) banner = failureText(reply);
    else if (other.length) banner = other.join(" ");
  }

  // Once per reply, after the page has reloaded the (now empty) bag.
  useSettledReply(fetcher, (data) => {
    if (data.status === "success") onPlaced(data.result);
    else focusFirstError(data.fieldErrors);
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy || empty) return;
    const fd = new FormData(e.currentTarget);
    const text = (k: string) => String(fd.get(k) ?? "");
    const errors = checkCheckout({
      customerName: text("customerName"),
      customerEmail: text("customerEmail"),
      paymentReference: text("paymentReference"),
      payWith: text("payWith"),
      customerPhone: text("customerPhone"),
    });
    if (!showErrors(errors)) return;
    trackEvent("merch.checkout.submit", { lines: bag.lines.length });
    void fetcher.submit(fd, { method: "post", action: CHECKOUT_HREF, preventScrollReset: true });
  }

  return (
    <form
      ref={formRef}
      method="post"
      action={CHECKOUT_HREF}
      onSubmit={onSubmit}
      onInput={onInput}
      noValidate={hydrated}
      className="checkout-form"
      aria-labelledby="details-title"
    >
      <h3 id="details-title">2. Send your order</h3>
      <input type="hidden" name="intent" value="checkout" />
      <Honeypot />
      <ErrorBanner message={banner} />
      <ContactFields
        prefix="checkout"
        names={{ name: "customerName", email: "customerEmail", phone: "customerPhone" }}
        field={field}
        errorOf={errorOf}
      />
      <div className="field">
        <label htmlFor="checkout-notes">
          Notes <span className="optional">(optional: delivery area, timing)</span>
        </label>
        <textarea maxLength={NOTES_MAX_LENGTH} rows={3} {...field("notes")} />
        <FieldError id="checkout-notes-error" message={errorOf("notes")} />
      </div>
      {stkOn ? <PayWithChoice prefix="checkout" amount={bag.total} chosen={serverReply?.status === "error" ? String(serverReply.values?.payWith ?? "stk") : "stk"} /> : null}
      <PaymentCodeField
        optional={stkOn}
        prefix="checkout"
        label="M-Pesa confirmation code"
        hint="The code from the M-Pesa SMS, e.g. SKL4Q2ZB7X. Pasting the whole SMS works too."
        input={field("paymentReference")}
        error={errorOf("paymentReference")}
      />
      <DataNotice form="checkout" />
      <button type="submit" className="button-lamp checkout-submit" disabled={busy || empty}>
        {busy ? "Submitting…" : "Place order"}
      </button>
    </form>
  );
}
