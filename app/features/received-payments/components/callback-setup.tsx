import { formatNairobiTime } from "~/lib/core/nairobi-time";
import { SET_ASIDE_LABEL, type CallbackRegistration, type SetAsideRow } from "../c2b-callbacks";
import type { OddPart } from "../payment";
import { formatAmount } from "~/lib/core/plain-format";

/** The URLs to register with Safaricom (Daraja C2B Register URL), for every number of the site. */
export function CallbackSetup({ setup }: { setup: CallbackRegistration }) {
  return (
    <section aria-labelledby="callbacks-title">
      <h2 id="callbacks-title">Callback URLs to register</h2>
      {setup.urls ? (
        <>
          <p className="small">
            Register these with Safaricom (Daraja, C2B Register URL) for {setup.shortcodes.length > 1 ? "each of " : ""}
            {setup.shortcodes.join(", ")}, ResponseType <code>Completed</code>:
          </p>
          <dl className="callback-urls">
            <dt>ConfirmationURL</dt>
            <dd>
              <code>{setup.urls.confirmation}</code>
            </dd>
            <dt>ValidationURL</dt>
            <dd>
              <code>{setup.urls.validation}</code>
            </dd>
          </dl>
        </>
      ) : (
        <p className="muted">Callbacks are off: set MPESA_CALLBACK_SECRET (16-128 letters, digits, _ or -) and restart the site.</p>
      )}
      {setup.warnings.map((w) => (
        <p key={w} className="row-note row-note-error" role="alert">
          {w}
        </p>
      ))}
    </section>
  );
}

/** Confirmations for another number, or that could not be read: kept, never matched by themselves. */
export function CallbacksSetAside({ rows }: { rows: SetAsideRow[] }) {
  return (
    <section aria-labelledby="set-aside-title">
      <h2 id="set-aside-title">Callbacks set aside ({rows.length})</h2>
      {rows.length === 0 ? (
        <p className="muted">None: every confirmation received was a payment into this site's numbers.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Why</th>
              <th scope="col">Amount</th>
              <th scope="col">Paid (EAT)</th>
              <th scope="col">Payer</th>
              <th scope="col">Account</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.transId}>
                <td data-label="Code">
                  <code className="payment-ref">{r.transId}</code>
                </td>
                <td data-label="Why">
                  <span className={`pill pill-aside-${r.reason}`}>{SET_ASIDE_LABEL[r.reason]}</span>
                  {r.shortcode ? ` ${r.shortcode}` : ""} {r.note}
                  <details>
                    <summary>As received</summary>
                    <pre className="small">{r.body}</pre>
                  </details>
                </td>
                <td data-label="Amount">{r.amount === null ? "—" : formatAmount(r.amount)}</td>
                <td data-label="Paid">{r.paidAt ? formatNairobiTime(r.paidAt) : "—"}</td>
                <td data-label="Payer">
                  {r.payerName || "—"} {r.payerPhone ? <span className="muted">{r.payerPhone}</span> : null}
                </td>
                <td data-label="Account">{r.accountRef || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** What a payment stored on doubt sent that was odd, as it came. */
export function OddParts({ parts }: { parts: OddPart[] }) {
  if (parts.length === 0) return null;
  return (
    <details className="odd-parts">
      <summary>Stored on doubt</summary>
      <ul className="small">
        {parts.map((p) => (
          <li key={p.field}>
            {p.field}: <code>{JSON.stringify(p.value)}</code> ({p.note})
          </li>
        ))}
      </ul>
    </details>
  );
}
