import { data, type AppLoadContext } from "react-router";
import {
  countReceivedPayments,
  importStatementDraft,
  listImports,
  listReceivedPayments,
  previewStatement,
  saveStatementDraft,
} from "~/features/received-payments/received-payments.server";
import { likelyOrdersFor, listApprovedThenReversed, listPaymentMismatches } from "~/features/reconciliation/matching.server";
import {
  PAYMENTS_PATH,
  type LikelyOrders,
  type PaymentsResult,
  type ReceiptActionResult,
  type ReceiptIntent,
} from "~/features/reconciliation/payments-screen";
import { statementSource } from "~/features/received-payments/statement-file.server";
import { linkPaymentToOrder, markOrderCodeWrong, unlinkPaymentFromOrder, type ReceiptActionOutcome } from "~/features/reconciliation/receipt-links.server";
import { OrderCodeSchema, ReceiptLinkSchema } from "~/features/reconciliation/receipt-links.schema";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { accountClashes, linkByAccount } from "~/features/reconciliation/receipts.server";
import { paymentDetail, PAYMENT_STATE_LABEL } from "~/features/received-payments/payment-state";
import { callbackRegistration, listCallbacksSetAside } from "~/features/received-payments/c2b-callbacks.server";
import { getEvent } from "~/features/event-badges/event.server";
import { salesOpenInstant } from "~/features/event-badges/event";
import { env } from "~/lib/server/env.server";
import { paymentArrivals } from "~/features/received-payments/payment-arrivals.server";
import { unknownPrompts } from "~/features/stk-push/stk-push.server";
import type { Reply } from "~/lib/core/forms";
import { requireStaff } from "~/features/admin/staff-auth.server";
import type { Actor } from "~/lib/core/actor";
import type { Submission } from "~/lib/core/forms";
import { httpErrorOf } from "~/lib/http/http.server";
import { intentOf, parseSubmission, readForm, replyFromError, submissionOf } from "~/lib/forms/submission.server";

/** A statement of tens of thousands of rows is a few MB. */
const MAX_BYTES = 8 * 1024 * 1024;

export async function loadPaymentsScreen(context: AppLoadContext) {
  const db = context.db;
  const [counts, unclaimed, received, mismatches, imports, setAside, reversedApprovals, event, arrivals, unsettled, clashes] = await Promise.all([
    countReceivedPayments(db),
    listReceivedPayments(db, { unclaimed: true, limit: 100 }),
    listReceivedPayments(db, { limit: 100 }),
    listPaymentMismatches(db),
    listImports(db, 20),
    listCallbacksSetAside(db, 100),
    listApprovedThenReversed(db),
    getEvent(db),
    paymentArrivals(db),
    unknownPrompts(db, 100),
    accountClashes(db),
  ]);
  const likely: LikelyOrders = Object.fromEntries(await likelyOrdersFor(db, unclaimed.map((p) => ({ code: p.code, amount: p.amount, paidAt: p.paidAt }))));
  return {
    counts,
    unclaimed,
    likely,
    received,
    mismatches,
    imports,
    callbacksOn: !!env().mpesaCallbackSecret,
    shortcode: env().mpesaShortcode,
    autoApprove: env().autoApproveVerified,
    callbacks: callbackRegistration(),
    setAside,
    reversedApprovals,
    // Why a verified payment is listed as a mismatch: when the badge sales opened.
    salesOpenedAt: salesOpenInstant(event) ?? env().eventSalesOpen,
    arrivals,
    unsettled,
    clashes,
  };
}

const reply = (body: Reply<PaymentsResult>, status: number) => data(body, status);

/**
 * /admin/payments: 'Preview' reads an uploaded (or pasted) statement and keeps it as a draft;
 * 'Import' imports that draft once. A malformed file is a 400 naming its line; nothing is kept.
 * 'Link', 'Unlink' and 'Code wrong' act on one receipt and one order; a receipt another order
 * holds is refused with a sentence saying which.
 */
export async function paymentsAction(request: Request, context: AppLoadContext) {
  const actor = await requireStaff(request, context, PAYMENTS_PATH);
  let submission: Submission;
  try {
    submission = submissionOf(await readForm(request, MAX_BYTES + 64 * 1024));
  } catch (e) {
    return replyFromError<PaymentsResult>(e, {}, { asMessage: true });
  }
  const intent = intentOf(submission);
  switch (intent) {
    case "preview":
    case "import":
      try {
        return intent === "preview" ? await previewStatementAction(context, submission) : await importDraftAction(context, submission, actor);
      } catch (e) {
        const refused = httpErrorOf(e);
        if (refused && refused.status < 500) return reply({ status: "error", message: refused.message }, refused.status);
        console.error(`[payments] ${intent} failed`, e);
        return reply({ status: "error", message: "The statement could not be read. Nothing was imported." }, 500);
      }
    case "link":
    case "unlink":
    case "code-wrong":
      return receiptAction(context, submission, actor, intent);
    default:
      return reply({ status: "error", message: "Unknown action." }, 400);
  }
}

