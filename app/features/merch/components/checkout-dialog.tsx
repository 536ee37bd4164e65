import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { ContactFields } from "~/components/ui/contact-fields";
import { PaymentCodeField } from "~/features/payments/components/payment-code-field";
import { FieldError, Honeypot, useHydrated } from "~/components/ui/form-parts";
import { NOTES_MAX_LENGTH } from "~/lib/rules";
import { site } from "~/lib/site";
import { trackEvent } from "~/lib/track";
import { formatMoney, type BagView } from "../merch";
import { lineLabel } from "./bag-dialog";
import { checkCheckout } from "./checks";
import { StoreDialog } from "./store-dialog";
import { BAG_HREF, CHECKOUT_HREF, failureText, type StoreReply } from "./store-links";

const FIELDS = ["customerName", "customerEmail", "customerPhone", "notes", "paymentReference"] as const;

type Props = {
  bag: BagView;
  serverReply?: StoreReply;
  onClose(): void;
  /** With JavaScript, after the order is placed: the page shows the thank-you banner. */
  onPlaced(id: string | undefined): void;
};

/** Checkout (?checkout=1): the order summary, how to pay, and who is ordering. */
export function CheckoutDialog({ bag, serverReply, onClose, onPlaced }: Props) {
  return (
    <StoreDialog id="checkout" title="Checkout" closeHref={BAG_HREF} onClose={onClose} className="checkout-dialog">
      {() => (
        <>
          <OrderSummary bag={bag} />
          <PaymentSteps total={formatMoney(bag.total, bag.currency)} />
          <CheckoutForm bag={bag} serverReply={serverReply} onPlaced={onPlaced} />
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
    <section className="pay-box" aria-labelledby="pay-title">
      <h3 id="pay-title">1. Pay by M-Pesa</h3>
      <dl>
        <div>
          <dt>Paybill</dt>
          <dd className="pay-code">{pay.merchPaybill}</dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd className="pay-code">{pay.merchAccount}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd className="pay-amount">{total}</dd>
        </div>
      </dl>
      <p className="small">
        In M-Pesa choose Lipa na M-Pesa, then Pay Bill: business number {pay.merchPaybill}, account number{" "}
        {pay.merchAccount}, amount {total}. Delivery fees and payment options (M-Pesa, card or cash) are confirmed with
        you after you submit your order.
      </p>
    </section>
  );
}

function CheckoutForm({ bag, serverReply, onPlaced }: Omit<Props, "onClose">) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<StoreReply>();
  const reply = fetcher.data ?? serverReply;
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  // Fields changed since the last submit show no (stale) error.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const onInput = (e: React.FormEvent<HTMLFormElement>) => {
    const name = (e.target as HTMLInputElement).name;
    if (name && !edited.has(name)) setEdited(new Set(edited).add(name));
  };
  const busy = fetcher.state !== "idle";
  const empty = bag.lines.length === 0;
  const values = reply?.status === "error" ? (reply.values ?? {}) : {};
  const hasClientErrors = Object.keys(clientErrors).length > 0;
  const errorOf = (f: string) =>
    edited.has(f) ? undefined : hasClientErrors ? clientErrors[f] : busy ? undefined : reply?.fieldErrors?.[f]?.[0];
  const otherErrors = Object.entries(reply?.fieldErrors ?? {}).filter(([k]) => !(FIELDS as readonly string[]).includes(k));
  let banner: string | null = null;
  if (!busy && !hasClientErrors && reply?.status === "error") {
    if (reply.detail || reply.network || !reply.fieldErrors) banner = failureText(reply);
    else if (otherErrors.length) banner = otherErrors.map(([, v]) => v[0]).join(" ");
  }

  // Once per reply, after the page has reloaded the (now empty) bag.
  const handled = useRef<StoreReply | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    if (fetcher.data.status === "success") onPlaced(fetcher.data.result?.id?.toString());
    else {
      const first = FIELDS.find((f) => fetcher.data?.fieldErrors?.[f]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    }
  }, [fetcher.state, fetcher.data]);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy || empty) return;
    const form = e.currentTarget;
    const fd = new FormData(form);
    const text = (k: string) => String(fd.get(k) ?? "");
    const errors = checkCheckout({
      customerName: text("customerName"),
      customerEmail: text("customerEmail"),
      paymentReference: text("paymentReference"),
    });
    setClientErrors(errors);
    setEdited(new Set());
    const first = FIELDS.find((f) => errors[f]);
    if (first) {
      form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    trackEvent("merch.checkout.submit", { lines: bag.lines.length });
    void fetcher.submit(fd, { method: "post", action: CHECKOUT_HREF, preventScrollReset: true });
  }

  const field = (name: (typeof FIELDS)[number]) => {
    const error = errorOf(name);
    return {
      id: `checkout-${name}`,
      name,
      defaultValue: values[name] ?? "",
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `checkout-${name}-error` : undefined,
    } as const;
  };

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
      {banner ? (
        <p className="form-status form-status-error" role="alert">
          {banner}
        </p>
      ) : null}
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
      <PaymentCodeField
        prefix="checkout"
        label="M-Pesa confirmation code"
        hint="The code from the M-Pesa SMS, e.g. SKL4Q2ZB7X. Pasting the whole SMS works too."
        input={field("paymentReference")}
        error={errorOf("paymentReference")}
      />
      <button type="submit" className="button-lamp checkout-submit" disabled={busy || empty}>
        {busy ? "Submitting…" : "Place order"}
      </button>
    </form>
  );
}
