import { DataNotice } from "~/components/ui/data-notice";
import { WALL_NAME_MAX_LENGTH } from "../wall";
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { ContactFields } from "~/components/ui/contact-fields";
import { PaymentCodeField } from "~/features/payment-codes/components/payment-code-field";
import { PayWithChoice } from "~/features/stk-push/components/pay-with-choice";
import { otherErrors, useFormChecks } from "~/components/ui/form-checks";
import { FieldError, Honeypot, useHydrated } from "~/components/ui/form-parts";
import { UrlDialog, type CloseDialog } from "~/components/ui/url-dialog";
import { CHECK_FIELDS, ErrorSummary } from "~/components/ui/error-summary";
import type { Reply } from "~/lib/core/forms";
import { PaySteps } from "~/features/payment-codes/components/pay-steps";
import { ORDER_REPLAYED } from "~/features/payment-codes/order-replay";

/** What the order form's reply carries on success: the order reference. */
export type OrderReply = Reply<{ id: string; orderPath?: string; replayed?: boolean }>;
import { NOTES_MAX_LENGTH } from "~/lib/core/rules";
import { site } from "~/lib/core/site";
import { formatKes, type Tier } from "../tiers";
import { PORTRAIT_SENT } from "../portrait";
import { checkOrder } from "./order-checks";
import type { PortraitCropApi } from "./portrait-crop";
import { PortraitField, portraitFileName } from "./portrait-field";
import { tierStyle } from "./tier-grid";
import { ErrorBanner } from "~/components/ui/error-banner";

/** What the /event action answers: the form reply, which form it was for, and network trouble. */
export const ORDER_SUCCESS =
  "Thank you! Your confirmation is pending approval. We will email the badge kit once verified.";
const ORDER_FAILED = "Could not submit confirmation.";
const ORDER_NETWORK = "Something went wrong while submitting.";
/** Fields the form shows errors beside; anything else goes in the banner. */
const FIELDS = ["name", "email", "phone", "paymentReference", "notes", "portrait", "wallName"] as const;

function failureText(reply: OrderReply): string | null {
  if (reply.network) return ORDER_NETWORK;
  if (reply.message) return /[.!?]$/.test(reply.message) ? reply.message : `${ORDER_FAILED} (${reply.message})`;
  const other = otherErrors(FIELDS, reply);
  if (other.length) return other.join(" ");
  if (!reply.fieldErrors || Object.keys(reply.fieldErrors).length === 0) return ORDER_FAILED;
  return CHECK_FIELDS;
}

/** The fields in page order, as their labels say them (for the error summary). */
const LABELS: Record<(typeof FIELDS)[number], string> = {
  name: "Full name",
  email: "Email",
  phone: "Phone",
  paymentReference: "Payment confirmation code",
  notes: "Notes",
  portrait: "Portrait",
  wallName: "Name to show on the wall",
};

type Props = {
  tier: Tier;
  /** The action's reply when the form was sent without JavaScript. */
  serverReply?: OrderReply;
  onClose(): void;
  onSuccess(reference: string | undefined, replayed?: boolean): void;
  /** M-Pesa Express is configured: 'Pay now with M-Pesa on this phone' comes first. */
  stkOn?: boolean;
};

/**
 * The confirmation form for one tier. The server renders it open (a modal-looking overlay
 * with links to close it), so it works without JavaScript; once hydrated it is a real modal.
 */
export function OrderDialog({ tier, serverReply, onClose, onSuccess, stkOn = false }: Props) {
  const fetcher = useFetcher<OrderReply>();
  const reply = fetcher.data ?? serverReply;

  // Once per reply (onSuccess itself is a fresh function each render).
  useEffect(() => {
    if (fetcher.data?.status === "success") onSuccess(fetcher.data.result?.id, fetcher.data.result?.replayed);
  }, [fetcher.data]);

  return (
    <UrlDialog
      id="confirm"
      className="order-dialog"
      style={tierStyle(tier)}
      labelledBy="confirm-title"
      backdrop={{ className: "order-backdrop", label: "Close the confirmation form", closeHref: "/event" }}
      onClose={onClose}
    >
      {(close) => (
        <>
          <div className="order-head">
            <h2 id="confirm-title">Confirm your {tier.name}</h2>
            <Link to="/event" replace preventScrollReset className="order-close" onClick={close} aria-label="Close">
              <span aria-hidden="true">×</span>
            </Link>
          </div>
          <div className="order-body">
            {reply?.status === "success" ? (
              // Done: the answer replaces the form, so it is the first thing in the dialog.
              <SuccessPanel tier={tier} reference={reply.result?.id} orderPath={reply.result?.orderPath} replayed={!!reply.result?.replayed} close={close} />
            ) : (
              <>
                {/* A reloaded page (no JavaScript) opens here: what to fix comes first. */}
                <ErrorSummary reply={reply === serverReply ? serverReply : undefined} labels={LABELS} idPrefix="order" />
                <PaymentSummary tier={tier} />
                <OrderForm
                  tier={tier}
                  fetcher={fetcher}
                  reply={reply}
                  fromServer={reply !== undefined && reply === serverReply}
                  close={close}
                  stkOn={stkOn}
                />
              </>
            )}
          </div>
        </>
      )}
    </UrlDialog>
  );
}

