import { Form } from "react-router";
import { ORDER_KINDS, type OrderKind } from "~/features/orders/order-kinds";
import type { Reply } from "~/lib/core/forms";
import { formatDateInWords, formatNairobiTime } from "~/lib/core/nairobi-time";
import type { ReceivedPaymentRow } from "../../received-payments/received-payments";
import { MATCHED_BY_LABEL, paymentDetail, PAYMENT_STATE_LABEL } from "../../received-payments/payment-state";
import { PAYMENTS_PATH, SKIP_REASON_LIMIT, type LikelyOrders, type PaymentMismatch, type PaymentsResult, type ReversedApproval, type StatementResult } from "../payments-screen";
import { CodeWrongButton, LinkButton, LinkPaymentForm, ReceiptActions, ReceiptReply, receiptReply, UnlinkButton } from "./receipt-forms";
import type { CallbackRegistration, SetAsideRow } from "../../received-payments/c2b-callbacks";
import { CallbacksSetAside, CallbackSetup, OddParts } from "../../received-payments/components/callback-setup";
import { formatAmount } from "~/lib/core/plain-format";
import type { PaymentArrivals } from "../../received-payments/payment-arrivals";
import { PaymentArrivalsBox } from "../../received-payments/components/payment-arrivals";
import type { UnsettledPrompt } from "../../stk-push/stk-push";
import type { AccountClash } from "../payments-screen";

type Data = {
  counts: { all: number; unclaimed: number };
  unclaimed: ReceivedPaymentRow[];
  /** The orders each unclaimed payment is probably for. */
  likely: LikelyOrders;
  received: ReceivedPaymentRow[];
  mismatches: PaymentMismatch[];
  imports: {
    id: number;
    imported_at: string;
    rows: number;
    added: number;
    known: number;
    skipped: number;
    covers_from: string | null;
    covers_to: string | null;
    shortcode: string;
    period_source: string;
  }[];
  reversedApprovals: ReversedApproval[];
  callbacksOn: boolean;
  shortcode: string;
  autoApprove: boolean;
  callbacks: CallbackRegistration;
  setAside: SetAsideRow[];
  salesOpenedAt: string | null;
  /** When the last callbacks and statement import arrived. */
  arrivals?: PaymentArrivals;
  /** Prompts M-Pesa has not settled: the site does not know whether money was taken. */
  unsettled?: UnsettledPrompt[];
  /** Payments held by one order's typed code whose account number names another order. */
  clashes?: AccountClash[];
};

const STATEMENT_ANCHOR = "statement-preview";

/** Why an order whose payment is verified is among the mismatches: it was paid before sales opened. */
export function beforeSalesWhy(paidAt: string | null, salesOpenedAt: string | null) {
  const paid = paidAt ? ` on ${formatNairobiTime(paidAt)}` : "";
  const opened = salesOpenedAt ? ` on ${formatDateInWords(salesOpenedAt)}` : "";
  return `M-Pesa shows this payment made${paid}, before badge sales opened${opened}: a code from an earlier payment may have been reused. Check it is for this order before approving.`;
}

/** 'Nothing new: …' or the import button's words, for a statement's preview. */
export function importWords(preview: Pick<StatementResult["preview"], "added" | "known" | "rows">) {
  if (preview.added > 0) return { button: `Import ${preview.added} new ${preview.added === 1 ? "payment" : "payments"}` };
  if (preview.known > 0) {
    const all = preview.known === 1 ? "the 1 payment" : `all ${preview.known} payments`;
    return { nothing: `Nothing new: ${all} in this file ${preview.known === 1 ? "is" : "are"} already recorded.` };
  }
  return { nothing: "Nothing to import: no completed payment to this paybill could be read in this file." };
}
const orderHref = (o: { kind: OrderKind; id: string }) => ORDER_KINDS[o.kind].staffLink(o.id);

/**
 * /admin/payments: the statement import (preview, then import), the orders whose payment does
 * not match, the payments no order claims (with the payer's name and number as M-Pesa sent it,
 * so staff can reach them, and the order each is probably for), every received payment with the
 * order that holds it, the forms that link and unlink them, and past imports. Plain forms: it
 * works without JavaScript.
 */
