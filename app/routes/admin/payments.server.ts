import { data, type AppLoadContext } from "react-router";
import {
  countReceivedPayments,
  importStatementDraft,
  listImports,
  listReceivedPayments,
  previewStatement,
  saveStatementDraft,
} from "~/features/received-payments/received-payments.server";
import { listPaymentMismatches } from "~/features/reconciliation/matching.server";
import { PAYMENTS_PATH, type StatementResult } from "~/features/reconciliation/payments-screen";
import { staff } from "~/lib/actor";
import { requireAdminSession } from "~/lib/admin.server";
import { env } from "~/lib/env.server";
import type { Reply } from "~/lib/forms";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";

/** A statement of tens of thousands of rows is a few MB. */
const MAX_BYTES = 8 * 1024 * 1024;

export async function loadPaymentsScreen(context: AppLoadContext) {
  const db = context.db;
  const [counts, unclaimed, received, mismatches, imports] = await Promise.all([
    countReceivedPayments(db),
    listReceivedPayments(db, { unclaimed: true, limit: 100 }),
    listReceivedPayments(db, { limit: 100 }),
    listPaymentMismatches(db),
    listImports(db, 20),
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
  };
}

const reply = (body: Reply<StatementResult>, status: number) => data(body, status);

/**
 * /admin/payments: 'Preview' reads an uploaded (or pasted) statement and keeps it as a draft;
 * 'Import' imports that draft once. A malformed file is a 400 naming its line; nothing is kept.
 */
export async function paymentsAction(request: Request, context: AppLoadContext) {
  await requireAdminSession(request, PAYMENTS_PATH);
  let form: FormData;
  try {
    form = await readForm(request, MAX_BYTES + 64 * 1024);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return reply({ status: "error", message: http.message }, http.status);
    throw e;
  }
  const db = context.db;
  const shortcode = env().mpesaShortcode;
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "preview") {
      const file = form.get("statement");
      const pasted = String(form.get("pasted") ?? "");
      const fromFile = file instanceof File && file.size > 0;
      if (fromFile && file.size > MAX_BYTES) return reply({ status: "error", message: "That file is larger than 8 MB." }, 413);
      const csv = fromFile ? await file.text() : pasted;
      if (!csv.trim()) return reply({ status: "error", message: "Choose the statement file (CSV) exported from the M-PESA portal, or paste it." }, 400);
      const fileName = fromFile ? file.name.slice(0, 200) : "pasted text";
      const preview = await previewStatement(db, csv, shortcode);
      const draftId = await saveStatementDraft(db, csv, fileName);
      return reply({ status: "success", message: "Check the preview, then import.", result: { step: "preview", draftId, fileName, preview } }, 200);
    }
    if (intent === "import") {
      const draftId = String(form.get("draft") ?? "").slice(0, 40);
      const done = await importStatementDraft(db, draftId, shortcode, staff(clientAddress(context)));
      return reply(
        {
          status: "success",
          message: `Imported: ${done.added} new payments, ${done.known} already known, ${done.skipped.length} skipped; ${done.matched} orders matched.`,
          result: { step: "imported", preview: done },
        },
        200,
      );
    }
    return reply({ status: "error", message: "Unknown action." }, 400);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http && http.status < 500) return reply({ status: "error", message: http.message }, http.status);
    console.error(`[payments] ${intent} failed`, e);
    return reply({ status: "error", message: "The statement could not be read. Nothing was imported." }, 500);
  }
}
