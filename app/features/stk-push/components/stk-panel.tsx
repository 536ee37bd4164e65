import { useEffect } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import { orderPagePath } from "~/features/orders/order-page";
import { INVALID_PHONE_CODE, inSafaricomRange, OTHER_NETWORK_NOTE, REFUSED_CODE, resultWords, type StkStatus } from "../stk-push";
import { formatAmount } from "~/lib/core/plain-format";
import { formatNairobiClock } from "~/lib/core/nairobi-time";

/** What the order page knows of the order's M-Pesa prompt. */
export type StkPanelData = StkStatus & {
  orderId: string;
  orgName: string;
  /** The paybill to pay instead (the prompt's business number). */
  paybill: string;
  /** Still within two minutes of the prompt: a page without JavaScript refreshes itself. */
  refreshing: boolean;
  /** The order page's token, for the 'Check again' link. */
  token: string;
  /** Receipts from any source (or M-Pesa's query) cover the order: no prompt is offered. */
  orderPaid: boolean;
  /** The payment section's headline, said here too when the order's payment decides (paid in full, reversed). */
  paymentSentence: string | null;
  /** A push whose result is unknown: no new prompt before this time. */
  resendAfter: string | null;
};

export const REFRESH_SECONDS = 5;

/**
 * The order's prompt on its page: 'check your phone' while it waits (the page refreshes itself
 * every 5 s for two minutes without JavaScript, and updates in place with it), the result in
 * words, and after a failure 'Send the prompt again' and 'Pay by paybill instead'.
 */
export function StkPanel({ stk, error, code }: { stk: StkPanelData; error?: string; code?: { saved?: string; error?: string } }) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const waiting = stk.state === "sent" && !stk.orderPaid;
  const unknown = stk.state === "unknown" && !stk.orderPaid;
  const invalidPhone = stk.state === "failed" && stk.resultCode === INVALID_PHONE_CODE;
  const hydrated = useHydrated();
  // Hydrated: the page updates in place, so the no-JavaScript refresh is stopped (window.stop
  // cancels a pending meta refresh; everything the page needs has loaded by now).
  useEffect(() => {
    if (document.querySelector('meta[http-equiv="refresh"]')) window.stop();
  }, []);
  useEffect(() => {
    if (!waiting && !unknown) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [waiting, unknown]);

  return (
    <section className="stk-panel card" aria-live="polite" aria-labelledby="stk-title">
      <h2 id="stk-title">{waiting ? "Check your phone" : stk.orderPaid ? "Paid" : unknown ? "Did the payment go through?" : "Not paid yet"}</h2>
      {waiting ? (
        <>
          {/* Without JavaScript: refresh every few seconds while the prompt can still be answered
              (React puts it in the head; once hydrated it is gone and its reload called off). The
              address is spelled out: a page reached with a #fragment would otherwise not reload. */}
          {stk.refreshing && !hydrated ? <meta httpEquiv="refresh" content={`${REFRESH_SECONDS}; url=${orderPagePath(stk.orderId, stk.token)}`} /> : null}
          <p className="lead">
            Check your phone: enter your M-Pesa PIN to pay {formatAmount(stk.amount)} to {stk.orgName}
          </p>
          <p className="small muted">The prompt went to the phone number ending {stk.phone.slice(-3)}. This page shows the result as soon as M-Pesa tells us.</p>
          {inSafaricomRange(stk.phone) ? null : (
            <p className="small">
              {OTHER_NETWORK_NOTE} business number <strong>{stk.paybill}</strong>, account number <strong>{stk.orderId}</strong>.
            </p>
          )}
          {stk.refreshing ? null : (
            <Form method="get" replace>
              <p className="small">No answer yet? The prompt may have expired.</p>
              <input type="hidden" name="t" value={stk.token} />
              <button type="submit" className="button">
                Check again
              </button>
            </Form>
          )}
        </>
      ) : (
        <>
          <p className="lead">{stk.paymentSentence ?? resultWords(stk)}</p>
          {stk.orderPaid && stk.receipt ? <p className="small">M-Pesa receipt {stk.receipt}.</p> : null}
          {unknown ? (
            <Form method="get" replace>
              <input type="hidden" name="t" value={stk.token} />
              <button type="submit" className="button">
                Check again
              </button>
            </Form>
          ) : null}
        </>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!stk.orderPaid && stk.state !== "paid" && !waiting ? (
        <>
          {stk.resendAfter ? (
            <p className="small muted">You can send a new prompt from {formatNairobiClock(stk.resendAfter)}, once you have checked your M-Pesa messages.</p>
          ) : (
            <Form method="post" replace>
              <input type="hidden" name="intent" value="resend-prompt" />
              {invalidPhone ? (
                <p>
                  <label htmlFor="stk-phone">M-Pesa phone number</label>
                  <input id="stk-phone" name="phone" type="tel" autoComplete="tel" inputMode="tel" required />
                </p>
              ) : null}
              <button type="submit" className="button" disabled={navigation.state === "submitting"}>
                {invalidPhone ? "Send the prompt to this number" : "Send the prompt again"}
              </button>
            </Form>
          )}
          {code?.saved ? (
            <p className="form-success" role="status">
              {code.saved}
            </p>
          ) : null}
          <details className="stk-paybill" open={(stk.state === "failed" && (stk.resultCode === null || invalidPhone || stk.resultCode === REFUSED_CODE)) || unknown || !!code?.error}>
            <summary>{unknown ? "Enter the code from your M-Pesa SMS, or pay by paybill" : "Pay by paybill instead"}</summary>
            <p>
              In M-Pesa choose Lipa na M-Pesa, then Pay Bill. Business number <strong>{stk.paybill}</strong>, account number <strong>{stk.orderId}</strong>, amount{" "}
              <strong>{formatAmount(stk.amount)}</strong>. A payment with this order's reference as its account number joins the order by itself.
            </p>
            <Form method="post" replace className="stk-code">
              <input type="hidden" name="intent" value="add-code" />
              <label htmlFor="stk-code">M-Pesa confirmation code</label>
              <p className="small muted" id="stk-code-hint">
                The ten characters at the start of the M-Pesa SMS, or paste the whole SMS.
              </p>
              <input
                id="stk-code"
                name="paymentReference"
                autoComplete="off"
                autoCapitalize="characters"
                maxLength={2000}
                aria-describedby="stk-code-hint"
                aria-invalid={code?.error ? true : undefined}
              />
              {code?.error ? (
                <p className="form-error" role="alert">
                  {code.error}
                </p>
              ) : null}
              <button type="submit" className="button" disabled={navigation.state === "submitting"}>
                Send the code
              </button>
            </Form>
          </details>
        </>
      ) : null}
    </section>
  );
}