function PaymentSummary({ tier }: { tier: Tier }) {
  const pay = site.payments;
  return (
    <PaySteps
      className="pay-summary"
      rows={[
        {
          term: "Tier",
          value: (
            <>
              {tier.name} <span className="muted">({tier.subtitle})</span>
            </>
          ),
        },
        { term: "Amount", value: formatKes(tier.amount), kind: "amount" },
        { term: "Paybill number", value: pay.eventPaybill, kind: "code" },
        { term: "Account reference", value: pay.eventAccountReference, kind: "code" },
      ]}
    >
      In M-Pesa choose Lipa na M-Pesa, then Pay Bill, and send {formatKes(tier.amount)} to paybill{" "}
      {pay.eventPaybill} with the account reference {pay.eventAccountReference}. The confirmation SMS names the bank
      account <strong>{pay.bankAccountName}</strong> and starts with a ten-character code: enter that code below.
    </PaySteps>
  );
}

function SuccessPanel({ tier, reference, orderPath, replayed, close }: { tier: Tier; reference?: string; orderPath?: string; replayed: boolean; close: CloseDialog }) {
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="order-success" aria-live="polite">
      <p className="form-status form-status-success" ref={heading} tabIndex={-1}>
        {replayed ? ORDER_REPLAYED : ORDER_SUCCESS}
      </p>
      {reference ? (
        <p className="order-ref-box">
          <span>Your reference</span>
          <strong className="order-ref">{reference}</strong>
          <span className="small">Keep it in case you need to contact us.</span>
        </p>
      ) : null}
      <h3>What happens next</h3>
      <ol className="next-steps">
        <li>
          We check your M-Pesa payment of {formatKes(tier.amount)} for the {tier.name}. You do not need to pay again.
        </li>
        <li>Once it is verified we email your personal QR badge and your 'Will Be Attending' poster.</li>
        <li>Questions? Reply to that email, quoting your reference.</li>
      </ol>
      {orderPath ? (
        <p>
          <a href={orderPath}>See your order</a>: whether your payment has reached us, and where your order stands. The same
          link is in your email.
        </p>
      ) : null}
      <p className="actions">
        <Link to="/event" replace preventScrollReset className="button" onClick={close}>
          Close
        </Link>
      </p>
    </section>
  );
}

type FormProps = {
  tier: Tier;
  fetcher: ReturnType<typeof useFetcher<OrderReply>>;
  reply?: OrderReply;
  fromServer: boolean;
  close: CloseDialog;
  stkOn: boolean;
};