export function PaymentsScreen({
  data: d,
  reply,
  busy,
}: {
  data: Data;
  reply: Reply<PaymentsResult> | undefined;
  busy: boolean;
}) {
  const receipts = receiptReply(reply);
  const statementReply = receipts ? undefined : (reply as Reply<StatementResult> | undefined);
  const result = statementReply?.status === "success" ? statementReply.result : undefined;
  return (
    <div className="payments-screen">
      <ReversedApprovals rows={d.reversedApprovals} />
      <p className="muted">
        {d.callbacks.shortcodes.length > 1 ? "Numbers" : "Paybill"} {d.callbacks.shortcodes.join(", ")} · {d.counts.all} payments received · {d.counts.unclaimed} unclaimed · Daraja callbacks{" "}
        {d.callbacksOn ? "on" : "off (set MPESA_CALLBACK_SECRET)"} · automatic approval of verified orders {d.autoApprove ? "on" : "off"}
      </p>
      {d.arrivals ? <PaymentArrivalsBox arrivals={d.arrivals} /> : null}
      <ReceiptReply reply={receipts} />

      <section aria-labelledby="import-title" className="form-card">
        <h2 id="import-title">Import a statement</h2>
        <p className="small">
          From the M-PESA business portal, export the paybill statement (CSV or Excel .xlsx) and choose it here. You see what
          it holds before anything is saved; importing the same or an overlapping statement again adds nothing twice. Only a
          statement whose title states its period and one of this site's numbers can show that a payment is missing.
        </p>
        {/* Without JavaScript an answer reloads the page: it opens here, at the preview. */}
        <div id={STATEMENT_ANCHOR} className="statement-answer">
          {statementReply ? (
            <p className={`row-note row-note-${statementReply.status}`} role={statementReply.status === "error" ? "alert" : "status"}>
              {statementReply.message}
            </p>
          ) : null}
          {result?.step === "preview" && result.draftId ? (
            <div className="statement-preview" aria-labelledby="preview-title">
              <h3 id="preview-title">Preview of {result.fileName}</h3>
              <Counts preview={result.preview} />
              <PreviewActions preview={result.preview} draftId={result.draftId} busy={busy} />
            </div>
          ) : null}
          {result?.step === "imported" ? <Counts preview={result.preview} /> : null}
        </div>
        <Form method="post" action={`${PAYMENTS_PATH}#${STATEMENT_ANCHOR}`} encType="multipart/form-data">
          <div className="field">
            <label htmlFor="statement-file">Statement file (CSV)</label>
            <input
              id="statement-file"
              type="file"
              name="statement"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-describedby="statement-file-hint"
            />
            <p id="statement-file-hint" className="small muted">
              An Excel .xlsx export works too.
            </p>
          </div>
          <details>
            <summary>Or paste the statement</summary>
            <label htmlFor="statement-text" className="visually-hidden">
              Statement text
            </label>
            <textarea id="statement-text" name="pasted" rows={5} />
          </details>
          <button type="submit" name="intent" value="preview" className="button-small" disabled={busy}>
            {busy ? "Reading…" : "Preview"}
          </button>
        </Form>
      </section>

      <section aria-labelledby="mismatch-title">
        <h2 id="mismatch-title">Orders whose payment does not match ({d.mismatches.length})</h2>
        {d.mismatches.length === 0 ? (
          <p className="muted">None: every pending order is verified or still waiting for its payment.</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Code</th>
                <th scope="col">Payment</th>
                <th scope="col">Placed (EAT)</th>
              </tr>
            </thead>
            <tbody>
              {d.mismatches.map((m) => (
                <tr key={m.id}>
                  <td data-label="Order">
                    <a href={orderHref(m)}>{m.id}</a> · {m.name} · {formatAmount(m.amount)}
                  </td>
                  <td data-label="Code">
                    <code className="payment-ref">{m.code}</code>
                  </td>
                  <td data-label="Payment">
                    <div>
                      <span className={`pill pill-pay-${m.payment.state}`}>{PAYMENT_STATE_LABEL[m.payment.state]}</span>{" "}
                      {paymentDetail(m.payment, m.amount)}
                      {m.payment.beforeSales ? (
                        <span className="mismatch-why">
                          <strong>Listed because it was paid before sales opened.</strong> {beforeSalesWhy(m.payment.receivedAt, d.salesOpenedAt)}
                        </span>
                      ) : null}
                      {m.payment.codeWrong ? " Code marked wrong: the supporter was emailed." : ""}
                      {m.payment.receipts.map((r) => (
                        <span className="order-line small" key={r.transId}>
                          <code>{r.transId}</code> {formatAmount(r.amount)} ({MATCHED_BY_LABEL[r.matchedBy]}) <UnlinkButton transId={r.transId} orderId={m.id} busy={busy} />
                        </span>
                      ))}
                      {m.payment.suggestions?.map((s) => (
                        <span className="order-line small payment-suggestion" key={s.transId}>
                          Probably this order: <code>{s.transId}</code>, {formatAmount(s.amount)}, {formatNairobiTime(s.at)}
                          {s.payerName ? ` by ${s.payerName}` : ""}
                          <LinkButton transId={s.transId} orderId={m.id} busy={busy} />
                        </span>
                      ))}
                      {!m.payment.codeWrong && !m.payment.receipts.some((r) => r.matchedBy === "code") ? (
                        <CodeWrongButton orderId={m.id} code={m.code} busy={busy} />
                      ) : null}
                    </div>
                  </td>
                  <td data-label="Placed">{formatNairobiTime(m.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <PaymentTable
        id="unclaimed"
        title={`Unclaimed payments (${d.counts.unclaimed})`}
        rows={d.unclaimed}
        empty="None: every payment received is claimed by an order."
        likely={d.likely}
        busy={busy}
      />
      <ReceiptActions reply={receipts} busy={busy} />
      <PaymentTable id="received" title="Payments received (newest 100)" rows={d.received} empty="No payments received yet." busy={busy} />
      <CallbacksSetAside rows={d.setAside} />
      <UnsettledPrompts rows={d.unsettled ?? []} />
      <AccountClashes rows={d.clashes ?? []} />
      <CallbackSetup setup={d.callbacks} />

      <section aria-labelledby="imports-title">
        <h2 id="imports-title">Past imports</h2>
        {d.imports.length === 0 ? (
          <p className="muted">No statement imported yet.</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Imported (EAT)</th>
                <th scope="col">Short code</th>
                <th scope="col">Covers</th>
                <th scope="col">Rows</th>
                <th scope="col">New</th>
                <th scope="col">Known</th>
                <th scope="col">Skipped</th>
              </tr>
            </thead>
            <tbody>
              {d.imports.map((i) => (
                <tr key={i.id}>
                  <td data-label="Imported">{formatNairobiTime(i.imported_at)}</td>
                  <td data-label="Short code">{i.shortcode || "not stated"}</td>
                  <td data-label="Covers">{importCovers(i)}</td>
                  <td data-label="Rows">{i.rows}</td>
                  <td data-label="New">{i.added}</td>
                  <td data-label="Known">{i.known}</td>
                  <td data-label="Skipped">{i.skipped}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

const PERIOD_FROM: Record<string, string> = { time_period: "its Time Period line", from_to: "its From and To lines" };

/** What a past import covers: its stated period, or why it covers none. */
function importCovers(i: Data["imports"][number]): string {
  if (i.period_source === "payment_rows") return "not counted (imported before statements were read by their stated period)";
  if (!i.covers_from || !i.covers_to || !PERIOD_FROM[i.period_source]) return "nothing (no period stated)";
  return `${formatNairobiTime(i.covers_from)} to ${formatNairobiTime(i.covers_to)} (${PERIOD_FROM[i.period_source]})`;
}

/** The import button, or (a file whose payments are all recorded) the sentence saying so. */
function PreviewActions({ preview, draftId, busy }: { preview: StatementResult["preview"]; draftId: string; busy: boolean }) {
  const words = importWords(preview);
  return (
    <Form method="post" action={`${PAYMENTS_PATH}#${STATEMENT_ANCHOR}`} className="preview-actions">
      <input type="hidden" name="draft" value={draftId} />
      {words.button ? (
        <button type="submit" name="intent" value="import" className="button-small button-approve" disabled={busy}>
          {words.button}
        </button>
      ) : (
        <p className="preview-nothing">{words.nothing}</p>
      )}{" "}
      <a href={PAYMENTS_PATH} className="button button-small button-ghost">
        {words.button ? "Cancel" : "Close"}
      </a>
    </Form>
  );
}

/** A payer's number as M-Pesa sent it: a full one a link to call, a masked or hashed one as it is. */
export function PayerPhone({ phone }: { phone: string }) {
  const digits = phone.replace(/[\s-]/g, "");
  return /^\+?\d{9,15}$/.test(digits) ? (
    <a className="payer-phone" href={`tel:${digits.startsWith("+") || !digits.startsWith("254") ? digits : `+${digits}`}`}>
      {phone}
    </a>
  ) : (
    <span className="payer-phone muted">{phone}</span>
  );
}

function Counts({ preview }: { preview: StatementResult["preview"] }) {
  return (
    <>
      <ul className="statement-counts">
        <li>Short code: {preview.shortcode ?? "not stated"}</li>
        <li>
          Period:{" "}
          {preview.coversFrom && preview.coversTo && preview.periodSource
            ? `${formatNairobiTime(preview.coversFrom)} to ${formatNairobiTime(preview.coversTo)} EAT, from ${PERIOD_FROM[preview.periodSource]}`
            : "none"}
          {preview.periodNote ? <span className="order-line small">{preview.periodNote}</span> : null}
        </li>
        <li>Rows read: {preview.rows}</li>
        <li>New payments: {preview.added}</li>
        <li>Already known: {preview.known}</li>
        <li>Skipped: {preview.skipped.length}</li>
        <li>Reversals: {preview.reversals.length}</li>
        <li>Orders matched by the new payments: {preview.matched}</li>
        {preview.dateOrders.map((o) => (
          <li key={o.style}>
            Dates written with '{o.style}' read {o.order}, as line {o.line} ('{o.text}') shows.
          </li>
        ))}
      </ul>
      {preview.reversals.length > 0 ? (
        <div>
          <h4>Reversals found</h4>
          <ul className="small">
            {preview.reversals.slice(0, SKIP_REASON_LIMIT).map((r) => (
              <li key={r.code}>
                Line {r.line}: {r.code} took back {formatAmount(r.amount)} of payment {r.original} on {formatNairobiTime(r.at)} EAT
                {r.originalKnown ? "" : " (that payment is not known yet: it is marked reversed when it arrives)"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview.skipped.length > 0 ? (
        <details>
          <summary>Why rows were skipped</summary>
          <ul className="small">
            {preview.skipped.slice(0, SKIP_REASON_LIMIT).map((s) => (
              <li key={`${s.line}-${s.code}`}>
                Line {s.line}
                {s.code ? ` (${s.code})` : ""}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

function PaymentTable({
  id,
  title,
  rows,
  empty,
  likely,
  busy,
}: {
  id: string;
  title: string;
  rows: ReceivedPaymentRow[];
  empty: string;
  /** The unclaimed list: the orders each payment is probably for, and a form to link it. */
  likely?: LikelyOrders;
  busy: boolean;
}) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Amount</th>
              <th scope="col">Paid (EAT)</th>
              <th scope="col">Payer</th>
              <th scope="col">Account</th>
              <th scope="col">Order</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.code}>
                <td data-label="Code">
                  <code className="payment-ref">{p.code}</code>
                  {p.reversed ? (
                    <span className="order-line small payment-flag">
                      Reversed by M-Pesa ({p.reversed.by}) on {formatNairobiTime(p.reversed.at)}
                    </span>
                  ) : null}
                  <OddParts parts={p.oddParts} />
                </td>
                <td data-label="Amount">{formatAmount(p.amount)}</td>
                <td data-label="Paid">{formatNairobiTime(p.paidAt)}</td>
                <td data-label="Payer">
                  {p.payerName || "—"} {p.payerPhone ? <PayerPhone phone={p.payerPhone} /> : null}
                </td>
                <td data-label="Account">{p.accountRef || "—"}</td>
                <td data-label="Order">
                  {p.order ? (
                    <div>
                      <a href={orderHref(p.order)}>{p.order.id}</a> <span className="small muted">({MATCHED_BY_LABEL[p.order.matchedBy]})</span>
                      <UnlinkButton transId={p.code} orderId={p.order.id} busy={busy} />
                    </div>
                  ) : likely ? (
                    <LinkPaymentForm transId={p.code} likely={likely[p.code] ?? []} busy={busy} />
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** First on the screen: approved orders whose payment M-Pesa then took back. */
function ReversedApprovals({ rows }: { rows: ReversedApproval[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="reversed-title" className="statement-preview">
      <h2 id="reversed-title">Approved, then reversed by M-Pesa ({rows.length})</h2>
      <p className="small">
        These orders were approved, then M-Pesa gave the money back to the payer. Contact the supporter before the kit or the
        goods are used.
      </p>
      <ul>
        {rows.map((r) => (
          <li key={`${r.kind}-${r.id}`}>
            Approved, then reversed by M-Pesa: <a href={orderHref(r)}>{r.id}</a> · {r.name} · {formatAmount(r.amount)} · code{" "}
            <code className="payment-ref">{r.code}</code> ({formatAmount(r.received)}) reversed by {r.reversedBy} on {formatNairobiTime(r.reversedAt)} EAT
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Prompts whose end the site does not know (no answer from M-Pesa to the push, the callback or any
 * query): the payer may have paid. Staff check the phone's M-Pesa messages with the supporter, or
 * the next statement, and link the payment under 'Unclaimed payments'.
 */
function UnsettledPrompts({ rows }: { rows: UnsettledPrompt[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="unsettled-title">
      <h2 id="unsettled-title">Prompts M-Pesa has not settled ({rows.length})</h2>
      <p className="small muted">
        The site does not know whether these payers entered their PIN. A payment that arrives by callback or statement is matched by
        itself; otherwise ask the supporter for the M-Pesa message and link it.
      </p>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Amount</th>
            <th scope="col">Phone</th>
            <th scope="col">Prompt sent (EAT)</th>
            <th scope="col">Last word</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.kind}-${r.orderId}-${r.sentAt}`}>
              <td data-label="Order">
                <a href={orderHref({ kind: r.kind, id: r.orderId })}>{r.orderId}</a>
              </td>
              <td data-label="Amount">{formatAmount(r.amount)}</td>
              <td data-label="Phone">{r.phone}</td>
              <td data-label="Prompt sent">{formatNairobiTime(r.sentAt)}</td>
              <td data-label="Last word">
                {r.note || "No answer from M-Pesa"} ({r.queries} {r.queries === 1 ? "query" : "queries"})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A payment one order holds by its typed code while its account number names another order. */
function AccountClashes({ rows }: { rows: AccountClash[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="clashes-title">
      <h2 id="clashes-title">Payments naming another order ({rows.length})</h2>
      <p className="small muted">
        Each is held by the order whose typed code it is, but its account number names another order. Check with the supporters; if it
        is the other order's, unlink it there and link it here.
      </p>
      <ul>
        {rows.map((c) => (
          <li key={c.transId}>
            <code className="payment-ref">{c.transId}</code> · {formatAmount(c.amount)} · {formatNairobiTime(c.paidAt)}: held by{" "}
            <a href={orderHref(c.heldBy)}>{c.heldBy.id}</a> (typed code), account number names <a href={orderHref(c.named)}>{c.named.id}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
