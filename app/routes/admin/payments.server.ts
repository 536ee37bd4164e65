import { data, type AppLoadContext } from "react-router";
import {
  countReceivedPayments,
  importStatementDraft,
  listImports,
  listReceivedPayments,
  previewStatement,
  saveStatementDraft,
} from "~/features/received-payments/received-payments.server";
import { listApprovedThenReversed, listPaymentMismatches } from "~/features/reconciliation/matching.server";
import { statementSource } from "~/features/received-payments/statement-file.server";
import { PAYMENTS_PATH, type StatementResult } from "~/features/reconciliation/payments-screen";
import { callbackRegistration, listCallbacksSetAside } from "~/features/received-payments/c2b-callbacks.server";
import { getEvent } from "~/features/event-badges/event.server";
import { salesOpenInstant } from "~/features/event-badges/event";
import { env } from "~/lib/env.server";
import type { Reply } from "~/lib/forms";
import { staffAction, staffIntent } from "~/lib/submission.server";

/** A statement of tens of thousands of rows is a few MB. */
const MAX_BYTES = 8 * 1024 * 1024;

export async function loadPaymentsScreen(context: AppLoadContext) {
  const db = context.db;
  const [counts, unclaimed, received, mismatches, imports, setAside, reversedApprovals, event] = await Promise.all([
    countReceivedPayments(db),
    listReceivedPayments(db, { unclaimed: true, limit: 100 }),
    listReceivedPayments(db, { limit: 100 }),
    listPaymentMismatches(db),
    listImports(db, 20),
    listCallbacksSetAside(db, 100),
    listApprovedThenReversed(db),
    getEvent(db),
  ]);
  return {
    counts,
    unclaimed,
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
  };
}

const reply = (body: Reply<StatementResult>, status: number) => data(body, status);

/** 'Preview': an uploaded (or pasted) statement, read and kept as a draft. */
const preview = staffIntent<StatementResult>({
  run: async (_, { submission, db }) => {
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
  },
});

/** 'Import': that draft, once. */
const importDraft = staffIntent<StatementResult>({
  run: async (_, { submission, db, actor }) => {
    const draftId = String(submission.form?.get("draft") ?? "").slice(0, 40);
    const done = await importStatementDraft(db, draftId, env().mpesaShortcodes, actor);
    return reply(
      {
        status: "success",
        message: `Imported: ${done.added} new payments, ${done.known} already known, ${done.skipped.length} skipped; ${done.matched} orders matched.${
          done.reversals.length ? ` ${done.reversals.length} reversal${done.reversals.length === 1 ? "" : "s"} recorded.` : ""
        }`,
        result: { step: "imported", preview: done },
      },
      200,
    );
  },
});

/**
 * /admin/payments: 'Preview' reads an uploaded (or pasted) statement and keeps it as a draft;
 * 'Import' imports that draft once. A malformed file is a 400 naming its line; nothing is kept.
 */
export function paymentsAction(request: Request, context: AppLoadContext) {
  return staffAction<StatementResult>(request, context, {
    name: "payments",
    session: { returnTo: PAYMENTS_PATH },
    maxBytes: MAX_BYTES + 64 * 1024,
    intents: { preview, import: importDraft },
    unreadable: (message) => ({ status: "error", message }),
    refused: (e) => (e.status < 500 ? { status: "error", message: e.message } : null),
    failed: () => ({ status: "error", message: "The statement could not be read. Nothing was imported." }),
  });
}