function OrderForm({ tier, fetcher, reply, fromServer, close, stkOn }: FormProps) {
  const hydrated = useHydrated();
  const portraitApi = useRef<PortraitCropApi | null>(null);
  const [preparing, setPreparing] = useState(false);
  const busy = preparing || fetcher.state !== "idle";
  const { formRef, values, errorOf, field, hasClientErrors, showErrors, focusFirstError, onInput } = useFormChecks({
    fields: FIELDS,
    reply,
    busy,
    idPrefix: "order",
  });
  const failure = !busy && !hasClientErrors && reply?.status === "error" ? failureText(reply) : null;
  // After a reload the summary at the top already says it.
  const banner = fromServer && failure === CHECK_FIELDS ? null : failure;

  // After a reply with field errors, put the cursor in the first field to fix.
  useEffect(() => {
    if (fetcher.data?.status === "error") focusFirstError(fetcher.data.fieldErrors);
  }, [fetcher.data]);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const fd = new FormData(e.currentTarget);
    const text = (k: string) => String(fd.get(k) ?? "");
    if (!showErrors(checkOrder({ name: text("name"), email: text("email"), paymentReference: text("paymentReference"), payWith: text("payWith"), phone: text("phone") }))) return;
    setPreparing(true);
    try {
      // With the crop tool on the page only its cropped picture is sent, never the original.
      const crop = portraitApi.current;
      const portrait = crop ? await crop.blob() : null;
      if (crop) fd.delete("portrait");
      if (portrait) fd.set("portrait", portrait, portraitFileName(portrait));
    } catch {
      setPreparing(false);
      showErrors({ portrait: "Could not process portrait. Try adjusting the crop or using a different image." }, { focusFirst: false });
      return;
    }
    setPreparing(false);
    await fetcher.submit(fd, { method: "post", action: `/event?tier=${tier.key}`, encType: "multipart/form-data" });
  }

  return (
    <form
      ref={formRef}
      method="post"
      action={`/event?tier=${tier.key}#confirm`}
      encType="multipart/form-data"
      onSubmit={onSubmit}
      onInput={onInput}
      // With JavaScript the form's own checks speak, in the server's words.
      noValidate={hydrated}
      className="order-form"
      aria-labelledby="details-title"
    >
      <h3 id="details-title">2. Confirm your payment</h3>
      <input type="hidden" name="intent" value="order" />
      <input type="hidden" name="tierKey" value={tier.key} />
      <Honeypot />
      <ErrorBanner message={banner} />

      <ContactFields prefix="order" names={{ name: "name", email: "email", phone: "phone" }} field={field} errorOf={errorOf} />
      {stkOn ? <PayWithChoice prefix="order" amount={tier.amount} chosen={reply?.status === "error" ? String(reply.values?.payWith ?? "stk") : "stk"} /> : null}
      <PaymentCodeField
        optional={stkOn}
        prefix="order"
        label="Payment confirmation code"
        hint="The M-Pesa reference, e.g. SKL4Q2ZB7X. Pasting the whole confirmation SMS works too."
        input={field("paymentReference")}
        error={errorOf("paymentReference")}
      />
      <div className="field">
        <label htmlFor="order-notes">
          Notes <span className="optional">(optional)</span>
        </label>
        <textarea maxLength={NOTES_MAX_LENGTH} rows={3} {...field("notes")} />
        <FieldError id="order-notes-error" message={errorOf("notes")} />
      </div>
      <PortraitField apiRef={portraitApi} serverError={errorOf("portrait")} fileLost={fromServer && reply?.status === "error" && reply.values?.portrait === PORTRAIT_SENT} />
      <div className="field">
        <label className="check">
          <input type="checkbox" name="hardCopy" defaultChecked={values.hardCopy === "on"} aria-describedby="order-hardcopy-hint" />
          <span>I would like a printed hard-copy badge too</span>
        </label>
        <p className="field-hint" id="order-hardcopy-hint">
          A hard-copy badge is complimentary for tiers of KES 1,300 and above.
        </p>
      </div>
      <fieldset className="field wall-choice">
        <legend>
          Supporter wall <span className="optional">(optional)</span>
        </legend>
        <label className="check">
          <input type="checkbox" name="showOnWall" defaultChecked={values.showOnWall === "on"} />
          <span>Show my name on the supporter wall</span>
        </label>
        <label htmlFor="order-wallName">
          Name to show <span className="optional">(your first name if left empty)</span>
        </label>
        <input type="text" maxLength={WALL_NAME_MAX_LENGTH} autoComplete="nickname" {...field("wallName")} />
        <FieldError id="order-wallName-error" message={errorOf("wallName")} />
        <label className="check">
          <input type="checkbox" name="wallPortrait" defaultChecked={values.wallPortrait === "on"} />
          <span>Show my portrait there too</span>
        </label>
        <p className="field-hint">
          Only after staff approve your order, on <Link to="/event/supporters">the supporter wall</Link>. Never your email, phone or
          payment code.
        </p>
      </fieldset>

      <DataNotice form="order" />
      <div className="actions order-actions">
        <button type="submit" className="button-lamp" disabled={busy}>
          {busy ? "Submitting…" : "Submit confirmation"}
        </button>
        <Link to="/event" replace preventScrollReset className="button button-ghost" onClick={close}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