/** 'Preview': an uploaded (or pasted) statement, read and kept as a draft. */
async function previewStatementAction(context: AppLoadContext, submission: Submission) {
  const db = context.db;
  const file = submission.form?.get("statement");
  const pasted = String(submission.form?.get("pasted") ?? "");
  const fromFile = file instanceof File && file.size > 0;
  if (fromFile && file.size > MAX_BYTES) return reply({ status: "error", message: "That file is larger than 8 MB." }, 413);
  // CSV or .xlsx, told apart by the file's first bytes.
  const source = fromFile ? statementSource(new Uint8Array(await file.arrayBuffer())) : pasted;
  if (typeof source === "string" && !source.trim()) {
    return reply({ status: "error", message: "Choose the statement file (CSV or .xlsx) exported from the M-PESA portal, or paste it." }, 400);
  }
  const fileName = fromFile ? file.name.slice(0, 200) : "pasted text";
  const preview = await previewStatement(db, source, env().mpesaShortcodes);
  const draftId = await saveStatementDraft(db, source, fileName);
  return reply({ status: "success", message: "Check the preview, then import.", result: { step: "preview", draftId, fileName, preview } }, 200);
}

/** 'Import': that draft, once. */
async function importDraftAction(context: AppLoadContext, submission: Submission, actor: Actor) {
  const db = context.db;
  const draftId = String(submission.form?.get("draft") ?? "").slice(0, 40);
  const done = await importStatementDraft(db, draftId, env().mpesaShortcodes, actor);
  // Orders the statement paid by their reference as the account number count as matched too.
  const byAccount = await linkByAccount(db);
  afterPayments();
  return reply(
    {
      status: "success",
      message: `Imported: ${done.added} new payments, ${done.known} already known, ${done.skipped.length} skipped; ${done.matched + byAccount.length} orders matched.${
        done.reversals.length ? ` ${done.reversals.length} reversal${done.reversals.length === 1 ? "" : "s"} recorded.` : ""
      }`,
      result: { step: "imported", preview: done },
    },
    200,
  );
}

/** What a form about one receipt and one order says it did. */
const DONE: Record<ReceiptIntent, (o: ReceiptActionOutcome) => string> = {
  link: (o) => (o.already ? `Payment ${o.transId} was already linked to ${o.orderId}.` : `Payment ${o.transId} linked to ${o.orderId}.`),
  unlink: (o) => `Payment ${o.transId} unlinked from ${o.orderId}.`,
  "code-wrong": (o) => `Code ${o.transId} of ${o.orderId} marked wrong; the supporter is emailed what to do.`,
};
const STEP: Record<ReceiptIntent, ReceiptActionResult["step"]> = { link: "linked", unlink: "unlinked", "code-wrong": "code-wrong" };

/** The answer: what was done, then the order's payment in the words of its row ('BO-… now: Payment verified (KES 1,300 received).'). */
function receiptReply(intent: ReceiptIntent, o: ReceiptActionOutcome) {
  const detail = paymentDetail(o.payment, o.amount);
  const now = `${o.orderId} now: ${PAYMENT_STATE_LABEL[o.payment.state]}${detail ? ` (${detail})` : ""}.`;
  const result: ReceiptActionResult = { step: STEP[intent], orderId: o.orderId, transId: o.transId, payment: o.payment };
  return reply({ intent, status: "success", message: `${DONE[intent](o)} ${now}`, result }, 200);
}

/** What was typed, so a refused form keeps it (without JavaScript the page is drawn again). */
const typed = (fields: Record<string, unknown>) =>
  Object.fromEntries(["transId", "orderId"].flatMap((k) => (typeof fields[k] === "string" ? [[k, (fields[k] as string).slice(0, 40)]] : [])));

/**
 * 'Link', 'Unlink', 'Code wrong': one receipt and one order. Refusals carry their intent, so the
 * screen shows them beside the staff actions, and what was typed.
 */
async function receiptAction(context: AppLoadContext, submission: Submission, actor: Actor, intent: ReceiptIntent) {
  const db = context.db;
  const values = typed(submission.fields);
  const invalid = (parsed: { first: string | undefined }) => reply({ intent, status: "error", message: parsed.first ?? "Check the form.", values }, 400);
  try {
    switch (intent) {
      case "link": {
        const parsed = parseSubmission(submission, ReceiptLinkSchema, "fields");
        if (!parsed.ok) return invalid(parsed);
        return receiptReply(intent, await linkPaymentToOrder(db, parsed.value, actor));
      }
      case "unlink": {
        const parsed = parseSubmission(submission, ReceiptLinkSchema, "fields");
        if (!parsed.ok) return invalid(parsed);
        return receiptReply(intent, await unlinkPaymentFromOrder(db, parsed.value, actor));
      }
      case "code-wrong": {
        const parsed = parseSubmission(submission, OrderCodeSchema, "fields");
        if (!parsed.ok) return invalid(parsed);
        return receiptReply(intent, await markOrderCodeWrong(db, parsed.value, actor));
      }
    }
  } catch (e) {
    const refused = httpErrorOf(e);
    if (refused && refused.status < 500) return reply({ intent, status: "error", message: refused.message, values }, refused.status);
    console.error(`[payments] ${intent} failed`, e);
    return reply({ intent, status: "error", message: "That could not be saved. Nothing was changed; try again." }, 500);
  }
}
